package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
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
}
