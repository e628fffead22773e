package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * UPDATE STATISTICS and the view SYSTEM.STATS, embedded (in memory) and against a server (whose
 * databases are durable): chunk counts follow GUIDE_POSTS_WIDTH, counts are exact after an update,
 * and the view answers SQL like a table.
 */
class TestStatisticsSql {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("stats");

  @BeforeEach
  void autoCommit() throws SQLException {
    db.connection().setAutoCommit(true);
  }

  private void load(String table, int rows) throws SQLException {
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      values.append(i == 0 ? "" : ", ").append('(').append(i).append(", 'v").append(i).append("')");
    }
    db.update("UPSERT INTO " + table + " VALUES " + values);
  }

  @Test
  void updateStatisticsCutsChunksAtTheGuidePostWidth() throws SQLException {
    db.update("CREATE TABLE T (K INTEGER PRIMARY KEY, V VARCHAR(20)) GUIDE_POSTS_WIDTH=1");
    load("T", 40);
    assertThat(db.update("UPDATE STATISTICS T")).as("one chunk per row").isEqualTo(40);
    assertThat(
            db.rows(
                "SELECT COUNT(*), SUM(ROW_COUNT), MIN(ROW_COUNT), MAX(GUIDE_POSTS_WIDTH)"
                    + " FROM SYSTEM.STATS WHERE TABLE_SCHEM = 'PUBLIC' AND TABLE_NAME = 'T'"))
        .containsExactly("40,40,1,1");

    long rowBytes =
        Long.parseLong(
            db.rows("SELECT MIN(BYTE_COUNT) FROM SYSTEM.STATS WHERE TABLE_NAME = 'T'").get(0));
    db.update("ALTER TABLE T SET GUIDE_POSTS_WIDTH=" + 10 * rowBytes);
    assertThat(db.update("UPDATE STATISTICS public.t ALL")).isBetween(4, 5);
    assertThat(
            db.rows(
                "SELECT SUM(ROW_COUNT), MAX(GUIDE_POSTS_WIDTH) FROM SYSTEM.STATS"
                    + " WHERE TABLE_NAME = 'T'"))
        .containsExactly(40 + "," + 10 * rowBytes);
    // the chunks cover the key space in order: the first starts and the last stops at ''
    List<String> keys =
        db.rows("SELECT START_KEY, STOP_KEY FROM SYSTEM.STATS WHERE TABLE_NAME = 'T'");
    assertThat(keys.get(0)).startsWith(",");
    assertThat(keys.get(keys.size() - 1)).endsWith(",");
    for (int i = 1; i < keys.size(); i++) {
      assertThat(keys.get(i).split(",")[0]).isEqualTo(keys.get(i - 1).split(",")[1]);
    }
  }

  @Test
  void statsViewShowsEveryTableWithCollectionTimes() throws SQLException {
    db.update("CREATE TABLE A (K INTEGER PRIMARY KEY, V VARCHAR(20))");
    db.update("CREATE TABLE S.B (K INTEGER PRIMARY KEY, V VARCHAR(20))");
    load("A", 25);
    load("S.B", 7);
    Timestamp before = new Timestamp(System.currentTimeMillis() - 1000);
    assertThat(db.update("UPDATE STATISTICS A")).isEqualTo(1);
    db.update("UPDATE STATISTICS S.B");
    assertThat(
            db.rows(
                "SELECT TABLE_SCHEM, TABLE_NAME, SUM(ROW_COUNT), COUNT(*) FROM SYSTEM.STATS"
                    + " WHERE TABLE_SCHEM <> 'SYSTEM' GROUP BY TABLE_SCHEM, TABLE_NAME"
                    + " ORDER BY TABLE_SCHEM, TABLE_NAME"))
        .containsExactly("PUBLIC,A,25,1", "S,B,7,1");
    try (Statement s = db.connection().createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT COLLECTED_AT, REGION_ID, BYTE_COUNT FROM SYSTEM.STATS"
                    + " WHERE TABLE_NAME = 'A'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getTimestamp(1)).isAfter(before);
      assertThat(rs.getLong(2)).isPositive();
      assertThat(rs.getLong(3)).isPositive();
    }
    db.update("DROP TABLE A");
    assertThat(db.rows("SELECT COUNT(*) FROM SYSTEM.STATS WHERE TABLE_NAME = 'A'"))
        .containsExactly("0");
  }

  @Test
  void unknownTableIsTableNotFound() {
    SQLException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            SQLException.class, () -> db.update("UPDATE STATISTICS NOPE"));
    assertThat(e.getSQLState()).isEqualTo("42S02");
    assertThat(e.getMessage()).contains("PUBLIC.NOPE");
  }

  @Test
  void updateOfATableNamedStatisticsIsStillAnUpdate() throws SQLException {
    db.update("CREATE TABLE STATISTICS (K INTEGER PRIMARY KEY, V VARCHAR(20))");
    load("STATISTICS", 3);
    assertThat(db.update("UPDATE STATISTICS SET V = 'x' WHERE K > 0")).isEqualTo(2);
    assertThat(db.update("UPDATE STATISTICS STATISTICS")).isEqualTo(1);
    assertThat(db.rows("SELECT SUM(ROW_COUNT) FROM SYSTEM.STATS WHERE TABLE_NAME = 'STATISTICS'"))
        .containsExactly("3");
  }

  @Test
  void explainShowsTheStatement() throws SQLException {
    db.update("CREATE TABLE T (K INTEGER PRIMARY KEY)");
    assertThat(db.rows("EXPLAIN UPDATE STATISTICS T"))
        .containsExactly("UPDATE STATISTICS PUBLIC.T");
  }
}
