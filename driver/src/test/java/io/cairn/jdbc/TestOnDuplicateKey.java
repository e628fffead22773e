package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code UPSERT ... VALUES ... ON DUPLICATE KEY UPDATE col = expr, ...} and {@code ON DUPLICATE KEY
 * IGNORE} with Phoenix's semantics: an absent key gets the VALUES row, an existing one the
 * assignments evaluated over its existing values (or nothing with IGNORE); rows of one statement
 * apply in order.
 */
class TestOnDuplicateKey {
  private Connection c;
  private Statement s;

  @BeforeEach
  void open() throws SQLException {
    c = DriverManager.getConnection(TestUrls.database("odk-" + UUID.randomUUID()));
    s = c.createStatement();
    s.executeUpdate(
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, N INTEGER NOT NULL, A INTEGER, V VARCHAR(5))");
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }

  private List<String> rows() throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT ID, N, A, V FROM T ORDER BY ID")) {
      while (rs.next()) {
        rows.add(rs.getInt(1) + "," + rs.getInt(2) + "," + rs.getObject(3) + "," + rs.getString(4));
      }
    }
    return rows;
  }

  @Test
  void insertsAnAbsentKeyAndUpdatesAnExistingOne() throws SQLException {
    String sql = "UPSERT INTO T (ID, N, V) VALUES (1, 10, 'new') ON DUPLICATE KEY UPDATE N = N + 1";
    assertThat(s.executeUpdate(sql)).isEqualTo(1);
    assertThat(rows()).containsExactly("1,10,null,new");
    s.executeUpdate("UPSERT INTO T (ID, A) VALUES (1, 7)");
    assertThat(s.executeUpdate(sql)).isEqualTo(1);
    // only N changes: V keeps 'new' (not the VALUES' value), A keeps 7
    assertThat(rows()).containsExactly("1,11,7,new");
  }

  @Test
  void columnReferencesMeanTheExistingValues() throws SQLException {
    s.executeUpdate("UPSERT INTO T VALUES (1, 1, 2, 'x')");
    s.executeUpdate(
        "UPSERT INTO T (ID, N, A) VALUES (1, 100, 200) ON DUPLICATE KEY UPDATE N = A, A = N");
    assertThat(rows()).containsExactly("1,2,1,x");
  }

  @Test
  void ignoreInsertsOnlyAbsentKeys() throws SQLException {
    s.executeUpdate("UPSERT INTO T VALUES (1, 1, NULL, 'old')");
    assertThat(
            s.executeUpdate(
                "UPSERT INTO T (ID, N, V) VALUES (1, 5, 'a'), (2, 6, 'b') ON DUPLICATE KEY IGNORE"))
        .as("rows written: the existing one is left alone")
        .isEqualTo(1);
    assertThat(rows()).containsExactly("1,1,null,old", "2,6,null,b");
  }

  @Test
  void rowsWithTheSameKeyApplyInOrder() throws SQLException {
    assertThat(
            s.executeUpdate(
                "UPSERT INTO T (ID, N) VALUES (1, 1), (1, 1), (1, 1)"
                    + " ON DUPLICATE KEY UPDATE N = N * 10"))
        .isEqualTo(3);
    assertThat(rows()).containsExactly("1,100,null,null");
    s.executeUpdate("UPSERT INTO T (ID, N) VALUES (1, 1), (1, 2) ON DUPLICATE KEY IGNORE");
    assertThat(rows()).containsExactly("1,100,null,null");
  }

  @Test
  void parametersOfValuesAndAssignments() throws SQLException {
    try (PreparedStatement p =
        c.prepareStatement(
            "UPSERT INTO T (ID, N, V) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE N = N + ?, V = ?")) {
      assertThat(p.getParameterMetaData().getParameterCount()).isEqualTo(5);
      for (int i = 0; i < 3; i++) {
        p.setInt(1, 4);
        p.setInt(2, 1);
        p.setString(3, "v0");
        p.setInt(4, 5);
        p.setString(5, "v" + (i + 1));
        assertThat(p.executeUpdate()).isEqualTo(1);
      }
    }
    assertThat(rows()).containsExactly("4,11,null,v3");
  }

  @Test
  void assignmentsAreCheckedAsForUpdate() throws SQLException {
    s.executeUpdate("UPSERT INTO T VALUES (1, 1, NULL, 'abcd')");
    assertThatThrownBy(
            () ->
                s.executeUpdate(
                    "UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE V = V || 'xy'"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22001"))
        .hasMessageContaining("V");
    assertThatThrownBy(
            () ->
                s.executeUpdate(
                    "UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE N = A"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23502"))
        .hasMessageContaining("N");
    assertThat(rows()).containsExactly("1,1,null,abcd");
  }

  @Test
  void clearErrors() {
    assertSqlState("UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE ID = 2", "0A000")
        .hasMessageContaining("primary key column [ID]");
    assertSqlState("INSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE N = 2", "0A000")
        .hasMessageContaining("INSERT");
    assertSqlState(
            "UPSERT INTO T (ID, N) SELECT ID, N FROM T ON DUPLICATE KEY UPDATE N = N + 1", "0A000")
        .hasMessageContaining("UPSERT ... SELECT");
    assertSqlState("UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE X = 2", "42S22")
        .hasMessageContaining("[X]");
    assertSqlState(
        "UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE N = 1, N = 2", "42000");
    assertSqlState("UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY DELETE", "42601")
        .hasMessageContaining("[UPDATE] or [IGNORE]");
    assertSqlState("UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY IGNORE 1", "42601");
    assertSqlState(
        "UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE N = (SELECT 1)", "0A000");
    assertSqlState(
        "UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE N = SUM(N)", "0A000");
    assertSqlState(
        "UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE N = DATE '2024-01-01'",
        "42804");
  }

  @Test
  void theClauseIsFoundOutsideLiteralsOnly() throws SQLException {
    s.executeUpdate("UPSERT INTO T (ID, N, V) VALUES (1, 1, 'ON')");
    s.executeUpdate(
        "UPSERT INTO T (ID, N, V) VALUES (1, 1, 'ON DUPLICATE KEY IGNORE')"
                .replace("'ON DUPLICATE KEY IGNORE'", "'KEY'")
            + " /* ON DUPLICATE KEY IGNORE */ ON DUPLICATE KEY UPDATE V = 'dup'");
    assertThat(rows()).containsExactly("1,1,null,dup");
  }

  @Test
  void explainShowsTheClause() throws SQLException {
    List<String> lines = new ArrayList<>();
    try (ResultSet rs =
        s.executeQuery(
            "EXPLAIN UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE N = N + 1")) {
      while (rs.next()) {
        lines.add(rs.getString(1));
      }
    }
    assertThat(lines.get(0))
        .isEqualTo("UPSERT INTO PUBLIC.T (ID, N) ON DUPLICATE KEY UPDATE N = (N + 1)");
    try (ResultSet rs =
        s.executeQuery("EXPLAIN UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY IGNORE")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).endsWith(" ON DUPLICATE KEY IGNORE");
    }
  }

  private org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> assertSqlState(
      String sql, String state) {
    return assertThatThrownBy(() -> s.executeUpdate(sql))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).as(sql).isEqualTo(state));
  }
}
