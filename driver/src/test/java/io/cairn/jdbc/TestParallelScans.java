package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parallel scans over a table split into several regions (so several chunks even with one chunk per
 * region), embedded on a durable store and, in the remote contract run, on a server of durable
 * databases: the same results under SERIAL and any parallelism, key order without ORDER BY, limits,
 * offsets, skip scans and aggregates over many chunks; a cancel, a timeout or a failing chunk
 * leaves no scanner open (the server's open scanners, the embedded store's read buffers).
 */
class TestParallelScans {
  private static final int ROWS = 20_000;
  private static final Pattern OPEN_SCANNERS = Pattern.compile("\"openScanners\"\\s*:\\s*(\\d+)");

  @TempDir static Path dir;
  private static TestingServerProcess server;
  private static int statusPort;
  private static String base;

  @BeforeAll
  static void load() throws Exception {
    if (TestUrls.remote()) {
      try (ServerSocket free = new ServerSocket(0)) {
        statusPort = free.getLocalPort();
      }
      server =
          TestingServerProcess.start(
              "parallel-scans",
              0,
              dir,
              "--http-port",
              Integer.toString(statusPort),
              "--set",
              "page.max-rows=100"); // chunks of many pages: their server scanners stay open
      base = server.url("scans");
    } else {
      base = "jdbc:cairn:file:" + dir;
    }
    try (Connection c = DriverManager.getConnection(base);
        Statement s = c.createStatement()) {
      s.executeUpdate(
          "CREATE TABLE T (K INTEGER PRIMARY KEY, G INTEGER NOT NULL, V VARCHAR(40) NOT NULL)");
      c.setAutoCommit(false);
      try (PreparedStatement p = c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?)")) {
        for (int k = 0; k < ROWS; k++) {
          p.setInt(1, k);
          p.setInt(2, k % 7);
          p.setString(3, value(k));
          p.addBatch();
          if (k % 5000 == 4999) {
            p.executeBatch();
            c.commit();
          }
        }
      }
      c.setAutoCommit(true);
      for (int i = 0; i < 3; i++) {
        s.executeUpdate("SPLIT TABLE T"); // every region in two: 8 regions, 8 chunks
        s.executeUpdate("MAJOR_COMPACT TABLE T"); // the daughters get files of their own
      }
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static String value(int k) {
    return "v" + ((k * 7919) % ROWS);
  }

  private static String url(int parallelism) {
    return base + ";parallelism=" + parallelism;
  }

  private static List<Integer> ints(Connection c, String sql) throws SQLException {
    List<Integer> values = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        values.add(rs.getInt(1));
      }
    }
    return values;
  }

  private static List<String> explain(Connection c, String sql) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
      while (rs.next()) {
        lines.add(rs.getString(1));
      }
    }
    return lines;
  }

  private static int chunks(Connection c) throws SQLException {
    String head = explain(c, "SELECT * FROM T").get(0);
    Matcher m = Pattern.compile("(\\d+)-CHUNK").matcher(head);
    assertThat(m.find()).as(head).isTrue();
    return Integer.parseInt(m.group(1));
  }

  @Test
  void explainShowsTheChunksParallelismAndHints() throws SQLException {
    try (Connection c = DriverManager.getConnection(url(2))) {
      int chunks = chunks(c);
      assertThat(chunks).isGreaterThanOrEqualTo(4);
      assertThat(explain(c, "SELECT * FROM T").get(0))
          .startsWith("CLIENT PARALLEL 2-WAY " + chunks + "-CHUNK FULL SCAN OVER PUBLIC.T");
      assertThat(explain(c, "SELECT /*+ SERIAL, NO_CACHE */ * FROM T").get(0))
          .startsWith(
              "CLIENT SERIAL " + chunks + "-CHUNK FULL SCAN OVER PUBLIC.T (NO_CACHE, SERIAL)");
      assertThat(explain(c, "SELECT * FROM T WHERE K = 5").get(0))
          .isEqualTo("CLIENT 1-CHUNK POINT LOOKUP OVER PUBLIC.T [5]");
      assertThat(explain(c, "SELECT * FROM T WHERE K < 10").get(0))
          .startsWith("CLIENT 1-CHUNK RANGE SCAN OVER PUBLIC.T");
      assertThat(explain(c, "SELECT COUNT(*) FROM T"))
          .anyMatch(l -> l.startsWith("    CLIENT PARALLEL 2-WAY " + chunks + "-CHUNK FULL SCAN"));
      // groups of a column other than the key's first spread over every chunk: one request per
      // thread, each of neighbouring chunks, sends fewer partial groups; groups by the key end
      // within their chunk and keep one request per chunk
      assertThat(explain(c, "SELECT G, COUNT(*) FROM T GROUP BY G"))
          .anyMatch(
              l ->
                  l.startsWith(
                      "    CLIENT PARALLEL 2-WAY " + Math.min(chunks, 2) + "-CHUNK FULL SCAN"));
      assertThat(explain(c, "SELECT K, COUNT(*) FROM T GROUP BY K"))
          .anyMatch(l -> l.contains("CLIENT PARALLEL 2-WAY " + chunks + "-CHUNK FULL SCAN"));
      try (PreparedStatement p = c.prepareStatement("EXPLAIN SELECT * FROM T WHERE K > ?")) {
        p.setInt(1, 3);
        try (ResultSet rs = p.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getString(1))
              .startsWith("CLIENT PARALLEL 2-WAY " + chunks + "-CHUNK RANGE SCAN OVER PUBLIC.T")
              .contains("CHUNKS WITHOUT PARAMETER VALUES");
        }
      }
    }
  }

  @Test
  void rowsComeInKeyOrderUnderAnyParallelismAndSerial() throws SQLException {
    List<Integer> all = IntStream.range(0, ROWS).boxed().toList();
    for (int parallelism : new int[] {1, 2, 8}) {
      try (Connection c = DriverManager.getConnection(url(parallelism))) {
        assertThat(ints(c, "SELECT K FROM T")).isEqualTo(all);
        assertThat(ints(c, "SELECT /*+ SERIAL */ K FROM T")).isEqualTo(all);
        assertThat(ints(c, "SELECT K FROM T WHERE G = 3"))
            .isEqualTo(all.stream().filter(k -> k % 7 == 3).toList());
        assertThat(ints(c, "SELECT K FROM T WHERE K >= 1234 AND K < 17000"))
            .isEqualTo(all.subList(1234, 17000));
      }
    }
  }

  @Test
  void limitsAndOffsetsOverManyChunks() throws SQLException {
    for (int parallelism : new int[] {1, 3}) {
      try (Connection c = DriverManager.getConnection(url(parallelism))) {
        assertThat(ints(c, "SELECT K FROM T LIMIT 10"))
            .isEqualTo(IntStream.range(0, 10).boxed().toList());
        assertThat(ints(c, "SELECT K FROM T WHERE G = 3 LIMIT 5"))
            .containsExactly(3, 10, 17, 24, 31);
        assertThat(ints(c, "SELECT K FROM T WHERE K > 12345 LIMIT 3"))
            .containsExactly(12346, 12347, 12348);
        assertThat(ints(c, "SELECT K FROM T LIMIT 5 OFFSET 7")).containsExactly(7, 8, 9, 10, 11);
        List<Integer> byValue =
            IntStream.range(0, ROWS)
                .boxed()
                .sorted(Comparator.comparing(TestParallelScans::value).reversed())
                .toList();
        assertThat(ints(c, "SELECT K FROM T ORDER BY V DESC LIMIT 5 OFFSET 2"))
            .isEqualTo(byValue.subList(2, 7));
        assertThat(ints(c, "SELECT /*+ SERIAL */ K FROM T ORDER BY V DESC LIMIT 5 OFFSET 2"))
            .isEqualTo(byValue.subList(2, 7));
      }
    }
  }

  @Test
  void skipScansOverManyChunks() throws SQLException {
    List<Integer> keys = new ArrayList<>();
    for (int k = ROWS - 1; k >= 0; k -= 97) {
      keys.add(k);
    }
    String in = String.join(", ", keys.stream().map(String::valueOf).toList());
    List<Integer> sorted = keys.stream().sorted().toList();
    for (int parallelism : new int[] {1, 4}) {
      try (Connection c = DriverManager.getConnection(url(parallelism))) {
        assertThat(ints(c, "SELECT K FROM T WHERE K IN (" + in + ")")).isEqualTo(sorted);
        assertThat(ints(c, "SELECT /*+ SERIAL */ K FROM T WHERE K IN (" + in + ")"))
            .isEqualTo(sorted);
        assertThat(ints(c, "SELECT K FROM T WHERE K IN (19999, 3, 10001)"))
            .containsExactly(3, 10001, 19999);
      }
    }
  }

  @Test
  void aggregatesMergeThePartialsOfEveryChunk() throws SQLException {
    long sum = (long) ROWS * (ROWS - 1) / 2;
    for (int parallelism : new int[] {1, 2, 8}) {
      try (Connection c = DriverManager.getConnection(url(parallelism));
          Statement s = c.createStatement()) {
        for (String hint : new String[] {"", "/*+ SERIAL */ "}) {
          try (ResultSet rs =
              s.executeQuery(
                  "SELECT " + hint + "COUNT(*), SUM(K), MIN(K), MAX(K), AVG(G) FROM T")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(ROWS);
            assertThat(rs.getLong(2)).isEqualTo(sum);
            assertThat(rs.getInt(3)).isZero();
            assertThat(rs.getInt(4)).isEqualTo(ROWS - 1);
          }
          List<Integer> counts =
              ints(c, "SELECT " + hint + "COUNT(*) FROM T GROUP BY G ORDER BY G");
          assertThat(counts)
              .isEqualTo(
                  IntStream.range(0, 7)
                      .map(g -> (int) IntStream.range(0, ROWS).filter(k -> k % 7 == g).count())
                      .boxed()
                      .toList());
        }
      }
    }
  }

  @Test
  void aCancelMidScanClosesEveryChunk() throws Exception {
    try (Connection c = DriverManager.getConnection(url(4));
        Statement s = c.createStatement()) {
      ResultSet rs = s.executeQuery("SELECT * FROM T");
      for (int i = 0; i < 100; i++) {
        assertThat(rs.next()).isTrue();
      }
      if (server != null) {
        assertThat(openScanners(c)).as("chunks running ahead").isPositive();
      }
      s.cancel();
      assertThatThrownBy(
              () -> {
                while (rs.next()) {
                  // the cancel stops the reading
                }
              })
          .isInstanceOf(SQLException.class)
          .hasFieldOrPropertyWithValue("SQLState", "57014");
      awaitNoOpenScanners(c);
    }
  }

  @Test
  void aTimeoutMidScanClosesEveryChunk() throws Exception {
    try (Connection c = DriverManager.getConnection(url(4));
        Statement s = c.createStatement()) {
      s.setQueryTimeout(1);
      ResultSet rs = s.executeQuery("SELECT * FROM T");
      for (int i = 0; i < 100; i++) {
        assertThat(rs.next()).isTrue();
      }
      Thread.sleep(1500); // the deadline passes while chunks wait for the reader
      assertThatThrownBy(
              () -> {
                while (rs.next()) {
                  // the timeout stops the reading
                }
              })
          .isInstanceOf(SQLTimeoutException.class);
      awaitNoOpenScanners(c);
    }
  }

  @Test
  void aFailingChunkFailsTheQueryAndClosesTheOthers() throws Exception {
    try (Connection c = DriverManager.getConnection(url(4));
        Statement s = c.createStatement()) {
      assertThatThrownBy(() -> ints(c, "SELECT 100 / (K - 15000) FROM T"))
          .isInstanceOf(SQLException.class)
          .hasFieldOrPropertyWithValue("SQLState", "22012");
      awaitNoOpenScanners(c);
      assertThat(ints(c, "SELECT COUNT(*) FROM T")).containsExactly(ROWS);
    }
  }

  @Test
  void concurrentQueriesBothProgress() throws Exception {
    try (Connection a = DriverManager.getConnection(url(2));
        Connection b = DriverManager.getConnection(url(2));
        Statement s = a.createStatement()) {
      // a query left mid-scan holds no thread: another one runs to its end meanwhile
      ResultSet held = s.executeQuery("SELECT K FROM T");
      assertThat(held.next()).isTrue();
      assertThat(ints(b, "SELECT K FROM T WHERE G = 1")).hasSize((ROWS + 5) / 7);
      int count = 1;
      while (held.next()) {
        count++;
      }
      assertThat(count).isEqualTo(ROWS);
      held.close();
      // and two full scans at the same time both finish with all their rows
      ExecutorService threads = Executors.newFixedThreadPool(2);
      try {
        List<Future<List<Integer>>> scans = new ArrayList<>();
        for (Connection c : List.of(a, b)) {
          scans.add(threads.submit(() -> ints(c, "SELECT K FROM T")));
        }
        for (Future<List<Integer>> scan : scans) {
          assertThat(scan.get(60, TimeUnit.SECONDS)).hasSize(ROWS);
        }
      } finally {
        threads.shutdownNow();
      }
    }
  }

  @Test
  void tablesKeyedByRowIdsAndWritesFromChunkedScans() throws SQLException {
    try (Connection c = DriverManager.getConnection(url(3));
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE H (A INTEGER, B VARCHAR(10))");
      assertThat(s.executeUpdate("UPSERT INTO H SELECT K, V FROM T WHERE K < 6000"))
          .isEqualTo(6000);
      s.executeUpdate("SPLIT TABLE H");
      s.executeUpdate("MAJOR_COMPACT TABLE H");
      assertThat(explain(c, "SELECT * FROM H").get(0)).startsWith("CLIENT PARALLEL ");
      assertThat(ints(c, "SELECT COUNT(*) FROM H")).containsExactly(6000);
      assertThat(s.executeUpdate("DELETE FROM H WHERE MOD(A, 2) = 0")).isEqualTo(3000);
      assertThat(ints(c, "SELECT SUM(A) FROM H")).containsExactly(3000 * 3000);
      s.executeUpdate("DROP TABLE H");
    }
  }

  @Test
  void theParallelismPropertyIsMatchedIgnoringCase() throws SQLException {
    try (Connection c = DriverManager.getConnection(base + ";PARALLELISM=3")) {
      assertThat(explain(c, "SELECT * FROM T").get(0)).startsWith("CLIENT PARALLEL 3-WAY ");
    }
    java.util.Properties info = new java.util.Properties();
    info.setProperty("Parallelism", "1");
    try (Connection c = DriverManager.getConnection(base, info)) {
      assertThat(explain(c, "SELECT * FROM T").get(0)).startsWith("CLIENT SERIAL ");
    }
  }

  @Test
  void aBadParallelismIsRejected() {
    for (String bad : new String[] {"0", "-2", "many"}) {
      assertThatThrownBy(() -> DriverManager.getConnection(base + ";parallelism=" + bad).close())
          .isInstanceOf(SQLException.class)
          .hasFieldOrPropertyWithValue("SQLState", "08001")
          .hasMessageContaining("[parallelism]")
          .hasMessageContaining("expected a positive integer")
          .hasMessageContaining("found [" + bad + "]");
    }
  }

  // --- what stays open -------------------------------------------------------------------------

  /** Open scanners on the server, or read buffers in use in the embedded store. */
  private static long openScanners(Connection c) throws Exception {
    if (server == null) {
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT USED_BUFFERS FROM SYSTEM.BUFFER_POOL")) {
        rs.next();
        return rs.getLong(1);
      }
    }
    HttpURLConnection http =
        (HttpURLConnection)
            URI.create("http://127.0.0.1:" + statusPort + "/status.json").toURL().openConnection();
    try (InputStream in = http.getInputStream()) {
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      Matcher m = OPEN_SCANNERS.matcher(json);
      long open = 0;
      while (m.find()) {
        open += Long.parseLong(m.group(1));
      }
      return open;
    } finally {
      http.disconnect();
    }
  }

  private static void awaitNoOpenScanners(Connection c) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    long open = openScanners(c);
    while (open != 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
      open = openScanners(c);
    }
    assertThat(open).as("open scanners (remote) or used read buffers (embedded)").isZero();
  }
}
