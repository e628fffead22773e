package io.cairn.it.crash;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The store that {@link TestCorruptionHandling} damages, written by a child JVM that is then
 * killed, so the rows of the last transactions live only in the write-ahead log: transactions
 * {@code 1..}{@link #FIRST_FLUSH} and up to {@link #SECOND_FLUSH} are flushed into block files (two
 * files per region), the rest stay in the WAL. Argument: {@code DIR}; prints {@code READY} when all
 * is committed and then waits to be killed.
 */
public final class CorruptionFixture {
  static final int TRANSACTIONS = 20;
  static final int FIRST_FLUSH = 10;
  static final int SECOND_FLUSH = 14;
  static final int KEY_RANGE = 1000;
  static final String CREATE =
      "CREATE TABLE T (K INTEGER NOT NULL PRIMARY KEY, TX INTEGER NOT NULL, V VARCHAR)"
          + " SPLIT ON (500)";

  private CorruptionFixture() {}

  /** One change of a transaction: an UPSERT of {@code (key, tx, value)}, or a DELETE of key. */
  record Change(int key, int tx, String value) {
    boolean isDelete() {
      return value == null;
    }
  }

  /** A row of T. */
  record Row(int tx, String value) {}

  /** Transaction {@code tx}'s changes (1-based), the same in every JVM. */
  static List<Change> transaction(int tx) {
    SplittableRandom random = new SplittableRandom(7919L * tx);
    List<Change> changes = new ArrayList<>();
    // Distinct keys within a transaction: this test is about damaged files, not about how a
    // transaction combines two writes of one key.
    java.util.Set<Integer> keys = new java.util.HashSet<>();
    while (changes.size() < 25) {
      int key = random.nextInt(KEY_RANGE);
      if (!keys.add(key)) {
        continue;
      }
      if (tx > FIRST_FLUSH && random.nextInt(8) == 0) {
        changes.add(new Change(key, tx, null));
      } else {
        changes.add(
            new Change(key, tx, marker(tx) + "k" + key + "-" + CrashSchema.pad(3, key, tx, 0)));
      }
    }
    return changes;
  }

  /** The text every value of transaction {@code tx} starts with (found in WAL segments). */
  static String marker(int tx) {
    return String.format(java.util.Locale.ROOT, "tx-%04d-", tx);
  }

  /** The table after all transactions but those in {@code skipped}. */
  static TreeMap<Integer, Row> state(java.util.Set<Integer> skipped) {
    TreeMap<Integer, Row> rows = new TreeMap<>();
    for (int tx = 1; tx <= TRANSACTIONS; tx++) {
      if (skipped.contains(tx)) {
        continue;
      }
      for (Change change : transaction(tx)) {
        if (change.isDelete()) {
          rows.remove(change.key());
        } else {
          rows.put(change.key(), new Row(change.tx(), change.value()));
        }
      }
    }
    return rows;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Properties properties = new Properties();
    properties.setProperty("durability", "SYNC");
    try (Connection connection = DriverManager.getConnection(CrashSchema.url(dir), properties);
        Statement statement = connection.createStatement()) {
      statement.execute(CREATE);
      write(connection, statement);
      awaitStatisticsWritten();
      OutputStream out = new FileOutputStream(FileDescriptor.out);
      out.write("READY\n".getBytes(UTF_8));
      out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  /**
   * Waits until the store's statistics thread is gone, which it is only once its queue is empty:
   * the flushes queue column statistics collections whose rows go through the WAL, and a kill in
   * the middle of such a write tears the last segment's tail (the kernel stops a write at a page
   * boundary on SIGKILL), which the test, parsing that segment, must not meet.
   */
  private static void awaitStatisticsWritten() throws InterruptedException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
    while (Thread.getAllStackTraces().keySet().stream()
        .anyMatch(thread -> thread.getName().equals("cairn-statistics") && thread.isAlive())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the statistics thread still runs after 2 minutes");
      }
      Thread.sleep(100);
    }
  }

  private static void write(Connection connection, Statement statement) throws SQLException {
    try (PreparedStatement upsert =
            connection.prepareStatement("UPSERT INTO T (K, TX, V) VALUES (?, ?, ?)");
        PreparedStatement delete = connection.prepareStatement("DELETE FROM T WHERE K = ?")) {
      connection.setAutoCommit(false);
      for (int tx = 1; tx <= TRANSACTIONS; tx++) {
        for (Change change : transaction(tx)) {
          if (change.isDelete()) {
            delete.setInt(1, change.key());
            delete.executeUpdate();
          } else {
            upsert.setInt(1, change.key());
            upsert.setInt(2, change.tx());
            upsert.setString(3, change.value());
            upsert.executeUpdate();
          }
        }
        connection.commit();
        if (tx == FIRST_FLUSH || tx == SECOND_FLUSH) {
          statement.execute("FLUSH TABLE T");
        }
      }
    }
  }
}
