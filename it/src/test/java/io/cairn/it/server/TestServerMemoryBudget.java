package io.cairn.it.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wedge of issue 15 on a small heap: several connections run a GROUP BY with a group per row at
 * once. Before query memory budgets the groups of every scan, each within its own 256 MiB limit,
 * filled a 256 MiB heap together and the server died with OutOfMemoryError while staying up. With
 * the budgets each query gets its answer or 53200 naming the limit, another client is answered
 * meanwhile, the server's reserved bytes go back to 0, and the server still serves.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerMemoryBudget {
  /** The big table's rows: 1536 inserted, then doubled six times with UPSERT SELECT. */
  private static final int FIRST_ROWS = 1536;

  private static final int DOUBLINGS = 7;
  private static final int ROWS = FIRST_ROWS << DOUBLINGS;
  private static final int CLIENTS = 6;

  private static final String GROUP_BY =
      "SELECT s, h, COUNT(*), MAX(g), MIN(s) FROM big GROUP BY s, h";

  /** Settings a 53200 may name: one of the budgets, or the limit of one scan. */
  private static final List<String> LIMITS =
      List.of(
          "[query-memory.max-bytes]",
          "[query-memory.database-max-bytes]",
          "[query-memory.connection-max-bytes]",
          "[cairn.aggregate.max-bytes]",
          "[aggregateMaxBytes (connection property)]");

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path temp;

  private static String url(ServerProcess server) {
    return url(server, 0);
  }

  /**
   * The URL of client {@code client}: the driver multiplexes the JDBC connections of a JVM with the
   * same settings over one server connection, so each client's request timeout differs by a
   * millisecond, which gives it a server connection (and a connection budget) of its own.
   */
  private static String url(ServerProcess server, int client) {
    return "jdbc:cairn://127.0.0.1:"
        + server.port()
        + ";connectTimeout=5s;requestTimeout="
        + (60_000 + client)
        + "ms";
  }

  @Test
  void bigGroupBysAtOnceGetAnswersOr53200AndTheServerKeepsServing() throws Exception {
    try (ServerProcess server =
        ServerProcess.options(temp)
            .heap("256m")
            .jvm("-XX:+ExitOnOutOfMemoryError") // as bin/cairn server runs it
            .name("memory")
            .start()) {
      load(server);

      AtomicBoolean storm = new AtomicBoolean(true);
      List<Long> pingNanos = Collections.synchronizedList(new ArrayList<>());
      List<Long> queryNanos = Collections.synchronizedList(new ArrayList<>());
      List<String> outcomes = Collections.synchronizedList(new ArrayList<>());
      CountDownLatch start = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1);
      try {
        Future<?> other =
            pool.submit(
                (Callable<Void>)
                    () -> {
                      probe(server, storm, pingNanos, queryNanos);
                      return null;
                    });
        List<Future<?>> clients = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
          int client = 1 + i;
          clients.add(
              pool.submit(
                  (Callable<Void>)
                      () -> {
                        start.await();
                        outcomes.add(groupBy(server, client));
                        return null;
                      }));
        }
        start.countDown();
        for (Future<?> f : clients) {
          f.get(150, TimeUnit.SECONDS);
        }
        storm.set(false);
        other.get(30, TimeUnit.SECONDS);
      } finally {
        storm.set(false);
        pool.shutdownNow();
      }
      assertThat(server.isAlive()).as("the server is up\n%s", server.describe()).isTrue();
      System.err.printf(
          "TestServerMemoryBudget: %s rows, %s clients: %s; meanwhile %s pings (max %d ms,"
              + " median %d ms), %s point queries (max %d ms, median %d ms)%n",
          ROWS,
          CLIENTS,
          outcomes,
          pingNanos.size(),
          maxMillis(pingNanos),
          medianMillis(pingNanos),
          queryNanos.size(),
          maxMillis(queryNanos),
          medianMillis(queryNanos));
      assertThat(outcomes).hasSize(CLIENTS);
      for (String outcome : outcomes) {
        assertThat(outcome).matches("answered|53200 naming \\[.*\\]");
      }
      assertThat(pingNanos).as("pings answered during the queries").isNotEmpty();
      assertThat(queryNanos).as("point queries answered during the queries").isNotEmpty();
      // another client waits at most for a worker (a page is bounded by page.max-millis, 1 s,
      // and a reservation's wait by query-memory.wait, 1 s), never for the big queries to end
      assertThat(maxMillis(pingNanos)).as("slowest ping, ms").isLessThan(5_000);
      assertThat(maxMillis(queryNanos)).as("slowest point query, ms").isLessThan(5_000);

      ServerChecks.awaitValue(
          "the server's reserved query memory after the queries",
          () -> server.serverMetric("QueryMemoryBytes"),
          0L,
          ServerChecks.RELEASE_PATIENCE);
      // alone, the same query fits: the server serves it as before
      assertThat(groupBy(server, 1)).isEqualTo("answered");
      ServerChecks.awaitValue(
          "the server's reserved query memory after one more query",
          () -> server.serverMetric("QueryMemoryBytes"),
          0L,
          ServerChecks.RELEASE_PATIENCE);
      ServerChecks.stopAndAssertNoLeaks(server);
    }
  }

  /**
   * big (id BIGINT PK, g INTEGER, h INTEGER, s VARCHAR(40)), s unique, {@link #ROWS} rows; and a
   * small table for the other client.
   */
  private static void load(ServerProcess server) throws SQLException {
    long started = System.nanoTime();
    try (Connection c = DriverManager.getConnection(url(server));
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE big (id BIGINT PRIMARY KEY, g INTEGER, h INTEGER, s VARCHAR(40))");
      s.execute("CREATE TABLE small (k BIGINT PRIMARY KEY, v VARCHAR(20))");
      s.execute("UPSERT INTO small VALUES (1, 'one')");
      try (PreparedStatement insert = c.prepareStatement("UPSERT INTO big VALUES (?, ?, ?, ?)")) {
        for (int id = 0; id < FIRST_ROWS; id++) {
          insert.setLong(1, id);
          insert.setInt(2, id % 1000);
          insert.setInt(3, id % 7);
          insert.setString(4, "s-" + id + "-abcdefghijklmnopqrst");
          insert.addBatch();
        }
        insert.executeBatch();
      }
      for (int i = 0, rows = FIRST_ROWS; i < DOUBLINGS; i++, rows *= 2) {
        s.executeUpdate(
            "UPSERT INTO big SELECT id + "
                + rows
                + ", g, h, 's-' || CAST(id + "
                + rows
                + " AS VARCHAR(20)) || '-abcdefghijklmnopqrst' FROM big");
      }
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(DISTINCT s) FROM big")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(ROWS);
        assertThat(rs.getLong(2)).isEqualTo(ROWS);
      }
    }
    System.err.printf(
        "TestServerMemoryBudget: loaded %s rows in %d ms%n",
        ROWS, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  /**
   * Runs the big GROUP BY on a connection of its own: "answered", or "53200 naming [SETTING]" for
   * an error naming one of {@link #LIMITS}.
   */
  private static String groupBy(ServerProcess server, int client) throws SQLException {
    try (Connection c = DriverManager.getConnection(url(server, client));
        Statement s = c.createStatement()) {
      long groups = 0;
      try (ResultSet rs = s.executeQuery(GROUP_BY)) {
        while (rs.next()) {
          groups++;
        }
      } catch (SQLException e) {
        if ("53200".equals(e.getSQLState())) {
          for (String limit : LIMITS) {
            if (e.getMessage().contains(limit)) {
              return "53200 naming " + limit;
            }
          }
        }
        throw e;
      }
      assertThat(groups).as("groups of the answer").isEqualTo(ROWS);
      return "answered";
    }
  }

  /** Another client: pings and a point query, timed, while {@code storm} holds. */
  private static void probe(
      ServerProcess server, AtomicBoolean storm, List<Long> pingNanos, List<Long> queryNanos)
      throws Exception {
    try (RawClient raw = RawClient.open(server.port(), "memory-probe");
        Connection c = DriverManager.getConnection(url(server));
        PreparedStatement point = c.prepareStatement("SELECT v FROM small WHERE k = ?")) {
      while (storm.get()) {
        long t0 = System.nanoTime();
        assertThat(raw.call(KvRows.ping()).hasPong()).isTrue();
        long t1 = System.nanoTime();
        pingNanos.add(t1 - t0);
        point.setLong(1, 1);
        try (ResultSet rs = point.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1)).isEqualTo("one");
        }
        queryNanos.add(System.nanoTime() - t1);
        Thread.sleep(50); // pacing, so that the probe does not take a core from the server
      }
    }
  }

  private static long maxMillis(List<Long> nanos) {
    synchronized (nanos) {
      return TimeUnit.NANOSECONDS.toMillis(
          nanos.stream().mapToLong(Long::longValue).max().orElse(0));
    }
  }

  private static long medianMillis(List<Long> nanos) {
    synchronized (nanos) {
      if (nanos.isEmpty()) {
        return 0;
      }
      List<Long> sorted = new ArrayList<>(nanos);
      Collections.sort(sorted);
      return TimeUnit.NANOSECONDS.toMillis(sorted.get(sorted.size() / 2));
    }
  }
}
