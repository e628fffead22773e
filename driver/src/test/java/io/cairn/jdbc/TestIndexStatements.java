package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The local index statements over JDBC (issue 17), embedded and against a server: CREATE [LOCAL]
 * INDEX, DROP INDEX, ALTER INDEX ... REBUILD and CHECK INDEX, and each bad input refused with its
 * SQLState and a message naming what it found, the table and its rows untouched.
 */
class TestIndexStatements {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("index-statements");

  @BeforeEach
  void createTable() throws SQLException {
    db.connection().setAutoCommit(true);
    db.execute(
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(20), QTY INTEGER, PRICE DOUBLE)",
        "UPSERT INTO T VALUES (1, 'a', 10, 1.5), (2, 'B', 20, 2.5), (3, 'c', 30, 3.5)",
        "CREATE TABLE NOKEY (V INTEGER)");
  }

  private void assertFails(String sql, String sqlState, String... messageParts) {
    SQLException e = db.failure(sql);
    assertThat(e.getSQLState()).as(sql + ": " + e.getMessage()).isEqualTo(sqlState);
    assertThat(e.getMessage()).as(sql).contains(messageParts);
  }

  @Test
  void badTablesAndColumnsAreRefused() throws SQLException {
    assertFails("CREATE INDEX I ON MISSING (A)", "42S02", "[PUBLIC.MISSING]");
    assertFails(
        "CREATE LOCAL INDEX I ON T (QTY, NOPE)",
        "42S22",
        "Key part 2 [NOPE] of index [I]",
        "found [NOPE]");
    assertFails("CREATE INDEX I ON T (UPPER(NOPE))", "42S22", "Key part 1 [UPPER(NOPE)]");
    assertFails("CREATE INDEX I ON T (QTY) INCLUDE (NOPE)", "42S22", "INCLUDE column [NOPE]");
    assertFails(
        "CREATE INDEX I ON T (QTY) INCLUDE (ID)",
        "42P16",
        "INCLUDE column [ID] of index [I]",
        "primary-key column");
    assertFails(
        "CREATE INDEX I ON T (QTY) INCLUDE (QTY)",
        "42P16",
        "INCLUDE column [QTY] of index [I]",
        "found key part 1");
    assertFails("CREATE INDEX I ON T (QTY, NAME, qty DESC)", "42P16", "repeats key part 1 [QTY]");
    assertFails("CREATE INDEX I ON SYSTEM.STATS (TABLE_NAME)", "0A000", "[SYSTEM.STATS]");
    assertFails(
        "CREATE INDEX I ON NOKEY (V)",
        "0A000",
        "Local indexes need a primary key",
        "[PUBLIC.NOKEY]");
    assertThat(db.rows("SELECT COUNT(*), SUM(QTY) FROM T")).containsExactly("3,60");
  }

  @Test
  void badExpressionsAreRefused() throws SQLException {
    assertFails("CREATE INDEX I ON T (QTY + RAND())", "42000", "[RAND], whose value changes");
    assertFails("CREATE INDEX I ON T (CURRENT_TIMESTAMP)", "42000", "[CURRENT_TIMESTAMP]");
    assertFails("CREATE INDEX I ON T (MAX(QTY))", "42000", "an aggregate function [MAX]");
    assertFails("CREATE INDEX I ON T (QTY + ?)", "42000", "a parameter [?]");
    SQLException prepared =
        org.junit.jupiter.api.Assertions.assertThrows(
            SQLException.class,
            () -> db.connection().prepareStatement("CREATE INDEX I ON T (UPPER(?))"));
    assertThat(prepared.getSQLState()).isEqualTo("42000");
    assertFails("CREATE INDEX I ON T (42)", "42000", "found a constant");
    assertFails("CREATE INDEX I ON T (QTY +)", "42601", "Key part 1 [QTY +] of index [I]");
    assertThat(db.rows("SELECT COUNT(*) FROM T")).containsExactly("3");
  }

  @Test
  void unsupportedFormsAreRefusedByName() {
    assertFails("CREATE UNIQUE INDEX I ON T (NAME)", "0A000", "UNIQUE indexes are not supported");
    assertFails("CREATE LOCAL INDEX I ON T (NAME) ASYNC", "0A000", "ASYNC is not supported");
    assertFails(
        "CREATE INDEX I ON T (NAME) SALT_BUCKETS=2",
        "0A000",
        "Index options are not supported",
        "[SALT_BUCKETS]");
    assertFails(
        "CREATE INDEX I ON T (NAME) WHERE QTY > 0", "0A000", "Partial indexes are not supported");
    assertFails("CREATE INDEX I ON T USING GIN (NAME)", "0A000", "USING [GIN]");
    assertFails("ALTER INDEX I ON T DISABLE", "0A000", "ALTER INDEX ... DISABLE");
    assertFails("ALTER INDEX I ON T REBUILD ASYNC", "0A000", "ALTER INDEX ... REBUILD ASYNC");
    assertFails("ALTER INDEX I RENAME TO J", "0A000", "ALTER INDEX ... RENAME TO J");
  }

  @Test
  void statementsOnMissingTablesAndIndexes() throws SQLException {
    assertFails("CHECK INDEX I ON MISSING", "42S02", "[PUBLIC.MISSING]");
    assertFails("CHECK INDEX I", "42704", "Index [PUBLIC.I] does not exist");
    assertFails("ALTER INDEX I ON MISSING REBUILD", "42S02", "[PUBLIC.MISSING]");
    assertFails("ALTER INDEX I REBUILD", "42704", "Index [PUBLIC.I] does not exist");
    assertThat(db.update("ALTER INDEX IF EXISTS I ON MISSING REBUILD")).isZero();
    assertThat(db.update("ALTER INDEX IF EXISTS I REBUILD")).isZero();
    assertFails("CREATE INDEX S.I ON PUBLIC.T (QTY)", "42000", "in its table's schema");
  }

  // ---- end to end: the catalog and the store keep the index

  /** The update count of CREATE INDEX and REBUILD: the rows indexed, embedded and remote. */
  private static void assertIndexed(int updateCount, int rows) {
    assertThat(updateCount).isEqualTo(rows);
  }

  @Test
  void createCheckRebuildAndDropAnIndex() throws SQLException {
    assertIndexed(db.update("CREATE LOCAL INDEX I_QTY ON T (QTY DESC) INCLUDE (PRICE)"), 3);
    assertThat(db.rows("CHECK INDEX I_QTY ON T")).containsExactly("I_QTY,PUBLIC.T,3,3,0,0,true,");
    // writes after the build keep the index
    db.update("UPSERT INTO T VALUES (4, 'd', 40, 4.5)");
    db.update("DELETE FROM T WHERE ID = 1");
    db.update("UPDATE T SET QTY = 25 WHERE ID = 2");
    assertThat(db.rows("CHECK INDEX i_qty")).containsExactly("I_QTY,PUBLIC.T,3,3,0,0,true,");
    assertFails("CREATE INDEX I_QTY ON T (NAME)", "42710", "I_QTY");
    assertThat(db.update("CREATE INDEX IF NOT EXISTS I_QTY ON T (NAME)")).isZero();
    assertIndexed(db.update("ALTER INDEX I_QTY ON T REBUILD"), 3);
    assertThat(db.rows("CHECK INDEX I_QTY ON PUBLIC.T"))
        .containsExactly("I_QTY,PUBLIC.T,3,3,0,0,true,");
    assertThat(db.update("DROP INDEX I_QTY ON T")).isZero();
    assertFails("DROP INDEX I_QTY ON T", "42704", "I_QTY");
    assertFails("CHECK INDEX I_QTY ON T", "42704", "I_QTY");
    assertFails("ALTER INDEX I_QTY ON T REBUILD", "42704", "I_QTY");
    assertThat(db.update("DROP INDEX IF EXISTS I_QTY")).isZero();
    assertThat(db.update("ALTER INDEX IF EXISTS I_QTY ON T REBUILD")).isZero();
    assertThat(db.rows("SELECT ID, QTY FROM T ORDER BY ID"))
        .containsExactly("2,25", "3,30", "4,40");
  }

  @Test
  void functionalIndexesAndTheirNames() throws SQLException {
    db.execute("CREATE TABLE S.U (K VARCHAR(5) PRIMARY KEY, A INTEGER, B INTEGER)");
    db.update("UPSERT INTO S.U VALUES ('x', 1, 2), ('y', 3, NULL)");
    db.update("CREATE INDEX F ON T (UPPER(NAME), PRICE * QTY DESC)");
    db.update("CREATE INDEX S.G ON U (A + B)");
    assertThat(db.rows("CHECK INDEX F ON T")).containsExactly("F,PUBLIC.T,3,3,0,0,true,");
    assertThat(db.rows("CHECK INDEX S.G")).containsExactly("G,S.U,2,2,0,0,true,");
    // index names are unique within a schema, whatever the table
    db.execute("CREATE TABLE T2 (ID INTEGER PRIMARY KEY, V INTEGER)");
    assertFails("CREATE INDEX F ON T2 (V)", "42710", "F");
    assertThat(db.update("CREATE INDEX G ON T2 (V)")).isZero(); // another schema's G
    assertThat(db.update("DROP INDEX S.G")).isZero();
    assertThat(db.update("DROP INDEX G ON T2")).isZero();
    assertThat(db.update("DROP INDEX F")).isZero();
  }

  @Test
  void checkIndexIsAQuery() throws SQLException {
    db.update("CREATE INDEX I_NAME ON T (NAME)");
    try (PreparedStatement p = db.connection().prepareStatement("CHECK INDEX I_NAME ON T")) {
      ResultSetMetaData meta = p.getMetaData();
      assertThat(meta.getColumnCount()).isEqualTo(8);
      assertThat(meta.getColumnLabel(1)).isEqualTo("INDEX_NAME");
      assertThat(meta.getColumnType(3)).isEqualTo(Types.BIGINT);
      assertThat(meta.getColumnType(7)).isEqualTo(Types.BOOLEAN);
      assertThat(meta.getColumnLabel(8)).isEqualTo("SAMPLES");
      try (ResultSet rs = p.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong("ROWS_CHECKED")).isEqualTo(3);
        assertThat(rs.getBoolean("CONSISTENT")).isTrue();
        assertThat(rs.next()).isFalse();
      }
    }
    // a read-only connection checks indexes but creates none
    try (Connection readOnly = DriverManager.getConnection(db.url())) {
      readOnly.setReadOnly(true);
      assertThat(TestingDatabase.rows(readOnly, "CHECK INDEX I_NAME ON T"))
          .containsExactly("I_NAME,PUBLIC.T,3,3,0,0,true,");
      try (Statement s = readOnly.createStatement()) {
        SQLException e =
            org.junit.jupiter.api.Assertions.assertThrows(
                SQLException.class, () -> s.execute("CREATE INDEX J ON T (QTY)"));
        assertThat(e.getSQLState()).isEqualTo("25006");
      }
    }
  }

  @Test
  void failedStatementsLeaveTheOtherIndexesAlone() throws SQLException {
    db.update("CREATE INDEX I_QTY ON T (QTY)");
    assertFails("CREATE INDEX I_QTY ON T (NAME)", "42710", "I_QTY");
    assertFails("CREATE INDEX J ON T (NOPE)", "42S22", "NOPE");
    assertFails("CREATE INDEX J ON T (QTY) INCLUDE (ID)", "42P16", "ID");
    assertFails("DROP INDEX J ON T", "42704", "J");
    assertThat(db.rows("CHECK INDEX I_QTY ON T")).containsExactly("I_QTY,PUBLIC.T,3,3,0,0,true,");
  }
}
