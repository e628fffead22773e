package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The driver's join and sort spill past {@code queryMemoryMaxBytes} on either engine (the remote
 * contract runs this class against a server): the same answer as without a limit, and a warning.
 */
class TestSpillingOperators {
  private static final int ROWS = 2000;

  private static List<String> rows(Connection c, String sql, List<String> warnings)
      throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
      }
      for (SQLWarning w = rs.getWarnings(); w != null; w = w.getNextWarning()) {
        warnings.add(w.getMessage());
      }
    }
    return rows;
  }

  @Test
  void joinAndSortSpillWithTheSameAnswer() throws SQLException {
    String url = TestUrls.database("spilling-" + UUID.randomUUID());
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE A (ID INTEGER PRIMARY KEY, K INTEGER, S VARCHAR(200))");
      try (PreparedStatement ps = c.prepareStatement("UPSERT INTO A VALUES (?, ?, ?)")) {
        for (int i = 0; i < ROWS; i++) {
          ps.setInt(1, i);
          ps.setInt(2, i % 400);
          ps.setString(3, "s-" + (i * 31 % ROWS) + "-" + "z".repeat(100));
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
    // the client's hash join (a join probed in the store holds its whole build side)
    String sql =
        "SELECT /*+ NO_SERVER_JOIN */ X.ID, Y.ID, Y.S FROM A X JOIN A Y ON X.K = Y.K"
            + " ORDER BY Y.S, X.ID, Y.ID";
    List<String> none = new ArrayList<>();
    List<String> expected;
    try (Connection c = DriverManager.getConnection(url)) {
      expected = rows(c, sql, none);
    }
    assertThat(none).isEmpty();
    List<String> warnings = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url + ";queryMemoryMaxBytes=64k")) {
      assertThat(rows(c, sql, warnings)).isEqualTo(expected).hasSize(ROWS * 5);
    }
    assertThat(warnings)
        .anySatisfy(w -> assertThat(w).startsWith("hash join spilled"))
        .anySatisfy(w -> assertThat(w).startsWith("sort spilled"));
  }
}
