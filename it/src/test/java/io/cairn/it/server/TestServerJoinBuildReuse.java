package io.cairn.it.server;

import static io.cairn.it.server.ServerChecks.RELEASE_PATIENCE;
import static io.cairn.it.server.ServerChecks.awaitValue;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A prepared statement's broadcast join build side kept on a real server process between
 * executions: the server's hash cache memory ({@code io.cairn:type=Server} HashCacheBytes) holds it
 * while the statement is open, does not grow when the statement runs again, and goes back to zero
 * when the statement closes, and when a connection holding one closes without closing its
 * statement.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerJoinBuildReuse {
  private static final String JOIN = "SELECT COUNT(*) FROM P JOIN B ON P.K = B.K WHERE B.ID < ?";

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path temp;

  private static ServerProcess server;

  @BeforeAll
  static void startServerWithTables() throws Exception {
    server = ServerProcess.options(temp).name("join-reuse").start();
    try (Connection c = DriverManager.getConnection(url());
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE P (ID INTEGER PRIMARY KEY, K INTEGER) SPLIT ON (200)");
      s.executeUpdate("CREATE TABLE B (ID INTEGER PRIMARY KEY, K INTEGER, NAME VARCHAR(10))");
      StringBuilder p = new StringBuilder();
      for (int i = 0; i < 400; i++) {
        p.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(i % 50).append(')');
      }
      s.executeUpdate("UPSERT INTO P VALUES " + p);
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < 20; i++) {
        b.append(i == 0 ? "" : ", ")
            .append('(')
            .append(i)
            .append(", ")
            .append(i * 2)
            .append(", 'n")
            .append(i)
            .append("')");
      }
      s.executeUpdate("UPSERT INTO B VALUES " + b);
      try (ResultSet rs = s.executeQuery("EXPLAIN " + JOIN.replace("?", "10"))) {
        StringBuilder plan = new StringBuilder();
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
        assertThat(plan.toString()).contains("SERVER HASH JOIN PROBE");
      }
    }
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      try {
        ServerChecks.stopAndAssertNoLeaks(server);
      } finally {
        server.close();
      }
    }
  }

  private static String url() {
    return "jdbc:cairn://127.0.0.1:" + server.port() + ";connectTimeout=5s;requestTimeout=30s";
  }

  /** Rows of P whose K is twice one of B's first {@code limit} IDs: 8 of P's per B row below 25. */
  private static long run(PreparedStatement s, int limit) throws Exception {
    s.setInt(1, limit);
    try (ResultSet rs = s.executeQuery()) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  private static long hashCacheBytes() throws Exception {
    return server.serverMetric("HashCacheBytes");
  }

  @Test
  void aKeptBuildSideHoldsServerMemoryUntilItsStatementCloses() throws Exception {
    awaitValue(
        "hash cache bytes before", TestServerJoinBuildReuse::hashCacheBytes, 0L, RELEASE_PATIENCE);
    try (Connection c = DriverManager.getConnection(url())) {
      PreparedStatement s = c.prepareStatement(JOIN);
      assertThat(run(s, 10)).isEqualTo(80);
      long kept = hashCacheBytes();
      assertThat(kept).as("the build side kept on the server between executions").isPositive();
      assertThat(run(s, 10)).isEqualTo(80);
      assertThat(run(s, 10)).isEqualTo(80);
      assertThat(hashCacheBytes()).as("reused, not sent again").isEqualTo(kept);
      s.close();
      awaitValue(
          "hash cache bytes after the statement closed",
          TestServerJoinBuildReuse::hashCacheBytes,
          0L,
          RELEASE_PATIENCE);
    }
  }

  @Test
  void aConnectionClosedWithAKeptBuildSideGivesItsMemoryBack() throws Exception {
    awaitValue(
        "hash cache bytes before", TestServerJoinBuildReuse::hashCacheBytes, 0L, RELEASE_PATIENCE);
    Connection c = DriverManager.getConnection(url());
    PreparedStatement s = c.prepareStatement(JOIN);
    assertThat(run(s, 5)).isEqualTo(40);
    assertThat(hashCacheBytes()).isPositive();
    c.close(); // the statement left open
    awaitValue(
        "hash cache bytes after the connection closed",
        TestServerJoinBuildReuse::hashCacheBytes,
        0L,
        RELEASE_PATIENCE);
    ServerChecks.assertServes(server);
  }
}
