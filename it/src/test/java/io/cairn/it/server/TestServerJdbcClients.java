package io.cairn.it.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same robustness through the JDBC driver ({@code jdbc:cairn://HOST:PORT}): writes that {@code
 * executeUpdate} acknowledged survive a graceful stop and a new server process, and JDBC clients
 * connected while the server shuts down get SQL errors with the server's SQLStates, never a hang.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerJdbcClients {
  private static final int WRITERS = 16;
  private static final Duration WRITE_TIME = Duration.ofSeconds(6);

  /** A JDBC call during a shutdown must end within this: an error or an answer, never a hang. */
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  /** SQLStates of SERVER_SHUTTING_DOWN, CONNECTION_LOST and CONNECTION_FAILED. */
  private static final List<String> SERVER_GONE = List.of("57P01", "08006", "08001");

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path temp;

  private static String url(ServerProcess server) {
    return "jdbc:cairn://127.0.0.1:" + server.port() + ";connectTimeout=5s;requestTimeout=20s";
  }

  @Test
  void writesAcknowledgedThroughJdbcSurviveAGracefulRestart() throws Exception {
    Path data = temp.resolve("data");
    Map<Long, String> acknowledged = new ConcurrentHashMap<>();
    List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    try (ServerProcess server =
        ServerProcess.options(temp).data(data).heap("512m").name("jdbc-1").start()) {
      try (Connection c = DriverManager.getConnection(url(server));
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE W (K BIGINT PRIMARY KEY, V VARCHAR(40), N INTEGER)");
      }
      long deadline = System.nanoTime() + WRITE_TIME.toNanos();
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      try {
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          long first = w * 1_000_000L;
          writers.add(
              pool.submit(
                  (Callable<Void>)
                      () -> {
                        write(server, first, deadline, acknowledged, failures);
                        return null;
                      }));
        }
        for (Future<?> f : writers) {
          f.get(WRITE_TIME.toSeconds() + 60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      System.err.printf(
          "TestServerJdbcClients: %s writers acknowledged %s UPSERTs in %s%n",
          WRITERS, acknowledged.size(), WRITE_TIME);
      assertThat(failures).as("JDBC errors while writing").isEmpty();
      assertThat(acknowledged).as("acknowledged rows").hasSizeGreaterThan(WRITERS);
      assertEqualsTable(server, acknowledged, "before the stop");
      ServerChecks.stopAndAssertNoLeaks(server);
    }
    try (ServerProcess again =
        ServerProcess.options(temp).data(data).heap("512m").name("jdbc-2").start()) {
      assertEqualsTable(again, acknowledged, "after a graceful stop and a restart");
      ServerChecks.stopAndAssertNoLeaks(again);
    }
  }

  /** One writer: UPSERTs (autocommit) of its own keys, and reads of them back, until deadline. */
  private static void write(
      ServerProcess server,
      long first,
      long deadline,
      Map<Long, String> acknowledged,
      List<String> failures)
      throws SQLException {
    try (Connection c = DriverManager.getConnection(url(server));
        PreparedStatement upsert = c.prepareStatement("UPSERT INTO W VALUES (?, ?, ?)");
        PreparedStatement count =
            c.prepareStatement("SELECT COUNT(*) FROM W WHERE K >= ? AND K < ?")) {
      long k = first;
      int written = 0;
      while (System.nanoTime() < deadline) {
        String v = "w" + k;
        upsert.setLong(1, k);
        upsert.setString(2, v);
        upsert.setInt(3, written);
        try {
          assertThat(upsert.executeUpdate()).isEqualTo(1);
          acknowledged.put(k, v);
          written++;
        } catch (SQLException e) {
          failures.add("UPSERT of " + k + ": [" + e.getSQLState() + "] " + e.getMessage());
        }
        k++;
        if (written % 25 == 0) {
          count.setLong(1, first);
          count.setLong(2, first + 1_000_000L);
          try (ResultSet rs = count.executeQuery()) {
            assertThat(rs.next()).isTrue();
            if (rs.getLong(1) != written) {
              failures.add(
                  "read your writes: "
                      + rs.getLong(1)
                      + " rows from "
                      + first
                      + ", wrote "
                      + written);
            }
          }
        }
      }
    }
  }

  private static void assertEqualsTable(
      ServerProcess server, Map<Long, String> expected, String when) throws SQLException {
    Map<Long, String> found = new TreeMap<>();
    try (Connection c = DriverManager.getConnection(url(server));
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT K, V FROM W")) {
      while (rs.next()) {
        found.put(rs.getLong(1), rs.getString(2));
      }
    }
    assertThat(found)
        .as("the table %s: every acknowledged row, nothing else", when)
        .isEqualTo(new TreeMap<>(expected));
  }

  @Test
  void jdbcClientsDuringAShutdownGetErrorsNotHangs() throws Exception {
    try (ServerProcess server =
        ServerProcess.options(temp)
            .set("shutdown-timeout", "5s")
            .set("page.max-rows", "100")
            .name("jdbc-shutdown")
            .start()) {
      Connection idle = DriverManager.getConnection(url(server));
      Connection reading = DriverManager.getConnection(url(server));
      try (Statement s = reading.createStatement()) {
        s.execute("CREATE TABLE R (K INTEGER PRIMARY KEY, V VARCHAR(300))");
        try (PreparedStatement p = reading.prepareStatement("UPSERT INTO R VALUES (?, ?)")) {
          for (int k = 0; k < 5000; k++) {
            p.setInt(1, k);
            p.setString(2, KvRows.padded(k, 300));
            p.addBatch();
          }
          p.executeBatch();
        }
      }
      Statement query = reading.createStatement();
      query.setFetchSize(100);
      ResultSet rs = query.executeQuery("SELECT K, V FROM R");
      for (int i = 0; i < 150; i++) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(i);
      }

      CompletableFuture<Integer> exit = stopInBackground(server);
      try {
        // the open result set: the rows it has, then an error naming the server's going
        SQLException e =
            within(
                "the open result set's next rows",
                () -> {
                  int n = 150;
                  try {
                    while (rs.next()) {
                      assertThat(rs.getInt(1)).isEqualTo(n);
                      n++;
                    }
                  } catch (SQLException thrown) {
                    return thrown;
                  }
                  return fail("the result set ended after %s of 5000 rows without an error", n);
                });
        System.err.println("TestServerJdbcClients: the open result set got " + e);
        assertThat(e.getSQLState()).as("SQLState of %s", e).isIn(SERVER_GONE);

        // the idle connection: its next statement fails the same way, or ends without one
        within(
            "a statement on the idle connection",
            () -> {
              assertThatThrownBy(
                      () -> {
                        try (Statement s = idle.createStatement();
                            ResultSet r = s.executeQuery("SELECT COUNT(*) FROM R")) {
                          r.next();
                        }
                      })
                  .isInstanceOfSatisfying(
                      SQLException.class,
                      thrown -> assertThat(thrown.getSQLState()).isIn(SERVER_GONE));
              return null;
            });
        assertThat(exit.get(PATIENCE.toSeconds() + 30, TimeUnit.SECONDS)).isIn(0, 143);
        assertThat(server.leakReports()).as("leak reports in %s", server.log()).isEmpty();

        // once the server is gone, connecting fails fast with CONNECTION_FAILED
        within(
            "a new connection to the stopped server",
            () -> {
              assertThatThrownBy(() -> DriverManager.getConnection(url(server)).close())
                  .isInstanceOfSatisfying(
                      SQLException.class,
                      thrown -> assertThat(thrown.getSQLState()).isEqualTo("08001"));
              return null;
            });
      } finally {
        within("closing the JDBC objects", () -> closeAll(rs, query, reading, idle));
      }
    }
  }

  private static Void closeAll(AutoCloseable... resources) {
    for (AutoCloseable r : resources) {
      try {
        r.close();
      } catch (Exception e) {
        // the server is gone: closing may report it
      }
    }
    return null;
  }

  private static CompletableFuture<Integer> stopInBackground(ServerProcess server) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return server.stop();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        });
  }

  /**
   * Runs {@code work} on another thread; fails naming {@code what} if it takes {@link #PATIENCE}.
   */
  private static <T> T within(String what, Callable<T> work) throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try {
      Future<T> future = executor.submit(work);
      try {
        return future.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        future.cancel(true);
        throw new AssertionError("hang: " + what + " did not end within " + PATIENCE, e);
      } catch (java.util.concurrent.ExecutionException e) {
        if (e.getCause() instanceof Exception cause) {
          throw cause;
        }
        throw (Error) e.getCause();
      }
    } finally {
      executor.shutdownNow();
    }
  }
}
