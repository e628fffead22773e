package io.cairn.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.cairn.hbase.server.CairnIndexObserver;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Cairn's SQL on HBase when things go wrong: racing INSERTs of the same keys, a region server that
 * crashes or restarts, and regions that move, while paged scans, aggregations and lookups read
 * them. Every answer is exactly right or a clear SQLException: never a hang, a duplicate, a lost
 * row or a wrong total.
 *
 * <p>The mini-cluster is shared by every test class of the JVM and has one region server: a test
 * that adds or kills region servers leaves exactly one live region server behind, with every region
 * assigned.
 */
@ExtendWith(MiniHBase.class)
class TestHBaseFailures {
  private static final AtomicInteger NAMESPACES = new AtomicInteger();

  /** Racing connections, each on its own thread. */
  private static final int RACERS = 4;

  /** Rows of the table the faults hit: four regions of several region-server pages each. */
  private static final int ROWS = 20_000;

  /** The HBase client's scanner timeout in these tests (HBase's default: 60 s). */
  private static final int SCANNER_TIMEOUT_MILLIS = 10_000;

  /** The statements' timeout (the driver cancels them): a backstop past {@link #STUCK_MILLIS}. */
  private static final int QUERY_TIMEOUT_SECONDS = 45;

  /**
   * A statement that runs longer hung: well past the scanner timeout and the few seconds the
   * cluster takes to serve a region again.
   */
  private static final long STUCK_MILLIS = 30_000;

  /** The hang guard around a read: the statements' own timeout, and some time to report it. */
  private static final Duration HANG_GUARD = Duration.ofSeconds(QUERY_TIMEOUT_SECONDS + 15);

  /** How long the cluster may take to assign the regions again. */
  private static final long CLUSTER_WAIT_MILLIS = 90_000;

  private String namespace;
  private String url;

  @BeforeEach
  void url(HBaseTestingUtility hbase) {
    namespace = "failures" + NAMESPACES.incrementAndGet();
    url =
        "jdbc:cairn:hbase:127.0.0.1:"
            + hbase.getConfiguration().get("hbase.zookeeper.property.clientPort")
            + ";cairn.hbase.namespace="
            + namespace
            // the client asks a region server for its next page only once the one before is
            // read (it prefetches about twice this), so that a slow reader's scan stays mid-region
            + ";hbase.client.scanner.max.result.size=1024"
            // how long a scan retries the region server of its scanner before it fails: a crashed
            // server's scanners are retried until then
            + ";hbase.client.scanner.timeout.period="
            + SCANNER_TIMEOUT_MILLIS;
  }

  // --- racing INSERTs ---------------------------------------------------------------------------

  /**
   * Each racer inserts every key, one row per statement, in the same order: for each key exactly
   * one INSERT succeeds, every other one fails with 23505 naming the key, and the table holds the
   * winners' rows.
   */
  @Test
  void racingSingleRowInsertsOfTheSameKeysHaveExactlyOneWinnerEach() throws Exception {
    int keys = 100;
    execute("CREATE TABLE T (K INTEGER PRIMARY KEY, W INTEGER, S INTEGER) SPLIT ON (50)");
    SQLException[][] failures = new SQLException[RACERS][keys]; // null: the INSERT succeeded
    race(
        racer ->
            () -> {
              try (Connection c = DriverManager.getConnection(url);
                  PreparedStatement insert = c.prepareStatement("INSERT INTO T VALUES (?, ?, ?)")) {
                for (int k = 0; k < keys; k++) {
                  insert.setInt(1, k);
                  insert.setInt(2, racer);
                  insert.setInt(3, k);
                  try {
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                  } catch (SQLException e) {
                    failures[racer][k] = e;
                  }
                }
              }
              return null;
            });

    Map<Integer, Integer> winners = new HashMap<>();
    for (int k = 0; k < keys; k++) {
      List<Integer> succeeded = new ArrayList<>();
      for (int racer = 0; racer < RACERS; racer++) {
        SQLException e = failures[racer][k];
        if (e == null) {
          succeeded.add(racer);
        } else {
          assertThat(e.getSQLState()).as("racer %d, key %d: %s", racer, k, e).isEqualTo("23505");
          assertThat(e.getMessage()).contains("K=" + k + "]").doesNotContain("other rows");
        }
      }
      assertThat(succeeded).as("racers whose INSERT of key %d succeeded", k).hasSize(1);
      winners.put(k, succeeded.get(0));
    }
    Map<Integer, Integer> stored = new HashMap<>(); // key -> the racer of its row
    for (int[] row : rows("SELECT K, W, S FROM T")) {
      assertThat(stored.put(row[0], row[1])).as("key %d twice", row[0]).isNull();
      assertThat(row[2]).isEqualTo(row[0]);
    }
    assertThat(stored).isEqualTo(winners);
  }

  /**
   * Racers insert every key in statements of four rows (autocommit on), each racer's statements
   * cutting the keys at other places, so that statements overlap in part. HBase checks and writes
   * each row on its own: each key holds the row of exactly one statement that inserted it, a
   * statement that succeeded wrote all its rows, and one that failed says 23505 naming a key
   * another statement holds (and, when it wrote some of its rows, says that other rows were
   * written).
   */
  @Test
  void racingMultiRowInsertsWriteEachKeyExactlyOnce() throws Exception {
    int keys = 200;
    int width = 4;
    int statements = keys / width;
    execute("CREATE TABLE T (K INTEGER PRIMARY KEY, W INTEGER, S INTEGER) SPLIT ON (100)");
    // racer r's statement j inserts keys (r + width * j + i) mod keys, i < width: every key once
    // per racer, two racers' statements overlapping in part; odd racers list the rows backwards
    int[][][] keysOf = new int[RACERS][statements][width];
    for (int racer = 0; racer < RACERS; racer++) {
      for (int j = 0; j < statements; j++) {
        for (int i = 0; i < width; i++) {
          keysOf[racer][j][racer % 2 == 0 ? i : width - 1 - i] = (racer + width * j + i) % keys;
        }
      }
    }
    SQLException[][] failures = new SQLException[RACERS][statements];
    race(
        racer ->
            () -> {
              try (Connection c = DriverManager.getConnection(url);
                  Statement s = c.createStatement()) {
                for (int j = 0; j < statements; j++) {
                  int statement = j;
                  String values =
                      Arrays.stream(keysOf[racer][j])
                          .mapToObj(k -> "(" + k + ", " + racer + ", " + statement + ")")
                          .collect(Collectors.joining(", "));
                  try {
                    assertThat(s.executeUpdate("INSERT INTO T VALUES " + values)).isEqualTo(width);
                  } catch (SQLException e) {
                    failures[racer][j] = e;
                  }
                }
              }
              return null;
            });

    Map<Integer, int[]> stored = new HashMap<>(); // key -> {racer, statement} of its row
    for (int[] row : rows("SELECT K, W, S FROM T")) {
      assertThat(stored.put(row[0], new int[] {row[1], row[2]}))
          .as("key %d twice", row[0])
          .isNull();
      assertThat(keysOf[row[1]][row[2]])
          .as("key %d written by racer %d's statement %d", row[0], row[1], row[2])
          .contains(row[0]);
    }
    assertThat(stored).hasSize(keys);
    Pattern namedKey = Pattern.compile("K=(\\d+)]");
    for (int racer = 0; racer < RACERS; racer++) {
      for (int j = 0; j < statements; j++) {
        List<Integer> written = new ArrayList<>();
        List<Integer> lost = new ArrayList<>();
        for (int k : keysOf[racer][j]) {
          int[] writer = stored.get(k);
          (writer[0] == racer && writer[1] == j ? written : lost).add(k);
        }
        String statement = "racer " + racer + "'s statement " + j;
        SQLException e = failures[racer][j];
        if (e == null) {
          assertThat(lost).as("%s succeeded; its keys with others' rows", statement).isEmpty();
          continue;
        }
        assertThat(e.getSQLState()).as("%s: %s", statement, e).isEqualTo("23505");
        assertThat(lost).as("%s failed; its keys with others' rows", statement).isNotEmpty();
        Matcher named = namedKey.matcher(e.getMessage());
        assertThat(named.find()).as("%s names a key: %s", statement, e.getMessage()).isTrue();
        assertThat(lost).as("%s: %s", statement, e).contains(Integer.valueOf(named.group(1)));
        if (!written.isEmpty()) {
          assertThat(e.getMessage())
              .as("%s wrote %s", statement, written)
              .contains("other rows of the statement or commit were written");
        }
      }
    }
  }

  /**
   * A multi-row INSERT all of whose keys exist writes nothing, and its error must not say that
   * other rows were written (KvTable's {@code othersWritten}: rows other than the failing one were
   * written). One whose other rows were written says so.
   */
  @Test
  void aMultiRowInsertThatWroteNothingDoesNotSayOtherRowsWereWritten() throws SQLException {
    execute("CREATE TABLE T (K INTEGER PRIMARY KEY, V INTEGER)");
    execute("INSERT INTO T VALUES (1, 10), (2, 20)");
    assertThatThrownBy(() -> execute("INSERT INTO T VALUES (3, 31), (1, 11)"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"))
        .hasMessageContaining("K=1]")
        .hasMessageContaining("other rows of the statement or commit were written");
    assertThatThrownBy(() -> execute("INSERT INTO T VALUES (1, 12), (2, 22)"))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"))
        .hasMessageContaining("K=1]")
        .hasMessageNotContaining("were written");
    assertThat(rows("SELECT K, V FROM T"))
        .containsExactlyInAnyOrder(new int[] {1, 10}, new int[] {2, 20}, new int[] {3, 31});
  }

  /** Runs one task per racer, all at once (after a barrier), each on its own thread. */
  private static void race(IntFunction<Callable<Void>> racer) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(RACERS);
    try {
      CyclicBarrier start = new CyclicBarrier(RACERS);
      List<Future<Void>> racing = new ArrayList<>();
      for (int r = 0; r < RACERS; r++) {
        Callable<Void> task = racer.apply(r);
        racing.add(
            pool.submit(
                () -> {
                  start.await(30, TimeUnit.SECONDS);
                  return task.call();
                }));
      }
      for (Future<Void> f : racing) {
        f.get(120, TimeUnit.SECONDS); // a racer's assertion error fails the test here
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // --- region server failures and region moves during reads -------------------------------------

  /**
   * The region server that holds a table of four regions crashes (aborts: no region closed, its WAL
   * split and replayed; the other region server, which holds hbase:meta, takes its regions over)
   * while a scan of the table is open mid-region, and aggregations and key lookups run over and
   * over: each answers exactly or fails with a clear SQLException, none hangs; after, every query
   * answers exactly.
   */
  @Test
  void aRegionServerCrashDuringReadsGivesTheRightAnswerOrAClearError(HBaseTestingUtility hbase)
      throws Exception {
    MiniHBaseCluster cluster = hbase.getMiniHBaseCluster();
    assertThat(cluster.getLiveRegionServerThreads()).as("live region servers").hasSize(1);
    RegionServerThread doomed = cluster.startRegionServer();
    doomed.waitForServerOnline();
    try {
      readsDuringAFault(
          () -> {
            ServerName away = doomed.getRegionServer().getServerName();
            moveRegions(hbase, splitTable(hbase), away);
            anIndexReadChecksRowsOfAnotherServer(hbase, away);
          },
          () -> {
            doomed.getRegionServer().abort("TestHBaseFailures: a region server crash during reads");
            doomed.join(CLUSTER_WAIT_MILLIS);
            assertThat(doomed.isAlive()).as("the aborted region server stopped").isFalse();
            waitForAllRegions(hbase);
          });
    } finally {
      if (doomed.isAlive()) { // the test failed before the crash: back to one region server
        doomed.getRegionServer().abort("TestHBaseFailures: back to one region server");
        doomed.join(CLUSTER_WAIT_MILLIS);
        waitForAllRegions(hbase);
      }
    }
    assertThat(cluster.getLiveRegionServerThreads()).as("live region servers").hasSize(1);
  }

  /**
   * The one region server, which holds hbase:meta and a table of four regions, is replaced (a new
   * one started, the old one stopped: it closes its regions, which the new one opens) while a scan
   * of the table is open mid-region, and aggregations and key lookups run over and over: exact
   * answers or clear SQLExceptions, none hangs, and exact answers after.
   */
  @Test
  void aRegionServerRestartDuringReadsGivesTheRightAnswerOrAClearError(HBaseTestingUtility hbase)
      throws Exception {
    readsDuringAFault(() -> {}, () -> replaceTheRegionServer(hbase));
  }

  /**
   * The table's regions move to another region server (Admin.move) while a scan over them is open
   * mid-region, and aggregations and key lookups run: exact answers or clear SQLExceptions, and
   * exact answers after.
   */
  @Test
  void regionsMovingDuringReadsGiveTheRightAnswerOrAClearError(HBaseTestingUtility hbase)
      throws Exception {
    MiniHBaseCluster cluster = hbase.getMiniHBaseCluster();
    assertThat(cluster.getLiveRegionServerThreads()).as("live region servers").hasSize(1);
    ServerName home = cluster.getLiveRegionServerThreads().get(0).getRegionServer().getServerName();
    RegionServerThread other = cluster.startRegionServer();
    other.waitForServerOnline();
    ServerName away = other.getRegionServer().getServerName();
    try {
      readsDuringAFault(() -> {}, () -> moveRegions(hbase, splitTable(hbase), away));
    } finally {
      // back to one region server: what the other one holds goes home first
      for (RegionInfo region : hbase.getAdmin().getRegions(away)) {
        hbase.moveRegionAndWait(region, home);
      }
      other.getRegionServer().stop("TestHBaseFailures: back to one region server");
      other.join(CLUSTER_WAIT_MILLIS);
      assertThat(other.isAlive()).as("the second region server stopped").isFalse();
      waitForAllRegions(hbase);
    }
  }

  /**
   * Loads the table, runs {@code prepare}, opens a scan and reads its first rows (its chunks then
   * stand mid-region), starts aggregations and key lookups over and over on two other connections,
   * injects {@code fault} (which returns once the cluster serves every region again), reads the
   * scan to its end and waits for each loop to end its statement and one more: each answer exact or
   * a clear error, no statement longer than {@link #STUCK_MILLIS}. Then new queries, on the
   * connections of before and on a new one, answer exactly.
   */
  private void readsDuringAFault(Fault prepare, Fault fault) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        QueryLoop aggregates = new QueryLoop(url, "aggregates", (s, round) -> checkTotals(s));
        QueryLoop lookups = new QueryLoop(url, "lookups", TestHBaseFailures::checkLookup)) {
      load(c);
      prepare.inject();
      Map<Integer, Long> read = new HashMap<>();
      SQLException failed;
      try (Statement s = statement(c);
          ResultSet rs = s.executeQuery("SELECT K, V FROM T")) {
        for (int i = 0; i < 100 && rs.next(); i++) {
          readRow(rs, read);
        }
        for (QueryLoop loop : List.of(aggregates, lookups)) {
          loop.start();
          loop.awaitAnswers(1);
        }
        fault.inject();
        failed =
            assertTimeoutPreemptively(
                HANG_GUARD,
                () -> {
                  try {
                    while (rs.next()) {
                      readRow(rs, read);
                    }
                    return null;
                  } catch (SQLException e) {
                    return e;
                  }
                },
                "the scan opened before the fault hung");
      }
      // each loop ends the statement it runs (begun during the fault) and one begun after it
      for (QueryLoop loop : List.of(aggregates, lookups)) {
        loop.awaitAnswers(loop.answers() + 2);
      }
      if (failed == null) {
        assertThat(read).as("rows of the scan across the fault").hasSize(ROWS);
      } else {
        assertClear(failed); // the rows read before it were checked: no duplicate, no wrong value
      }
      for (QueryLoop loop : List.of(aggregates, lookups)) {
        loop.stop();
        assertThat(loop.wrong).as("wrong answers of the %s", loop.name).isEmpty();
        assertThat(loop.longestMillis.get())
            .as(
                "the longest statement of the %s (ms); the first past %d ms stood at:%n%s",
                loop.name, STUCK_MILLIS, loop.stuck)
            .isLessThan(STUCK_MILLIS);
        loop.errors.forEach(TestHBaseFailures::assertClear);
      }

      // after the fault every query answers exactly, on the connections of before and a new one
      try (Connection fresh = DriverManager.getConnection(url)) {
        for (Connection after : List.of(c, aggregates.connection, lookups.connection, fresh)) {
          assertTimeoutPreemptively(
              HANG_GUARD,
              () -> {
                Map<Integer, Long> all = new HashMap<>();
                try (Statement s = statement(after)) {
                  try (ResultSet rs = s.executeQuery("SELECT K, V FROM T")) {
                    while (rs.next()) {
                      readRow(rs, all);
                    }
                  }
                  assertThat(all).hasSize(ROWS);
                  assertThat(checkTotals(s)).isNull();
                  assertThat(checkLookup(s, ROWS - 1)).isNull();
                }
              });
        }
      }
    }
  }

  /** A change of the cluster (a fault), over (every region served again) when it returns. */
  @FunctionalInterface
  private interface Fault {
    void inject() throws Exception;
  }

  /** The value of key {@code k}: every row read is checked against it. */
  private static long value(int k) {
    return 7L * k + 3;
  }

  /** Table T: {@link #ROWS} rows (keys 0 to ROWS - 1) in four regions, {@link #value}s. */
  private static void load(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE T (K INTEGER PRIMARY KEY, V BIGINT NOT NULL) SPLIT ON ("
              + ROWS / 4
              + ", "
              + ROWS / 2
              + ", "
              + 3 * ROWS / 4
              + ")");
    }
    try (PreparedStatement p = c.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
      for (int k = 0; k < ROWS; k++) {
        p.setInt(1, k);
        p.setLong(2, value(k));
        p.addBatch();
        if (k % 5_000 == 4_999) {
          p.executeBatch();
        }
      }
      p.executeBatch();
    }
  }

  /** A statement of {@code c} with the statements' timeout. */
  private static Statement statement(Connection c) throws SQLException {
    Statement s = c.createStatement();
    s.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
    return s;
  }

  /** Adds the row at {@code rs} to {@code read}: its value right, its key not read before. */
  private static void readRow(ResultSet rs, Map<Integer, Long> read) throws SQLException {
    int k = rs.getInt(1);
    long v = rs.getLong(2);
    assertThat(v).as("value of key %d", k).isEqualTo(value(k));
    assertThat(read.put(k, v)).as("key %d read twice", k).isNull();
  }

  /** Null when T's count, sum, least and greatest key are those loaded, else what they are. */
  private static String checkTotals(Statement s) throws SQLException {
    long sum = 0;
    for (int k = 0; k < ROWS; k++) {
      sum += value(k);
    }
    List<Long> expected = List.of((long) ROWS, sum, 0L, ROWS - 1L);
    try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(V), MIN(K), MAX(K) FROM T")) {
      List<Long> answer = new ArrayList<>();
      while (rs.next()) {
        for (int i = 1; i <= 4; i++) {
          answer.add(rs.getLong(i));
        }
      }
      return answer.equals(expected) ? null : "totals " + answer + ", expected " + expected;
    }
  }

  /** Null when the lookup of a key (which {@code round} picks) finds its one row, else what. */
  private static String checkLookup(Statement s, int round) throws SQLException {
    int k = (int) ((round * 7_919L) % ROWS);
    List<Long> values = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT V FROM T WHERE K = " + k)) {
      while (rs.next()) {
        values.add(rs.getLong(1));
      }
    }
    return values.equals(List.of(value(k))) ? null : "key " + k + ": " + values;
  }

  /** The rows of {@code sql}, whose columns are integers, on a new connection. */
  private List<int[]> rows(String sql) throws SQLException {
    List<int[]> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        int[] row = new int[columns];
        for (int i = 0; i < columns; i++) {
          row[i] = rs.getInt(i + 1);
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private void execute(String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /**
   * A clear error: an SQLState that is neither an internal error (XX) nor a timeout or cancel
   * (57014: only the test's hang guard cancels), and a message.
   */
  private static void assertClear(SQLException e) {
    assertThat(e.getSQLState()).as("SQLState of %s", e).isNotNull().hasSize(5);
    assertThat(e.getSQLState()).as("%s", e).doesNotStartWith("XX").isNotEqualTo("57014");
    assertThat(e.getMessage()).as("message of %s", e).isNotBlank();
  }

  /**
   * One query over and over, on its own connection and thread, each run with the statements'
   * timeout, until stopped: what each answered, how long the longest took, and where the first
   * statement that ran past {@link #STUCK_MILLIS} stood then.
   */
  private static final class QueryLoop implements AutoCloseable {
    /** Runs the query of round {@code round}: null when its answer is exact, else what it was. */
    @FunctionalInterface
    interface Query {
      String check(Statement s, int round) throws SQLException;
    }

    final String name;
    final Connection connection;
    final List<String> wrong = new CopyOnWriteArrayList<>();
    final List<SQLException> errors = new CopyOnWriteArrayList<>();
    final AtomicLong longestMillis = new AtomicLong();
    volatile String stuck = "(none)";
    private final Query query;
    private final AtomicInteger answers = new AtomicInteger();
    private final ExecutorService executor;
    private final ScheduledExecutorService watch;
    private volatile boolean stopped;
    private volatile Thread thread;
    private volatile long statementStarted; // System.nanoTime(), 0 between statements
    private Future<?> running;
    private Future<?> watching;

    QueryLoop(String url, String name, Query query) throws SQLException {
      this.name = name;
      this.query = query;
      this.connection = DriverManager.getConnection(url);
      this.executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "query-loop-" + name));
      this.watch =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "query-loop-watch-" + name);
                t.setDaemon(true);
                return t;
              });
    }

    void start() {
      running = executor.submit(this::run);
      AtomicBoolean sampled = new AtomicBoolean();
      watching =
          watch.scheduleWithFixedDelay(
              () -> {
                long started = statementStarted;
                if (started != 0
                    && System.nanoTime() - started > TimeUnit.MILLISECONDS.toNanos(STUCK_MILLIS)
                    && sampled.compareAndSet(false, true)) {
                  stuck = stacks();
                }
              },
              1,
              1,
              TimeUnit.SECONDS);
    }

    /** The stacks of the loop's thread and of the planner's threads that run Cairn's code. */
    private String stacks() {
      StringBuilder out = new StringBuilder();
      for (Map.Entry<Thread, StackTraceElement[]> t : Thread.getAllStackTraces().entrySet()) {
        String frames =
            Arrays.stream(t.getValue()).map(String::valueOf).collect(Collectors.joining("\n\t"));
        if (t.getKey() == thread
            || (t.getKey().getName().startsWith("cairn-planner") && frames.contains("io.cairn"))) {
          out.append(t.getKey().getName()).append(":\n\t").append(frames).append('\n');
        }
      }
      return out.toString();
    }

    private void run() {
      thread = Thread.currentThread();
      for (int round = 0; !stopped; round++) {
        long started = System.nanoTime();
        statementStarted = started;
        try (Statement s = statement(connection)) {
          String wrongAnswer = query.check(s, round);
          if (wrongAnswer != null) {
            wrong.add(wrongAnswer);
          }
        } catch (SQLException e) {
          errors.add(e);
        } catch (RuntimeException | Error e) {
          wrong.add(e.toString());
        }
        statementStarted = 0;
        longestMillis.accumulateAndGet(
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), Math::max);
        synchronized (answers) {
          answers.incrementAndGet();
          answers.notifyAll();
        }
      }
    }

    int answers() {
      return answers.get();
    }

    /**
     * Waits until {@code n} statements have answered; fails, saying where the loop's statement
     * stands, when that takes longer than {@link #HANG_GUARD}.
     */
    void awaitAnswers(int n) throws InterruptedException {
      long deadline = System.nanoTime() + HANG_GUARD.toNanos();
      synchronized (answers) {
        while (answers.get() < n) {
          long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
          if (left <= 0) {
            throw hung();
          }
          answers.wait(left);
        }
      }
    }

    /** Stops the loop after its statement; fails as {@link #awaitAnswers} when that hangs. */
    void stop() throws Exception {
      stopped = true;
      try {
        running.get(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        throw hung();
      }
    }

    private AssertionError hung() {
      return new AssertionError(
          "The "
              + name
              + " hung: no statement ended for "
              + HANG_GUARD.toSeconds()
              + " s, though each has a timeout of "
              + QUERY_TIMEOUT_SECONDS
              + " s; it stands at:\n"
              + stacks());
    }

    @Override
    public void close() throws SQLException {
      stopped = true;
      if (watching != null) {
        watching.cancel(false);
      }
      watch.shutdownNow();
      executor.shutdownNow(); // interrupts a statement that hung, so the connection can close
      connection.close();
    }
  }

  // --- the cluster ------------------------------------------------------------------------------

  /**
   * Starts a new region server, then stops the old one (it closes its regions), and waits until the
   * new one serves every region.
   */
  private static void replaceTheRegionServer(HBaseTestingUtility hbase) throws Exception {
    MiniHBaseCluster cluster = hbase.getMiniHBaseCluster();
    List<RegionServerThread> live = cluster.getLiveRegionServerThreads();
    assertThat(live).as("live region servers").hasSize(1);
    RegionServerThread old = live.get(0);
    RegionServerThread fresh = cluster.startRegionServer(); // first: the cluster is never empty
    fresh.waitForServerOnline();
    old.getRegionServer().stop("TestHBaseFailures: a region server restart during reads");
    old.join(CLUSTER_WAIT_MILLIS);
    assertThat(old.isAlive()).as("the old region server stopped").isFalse();
    waitForAllRegions(hbase);
    assertThat(cluster.getLiveRegionServerThreads()).containsExactly(fresh);
  }

  /** Moves each region of {@code table} to {@code to}, one after the other. */
  private static void moveRegions(HBaseTestingUtility hbase, TableName table, ServerName to)
      throws Exception {
    for (RegionInfo region : hbase.getAdmin().getRegions(table)) {
      hbase.moveRegionAndWait(region, to);
    }
    waitForAllRegions(hbase);
  }

  /**
   * A local index of T whose table's region is on another region server than T's rows (on {@code
   * rowsOn}): its reads check the entries against those rows through the index's region server's
   * connection, not in process.
   */
  private void anIndexReadChecksRowsOfAnotherServer(HBaseTestingUtility hbase, ServerName rowsOn)
      throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE LOCAL INDEX T_V ON T (V)");
      TableName index = null;
      for (TableName t : hbase.getAdmin().listTableNamesByNamespace(namespace)) {
        if (t.getQualifierAsString().matches(".*_idx\\d+")) {
          index = t;
        }
      }
      assertThat(index).as("the index's table").isNotNull();
      ServerName other = null;
      for (RegionServerThread t : hbase.getMiniHBaseCluster().getLiveRegionServerThreads()) {
        if (!t.getRegionServer().getServerName().equals(rowsOn)) {
          other = t.getRegionServer().getServerName();
        }
      }
      moveRegions(hbase, index, other);
      long remote = CairnIndexObserver.remoteRowsRead();
      try (ResultSet rs =
          s.executeQuery("SELECT /*+ INDEX(T T_V) */ K FROM T WHERE V = " + value(1234))) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(1234);
        assertThat(rs.next()).isFalse();
      }
      assertThat(CairnIndexObserver.remoteRowsRead() - remote).as("rows read remotely").isOne();
    }
  }

  /** The HBase table of Cairn's T: the one table of the test's namespace with several regions. */
  private TableName splitTable(HBaseTestingUtility hbase) throws Exception {
    Admin admin = hbase.getAdmin();
    List<TableName> split = new ArrayList<>();
    for (TableName t : admin.listTableNamesByNamespace(namespace)) {
      if (admin.getRegions(t).size() > 1) {
        split.add(t);
      }
    }
    assertThat(split).as("tables of several regions in %s", namespace).hasSize(1);
    return split.get(0);
  }

  /** Waits until no region is in transition and every table's regions are assigned. */
  private static void waitForAllRegions(HBaseTestingUtility hbase) throws Exception {
    hbase.waitTableAvailable(TableName.META_TABLE_NAME, CLUSTER_WAIT_MILLIS);
    hbase.waitUntilNoRegionsInTransition(CLUSTER_WAIT_MILLIS);
    for (TableName t : hbase.getAdmin().listTableNames(Pattern.compile(".*"), true)) {
      hbase.waitUntilAllRegionsAssigned(t, CLUSTER_WAIT_MILLIS);
    }
  }
}
