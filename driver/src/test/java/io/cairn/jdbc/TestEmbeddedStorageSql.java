package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The statements of the durable store (SPLIT ON, ALTER TABLE ... SET, FLUSH TABLE, COMPACT TABLE,
 * MAJOR_COMPACT TABLE) and the {@code durability} property on an in-memory database, where flush
 * and compaction do nothing and every table is one region.
 */
@NotOnHBase(
    "Cairn's own store's options (ZSTD blocks, splits of a few rows): HBase's are tested in TestHBaseSql")
class TestEmbeddedStorageSql {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("storage");

  @Test
  void splitOnCreatesTheTable() throws SQLException {
    assertThat(
            db.update(
                "CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(10))"
                    + " SPLIT ON (10, 1 + 19, CAST('30' AS INTEGER), '40')"))
        .isZero();
    db.update("UPSERT INTO T VALUES (5, 'a'), (15, 'b'), (35, 'c'), (45, 'd')");
    assertThat(db.rows("SELECT ID, V FROM T WHERE ID > 10 ORDER BY ID"))
        .containsExactly("15,b", "35,c", "45,d");

    db.update(
        "CREATE TABLE S (NAME VARCHAR(5), N INTEGER, CONSTRAINT PK PRIMARY KEY (NAME DESC, N))"
            + " COMPRESSION=ZSTD SPLIT ON ('m', 'f')");
    db.update("UPSERT INTO S VALUES ('a', 1), ('g', 2), ('z', 3)");
    assertThat(db.rows("SELECT NAME FROM S")).containsExactly("z", "g", "a");

    db.update(
        "CREATE TABLE D (DAY DATE PRIMARY KEY, X INTEGER)"
            + " SPLIT ON (DATE '2024-01-01', '2025-01-01')");
    db.update("CREATE TABLE B (ID BIGINT PRIMARY KEY) SPLIT ON (-5, 0, 1e3)");
  }

  @Test
  void splitOnErrors() {
    assertError(
        "CREATE TABLE N (A INTEGER, B INTEGER) SPLIT ON (1)",
        "42P16",
        "SPLIT ON needs a primary key",
        "PUBLIC.N");
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY) SPLIT ON (1, NULL)",
        "42P16",
        "Split point 2 [NULL]",
        "expected a value of type [INTEGER] for key column [A], found [NULL]");
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY) SPLIT ON (CAST(NULL AS INTEGER))",
        "42P16",
        "found [NULL]");
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY) SPLIT ON (A + 1)",
        "42000",
        "Split point 1 [A + 1]",
        "expected a constant expression, found a column reference [A]");
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY) SPLIT ON (?)",
        "42000",
        "expected a constant expression, found a parameter");
    assertError(
        "CREATE TABLE N (A DATE PRIMARY KEY) SPLIT ON (CURRENT_DATE)",
        "42000",
        "expected a constant expression");
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY) SPLIT ON ((SELECT 1))",
        "42000",
        "found a subquery");
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY) SPLIT ON (TRUE)",
        "42804",
        "Split point 1 [TRUE]",
        "expected a value of type [INTEGER] for key column [A], found [BOOLEAN]");
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY) SPLIT ON (DATE '2020-01-01')",
        "42804",
        "found [DATE]");
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY) SPLIT ON (20, 10)",
        "42P16",
        "strictly increasing",
        "expected point 2 [10] to sort after point 1 [20]");
    assertError(
        "CREATE TABLE N (A INTEGER, B INTEGER, CONSTRAINT PK PRIMARY KEY (A DESC, B))"
            + " SPLIT ON (10, 20)",
        "42P16",
        "expected point 2 [20] to sort after point 1 [10]",
        "key column [A] is DESC: list its values from highest to lowest");
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY) SPLIT ON (10, 20, 5 + 5)",
        "42P16",
        "Duplicate split points",
        "point 1 [10] and point 3 [5 + 5]",
        "[A=10]");
    assertError(
        "CREATE TABLE N (A VARCHAR(2) PRIMARY KEY) SPLIT ON ('abc')",
        "22001",
        "Split point 1 ['abc']",
        "Value too long for column [A VARCHAR(2)]");
    assertError(
        "CREATE TABLE N (A TINYINT PRIMARY KEY) SPLIT ON (1000)",
        "22003",
        "Split point 1 [1000]",
        "Value out of range");
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY) SPLIT ON (1 +)", "42601", "Split point 1 [1 +]");
    assertThat(db.failure("SELECT * FROM N").getSQLState()).isEqualTo("42S02");
  }

  @Test
  void saltBucketsIsRefused() {
    SQLException salt = db.failure("CREATE TABLE N (A INTEGER PRIMARY KEY) SALT_BUCKETS=4");
    assertThat((Throwable) salt).isInstanceOf(SQLFeatureNotSupportedException.class);
    assertError(
        "CREATE TABLE N (A INTEGER PRIMARY KEY, B VARCHAR) SALT_BUCKETS=4, COMPRESSION=LZ4",
        "0A000",
        "Table option [SALT_BUCKETS] is not supported",
        "splits tables by SPLIT ON points (CREATE TABLE ... SPLIT ON (...)) and automatic region"
            + " splits instead");
    assertThat(db.failure("SELECT * FROM N").getSQLState()).isEqualTo("42S02");
  }

  @Test
  void alterTableSet() throws SQLException {
    db.update("CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR) TTL=3600");
    db.update("UPSERT INTO T VALUES (1, 'a')");
    assertThat(db.rows("SELECT V FROM T WHERE ID = 1")).containsExactly("a");
    assertThat(
            db.update(
                "ALTER TABLE T SET COMPRESSION='zstd', DATA_BLOCK_ENCODING='FAST_DIFF',"
                    + " BLOCKSIZE=65536, BLOOMFILTER=ROW, DURABILITY=ASYNC,"
                    + " GUIDE_POSTS_WIDTH=1000000, TTL=60"))
        .isZero();
    assertThat(db.rows("SELECT V FROM T WHERE ID = 1")).containsExactly("a");
    assertThat(db.rows("EXPLAIN ALTER TABLE public.t SET compression = LZ4"))
        .containsExactly("ALTER TABLE PUBLIC.T SET COMPRESSION=LZ4");
  }

  @Test
  void alterTableSetErrors() {
    update0("CREATE TABLE T (ID INTEGER PRIMARY KEY)");
    assertError("ALTER TABLE MISSING SET TTL=1", "42S02", "Table [PUBLIC.MISSING] does not exist");
    SQLException salt = db.failure("ALTER TABLE T SET SALT_BUCKETS=4");
    assertThat((Throwable) salt).isInstanceOf(SQLFeatureNotSupportedException.class);
    assertError(
        "ALTER TABLE T SET SALT_BUCKETS=4",
        "0A000",
        "Table option [SALT_BUCKETS] is not supported",
        "splits tables by SPLIT ON points");
    assertError("ALTER TABLE T SET COLOR=RED", "42601", "Unknown table option [COLOR]");
    assertError(
        "ALTER TABLE T SET COMPRESSION=RAR",
        "22023",
        "expected one of [NONE, LZ4, SNAPPY, ZSTD, GZIP], found [RAR]");
    assertError("ALTER TABLE T SET TTL=0", "22023", "found [0]");
    assertError("ALTER TABLE T SET TTL=1, TTL=2", "42601", "duplicate table option [TTL]");
    assertError(
        "ALTER TABLE T DROP COLUMN X", "0A000", "supported: ALTER TABLE name SET option = value");
  }

  @Test
  void flushAndCompact() throws SQLException {
    db.update("CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR)");
    db.update("UPSERT INTO T VALUES (1, 'a'), (2, 'b')");
    db.update("DELETE FROM T WHERE ID = 2");
    assertThat(db.update("FLUSH TABLE T")).isZero();
    assertThat(db.update("COMPACT TABLE public.t")).isZero();
    assertThat(db.update("MAJOR_COMPACT TABLE T;")).isZero();
    assertThat(db.rows("SELECT ID, V FROM T")).containsExactly("1,a");
    assertThat(db.rows("EXPLAIN MAJOR_COMPACT TABLE T"))
        .containsExactly("MAJOR_COMPACT TABLE PUBLIC.T");
    assertThat(db.rows("EXPLAIN FLUSH TABLE T")).containsExactly("FLUSH TABLE PUBLIC.T");
    assertThat(db.rows("EXPLAIN COMPACT TABLE T")).containsExactly("COMPACT TABLE PUBLIC.T");
    // an in-memory table has no files to split: SPLIT TABLE keeps it as it is
    assertThat(db.update("SPLIT TABLE T")).isZero();
    assertThat(db.rows("SELECT ID, V FROM T")).containsExactly("1,a");
    assertThat(db.rows("EXPLAIN SPLIT TABLE T")).containsExactly("SPLIT TABLE PUBLIC.T");
    assertError("SPLIT TABLE X", "42S02", "Table [PUBLIC.X] does not exist");
    assertError("FLUSH TABLE X", "42S02", "Table [PUBLIC.X] does not exist");
    assertError("COMPACT TABLE S.X", "42S02", "Table [S.X] does not exist");
    assertError("MAJOR_COMPACT TABLE X", "42S02", "[PUBLIC.X]");
  }

  @Test
  void durabilityProperty() throws SQLException {
    db.update("CREATE TABLE T (ID INTEGER PRIMARY KEY)");
    for (String durability : List.of("SKIP", "async", "Sync", "FSYNC")) {
      try (Connection c = DriverManager.getConnection(db.url() + ";durability=" + durability);
          Statement s = c.createStatement()) {
        assertThat(s.executeUpdate("UPSERT INTO T VALUES (1)")).isEqualTo(1);
      }
      Properties info = new Properties();
      info.setProperty("durability", durability);
      try (Connection c = DriverManager.getConnection(db.url(), info);
          Statement s = c.createStatement()) {
        assertThat(s.executeUpdate("UPSERT INTO T VALUES (2)")).isEqualTo(1);
      }
    }
    assertThat(db.rows("SELECT ID FROM T")).containsExactly("1", "2");
    for (String bad : List.of(db.url() + ";durability=NEVER", db.url() + ";durability=")) {
      SQLException e = connectFailure(bad, new Properties());
      assertThat(e.getSQLState()).isEqualTo("08001");
      assertThat(e.getMessage())
          .contains("Invalid value for connection property [durability]")
          .contains("expected one of [SKIP, ASYNC, SYNC, FSYNC]");
    }
    Properties info = new Properties();
    info.setProperty("durability", "lazy");
    assertThat(connectFailure(db.url(), info).getMessage()).contains("found [lazy]");
  }

  private static SQLException connectFailure(String url, Properties info) {
    try (Connection c = DriverManager.getConnection(url, info)) {
      throw new AssertionError("expected a failure for " + url);
    } catch (SQLException e) {
      return e;
    }
  }

  private void update0(String sql) {
    try {
      db.update(sql);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  private void assertError(String sql, String sqlState, String... fragments) {
    SQLException e = db.failure(sql);
    assertThat(e.getSQLState()).as(sql + ": " + e.getMessage()).isEqualTo(sqlState);
    for (String fragment : fragments) {
      assertThat(e.getMessage()).as(sql).contains(fragment);
    }
  }
}
