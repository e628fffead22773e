package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;

/** Several connections to one in-memory database writing and reading at the same time. */
class TestEmbeddedConcurrency {
  private static final int THREADS = 4;
  private static final int ROWS_PER_THREAD = 500;

  @Test
  void disjointUpsertsFromFourConnections() throws Exception {
    String url = TestUrls.database("concurrency-" + UUID.randomUUID());
    try (Connection setup = DriverManager.getConnection(url);
        Statement s = setup.createStatement()) {
      s.executeUpdate(
          "CREATE TABLE T (ID INTEGER PRIMARY KEY, WRITER INTEGER NOT NULL, V VARCHAR(20))");
    }
    CyclicBarrier start = new CyclicBarrier(THREADS);
    ExecutorService executor = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<Long>> futures = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int writer = t;
        Callable<Long> task =
            () -> {
              try (Connection c = DriverManager.getConnection(url);
                  PreparedStatement upsert = c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?)");
                  PreparedStatement count = c.prepareStatement("SELECT COUNT(*) FROM T");
                  PreparedStatement mine =
                      c.prepareStatement("SELECT COUNT(*) FROM T WHERE WRITER = ?")) {
                start.await(30, TimeUnit.SECONDS);
                long lastTotal = 0;
                for (int i = 0; i < ROWS_PER_THREAD; i++) {
                  upsert.setInt(1, i * THREADS + writer);
                  upsert.setInt(2, writer);
                  upsert.setString(3, "w" + writer + "-" + i);
                  assertThat(upsert.executeUpdate()).isEqualTo(1);
                  if (i % 50 == 49) {
                    long total = single(count);
                    // Everything this connection wrote is committed; others only add rows.
                    assertThat(total).isGreaterThanOrEqualTo(Math.max(lastTotal, i + 1L));
                    lastTotal = total;
                    mine.setInt(1, writer);
                    assertThat(single(mine)).isEqualTo(i + 1L);
                  }
                }
                return lastTotal;
              }
            };
        futures.add(executor.submit(task));
      }
      for (Future<Long> f : futures) {
        assertThat(f.get(120, TimeUnit.SECONDS)).isPositive();
      }
    } finally {
      executor.shutdownNow();
    }
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT COUNT(*), COUNT(DISTINCT ID), MIN(ID), MAX(ID), SUM(WRITER) FROM T")) {
      assertThat(rs.next()).isTrue();
      long rows = (long) THREADS * ROWS_PER_THREAD;
      assertThat(rs.getLong(1)).isEqualTo(rows);
      assertThat(rs.getLong(2)).isEqualTo(rows);
      assertThat(rs.getLong(3)).isZero();
      assertThat(rs.getLong(4)).isEqualTo(rows - 1);
      assertThat(rs.getLong(5)).isEqualTo((long) ROWS_PER_THREAD * (0 + 1 + 2 + 3));
    }
  }

  private static long single(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }
}
