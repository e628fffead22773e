package io.cairn.it.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cancel and the query timeout against a real server process: a nested-loop join whose probe of one
 * left row walks 100,000 build rows (it took 25-50 s to stop: the probe loop did not check) stops
 * within a second of {@code Statement.cancel()}, and within about two seconds under {@code
 * setQueryTimeout(1)}; the connection, and other clients, go on.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerCancel {
  private static final String NESTED_LOOP =
      "SELECT COUNT(*) FROM (SELECT ID / 2 AS K, MAX(V) AS V FROM BIG GROUP BY ID / 2) L"
          + " JOIN (SELECT ID / 2 AS K, MIN(V) AS V FROM BIG GROUP BY ID / 2) R"
          + " ON MOD(L.V * 31 + R.V, 100003) < 0";

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path temp;

  private static ServerProcess server;

  @BeforeAll
  static void startServerWithRows() throws Exception {
    server = ServerProcess.options(temp).heap("512m").name("cancel").start();
    try (Connection c = DriverManager.getConnection(url());
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE SEED (ID INTEGER PRIMARY KEY)");
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < 500; i++) {
        values.append(i == 0 ? "" : ", ").append('(').append(i).append(')');
      }
      s.executeUpdate("UPSERT INTO SEED VALUES " + values);
      s.executeUpdate("CREATE TABLE BIG (ID INTEGER PRIMARY KEY, V INTEGER)");
      s.executeUpdate(
          "UPSERT INTO BIG SELECT A.ID * 1000 + B.ID, MOD(A.ID * 7919 + B.ID, 10007)"
              + " FROM SEED A, SEED B WHERE B.ID < 400");
      assertThat(count(s, "SELECT COUNT(*) FROM BIG")).isEqualTo(200_000);
    }
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private static String url() {
    return "jdbc:cairn://127.0.0.1:" + server.port() + ";connectTimeout=5s;requestTimeout=30s";
  }

  private static long count(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  private static SQLException failure(Future<?> running, long millis) throws Exception {
    try {
      running.get(millis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(SQLException.class);
      return (SQLException) e.getCause();
    }
    throw new AssertionError("the query completed instead of failing");
  }

  @Test
  void cancelStopsANestedLoopJoinWithinASecond() throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try (Connection c = DriverManager.getConnection(url());
        Connection other = DriverManager.getConnection(url())) {
      Statement statement = c.createStatement();
      Future<Long> running = executor.submit(() -> count(statement, NESTED_LOOP));
      assertThatThrownBy(() -> running.get(1_500, TimeUnit.MILLISECONDS))
          .as("the join runs long enough to be cancelled")
          .isInstanceOf(TimeoutException.class);
      long start = System.nanoTime();
      statement.cancel();
      SQLException e = failure(running, 30_000);
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(e.getSQLState()).isEqualTo("57014");
      assertThat(millis).as("milliseconds from cancel() to the failure").isLessThanOrEqualTo(1_000);
      // the connection and another client go on
      try (Statement s = c.createStatement();
          Statement o = other.createStatement()) {
        assertThat(count(s, "SELECT COUNT(*) FROM BIG WHERE ID < 10")).isEqualTo(10);
        assertThat(count(o, "SELECT COUNT(*) FROM SEED")).isEqualTo(500);
      }
    } finally {
      executor.shutdownNow();
    }
  }

  @Test
  void queryTimeoutStopsANestedLoopJoin() throws Exception {
    try (Connection c = DriverManager.getConnection(url());
        Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      long start = System.nanoTime();
      assertThatThrownBy(() -> count(s, NESTED_LOOP))
          .isInstanceOfSatisfying(
              SQLTimeoutException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(millis).as("milliseconds to the timeout's failure").isLessThanOrEqualTo(2_500);
      s.setQueryTimeout(0);
      assertThat(count(s, "SELECT COUNT(*) FROM SEED")).isEqualTo(500);
    }
  }
}
