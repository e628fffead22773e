package io.cairn.jdbc.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.planner.CairnPlanner;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
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
  void ddlPlansAreNotCached() throws SQLException {
    String name = "mem:plans-" + UUID.randomUUID();
    try (Connection connection = DriverManager.getConnection("jdbc:cairn:" + name)) {
      CairnPlanner planner = EmbeddedDatabase.acquireInMemory(name).planner();
      String ddl = "CREATE TABLE IF NOT EXISTS X (ID INTEGER PRIMARY KEY)";
      assertThat(planner.plan(ddl)).isNotSameAs(planner.plan(ddl));
    }
  }
}
