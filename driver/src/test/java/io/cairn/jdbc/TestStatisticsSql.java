package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * UPDATE STATISTICS and the view SYSTEM.STATS, embedded (in memory) and against a server (whose
 * databases are durable): chunk counts follow GUIDE_POSTS_WIDTH, counts are exact after an update,
 * and the view answers SQL like a table.
 */
class TestStatisticsSql {
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("stats-" + UUID.randomUUID()));
    connection.setAutoCommit(true);
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private int update(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      return s.executeUpdate(sql);
    }
  }

  private List<String> rows(String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          values.add(String.valueOf(rs.getObject(i)));
        }
        rows.add(String.join(",", values));
      }
    }
    return rows;
  }

  private void load(String table, int rows) throws SQLException {
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      values.append(i == 0 ? "" : ", ").append('(').append(i).append(", 'v").append(i).append("')");
    }
    update("UPSERT INTO " + table + " VALUES " + values);
  }

  @Test
  void updateStatisticsCutsChunksAtTheGuidePostWidth() throws SQLException {
    update("CREATE TABLE T (K INTEGER PRIMARY KEY, V VARCHAR(20)) GUIDE_POSTS_WIDTH=1");
    load("T", 40);
    assertThat(update("UPDATE STATISTICS T")).as("one chunk per row").isEqualTo(40);
    assertThat(
            rows(
                "SELECT COUNT(*), SUM(ROW_COUNT), MIN(ROW_COUNT), MAX(GUIDE_POSTS_WIDTH)"
                    + " FROM SYSTEM.STATS WHERE TABLE_SCHEM = 'PUBLIC' AND TABLE_NAME = 'T'"))
        .containsExactly("40,40,1,1");

    long rowBytes =
        Long.parseLong(
            rows("SELECT MIN(BYTE_COUNT) FROM SYSTEM.STATS WHERE TABLE_NAME = 'T'").get(0));
    update("ALTER TABLE T SET GUIDE_POSTS_WIDTH=" + 10 * rowBytes);
    assertThat(update("UPDATE STATISTICS public.t ALL")).isBetween(4, 5);
    assertThat(
            rows(
                "SELECT SUM(ROW_COUNT), MAX(GUIDE_POSTS_WIDTH) FROM SYSTEM.STATS"
                    + " WHERE TABLE_NAME = 'T'"))
        .containsExactly(40 + "," + 10 * rowBytes);
    // the chunks cover the key space in order: the first starts and the last stops at ''
    List<String> keys = rows("SELECT START_KEY, STOP_KEY FROM SYSTEM.STATS WHERE TABLE_NAME = 'T'");
    assertThat(keys.get(0)).startsWith(",");
    assertThat(keys.get(keys.size() - 1)).endsWith(",");
    for (int i = 1; i < keys.size(); i++) {
      assertThat(keys.get(i).split(",")[0]).isEqualTo(keys.get(i - 1).split(",")[1]);
    }
  }

  @Test
  void statsViewShowsEveryTableWithCollectionTimes() throws SQLException {
    update("CREATE TABLE A (K INTEGER PRIMARY KEY, V VARCHAR(20))");
    update("CREATE TABLE S.B (K INTEGER PRIMARY KEY, V VARCHAR(20))");
    load("A", 25);
    load("S.B", 7);
    Timestamp before = new Timestamp(System.currentTimeMillis() - 1000);
    assertThat(update("UPDATE STATISTICS A")).isEqualTo(1);
    update("UPDATE STATISTICS S.B");
    assertThat(
            rows(
                "SELECT TABLE_SCHEM, TABLE_NAME, SUM(ROW_COUNT), COUNT(*) FROM SYSTEM.STATS"
                    + " WHERE TABLE_SCHEM <> 'SYSTEM' GROUP BY TABLE_SCHEM, TABLE_NAME"
                    + " ORDER BY TABLE_SCHEM, TABLE_NAME"))
        .containsExactly("PUBLIC,A,25,1", "S,B,7,1");
    try (Statement s = connection.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT COLLECTED_AT, REGION_ID, BYTE_COUNT FROM SYSTEM.STATS"
                    + " WHERE TABLE_NAME = 'A'")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getTimestamp(1)).isAfter(before);
      assertThat(rs.getLong(2)).isPositive();
      assertThat(rs.getLong(3)).isPositive();
    }
    update("DROP TABLE A");
    assertThat(rows("SELECT COUNT(*) FROM SYSTEM.STATS WHERE TABLE_NAME = 'A'"))
        .containsExactly("0");
  }

  @Test
  void unknownTableIsTableNotFound() {
    SQLException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            SQLException.class, () -> update("UPDATE STATISTICS NOPE"));
    assertThat(e.getSQLState()).isEqualTo("42S02");
    assertThat(e.getMessage()).contains("PUBLIC.NOPE");
  }

  @Test
  void updateOfATableNamedStatisticsIsStillAnUpdate() throws SQLException {
    update("CREATE TABLE STATISTICS (K INTEGER PRIMARY KEY, V VARCHAR(20))");
    load("STATISTICS", 3);
    assertThat(update("UPDATE STATISTICS SET V = 'x' WHERE K > 0")).isEqualTo(2);
    assertThat(update("UPDATE STATISTICS STATISTICS")).isEqualTo(1);
    assertThat(rows("SELECT SUM(ROW_COUNT) FROM SYSTEM.STATS WHERE TABLE_NAME = 'STATISTICS'"))
        .containsExactly("3");
  }

  @Test
  void explainShowsTheStatement() throws SQLException {
    update("CREATE TABLE T (K INTEGER PRIMARY KEY)");
    assertThat(rows("EXPLAIN UPDATE STATISTICS T")).containsExactly("UPDATE STATISTICS PUBLIC.T");
  }
}
