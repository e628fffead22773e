package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Plan reuse seen from outside: re-running the same text (cached plan) gives fresh results, and a
 * catalog change makes the same text see the new table.
 */
class TestEmbeddedPlanReuse {
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("reuse-" + UUID.randomUUID()));
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private String single(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      String value = rs.getString(1);
      assertThat(rs.next()).isFalse();
      return value;
    }
  }

  @Test
  void sameTextSeesNewDataEachTime() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, V INTEGER)");
      for (int i = 1; i <= 20; i++) {
        s.executeUpdate("UPSERT INTO T VALUES (" + i + ", " + i + ")");
        assertThat(single(s, "SELECT COUNT(*) FROM T")).isEqualTo(Integer.toString(i));
        assertThat(single(s, "SELECT SUM(V) FROM T")).isEqualTo(Integer.toString(i * (i + 1) / 2));
      }
    }
  }

  @Test
  void sameTextAfterDropAndRecreateUsesTheNewTable() throws SQLException {
    String query = "SELECT * FROM T";
    try (Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, V INTEGER)");
      s.executeUpdate("UPSERT INTO T VALUES (1, 10)");
      try (ResultSet rs = s.executeQuery(query)) {
        assertThat(rs.getMetaData().getColumnCount()).isEqualTo(2);
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(2)).isEqualTo(10);
      }
      s.executeUpdate("DROP TABLE T");
      s.executeUpdate("CREATE TABLE T (K VARCHAR(5) PRIMARY KEY, A INTEGER, B VARCHAR(5))");
      s.executeUpdate("UPSERT INTO T VALUES ('x', 1, 'bee')");
      try (ResultSet rs = s.executeQuery(query)) {
        ResultSetMetaData md = rs.getMetaData();
        assertThat(md.getColumnCount()).isEqualTo(3);
        assertThat(md.getColumnLabel(1)).isEqualTo("K");
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("x");
        assertThat(rs.getString(3)).isEqualTo("bee");
        assertThat(rs.next()).isFalse();
      }
    }
  }

  @Test
  void preparedStatementsOfTheSameTextAreIndependent() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(5))");
      s.executeUpdate("UPSERT INTO T VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    }
    String sql = "SELECT V FROM T WHERE ID = ?";
    try (PreparedStatement a = connection.prepareStatement(sql);
        PreparedStatement b = connection.prepareStatement(sql)) {
      a.setInt(1, 1);
      b.setInt(1, 3);
      try (ResultSet ra = a.executeQuery();
          ResultSet rb = b.executeQuery()) {
        assertThat(ra.next()).isTrue();
        assertThat(rb.next()).isTrue();
        assertThat(ra.getString(1)).isEqualTo("a");
        assertThat(rb.getString(1)).isEqualTo("c");
      }
    }
  }
}
