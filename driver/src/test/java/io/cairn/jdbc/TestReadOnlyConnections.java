package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@code Connection.setReadOnly(true)} refuses DML and DDL (25006); queries run. */
class TestReadOnlyConnections {
  @Test
  void aReadOnlyConnectionRefusesWritesAndRunsQueries() throws SQLException {
    try (Connection c = DriverManager.getConnection(TestUrls.database("ro-" + UUID.randomUUID()));
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, N INTEGER)");
      s.executeUpdate("UPSERT INTO T VALUES (1, 1)");
      PreparedStatement prepared = c.prepareStatement("UPSERT INTO T VALUES (?, 0)");
      c.setReadOnly(true);
      assertThat(c.isReadOnly()).isTrue();
      for (String sql :
          new String[] {
            "UPSERT INTO T VALUES (2, 2)",
            "INSERT INTO T VALUES (3, 3)",
            "UPDATE T SET N = 5",
            "DELETE FROM T",
            "UPSERT INTO T (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE N = N + 1",
            "CREATE TABLE U (ID INTEGER PRIMARY KEY)",
            "DROP TABLE T",
            "ALTER TABLE T SET TTL = 100"
          }) {
        assertThatThrownBy(() -> s.executeUpdate(sql))
            .as(sql)
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25006"))
            .hasMessageContaining("read-only");
      }
      prepared.setInt(1, 9);
      assertThatThrownBy(prepared::executeUpdate)
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25006"));
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(N) FROM T")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(1);
        assertThat(rs.getLong(2)).isEqualTo(1);
      }
      try (ResultSet rs = s.executeQuery("EXPLAIN UPSERT INTO T VALUES (2, 2)")) {
        assertThat(rs.next()).isTrue();
      }
      c.setReadOnly(false);
      assertThat(prepared.executeUpdate()).isEqualTo(1);
      assertThat(s.executeUpdate("UPDATE T SET N = 5")).isEqualTo(2);
      prepared.close();
    }
  }
}
