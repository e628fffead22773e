package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Deep input fails at once with 54001 naming the problem (not an empty 42601 "Syntax error: ", nor
 * seconds of validation first), every error's message and causes stay bounded, and the connection
 * goes on.
 */
class TestDeepStatementErrors {
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("deep-" + UUID.randomUUID()));
    try (Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE T (K INTEGER PRIMARY KEY, V INTEGER, S VARCHAR(20))");
      s.executeUpdate("UPSERT INTO T VALUES (1, 2, 'a')");
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  /** The characters of the messages of {@code e} and all its causes. */
  private static long chainChars(Throwable e) {
    long chars = 0;
    for (Throwable t = e; t != null; t = t.getCause()) {
      chars += t.getMessage() == null ? 0 : t.getMessage().length();
    }
    return chars;
  }

  private void assertTooComplex(String sql, String what) throws SQLException {
    try (Statement s = connection.createStatement()) {
      assertThatThrownBy(() -> s.executeQuery(sql))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("54001");
                assertThat(e.getMessage())
                    .startsWith("Statement too complex: " + what + " nested deeper than [");
                assertThat(chainChars(e)).isLessThan(8192);
              });
      try (ResultSet rs = s.executeQuery("SELECT V FROM T")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(2);
      }
    }
  }

  @Test
  void aMillionParenthesesAreStatementTooComplex() throws SQLException {
    int deep = 1_000_000;
    assertTooComplex(
        "SELECT " + "(".repeat(deep) + "V" + ")".repeat(deep) + " FROM T", "parentheses");
  }

  @Test
  void deepSubqueriesAreStatementTooComplex() throws SQLException {
    assertTooComplex(
        "SELECT * FROM " + "(SELECT * FROM ".repeat(20_000) + "T" + ")".repeat(20_000),
        "parentheses");
  }

  @Test
  void deepExpressionsAreStatementTooComplex() throws SQLException {
    assertTooComplex("SELECT V" + " + 1".repeat(20_000) + " FROM T", "expression");
    assertTooComplex("SELECT S" + " || 'x'".repeat(20_000) + " FROM T", "expression");
    assertTooComplex(
        "SELECT "
            + "CASE WHEN V > 1 THEN 1 ELSE ".repeat(5_000)
            + "V"
            + " END".repeat(5_000)
            + " FROM T",
        "expression");
  }

  @Test
  void aSyntaxErrorInAHugeStatementIsBounded() throws SQLException {
    String sql = "SELECT V" + ", V".repeat(100_000) + " FROM T WHERE ((";
    try (Statement s = connection.createStatement()) {
      assertThatThrownBy(() -> s.executeQuery(sql))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("42601");
                assertThat(e.getMessage()).startsWith("Syntax error").hasSizeGreaterThan(20);
                assertThat(chainChars(e)).isLessThan(32_768);
              });
    }
  }
}
