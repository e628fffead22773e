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
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Every chunk and page of a statement reads one snapshot: a SUM over a table of accounts whose
 * total never changes, scanned in many parallel chunks while other connections commit transfers
 * between accounts (each transfer one atomic commit of two rows), always gives the total. Before
 * statement snapshots each chunk read its own, and most such sums came out wrong.
 */
@NotOnHBase("a parallel sum at one snapshot: HBase has no store-wide read points (LATEST_PER_ROW)")
class TestConsistentSums {
  private static final int ACCOUNTS = 4_000;
  private static final long BALANCE = 100;

  @Test
  void aParallelSumNeverSeesHalfOfATransfer() throws Exception {
    String url = TestUrls.database("snapshots-" + UUID.randomUUID());
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      // small guide posts and two regions: many chunks, read in parallel pages
      s.executeUpdate(
          "CREATE TABLE ACCOUNTS (ID INTEGER PRIMARY KEY, BALANCE BIGINT NOT NULL,"
              + " NOTE VARCHAR(40)) GUIDE_POSTS_WIDTH=4000 SPLIT ON (2000)");
      c.setAutoCommit(false);
      try (PreparedStatement p = c.prepareStatement("UPSERT INTO ACCOUNTS VALUES (?, ?, ?)")) {
        for (int i = 0; i < ACCOUNTS; i++) {
          p.setInt(1, i);
          p.setLong(2, BALANCE);
          p.setString(3, "account number " + i);
          p.addBatch();
        }
        p.executeBatch();
      }
      c.commit();
      c.setAutoCommit(true);
      s.executeUpdate("UPDATE STATISTICS ACCOUNTS");
      StringBuilder plan = new StringBuilder();
      try (ResultSet rs = s.executeQuery("EXPLAIN SELECT SUM(BALANCE) FROM ACCOUNTS")) {
        while (rs.next()) {
          plan.append(rs.getString(1)).append('\n');
        }
      }
      assertThat(plan.toString()).containsPattern("PARALLEL \\d+-WAY \\d+-CHUNK");
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong transfers = new AtomicLong();
    ExecutorService writers = Executors.newFixedThreadPool(2);
    List<Future<?>> running = new ArrayList<>();
    for (int w = 0; w < 2; w++) {
      long seed = 31L * w + 7;
      running.add(
          writers.submit(
              () -> {
                Random random = new Random(seed);
                try (Connection c = DriverManager.getConnection(url);
                    PreparedStatement p =
                        c.prepareStatement("UPSERT INTO ACCOUNTS (ID, BALANCE) VALUES (?, ?)")) {
                  c.setAutoCommit(false);
                  while (!stop.get()) {
                    // blind writes of both sides, one commit: the total stays the same
                    int from = random.nextInt(ACCOUNTS / 2); // region 1
                    int to = ACCOUNTS / 2 + random.nextInt(ACCOUNTS / 2); // region 2
                    long amount = 1 + random.nextInt(5);
                    long fromBalance = balance(c, from);
                    long toBalance = balance(c, to);
                    p.setInt(1, from);
                    p.setLong(2, fromBalance - amount);
                    p.executeUpdate();
                    p.setInt(1, to);
                    p.setLong(2, toBalance + amount);
                    p.executeUpdate();
                    try {
                      c.commit();
                      transfers.incrementAndGet();
                    } catch (SQLException e) {
                      if (!"40001".equals(e.getSQLState())) {
                        throw e;
                      }
                    }
                  }
                }
                return null;
              }));
    }
    int sums = 0;
    List<Long> wrong = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url + ";parallelism=4");
        Statement s = c.createStatement()) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
      while (System.nanoTime() < deadline || transfers.get() < 20) {
        try (ResultSet rs = s.executeQuery("SELECT SUM(BALANCE), COUNT(*) FROM ACCOUNTS")) {
          assertThat(rs.next()).isTrue();
          if (rs.getLong(1) != ACCOUNTS * BALANCE) {
            wrong.add(rs.getLong(1));
          }
          assertThat(rs.getLong(2)).isEqualTo(ACCOUNTS);
        }
        sums++;
      }
    } finally {
      stop.set(true);
      writers.shutdown();
      for (Future<?> f : running) {
        f.get(30, TimeUnit.SECONDS);
      }
    }
    assertThat(transfers.get()).isPositive();
    assertThat(wrong)
        .as(
            "sums that missed half of a transfer, of %d sums during %d transfers",
            sums, transfers.get())
        .isEmpty();
  }

  private static long balance(Connection c, int id) throws SQLException {
    try (PreparedStatement p = c.prepareStatement("SELECT BALANCE FROM ACCOUNTS WHERE ID = ?")) {
      p.setInt(1, id);
      try (ResultSet rs = p.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getLong(1);
      }
    }
  }
}
