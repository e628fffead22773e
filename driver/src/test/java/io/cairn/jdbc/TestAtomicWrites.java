package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Read-modify-write statements are atomic per row against concurrent writers (issue 14): UPDATE,
 * UPSERT ... ON DUPLICATE KEY UPDATE and DELETE write on condition that the rows they read are
 * unchanged since their snapshot and run again when they are not; and every chunk of a statement
 * reads one snapshot. Embedded in memory and on disk, and against a server and on HBase in the
 * contract runs (HBase has no read points: each row is written on condition that it still holds the
 * value read).
 */
class TestAtomicWrites {
  private static final int THREADS = 8;
  private static final int PER_THREAD = 125;

  @TempDir static Path dir;

  static Stream<String> urls() {
    String name = "atomic-" + UUID.randomUUID();
    if (TestUrls.remote() || TestUrls.hbase()) {
      return Stream.of(TestUrls.database(name));
    }
    return Stream.of(TestUrls.database(name), "jdbc:cairn:file:" + dir.resolve(name));
  }

  private static void execute(String url, String... statements) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  private static long single(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  /** Runs {@code task} in {@value #THREADS} threads with a connection each, started together. */
  private static void concurrently(String url, ConnectionTask task) throws Exception {
    CyclicBarrier start = new CyclicBarrier(THREADS);
    ExecutorService executor = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<Void>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        Callable<Void> call =
            () -> {
              try (Connection c = DriverManager.getConnection(url)) {
                start.await(30, TimeUnit.SECONDS);
                task.run(c, thread);
              }
              return null;
            };
        futures.add(executor.submit(call));
      }
      for (Future<Void> f : futures) {
        f.get(300, TimeUnit.SECONDS);
      }
    } finally {
      executor.shutdownNow();
    }
  }

  private interface ConnectionTask {
    void run(Connection c, int thread) throws Exception;
  }

  @ParameterizedTest
  @MethodSource("urls")
  void concurrentIncrementsByUpdateLoseNothing(String url) throws Exception {
    execute(
        url,
        "CREATE TABLE CTR (ID INTEGER PRIMARY KEY, N INTEGER NOT NULL)",
        "UPSERT INTO CTR VALUES (1, 0)",
        "UPSERT INTO CTR VALUES (2, 0)");
    concurrently(
        url,
        (c, thread) -> {
          try (PreparedStatement update =
              c.prepareStatement("UPDATE CTR SET N = N + 1 WHERE ID = 1")) {
            for (int i = 0; i < PER_THREAD; i++) {
              assertThat(update.executeUpdate()).isEqualTo(1);
            }
          }
        });
    assertThat(single(url, "SELECT N FROM CTR WHERE ID = 1")).isEqualTo(THREADS * PER_THREAD);
    assertThat(single(url, "SELECT N FROM CTR WHERE ID = 2")).isZero();
  }

  @ParameterizedTest
  @MethodSource("urls")
  void concurrentIncrementsByOnDuplicateKeyUpdateLoseNothing(String url) throws Exception {
    execute(url, "CREATE TABLE CTR (ID INTEGER PRIMARY KEY, N INTEGER NOT NULL)");
    concurrently(
        url,
        (c, thread) -> {
          try (PreparedStatement upsert =
              c.prepareStatement(
                  "UPSERT INTO CTR (ID, N) VALUES (1, 1) ON DUPLICATE KEY UPDATE N = N + 1")) {
            for (int i = 0; i < PER_THREAD; i++) {
              assertThat(upsert.executeUpdate()).isEqualTo(1);
            }
          }
        });
    // the first one inserted the row with N = 1, every other one added 1
    assertThat(single(url, "SELECT N FROM CTR WHERE ID = 1")).isEqualTo(THREADS * PER_THREAD);
  }

  @ParameterizedTest
  @MethodSource("urls")
  void concurrentIncrementsOfManyRowsByOneUpdateLoseNothing(String url) throws Exception {
    execute(url, "CREATE TABLE CTR (ID INTEGER PRIMARY KEY, N INTEGER NOT NULL)");
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement p = c.prepareStatement("UPSERT INTO CTR VALUES (?, 0)")) {
      for (int id = 0; id < 20; id++) {
        p.setInt(1, id);
        p.executeUpdate();
      }
    }
    concurrently(
        url,
        (c, thread) -> {
          try (PreparedStatement update =
              c.prepareStatement("UPDATE CTR SET N = N + 1 WHERE ID >= ? AND ID < ?")) {
            for (int i = 0; i < 40; i++) {
              int from = (thread + i) % 10;
              update.setInt(1, from);
              update.setInt(2, from + 10);
              assertThat(update.executeUpdate()).isEqualTo(10);
            }
          }
        });
    // every statement added 1 to 10 rows
    assertThat(single(url, "SELECT SUM(N) FROM CTR")).isEqualTo(THREADS * 40 * 10L);
  }

  @ParameterizedTest
  @MethodSource("urls")
  void anUpdateRacingADeleteDoesNotBringTheRowBack(String url) throws Exception {
    int rows = 200;
    execute(url, "CREATE TABLE T (ID INTEGER PRIMARY KEY, N INTEGER NOT NULL)");
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement p = c.prepareStatement("UPSERT INTO T VALUES (?, 0)")) {
      for (int id = 0; id < rows; id++) {
        p.setInt(1, id);
        p.executeUpdate();
      }
    }
    AtomicBoolean deleted = new AtomicBoolean();
    concurrently(
        url,
        (c, thread) -> {
          if (thread == 0) {
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM T WHERE ID = ?")) {
              for (int id = 0; id < rows; id++) {
                delete.setInt(1, id);
                assertThat(delete.executeUpdate()).isEqualTo(1);
              }
            }
            deleted.set(true);
            return;
          }
          try (PreparedStatement update =
              c.prepareStatement("UPDATE T SET N = N + 1 WHERE ID = ?")) {
            while (!deleted.get()) {
              for (int id = thread; id < rows && !deleted.get(); id += THREADS) {
                update.setInt(1, id);
                assertThat(update.executeUpdate()).isBetween(0, 1);
              }
            }
          }
        });
    assertThat(single(url, "SELECT COUNT(*) FROM T")).isZero();
  }

  @ParameterizedTest
  @MethodSource("urls")
  @NotOnHBase(
      "a statement's chunks read one snapshot and a multi-row UPSERT commits atomically: HBase has"
          + " neither (docs/hbase.md)")
  void aParallelScanReadsOneSnapshotWhileTransfersCommit(String url) throws Exception {
    int accounts = 4000;
    // 8 regions: 8 chunks, read in parallel
    execute(
        url,
        "CREATE TABLE ACCT (ID INTEGER PRIMARY KEY, BAL BIGINT NOT NULL)"
            + " SPLIT ON (500, 1000, 1500, 2000, 2500, 3000, 3500)");
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        PreparedStatement p = c.prepareStatement("UPSERT INTO ACCT VALUES (?, 100)")) {
      for (int id = 0; id < accounts; id++) {
        p.setInt(1, id);
        p.addBatch();
      }
      p.executeBatch();
      try (ResultSet rs = s.executeQuery("EXPLAIN SELECT SUM(BAL) FROM ACCT")) {
        StringBuilder plan = new StringBuilder();
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
        assertThat(plan.toString()).contains("8-CHUNK");
      }
    }
    long total = 100L * accounts;
    AtomicBoolean done = new AtomicBoolean();
    concurrently(
        url + ";parallelism=8",
        (c, thread) -> {
          if (thread == 0) {
            // one writer: moves money between accounts far apart (other chunks) atomically
            long[] balance = new long[accounts];
            java.util.Arrays.fill(balance, 100);
            try (PreparedStatement transfer =
                c.prepareStatement("UPSERT INTO ACCT VALUES (?, ?), (?, ?)")) {
              for (int i = 0; i < 1500; i++) {
                int from = (i * 7) % accounts;
                int to = accounts - 1 - from;
                if (from == to) {
                  continue;
                }
                balance[from] -= 5;
                balance[to] += 5;
                transfer.setInt(1, from);
                transfer.setLong(2, balance[from]);
                transfer.setInt(3, to);
                transfer.setLong(4, balance[to]);
                transfer.executeUpdate();
              }
            } finally {
              done.set(true);
            }
            return;
          }
          try (PreparedStatement sum = c.prepareStatement("SELECT SUM(BAL), COUNT(*) FROM ACCT");
              PreparedStatement rows = c.prepareStatement("SELECT BAL FROM ACCT")) {
            int runs = 0;
            while (!done.get() || runs < 3) {
              try (ResultSet rs = sum.executeQuery()) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).as("sum of a snapshot").isEqualTo(total);
                assertThat(rs.getLong(2)).isEqualTo(accounts);
              }
              if (thread == 1) {
                long seen = 0;
                try (ResultSet rs = rows.executeQuery()) {
                  while (rs.next()) {
                    seen += rs.getLong(1);
                  }
                }
                assertThat(seen).as("rows of a snapshot").isEqualTo(total);
              }
              runs++;
            }
          }
        });
    assertThat(single(url, "SELECT SUM(BAL) FROM ACCT")).isEqualTo(total);
  }
}
