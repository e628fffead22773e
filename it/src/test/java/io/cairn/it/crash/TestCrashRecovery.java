package io.cairn.it.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kill -9 while writing, then recover: a child JVM ({@link CrashWorkload}) writes multi-row,
 * multi-region, two-table transactions into {@code jdbc:cairn:file:DIR} while flushes and
 * compactions run; after it has acknowledged commits, it is killed with SIGKILL at a random moment
 * and this JVM opens the store and checks, exactly, that every acknowledged transaction is there,
 * that no transaction is there in part, and that key-range queries agree with full scans. Then the
 * next child continues on the same directory.
 *
 * <p>{@code -Dcairn.crash.iterations=N} (default 5) runs more rounds, {@code -Dcairn.crash.seed=S}
 * repeats the random choices of a failed run (the kill moments depend on timing as well).
 */
@Timeout(value = 60, unit = TimeUnit.MINUTES) // a guard against hangs, not a timed assertion
final class TestCrashRecovery {
  private static final int WRITERS = 3;
  private static final Duration CHILD_PATIENCE = Duration.ofMinutes(3);
  private static final Duration VERIFY_PATIENCE = Duration.ofMinutes(10);

  @TempDir Path temp;

  @Test
  void acknowledgedTransactionsSurviveKillNineAndNoneSurvivesInPart() throws Exception {
    long seed = Long.getLong("cairn.crash.seed", System.nanoTime());
    int iterations = Integer.getInteger("cairn.crash.iterations", 5);
    SplittableRandom random = new SplittableRandom(seed);
    Path dir = temp.resolve("store");
    String reproduce =
        String.format(
            "seed [%s] (reproduce: -Dcairn.crash.seed=%s -Dcairn.crash.iterations=%s)",
            seed, seed, iterations);
    report("TestCrashRecovery: " + reproduce + " store [" + dir + "]");

    Found verified = Found.empty();
    for (int iteration = 0; iteration < iterations; iteration++) {
      long childSeed = random.nextLong();
      long killDelayMillis = random.nextInt(2001);
      ChildJvm child =
          ChildJvm.start(
              CrashWorkload.class,
              temp.resolve("child-" + iteration + ".err"),
              dir.toString(),
              Long.toString(childSeed),
              Integer.toString(WRITERS));
      try {
        boolean started = child.awaitLines(everyWriterAcknowledged(), CHILD_PATIENCE);
        assertThat(started)
            .as("the child acknowledges a commit of every writer within %s", CHILD_PATIENCE)
            .isTrue();
        Thread.sleep(killDelayMillis);
        assertThat(child.isAlive()).as("the child is still running when it is killed").isTrue();
        child.kill();
        Progress progress = Progress.parse(child.lines(), WRITERS);
        for (int w = 0; w < WRITERS; w++) {
          assertThat(progress.start[w])
              .as("writer %s: the child found the highest committed number that was verified", w)
              .isEqualTo(verified.log()[w]);
        }
        Found previous = verified;
        SplittableRandom queries = random.split();
        Found found =
            Timeouts.call(
                () -> verify(dir, previous, progress, queries),
                VERIFY_PATIENCE,
                "opening and checking the store");
        report(
            String.format(
                "TestCrashRecovery: iteration %s killed after %s ms, acknowledged %s, found %s",
                iteration, killDelayMillis, java.util.Arrays.toString(progress.lastAck), found));
        verified = found;
      } catch (Throwable t) {
        throw new AssertionError(
            String.format(
                "crash recovery failed at iteration [%s] of [%s], %s: %s%n%s",
                iteration, iterations, reproduce, t.getMessage(), child.describe()),
            t);
      } finally {
        child.close();
      }
    }
  }

  /**
   * The checker can fail: with durability SKIP and no flushes, a kill loses every acknowledged
   * commit, and the same checks must say so.
   */
  @Test
  void anotherProcessCannotOpenAStoreThatIsOpen() throws Exception {
    Path dir = temp.resolve("locked-store");
    try (ChildJvm child =
        ChildJvm.start(
            CrashWorkload.class,
            temp.resolve("locked.err"),
            dir.toString(),
            "1",
            Integer.toString(WRITERS))) {
      assertThat(child.awaitLines(everyWriterAcknowledged(), CHILD_PATIENCE)).isTrue();
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> java.sql.DriverManager.getConnection("jdbc:cairn:file:" + dir).close())
          .isInstanceOf(java.sql.SQLException.class)
          .hasMessageContaining("already open")
          .hasMessageContaining("LOCK")
          .extracting(e -> ((java.sql.SQLException) e).getSQLState())
          .isEqualTo("55006");
      child.kill();
    }
    // the lock goes with the process: no stale lock after kill -9
    try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:cairn:file:" + dir);
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM TXLOG")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isPositive();
    }
  }

  @Test
  void checkerReportsLostAcknowledgedCommits() throws Exception {
    Path dir = temp.resolve("skip-store");
    // The tables themselves are created durably, so that only the rows can go missing.
    try (Connection connection =
            DriverManager.getConnection(CrashSchema.url(dir), CrashSchema.storeProperties());
        Statement statement = connection.createStatement()) {
      statement.execute(CrashSchema.CREATE_KV);
      statement.execute(CrashSchema.CREATE_TXLOG);
      statement.execute(CrashSchema.CREATE_KV_INDEX);
    }
    try (ChildJvm child =
        ChildJvm.start(
            CrashWorkload.class,
            temp.resolve("skip.err"),
            dir.toString(),
            "1",
            Integer.toString(WRITERS),
            "SKIP",
            "false")) {
      if (!child.awaitLines(everyWriterAcknowledged(), CHILD_PATIENCE)) {
        throw new AssertionError("the child acknowledged no commit\n" + child.describe());
      }
      child.kill();
      Progress progress = Progress.parse(child.lines(), WRITERS);
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () ->
                  Timeouts.call(
                      () -> verify(dir, Found.empty(), progress, new SplittableRandom(1)),
                      VERIFY_PATIENCE,
                      "opening and checking the store"))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("lost an acknowledged commit");
    }
  }

  private static Predicate<List<String>> everyWriterAcknowledged() {
    return lines -> {
      boolean[] seen = new boolean[WRITERS];
      int count = 0;
      for (String line : lines) {
        if (line.startsWith("ACK ")) {
          int w = Integer.parseInt(line.split(" ")[1]);
          if (!seen[w]) {
            seen[w] = true;
            count++;
          }
        }
      }
      return count == WRITERS;
    };
  }

  /** What one child said: the numbers it started after and the last it acknowledged. */
  static final class Progress {
    final long[] start;
    final long[] lastAck;

    /** The last number whose commit() the writer called: nothing above it can be in the store. */
    final long[] lastCommit;

    private Progress(long[] start, long[] lastAck, long[] lastCommit) {
      this.lastCommit = lastCommit;
      this.start = start;
      this.lastAck = lastAck;
    }

    static Progress parse(List<String> lines, int writers) {
      long[] start = new long[writers];
      long[] lastAck = new long[writers];
      long[] lastCommit = new long[writers];
      java.util.Arrays.fill(start, -1);
      for (String line : lines) {
        if (!line.matches("START \\d+ \\d+|COMMIT \\d+ \\d+|ACK \\d+ \\d+|MAINT [A-Z_ ]+")) {
          throw new AssertionError("unexpected line on the child's stdout: [" + line + "]");
        }
        String[] parts = line.split(" ");
        if (parts[0].equals("COMMIT")) {
          int w = Integer.parseInt(parts[1]);
          lastCommit[w] = Long.parseLong(parts[2]);
        } else if (parts[0].equals("START")) {
          start[Integer.parseInt(parts[1])] = Long.parseLong(parts[2]);
        } else if (parts[0].equals("ACK")) {
          int w = Integer.parseInt(parts[1]);
          long c = Long.parseLong(parts[2]);
          if (c != lastCommit[w]
              || c <= lastAck[w]
              || (lastAck[w] == 0 ? c != start[w] + 1 : c != lastAck[w] + 1)) {
            throw new AssertionError(
                "writer " + w + " acknowledged [" + c + "] after [" + lastAck[w] + "]");
          }
          lastAck[w] = c;
        }
      }
      for (int w = 0; w < writers; w++) {
        if (lastAck[w] == 0) {
          lastAck[w] = start[w];
        }
        if (lastCommit[w] == 0) {
          lastCommit[w] = start[w];
        }
      }
      return new Progress(start, lastAck, lastCommit);
    }
  }

  /** The highest transaction number per writer found in TXLOG and in KV. */
  record Found(long[] log, long[] kv) {
    static Found empty() {
      return new Found(new long[WRITERS], new long[WRITERS]);
    }

    @Override
    public String toString() {
      return "TXLOG " + java.util.Arrays.toString(log) + " KV " + java.util.Arrays.toString(kv);
    }
  }

  /** Opens the store in this JVM and checks it exactly; returns the numbers it found. */
  private static Found verify(Path dir, Found previous, Progress progress, SplittableRandom random)
      throws SQLException {
    try (Connection connection =
            DriverManager.getConnection(CrashSchema.url(dir), CrashSchema.storeProperties());
        Statement statement = connection.createStatement()) {
      // TXLOG: every writer holds exactly 1..M with the right PAD; M is acknowledged or one more.
      Map<Integer, List<Long>> log = new TreeMap<>();
      long logRows = 0;
      try (ResultSet rs = statement.executeQuery("SELECT W, C, PAD FROM TXLOG")) {
        while (rs.next()) {
          int w = rs.getInt(1);
          long c = rs.getLong(2);
          assertThat(w).as("TXLOG writer").isBetween(0, WRITERS - 1);
          assertThat(rs.getString(3))
              .as("TXLOG(%s, %s).PAD", w, c)
              .isEqualTo(CrashSchema.logPad(w, c));
          log.computeIfAbsent(w, x -> new ArrayList<>()).add(c);
          logRows++;
        }
      }
      assertThat(count(statement, "SELECT COUNT(*) FROM TXLOG"))
          .as("COUNT(*) FROM TXLOG against the rows of a full scan")
          .isEqualTo(logRows);
      long[] highest = new long[WRITERS];
      for (int w = 0; w < WRITERS; w++) {
        List<Long> numbers = new ArrayList<>(log.getOrDefault(w, List.of()));
        numbers.sort(null);
        long m = numbers.isEmpty() ? 0 : numbers.get(numbers.size() - 1);
        highest[w] = m;
        assertThat(numbers)
            .as("writer %s: TXLOG holds every number 1..%s once (no gap, no duplicate)", w, m)
            .containsExactlyElementsOf(LongStream.rangeClosed(1, m).boxed().toList());
      }

      // KV: each writer's rows all hold one number (all or nothing of a transaction), acknowledged
      // or one more. A commit is atomic across tables (docs/sql.md), so KV's number equals
      // TXLOG's: a difference would be a commit torn between the two tables.
      Map<List<Integer>, Long> kv = new HashMap<>();
      long[] kvNumber = new long[WRITERS];
      try (ResultSet rs = statement.executeQuery("SELECT K, W, C, PAD FROM KV")) {
        while (rs.next()) {
          int k = rs.getInt(1);
          int w = rs.getInt(2);
          long c = rs.getLong(3);
          assertThat(w).as("KV writer").isBetween(0, WRITERS - 1);
          assertThat(k).as("KV key").isBetween(0, CrashSchema.KEYS - 1);
          assertThat(rs.getString(4))
              .as("KV(%s, %s).PAD", k, w)
              .isEqualTo(CrashSchema.kvPad(k, w, c));
          assertThat(kv.put(List.of(k, w), c)).as("KV(%s, %s) read twice", k, w).isNull();
          kvNumber[w] = Math.max(kvNumber[w], c);
        }
      }
      for (int w = 0; w < WRITERS; w++) {
        assertThat(highest[w])
            .as(
                "writer %s: highest committed number against the last acknowledged [%s]"
                    + " (a lower one lost an acknowledged commit); KV rows of the writer %s",
                w, progress.lastAck[w], kvRows(kv, w))
            .isGreaterThanOrEqualTo(progress.lastAck[w])
            .isGreaterThanOrEqualTo(previous.log()[w])
            .isLessThanOrEqualTo(progress.lastAck[w] + 1)
            .as(
                "writer %s: highest number against the last one whose commit was called [%s]"
                    + " (a higher one was never committed); KV rows of the writer %s",
                w, progress.lastCommit[w], kvRows(kv, w))
            .isLessThanOrEqualTo(progress.lastCommit[w]);
      }
      Map<List<Integer>, Long> expectedKv = new HashMap<>();
      for (int w = 0; w < WRITERS; w++) {
        long m = kvNumber[w];
        assertThat(m)
            .as(
                "writer %s: KV's number against the last acknowledged [%s]"
                    + " (a lower one lost an acknowledged commit)",
                w, progress.lastAck[w])
            .isGreaterThanOrEqualTo(progress.lastAck[w])
            .isGreaterThanOrEqualTo(previous.kv()[w])
            .isLessThanOrEqualTo(progress.lastAck[w] + 1)
            .as(
                "writer %s: highest number against the last one whose commit was called [%s]"
                    + " (a higher one was never committed)",
                w, progress.lastCommit[w])
            .isLessThanOrEqualTo(progress.lastCommit[w]);
        assertThat(m)
            .as("writer %s: KV's number against TXLOG's (one commit writes both tables)", w)
            .isEqualTo(highest[w]);
        for (int k = 0; m > 0 && k < CrashSchema.KEYS; k++) {
          if (k != CrashSchema.TOGGLE_KEY || m % 2 == 0) {
            expectedKv.put(List.of(k, w), m);
          }
        }
      }
      assertThat(kv)
          .as(
              "KV rows: every row of a writer holds one number, the toggle row exists iff it is"
                  + " even")
          .isEqualTo(expectedKv);
      assertThat(count(statement, "SELECT COUNT(*) FROM KV"))
          .as("COUNT(*) FROM KV against the rows of a full scan")
          .isEqualTo(kv.size());

      // Key ranges and points agree with the full scans.
      try (PreparedStatement range =
              connection.prepareStatement(
                  "SELECT C FROM TXLOG WHERE W = ? AND C >= ? AND C <= ? ORDER BY C");
          PreparedStatement countWriter =
              connection.prepareStatement("SELECT COUNT(*) FROM TXLOG WHERE W = ?")) {
        for (int w = 0; w < WRITERS; w++) {
          long m = highest[w];
          long from = 1 + random.nextLong(m + 2);
          long to = from + random.nextLong(m + 2);
          range.setInt(1, w);
          range.setLong(2, from);
          range.setLong(3, to);
          assertThat(longs(range))
              .as("TXLOG W = %s AND C BETWEEN %s AND %s", w, from, to)
              .containsExactlyElementsOf(
                  LongStream.rangeClosed(from, Math.min(to, m)).boxed().toList());
          countWriter.setInt(1, w);
          assertThat(longs(countWriter))
              .as("COUNT(*) FROM TXLOG WHERE W = %s", w)
              .containsExactly(m);
        }
      }
      try (PreparedStatement range =
              connection.prepareStatement("SELECT K, W, C FROM KV WHERE K >= ? AND K < ?");
          PreparedStatement point =
              connection.prepareStatement("SELECT C FROM KV WHERE K = ? AND W = ?")) {
        for (int i = 0; i < 4; i++) {
          int from = random.nextInt(CrashSchema.KEYS + 1);
          int to = from + random.nextInt(CrashSchema.KEYS + 2 - from);
          range.setInt(1, from);
          range.setInt(2, to);
          Map<List<Integer>, Long> found = new HashMap<>();
          try (ResultSet rs = range.executeQuery()) {
            while (rs.next()) {
              found.put(List.of(rs.getInt(1), rs.getInt(2)), rs.getLong(3));
            }
          }
          Map<List<Integer>, Long> expected = new HashMap<>(expectedKv);
          expected.keySet().removeIf(key -> key.get(0) < from || key.get(0) >= to);
          assertThat(found).as("KV WHERE K >= %s AND K < %s", from, to).isEqualTo(expected);
        }
        for (int k = 0; k < CrashSchema.KEYS; k++) {
          for (int w = 0; w < WRITERS; w++) {
            point.setInt(1, k);
            point.setInt(2, w);
            Long expected = expectedKv.get(List.of(k, w));
            assertThat(longs(point))
                .as("KV WHERE K = %s AND W = %s", k, w)
                .containsExactlyElementsOf(expected == null ? List.of() : List.of(expected));
          }
        }
      }
      // the local index on C: exactly one entry per row, none stale, after every kill; and a
      // query through it finds what the scan found
      try (ResultSet rs = statement.executeQuery("CHECK INDEX KV_C ON KV")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString("SAMPLES")).as("CHECK INDEX KV_C: samples").isNullOrEmpty();
        assertThat(rs.getBoolean("CONSISTENT")).as("CHECK INDEX KV_C: consistent").isTrue();
        assertThat(rs.getLong("ENTRIES_CHECKED")).isEqualTo(kv.size());
      }
      for (int w = 0; w < WRITERS; w++) {
        long c = kvNumber[w];
        long expected = kv.entrySet().stream().filter(e -> e.getValue() == c).count();
        assertThat(count(statement, "SELECT /*+ INDEX(KV KV_C) */ COUNT(*) FROM KV WHERE C = " + c))
            .as("rows with C = %s through the index", c)
            .isEqualTo(expected);
      }
      return new Found(highest, kvNumber);
    }
  }

  /** The KV rows of writer {@code w}: key to number, for failure messages. */
  private static Map<Integer, Long> kvRows(Map<List<Integer>, Long> kv, int w) {
    Map<Integer, Long> rows = new TreeMap<>();
    kv.forEach(
        (key, c) -> {
          if (key.get(1) == w) {
            rows.put(key.get(0), c);
          }
        });
    return rows;
  }

  private static long count(Statement statement, String sql) throws SQLException {
    try (ResultSet rs = statement.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return rs.getLong(1);
    }
  }

  private static List<Long> longs(PreparedStatement statement) throws SQLException {
    List<Long> values = new ArrayList<>();
    try (ResultSet rs = statement.executeQuery()) {
      while (rs.next()) {
        values.add(rs.getLong(1));
      }
    }
    return values;
  }

  @io.cairn.core.SuppressForbidden(reason = "the seed must reach the build log")
  static void report(String message) {
    System.err.println(message);
  }
}
