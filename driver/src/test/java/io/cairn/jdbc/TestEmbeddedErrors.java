package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One test per SQLState of docs/sql.md that the engine produces, through the real engine. */
class TestEmbeddedErrors {
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("errors-" + UUID.randomUUID()));
    update(
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(5) NOT NULL, QTY INTEGER,"
            + " TINY TINYINT, PRICE DECIMAL(5,2))");
    update("UPSERT INTO T VALUES (1, 'a', 10, 1, 1.50), (2, 'b', 0, 2, 2.25)");
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private void update(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    }
  }

  /** Runs {@code sql} (reading every row) and returns the SQLException it must fail with. */
  private SQLException failure(String sql) {
    try (Statement s = connection.createStatement()) {
      if (s.execute(sql)) {
        try (ResultSet rs = s.getResultSet()) {
          while (rs.next()) {
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
              rs.getObject(i);
            }
          }
        }
      }
    } catch (SQLException e) {
      return e;
    }
    throw new AssertionError("expected an SQLException from: " + sql);
  }

  private long count(String where) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM T WHERE " + where)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void syntaxError42601() {
    SQLException e = failure("SELECT ID FROM T WHERE ID = = 1");
    assertThat(e.getSQLState()).isEqualTo("42601");
    assertThat((Throwable) e).isInstanceOf(SQLSyntaxErrorException.class);
    assertThat(e.getMessage()).contains("line 1").contains("=");

    SQLException ddl = failure("CREATE TABLE X (ID INTEGER PRIMARY KEY) NO_SUCH_OPTION = 1");
    assertThat(ddl.getSQLState()).isEqualTo("42601");
    assertThat(ddl.getMessage()).contains("NO_SUCH_OPTION").contains("COMPRESSION");
  }

  @Test
  void unknownTable42S02() {
    SQLException e = failure("SELECT * FROM NO_SUCH_TABLE");
    assertThat(e.getSQLState()).isEqualTo("42S02");
    assertThat((Throwable) e).isInstanceOf(SQLSyntaxErrorException.class);
    assertThat(e.getMessage()).contains("NO_SUCH_TABLE");

    SQLException drop = failure("DROP TABLE S9.GONE");
    assertThat(drop.getSQLState()).isEqualTo("42S02");
    assertThat(drop.getMessage()).contains("GONE");
  }

  @Test
  void unknownColumn42S22() {
    SQLException e = failure("SELECT NO_SUCH_COLUMN FROM T");
    assertThat(e.getSQLState()).isEqualTo("42S22");
    assertThat((Throwable) e).isInstanceOf(SQLSyntaxErrorException.class);
    assertThat(e.getMessage()).contains("NO_SUCH_COLUMN");

    SQLException upsert = failure("UPSERT INTO T (ID, NAME, BOGUS) VALUES (3, 'c', 1)");
    assertThat(upsert.getSQLState()).isEqualTo("42S22");
    assertThat(upsert.getMessage()).contains("BOGUS");
  }

  @Test
  void tableExists42S01() {
    SQLException e = failure("CREATE TABLE T (ID INTEGER PRIMARY KEY)");
    assertThat(e.getSQLState()).isEqualTo("42S01");
    assertThat((Throwable) e).isInstanceOf(SQLSyntaxErrorException.class);
    assertThat(e.getMessage()).contains("T");
  }

  @Test
  void typeMismatch42804() throws SQLException {
    SQLException e = failure("UPSERT INTO T (ID, NAME, QTY) VALUES (3, 'c', DATE '2020-01-01')");
    assertThat(e.getSQLState()).isEqualTo("42804");
    assertThat((Throwable) e).isInstanceOf(SQLSyntaxErrorException.class);
    assertThat(e.getMessage()).contains("QTY");
    assertThat(count("ID = 3")).isZero();
  }

  @Test
  void duplicateKey23505() throws SQLException {
    SQLException e = failure("INSERT INTO T VALUES (3, 'c', 1, 1, 1), (1, 'x', 1, 1, 1)");
    assertThat(e.getSQLState()).isEqualTo("23505");
    assertThat((Throwable) e).isInstanceOf(SQLIntegrityConstraintViolationException.class);
    assertThat(e.getMessage()).contains("ID=1");
    if (TestUrls.hbase()) {
      // atomic per row only: the other row is written, and the error says so
      assertThat(e.getMessage()).contains("other rows of the statement or commit were written");
      assertThat(count("ID = 3")).isOne();
    } else {
      assertThat(count("ID = 3")).isZero();
    }
  }

  @Test
  void notNull23502() throws SQLException {
    SQLException e = failure("UPSERT INTO T (ID, QTY) VALUES (4, 1)");
    assertThat(e.getSQLState()).isEqualTo("23502");
    assertThat((Throwable) e).isInstanceOf(SQLIntegrityConstraintViolationException.class);
    assertThat(e.getMessage()).contains("NAME");
    assertThat(count("ID = 4")).isZero();

    SQLException explicitNull = failure("UPSERT INTO T (ID, NAME) VALUES (4, NULL)");
    assertThat(explicitNull.getSQLState()).isEqualTo("23502");
    assertThat(explicitNull.getMessage()).contains("NAME");
  }

  @Test
  void valueTooLong22001() throws SQLException {
    SQLException e = failure("UPSERT INTO T (ID, NAME) VALUES (5, 'ok'), (6, 'sevenchars')");
    assertThat(e.getSQLState()).isEqualTo("22001");
    assertThat((Throwable) e).isInstanceOf(SQLDataException.class);
    assertThat(e.getMessage()).contains("NAME").contains("VARCHAR(5)");
    assertThat(count("ID IN (5, 6)")).isZero();
  }

  @Test
  void numericOverflow22003() throws SQLException {
    SQLException store = failure("UPSERT INTO T (ID, NAME, TINY) VALUES (7, 'x', 300)");
    assertThat(store.getSQLState()).isEqualTo("22003");
    assertThat((Throwable) store).isInstanceOf(SQLDataException.class);
    assertThat(store.getMessage()).contains("TINY").contains("300");
    assertThat(count("ID = 7")).isZero();

    SQLException arithmetic = failure("SELECT QTY * 2147483647 FROM T WHERE ID = 1");
    assertThat(arithmetic.getSQLState()).isEqualTo("22003");

    SQLException decimal = failure("UPSERT INTO T (ID, NAME, PRICE) VALUES (8, 'x', 12345.6)");
    assertThat(decimal.getSQLState()).isEqualTo("22003");
    assertThat(decimal.getMessage()).contains("PRICE");
  }

  @Test
  void divisionByZero22012() {
    SQLException e = failure("SELECT ID / QTY FROM T");
    assertThat(e.getSQLState()).isEqualTo("22012");
    assertThat((Throwable) e).isInstanceOf(SQLDataException.class);

    SQLException dbl = failure("SELECT CAST(ID AS DOUBLE) / 0 FROM T");
    assertThat(dbl.getSQLState()).isEqualTo("22012");
  }

  @Test
  void invalidCast22018() {
    SQLException e = failure("SELECT CAST(NAME AS INTEGER) FROM T");
    assertThat(e.getSQLState()).isEqualTo("22018");
    assertThat((Throwable) e).isInstanceOf(SQLDataException.class);
    assertThat(e.getMessage()).contains("a");
  }

  @Test
  void scalarSubqueryWithManyRows21000() {
    SQLException e = failure("SELECT (SELECT ID FROM T) FROM T");
    assertThat(e.getSQLState()).isEqualTo("21000");
  }

  @Test
  void parameterNotSet07001() throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement("SELECT * FROM T WHERE ID = ? AND QTY = ?")) {
      ps.setInt(1, 1);
      SQLException e = null;
      try {
        ps.executeQuery().close();
      } catch (SQLException ex) {
        e = ex;
      }
      assertThat((Throwable) e).isNotNull();
      assertThat(e.getSQLState()).isEqualTo("07001");
      assertThat(e.getMessage()).contains("2");
    }
  }

  @Test
  void notSupported0A000() {
    SQLException defaults = failure("CREATE TABLE D (ID INTEGER PRIMARY KEY, Q INTEGER DEFAULT 5)");
    assertThat(defaults.getSQLState()).isEqualTo("0A000");
    assertThat((Throwable) defaults).isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThat(defaults.getMessage()).contains("DEFAULT").contains("Q");

    SQLException alter = failure("ALTER TABLE T ADD X INTEGER");
    assertThat(alter.getSQLState()).isEqualTo("0A000");
    assertThat(alter.getMessage())
        .contains("ALTER TABLE")
        .contains("supported: ALTER TABLE name SET option = value");
  }
}
