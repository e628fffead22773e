package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Errors, not crashes: deep and wide expressions, huge IN lists and the shapes that used to throw
 * Java errors (StackOverflowError, AssertionError) or internal errors either run or fail with an
 * SQLException of a meaningful SQLState; planning is bounded and honours the query timeout; a
 * prepared statement survives its table being dropped and created again.
 */
class TestStatementLimits {
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("limits-" + UUID.randomUUID()));
    update("CREATE TABLE T (K INTEGER PRIMARY KEY, A INTEGER, V VARCHAR(10))");
    update("CREATE TABLE U (K INTEGER PRIMARY KEY, A INTEGER)");
    update("UPSERT INTO T VALUES (1, 1, 'a'), (2, 2, 'b'), (5000, 3, 'c'), (30000, 4, NULL)");
    update("UPSERT INTO U VALUES (1, 10), (2, 20)");
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

  private List<String> rows(String sql) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return rows(rs);
    }
  }

  private static List<String> rows(ResultSet rs) throws SQLException {
    List<String> rows = new ArrayList<>();
    int width = rs.getMetaData().getColumnCount();
    while (rs.next()) {
      StringBuilder row = new StringBuilder();
      for (int i = 1; i <= width; i++) {
        row.append(i > 1 ? "," : "").append(rs.getString(i));
      }
      rows.add(row.toString());
    }
    return rows;
  }

  private static String inList(int values) {
    StringBuilder list = new StringBuilder();
    for (int i = 0; i < values; i++) {
      list.append(i == 0 ? "" : ",").append(i);
    }
    return list.toString();
  }

  @Test
  void inListOfMoreThanTenThousandValuesOnTheLeadingKey() throws SQLException {
    // was an AssertionError (a SEARCH taken for a key bound) after minutes of simplification
    assertThat(rows("SELECT K FROM T WHERE K IN (" + inList(10_001) + ") ORDER BY K"))
        .containsExactly("1", "2", "5000");
  }

  @Test
  void thousandChainedPlusRuns() throws SQLException {
    // was a StackOverflowError from about 700, and over the network a lost connection from 50
    // levels, then STATEMENT_TOO_COMPLEX from 251 (expressions now travel flat)
    assertThat(rows("SELECT A" + " + 1".repeat(1_000) + " FROM T WHERE K = 1"))
        .containsExactly("1001");
    assertThat(rows("SELECT A" + " + 1".repeat(250) + " FROM T WHERE K = 1"))
        .containsExactly("251");
    assertThat(rows("SELECT K FROM T WHERE A" + " + 1".repeat(1_000) + " = 1001"))
        .containsExactly("1");
  }

  @Test
  void deeperExpressionIsStatementTooComplex() {
    assertThatThrownBy(() -> rows("SELECT A" + " + 1".repeat(3_000) + " FROM T"))
        .isInstanceOfSatisfying(
            SQLException.class,
            e -> {
              assertThat(e.getSQLState()).isEqualTo("54001");
              assertThat(e.getMessage()).contains("nested deeper than").hasSizeLessThan(4096);
            });
  }

  @Test
  void orOfTwoThousandTermsRuns() throws SQLException {
    StringBuilder or = new StringBuilder("A = -1");
    for (int i = 0; i < 2_000; i++) {
      or.append(" OR A = ").append(i * 2 + 1);
    }
    assertThat(rows("SELECT K FROM T WHERE " + or + " ORDER BY K")).containsExactly("1", "5000");
  }

  @Test
  void unionAllOfAThousandBranchesRuns() throws SQLException {
    String branch = "SELECT K FROM U WHERE K = 1";
    String sql = branch + (" UNION ALL " + branch).repeat(999);
    assertThat(rows("SELECT COUNT(*) FROM (" + sql + ")")).containsExactly("1000");
  }

  @Test
  void nestedCoalesceThirtyDeepPlansQuickly() throws SQLException {
    // 20 deep took 33 s to plan, 24 deep over 120 s
    String e = "V";
    for (int i = 0; i < 30; i++) {
      e = "COALESCE(" + e + ", 'x" + i + "')";
    }
    assertThat(rows("SELECT " + e + " FROM T ORDER BY K")).containsExactly("a", "b", "c", "x0");
  }

  @Test
  void caseOnAParameterInWhere() throws SQLException {
    // was XX000 (SqlDynamicParam: the CASE's type was derived before the parameter's)
    try (PreparedStatement ps =
        connection.prepareStatement(
            "SELECT K FROM T WHERE CASE WHEN A = ? THEN 1 ELSE 0 END = 1 ORDER BY K")) {
      ps.setInt(1, 3);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rows(rs)).containsExactly("5000");
      }
    }
  }

  @Test
  void correlatedExistsWithAnEmptyBetweenReturnsNoRows() throws SQLException {
    assertThat(
            rows(
                "SELECT K FROM T WHERE EXISTS (SELECT 1 FROM U WHERE U.K = T.K AND U.A"
                    + " BETWEEN 0 AND -2)"))
        .isEmpty();
    assertThat(
            rows(
                "SELECT K FROM T WHERE EXISTS (SELECT 1 FROM U WHERE U.K = T.K AND T.A BETWEEN 0"
                    + " AND -2)"))
        .isEmpty();
  }

  @Test
  void countFilterExistsGroupedByAnExpression() throws SQLException {
    assertThat(
            rows(
                "SELECT COUNT(*) FILTER (WHERE EXISTS (SELECT 1 FROM U WHERE U.K = T.K)) FROM T"
                    + " GROUP BY 0 + 8"))
        .containsExactly("2");
  }

  @Test
  void dynamicColumnsAreNotSupported() {
    for (String sql :
        List.of(
            "UPSERT INTO T (K, V, NEWCOL VARCHAR) VALUES (3, 'c', 'x')",
            "SELECT * FROM T (NEWCOL VARCHAR)")) {
      assertThatThrownBy(() -> update(sql))
          .isInstanceOfSatisfying(
              SQLFeatureNotSupportedException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("0A000");
                assertThat(e.getMessage()).contains("Dynamic columns");
              });
    }
  }

  @Test
  void queryTimeoutStopsALongPlanning() throws SQLException {
    // planning 3,000 UNION ALL branches takes far longer than the timeout
    String branch = "SELECT K FROM U WHERE K = 1";
    String sql = branch + (" UNION ALL " + branch).repeat(2_999);
    try (Statement s = connection.createStatement()) {
      s.setQueryTimeout(1);
      assertThatThrownBy(() -> s.executeQuery(sql))
          .isInstanceOfSatisfying(
              SQLTimeoutException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
      s.setQueryTimeout(0);
      assertThat(rows(s.executeQuery("SELECT COUNT(*) FROM U"))).containsExactly("2");
    }
  }

  @Test
  void preparedStatementRunsAfterItsTableIsDroppedAndCreatedAgain() throws SQLException {
    try (PreparedStatement query = connection.prepareStatement("SELECT A FROM U WHERE K = ?");
        PreparedStatement upsert = connection.prepareStatement("UPSERT INTO U VALUES (?, ?)")) {
      query.setInt(1, 1);
      try (ResultSet rs = query.executeQuery()) {
        assertThat(rows(rs)).containsExactly("10");
      }
      update("DROP TABLE U");
      update("CREATE TABLE U (K INTEGER PRIMARY KEY, A INTEGER)");
      upsert.setInt(1, 1);
      upsert.setInt(2, 99);
      assertThat(upsert.executeUpdate()).isEqualTo(1);
      try (ResultSet rs = query.executeQuery()) {
        assertThat(rows(rs)).containsExactly("99");
      }
    }
  }
}
