package io.cairn.jdbc.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.planner.CairnPlanner;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The embedded database's plan cache: same text and catalog version, same plan. */
class TestEmbeddedPlanCache {
  @Test
  void samePlanUntilTheCatalogChanges() throws SQLException {
    String name = "mem:plans-" + UUID.randomUUID();
    try (Connection connection = DriverManager.getConnection("jdbc:cairn:" + name);
        Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(10))");
      CairnPlanner planner = EmbeddedDatabase.acquireInMemory(name).planner();
      assertThat(EmbeddedDatabase.acquireInMemory(name))
          .isSameAs(EmbeddedDatabase.acquireInMemory(name));

      String sql = "SELECT V FROM T WHERE ID = ?";
      var first = planner.plan(sql);
      var second = planner.plan(sql);
      assertThat(second).isSameAs(first);
      // A trailing semicolon is the same statement.
      assertThat(planner.plan(sql + ";")).isSameAs(first);
      // Executing through JDBC uses the same cache.
      s.executeQuery("SELECT V FROM T WHERE ID = 1").close();
      assertThat(planner.plan("SELECT V FROM T WHERE ID = 1"))
          .isSameAs(planner.plan("SELECT V FROM T WHERE ID = 1"));

      // DDL changes the catalog version: the same text is planned again.
      s.executeUpdate("CREATE TABLE OTHER (ID INTEGER PRIMARY KEY)");
      var afterDdl = planner.plan(sql);
      assertThat(afterDdl).isNotSameAs(first);
      assertThat(planner.plan(sql)).isSameAs(afterDdl);
    }
  }

  @Test
  void planIsMadeAgainWhenTableSizesChangeMaterially() throws SQLException {
    String name = "mem:plans-" + UUID.randomUUID();
    try (Connection connection = DriverManager.getConnection("jdbc:cairn:" + name);
        Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE A (ID INTEGER PRIMARY KEY, X INTEGER)");
      s.executeUpdate("CREATE TABLE B (ID INTEGER PRIMARY KEY, Y INTEGER)");
      fill(connection, "A", 1_000);
      fill(connection, "B", 2);
      s.executeUpdate("UPDATE STATISTICS A");
      s.executeUpdate("UPDATE STATISTICS B");
      CairnPlanner planner = EmbeddedDatabase.acquireInMemory(name).planner();
      String join = "SELECT COUNT(*) FROM A JOIN B ON A.X = B.Y";
      var first = planner.plan(join);
      assertThat(planner.plan(join)).isSameAs(first);

      // the sizes swap: a cached plan made for them no longer fits (join order)
      s.executeUpdate("DELETE FROM A WHERE ID >= 2");
      fill(connection, "B", 1_000);
      s.executeUpdate("UPDATE STATISTICS A");
      s.executeUpdate("UPDATE STATISTICS B");
      assertThat(planner.isCurrent(first)).isFalse();
      var second = planner.plan(join);
      assertThat(second).isNotSameAs(first);
      assertThat(second.tables())
          .extracting(u -> u.table().tableName() + "=" + u.rowCount())
          .containsExactlyInAnyOrder("A=2", "B=1000");
      assertThat(planner.plan(join)).isSameAs(second);
    }
  }

  @Test
  void joinOrderFollowsTheSizesAfterUpdateStatistics() throws SQLException {
    // the cached plan kept its join order after the table sizes changed completely
    String name = "mem:plans-" + UUID.randomUUID();
    try (Connection connection = DriverManager.getConnection("jdbc:cairn:" + name);
        Statement s = connection.createStatement()) {
      for (String table : List.of("BIG", "SMALL", "MID")) {
        s.executeUpdate("CREATE TABLE " + table + " (ID INTEGER PRIMARY KEY, Y INTEGER)");
      }
      fill(connection, "BIG", 2_000);
      fill(connection, "SMALL", 2);
      fill(connection, "MID", 3);
      s.executeUpdate("UPDATE STATISTICS BIG");
      s.executeUpdate("UPDATE STATISTICS SMALL");
      String query =
          "EXPLAIN SELECT COUNT(*) FROM BIG, SMALL, MID WHERE BIG.Y = SMALL.Y AND SMALL.ID = MID.ID";
      List<String> before = scans(s, query);
      assertThat(before.get(0)).contains("BIG");

      s.executeUpdate("DELETE FROM BIG WHERE ID >= 2");
      fill(connection, "SMALL", 2_000);
      s.executeUpdate("UPDATE STATISTICS BIG");
      s.executeUpdate("UPDATE STATISTICS SMALL");
      List<String> after = scans(s, query);
      assertThat(after).isNotEqualTo(before);
      assertThat(after.get(0)).contains("SMALL");
    }
  }

  /** The tables an EXPLAIN scans, in the order it lists them. */
  private static List<String> scans(Statement s, String explain) throws SQLException {
    List<String> scans = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(explain)) {
      while (rs.next()) {
        String line = rs.getString(1);
        int over = line.indexOf(" OVER ");
        if (over >= 0) {
          String table = line.substring(over + " OVER ".length());
          int end = table.indexOf(' ');
          scans.add(end < 0 ? table : table.substring(0, end));
        }
      }
    }
    return scans;
  }

  private static void fill(Connection connection, String table, int rows) throws SQLException {
    try (var ps = connection.prepareStatement("UPSERT INTO " + table + " VALUES (?, ?)")) {
      for (int i = 0; i < rows; i++) {
        ps.setInt(1, i);
        ps.setInt(2, i % 10);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  @Test
  void ddlPlansAreNotCached() throws SQLException {
    String name = "mem:plans-" + UUID.randomUUID();
    try (Connection connection = DriverManager.getConnection("jdbc:cairn:" + name)) {
      CairnPlanner planner = EmbeddedDatabase.acquireInMemory(name).planner();
      String ddl = "CREATE TABLE IF NOT EXISTS X (ID INTEGER PRIMARY KEY)";
      assertThat(planner.plan(ddl)).isNotSameAs(planner.plan(ddl));
    }
  }
}
