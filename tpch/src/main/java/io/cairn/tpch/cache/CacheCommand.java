package io.cairn.tpch.cache;

import io.cairn.core.SuppressForbidden;
import io.cairn.core.catalog.TableOptions;
import io.cairn.core.error.CairnException;
import io.cairn.core.io.Closeables;
import io.cairn.tpch.cli.JvmMeters;
import io.cairn.tpch.cli.WorkDirectoryOptions;
import io.cairn.tpch.report.JsonReport;
import io.cairn.tpch.report.TextTable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code bin/cairn bench cache}: the read path with and without the block cache, on a durable store
 * in this JVM. See the command's description and docs/benchmarks.md ("Block cache").
 */
@Command(
    name = "cache",
    mixinStandardHelpOptions = true,
    versionProvider = io.cairn.tpch.cli.Version.class,
    sortOptions = false,
    description = {
      "Measures the read path of a durable store with and without its block cache. Loads a table"
          + " T (K BIGINT PRIMARY KEY, QTY DECIMAL(15,2), PRICE DOUBLE, D DATE, S VARCHAR) of"
          + " --rows rows into a jdbc:cairn:file: store in --dir, flushes and major-compacts it,"
          + " then prints one table:",
      "- COUNT(*) and COUNT(*) WHERE QTY < 10 (20%% of the rows) with the data in the block cache"
          + " (off-heap L2 of --cache-size, warmed), only in the OS page cache (a store opened with"
          + " cairn.block-cache.size=0 and cairn.block-cache.l1-size=0), and with /*+ NO_CACHE */"
          + " on a freshly opened store (cold cache);",
      "- heap bytes allocated per row scanned and per point get (SELECT * FROM T WHERE K = ?);",
      "- COUNT(*) run by 1, 2, 4 (--threads) clients at once: total rows/s;",
      "- a --duration mixed workload (--scan-threads clients running range scans of --range-rows"
          + " rows, --get-threads clients doing point gets), run twice: data blocks in the"
          + " off-heap L2, then in the on-heap L1 (cairn.block-cache.size=0, l1-size ="
          + " --cache-size), with GC count and GC time (GarbageCollectorMXBeans) for each.",
      "",
      "First, a --warmup-time mix of all the queries lets the JIT compile the read path. Times are"
          + " medians of --iterations runs after --warmups unmeasured ones (the mixed workload"
          + " runs once per cache). disk MB/s = bytes of T's block files (--compression) / time;"
          + " uncompressed MB/s = bytes of the same files written with COMPRESSION='NONE' / time."
          + " Heap bytes are read from ThreadMXBean (all threads, TLAB-granular); the jmh module's"
          + " benchmarks with -prof gc give the precise figure. hit %% = block cache hits /"
          + " lookups during the measured runs (SYSTEM.BLOCK_CACHE, both levels).",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  bin/cairn bench cache",
      "  bin/cairn bench cache --rows 200000 --duration 10s --iterations 3",
      "  CAIRN_HEAP=4g bin/cairn bench cache --cache-size 1g --compression ZSTD"
    })
public final class CacheCommand implements Callable<Integer> {
  private static final String L2_SIZE = "cairn.block-cache.size";
  private static final String L1_SIZE = "cairn.block-cache.l1-size";

  @Option(
      names = "--rows",
      description = "Rows of the table. Default: ${DEFAULT-VALUE}.",
      defaultValue = "2000000")
  long rows;

  @Mixin WorkDirectoryOptions workDirectory;

  @Option(
      names = "--cache-size",
      description =
          "Block cache size (k, m, g suffixes): the off-heap L2, and the on-heap L1 of the"
              + " on-heap run. Must hold the table uncompressed. Default: ${DEFAULT-VALUE}.",
      defaultValue = "512m")
  String cacheSize;

  @Option(
      names = "--compression",
      description = "The table's COMPRESSION while measured. Default: ${DEFAULT-VALUE}.",
      defaultValue = "LZ4")
  String compression;

  @Option(
      names = "--iterations",
      description = "Measured runs of each timed part. Default: ${DEFAULT-VALUE}.",
      defaultValue = "5")
  int iterations;

  @Option(
      names = "--warmups",
      description = "Unmeasured runs before each timed part. Default: ${DEFAULT-VALUE}.",
      defaultValue = "1")
  int warmups;

  @Option(
      names = "--warmup-time",
      description =
          "Unmeasured mix of all the queries before the first measurement, so that the JIT has"
              + " compiled the read path: 10s, 500ms or seconds. Default: ${DEFAULT-VALUE}.",
      defaultValue = "10s",
      converter = DurationConverter.class)
  Duration warmupTime;

  @Option(
      names = "--gets",
      description = "Point gets per measured run. Default: ${DEFAULT-VALUE}.",
      defaultValue = "20000")
  int gets;

  @Option(
      names = "--threads",
      split = ",",
      description = "Client counts of the COUNT(*) scaling runs. Default: 1,2,4.")
  List<Integer> threads = List.of(1, 2, 4);

  @Option(
      names = "--duration",
      description =
          "Length of each mixed-workload run: 60s, 500ms, 2m or seconds. Default: ${DEFAULT-VALUE}.",
      defaultValue = "60s",
      converter = DurationConverter.class)
  Duration duration;

  @Option(
      names = "--scan-threads",
      description = "Range-scanning clients of the mixed workload. Default: ${DEFAULT-VALUE}.",
      defaultValue = "3")
  int scanThreads;

  @Option(
      names = "--get-threads",
      description = "Point-getting clients of the mixed workload. Default: ${DEFAULT-VALUE}.",
      defaultValue = "1")
  int getThreads;

  @Option(
      names = "--range-rows",
      description = "Rows per range scan of the mixed workload. Default: ${DEFAULT-VALUE}.",
      defaultValue = "10000")
  long rangeRows;

  @Option(
      names = "--seed",
      description = "Random seed of the keys. Default: ${DEFAULT-VALUE}.",
      defaultValue = "42")
  long seed;

  /** {@code 60s}, {@code 500ms}, {@code 2m}, or a number of seconds. */
  static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      String v = value.trim().toLowerCase(Locale.ROOT);
      try {
        if (v.endsWith("ms")) {
          return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
        }
        if (v.endsWith("s")) {
          return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)));
        }
        if (v.endsWith("m")) {
          return Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1)));
        }
        return Duration.ofSeconds(Long.parseLong(v));
      } catch (NumberFormatException e) {
        throw new CommandLine.TypeConversionException(
            "expected a duration such as 60s, 500ms or 2m, found [" + value + "]");
      }
    }
  }

  private final JvmMeters meters = JvmMeters.create();
  private final TextTable table =
      new TextTable(
              "measurement",
              "cache",
              "threads",
              "median ms",
              "rows/s",
              "disk MB/s",
              "uncompressed MB/s",
              "ops/s",
              "heap B/op",
              "p99 us",
              "hit %",
              "GCs",
              "GC ms")
          .alignLeft(1);

  private long diskBytes;
  private long uncompressedBytes;
  private long expectedCountWhere;

  @Override
  @SuppressForbidden(reason = "command-line output")
  public Integer call() throws Exception {
    PrintStream out = System.out;
    checkOptions();
    Path root = workDirectory.create("cairn-cache", this::usage);
    JsonReport.MachineInfo machine = JsonReport.MachineInfo.current();
    out.printf(
        Locale.ROOT,
        "Machine: %s, max direct memory %d MiB; collectors: %s%n",
        machine.describe(),
        JvmMeters.maxDirectMemory() >> 20,
        JvmMeters.collectors());
    expectedCountWhere = CacheTable.countQtyBelowTen(rows);
    try {
      String url = "jdbc:cairn:file:" + root.resolve("store");
      load(out, url, root.resolve("store"));
      Map<String, String> offHeap = Map.of(L2_SIZE, cacheSize);
      Map<String, String> pageCacheOnly = Map.of(L2_SIZE, "0", L1_SIZE, "0");
      Map<String, String> onHeap = Map.of(L2_SIZE, "0", L1_SIZE, cacheSize);
      List<String[]> blockCache = new ArrayList<>();
      List<String[]> pageCache = new ArrayList<>();
      List<String[]> noCache = new ArrayList<>();
      List<String[]> more = new ArrayList<>();
      String l2 = "L2 off-heap " + cacheSize;
      try (Connection c = DriverManager.getConnection(url, CacheTable.properties(offHeap))) {
        out.printf(Locale.ROOT, "Warming up the JIT for %s%n", text(warmupTime));
        jitWarmup(c);
        warm(c);
        out.println("Block cache after two full scans: " + describeCache(c));
        out.println("Scans from the block cache (data blocks in the off-heap L2)");
        blockCache.add(scan(c, CacheTable.COUNT, rows, "COUNT(*)", l2));
        blockCache.add(
            scan(c, CacheTable.COUNT_WHERE, expectedCountWhere, "COUNT(*) WHERE QTY < 10", l2));
        out.println("Point gets");
        more.add(pointGets(c, l2));
        for (int n : threads) {
          out.printf(Locale.ROOT, "COUNT(*) by %d client(s) at once%n", n);
          more.add(scaling(url, CacheTable.properties(offHeap), n, l2));
        }
        out.printf(Locale.ROOT, "Mixed workload for %s, data blocks off-heap%n", text(duration));
        more.addAll(mixed(url, CacheTable.properties(offHeap), l2));
      }
      try (Connection c = DriverManager.getConnection(url, CacheTable.properties(pageCacheOnly))) {
        out.println("Scans without a block cache (OS page cache only)");
        String none = "none (OS page cache)";
        pageCache.add(scan(c, CacheTable.COUNT, rows, "COUNT(*)", none));
        pageCache.add(
            scan(c, CacheTable.COUNT_WHERE, expectedCountWhere, "COUNT(*) WHERE QTY < 10", none));
      }
      try (Connection c = DriverManager.getConnection(url, CacheTable.properties(offHeap))) {
        // a newly opened store: its cache is cold, and NO_CACHE scans must leave it so
        out.println("NO_CACHE scans on a cold cache");
        String cold = "NO_CACHE, cold L2";
        noCache.add(scan(c, CacheTable.noCache(CacheTable.COUNT), rows, "COUNT(*)", cold));
        noCache.add(
            scan(
                c,
                CacheTable.noCache(CacheTable.COUNT_WHERE),
                expectedCountWhere,
                "COUNT(*) WHERE QTY < 10",
                cold));
        out.println("Block cache after the NO_CACHE scans: " + describeCache(c));
      }
      try (Connection c = DriverManager.getConnection(url, CacheTable.properties(onHeap))) {
        out.printf(Locale.ROOT, "Mixed workload for %s, data blocks on-heap%n", text(duration));
        warm(c);
        out.println("Block cache after two full scans: " + describeCache(c));
        more.addAll(mixed(url, CacheTable.properties(onHeap), "L1 on-heap " + cacheSize));
      }
      for (List<String[]> group : List.of(blockCache, pageCache, noCache, more)) {
        for (String[] row : group) {
          table.addRow(row);
        }
      }
      out.println();
      out.printf(
          Locale.ROOT,
          "T: %,d rows; block files %,.1f MiB with COMPRESSION='%s', %,.1f MiB uncompressed;"
              + " medians of %d runs after %d unmeasured%n",
          rows,
          diskBytes / (double) (1 << 20),
          compression,
          uncompressedBytes / (double) (1 << 20),
          iterations,
          warmups);
      out.println(table.render());
      out.println(
          "heap B/op: heap bytes allocated per row scanned (scans) or per get, read from "
              + meters.allocationMethod()
              + " around the measured runs, in the mixed workload from each client's own thread;"
              + " the jmh module's benchmarks with -prof gc give the precise figure.");
      out.println(
          "hit %: block cache hits / lookups (both levels, SYSTEM.BLOCK_CACHE) during the measured"
              + " runs. GCs, GC ms: collections and their time during them (all collectors).");
    } finally {
      workDirectory.finish(root, out, "Store kept in ", root.resolve("store"));
    }
    return 0;
  }

  private void checkOptions() {
    if (rows < 1) {
      throw usage("--rows: expected >= 1, found [" + rows + "]");
    }
    if (iterations < 1 || warmups < 0 || gets < 1) {
      throw usage("--iterations and --gets: expected >= 1; --warmups: expected >= 0");
    }
    if (threads.isEmpty() || threads.stream().anyMatch(n -> n < 1)) {
      throw usage("--threads: expected client counts >= 1, found " + threads);
    }
    if (duration.isNegative() || duration.isZero()) {
      throw usage("--duration: expected > 0, found [" + duration + "]");
    }
    if (warmupTime.isNegative()) {
      throw usage("--warmup-time: expected >= 0, found [" + warmupTime + "]");
    }
    if (scanThreads < 0 || getThreads < 0 || scanThreads + getThreads == 0) {
      throw usage("--scan-threads, --get-threads: expected >= 0, and at least one client");
    }
    if (rangeRows < 1 || rangeRows > rows) {
      throw usage("--range-rows: expected 1 to --rows (" + rows + "), found [" + rangeRows + "]");
    }
    try {
      compression = TableOptions.validate(Map.of("COMPRESSION", compression)).get("COMPRESSION");
    } catch (CairnException e) {
      throw usage("--compression: " + e.getMessage());
    }
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(new CommandLine(this), message);
  }

  @SuppressForbidden(reason = "command-line output")
  private void load(PrintStream out, String url, Path store) throws SQLException, IOException {
    out.printf(Locale.ROOT, "Loading %,d rows into %s%n", rows, store);
    long start = System.nanoTime();
    Properties settings = CacheTable.properties(Map.of(L2_SIZE, cacheSize));
    try (Connection c = DriverManager.getConnection(url, settings)) {
      CacheTable.createAndLoad(c, url, settings, rows);
      uncompressedBytes = CacheTable.blockFileBytes(store);
      CacheTable.recompress(c, compression);
      diskBytes = CacheTable.blockFileBytes(store);
    }
    out.printf(
        Locale.ROOT,
        "  loaded, flushed and compacted (twice) in %.1f s%n",
        (System.nanoTime() - start) / 1e9);
  }

  /** Two full scans: every block of T is read, the second finds them in the cache. */
  private void warm(Connection c) throws SQLException {
    try (PreparedStatement p = c.prepareStatement(CacheTable.COUNT)) {
      for (int i = 0; i < 2; i++) {
        check(p, rows);
      }
    }
  }

  /** Every kind of query, round after round, for {@link #warmupTime}; nothing is measured. */
  private void jitWarmup(Connection c) throws SQLException {
    SplittableRandom random = new SplittableRandom(seed - 1);
    long end = System.nanoTime() + warmupTime.toNanos();
    try (PreparedStatement count = c.prepareStatement(CacheTable.COUNT);
        PreparedStatement countWhere = c.prepareStatement(CacheTable.COUNT_WHERE);
        PreparedStatement noCache = c.prepareStatement(CacheTable.noCache(CacheTable.COUNT));
        PreparedStatement range = c.prepareStatement(CacheTable.RANGE_SCAN);
        PreparedStatement lookup = c.prepareStatement(CacheTable.POINT_GET)) {
      while (System.nanoTime() < end) {
        check(count, rows);
        check(countWhere, expectedCountWhere);
        check(noCache, rows);
        for (int i = 0; i < 20; i++) {
          rangeScan(range, random);
        }
        for (int i = 0; i < 1000; i++) {
          get(lookup, random.nextLong(rows));
        }
      }
    }
  }

  /** Block cache counters summed over the levels, from SYSTEM.BLOCK_CACHE. */
  private record CacheCounters(
      int levels, long hits, long misses, long blocks, long bytes, long evictions, long skipped) {
    static CacheCounters read(Connection c) throws SQLException {
      try (Statement s = c.createStatement();
          ResultSet r =
              s.executeQuery(
                  "SELECT COUNT(*), SUM(HITS), SUM(MISSES), SUM(BLOCKS), SUM(BYTES),"
                      + " SUM(EVICTIONS), SUM(NOT_CACHED_TOO_LARGE + NOT_CACHED_NO_SPACE)"
                      + " FROM \"SYSTEM\".BLOCK_CACHE")) {
        r.next();
        return new CacheCounters(
            r.getInt(1),
            r.getLong(2),
            r.getLong(3),
            r.getLong(4),
            r.getLong(5),
            r.getLong(6),
            r.getLong(7));
      }
    }

    /** Hits in percent of the lookups since {@code before}; empty without lookups. */
    String hitPercent(CacheCounters before) {
      long h = hits - before.hits;
      long lookups = h + misses - before.misses;
      return levels == 0 || lookups == 0
          ? ""
          : String.format(Locale.ROOT, "%.1f", 100.0 * h / lookups);
    }
  }

  /** What the cache holds, per level, with a warning when it is too small for T. */
  private String describeCache(Connection c) throws SQLException {
    List<String> levels = new ArrayList<>();
    long lost = 0;
    try (Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT LEVEL, MEMORY, BLOCKS, BYTES, CAPACITY_BYTES, EVICTIONS,"
                    + " NOT_CACHED_TOO_LARGE + NOT_CACHED_NO_SPACE FROM \"SYSTEM\".BLOCK_CACHE")) {
      while (r.next()) {
        levels.add(
            String.format(
                Locale.ROOT,
                "%s (%s) %,d blocks, %,.1f of %,.1f MiB",
                r.getString(1),
                r.getString(2),
                r.getLong(3),
                r.getLong(4) / (double) (1 << 20),
                r.getLong(5) / (double) (1 << 20)));
        lost += r.getLong(6) + r.getLong(7);
      }
    }
    if (levels.isEmpty()) {
      return "no cache";
    }
    String text = String.join("; ", levels);
    return lost == 0
        ? text
        : text
            + String.format(
                Locale.ROOT,
                " - WARNING: %,d blocks evicted or not cached: T does not fit, raise --cache-size",
                lost);
  }

  /** One timed run: elapsed nanoseconds and heap bytes allocated. */
  private record Run(long nanos, long bytes) {}

  /** What the measured runs of a part have in common: GC and cache counters before them. */
  private static final class Window {
    private final Connection counters;
    private final JvmMeters.GcTotals gc;
    private final CacheCounters cache;

    Window(Connection counters) throws SQLException {
      this.counters = counters;
      this.cache = CacheCounters.read(counters);
      this.gc = JvmMeters.GcTotals.now();
    }

    /** hit %, GCs, GC ms since this window opened. */
    String[] close() throws SQLException {
      JvmMeters.GcTotals g = JvmMeters.GcTotals.now().minus(gc);
      return new String[] {
        CacheCounters.read(counters).hitPercent(cache),
        String.valueOf(g.count()),
        String.valueOf(g.millis())
      };
    }
  }

  private String[] scan(Connection c, String sql, long expected, String name, String cache)
      throws SQLException {
    System.gc(); // each part starts from a collected heap
    List<Run> runs = new ArrayList<>();
    Window window = null;
    try (PreparedStatement p = c.prepareStatement(sql)) {
      for (int i = 0; i < warmups + iterations; i++) {
        if (i == warmups) {
          window = new Window(c);
        }
        long bytes = meters.allocatedBytes();
        long start = System.nanoTime();
        check(p, expected);
        long nanos = System.nanoTime() - start;
        bytes = meters.allocatedBytes() - bytes;
        if (i >= warmups) {
          runs.add(new Run(nanos, bytes));
        }
      }
    }
    return scanRow(
        name + (sql.contains("NO_CACHE") ? " /*+ NO_CACHE */" : ""),
        cache,
        1,
        runs,
        window.close());
  }

  private String[] scanRow(
      String name, String cache, int clients, List<Run> runs, String[] hitsAndGc) {
    double seconds = medianNanos(runs) / 1e9;
    double rowsScanned = (double) rows * clients;
    return row(
        name,
        cache,
        String.valueOf(clients),
        ms(seconds * 1e3),
        count(rowsScanned / seconds),
        mb(diskBytes * clients / seconds),
        mb(uncompressedBytes * clients / seconds),
        "",
        perOp(medianBytes(runs), rowsScanned),
        "",
        hitsAndGc);
  }

  /** A table row: the first ten cells, then hit %, GCs and GC ms (none: left empty). */
  private static String[] row(
      String name,
      String cache,
      String clients,
      String medianMs,
      String rowsPerSecond,
      String diskMbPerSecond,
      String uncompressedMbPerSecond,
      String opsPerSecond,
      String heapBytesPerOp,
      String p99,
      String... hitsAndGc) {
    List<String> cells =
        new ArrayList<>(
            List.of(
                name,
                cache,
                clients,
                medianMs,
                rowsPerSecond,
                diskMbPerSecond,
                uncompressedMbPerSecond,
                opsPerSecond,
                heapBytesPerOp,
                p99));
    cells.addAll(List.of(hitsAndGc));
    return cells.toArray(String[]::new);
  }

  private String[] pointGets(Connection c, String cache) throws SQLException {
    System.gc();
    SplittableRandom random = new SplittableRandom(seed);
    Histogram latency = new Histogram(3);
    List<Run> runs = new ArrayList<>();
    Window window = null;
    try (PreparedStatement p = c.prepareStatement(CacheTable.POINT_GET)) {
      for (int i = 0; i < warmups + iterations; i++) {
        if (i == warmups) {
          window = new Window(c);
        }
        boolean measured = i >= warmups;
        long bytes = meters.allocatedBytes();
        long start = System.nanoTime();
        for (int g = 0; g < gets; g++) {
          long t = System.nanoTime();
          get(p, random.nextLong(rows));
          if (measured) {
            latency.recordValue(Math.max(1, (System.nanoTime() - t) / 1000));
          }
        }
        long nanos = System.nanoTime() - start;
        bytes = meters.allocatedBytes() - bytes;
        if (measured) {
          runs.add(new Run(nanos, bytes));
        }
      }
    }
    double seconds = medianNanos(runs) / 1e9;
    return row(
        "point get, SELECT * WHERE K = ?",
        cache,
        "1",
        ms(seconds * 1e3),
        "",
        "",
        "",
        count(gets / seconds),
        perOp(medianBytes(runs), gets),
        String.valueOf(latency.getValueAtPercentile(99)),
        window.close());
  }

  /** COUNT(*) by {@code clients} connections at once; a run ends when the last one has answered. */
  private String[] scaling(String url, Properties settings, int clients, String cache)
      throws SQLException, InterruptedException, ExecutionException {
    System.gc();
    List<Connection> connections = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<PreparedStatement> queries = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        Connection c = DriverManager.getConnection(url, settings);
        connections.add(c);
        queries.add(c.prepareStatement(CacheTable.COUNT));
      }
      List<Run> runs = new ArrayList<>();
      Window window = null;
      for (int i = 0; i < warmups + iterations; i++) {
        if (i == warmups) {
          window = new Window(connections.get(0));
        }
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (PreparedStatement q : queries) {
          done.add(
              pool.submit(
                  () -> {
                    go.await();
                    check(q, rows);
                    return null;
                  }));
        }
        long bytes = meters.allocatedBytes();
        long start = System.nanoTime();
        go.countDown();
        for (Future<?> f : done) {
          f.get();
        }
        long nanos = System.nanoTime() - start;
        bytes = meters.allocatedBytes() - bytes;
        if (i >= warmups) {
          runs.add(new Run(nanos, bytes));
        }
      }
      return scanRow("COUNT(*), clients at once", cache, clients, runs, window.close());
    } finally {
      pool.shutdownNow();
      Closeables.closeAll(connections, SQLException.class);
    }
  }

  /** What one client of the mixed workload did: statements, heap bytes, latencies (gets). */
  private record ClientResult(long statements, long bytes, Histogram latency) {}

  /**
   * The mixed workload for {@link #duration}: range scanners and point getters, each on its own
   * connection and thread; three rows: the whole run, the scans, the gets.
   */
  private List<String[]> mixed(String url, Properties settings, String cache)
      throws SQLException, InterruptedException, ExecutionException {
    int clients = scanThreads + getThreads;
    List<Connection> connections = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    AtomicBoolean stop = new AtomicBoolean();
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<ClientResult>> scanDone = new ArrayList<>();
      List<Future<ClientResult>> getDone = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        Connection c = DriverManager.getConnection(url, settings);
        connections.add(c);
        SplittableRandom random = new SplittableRandom(seed + i);
        if (i < scanThreads) {
          PreparedStatement scan = c.prepareStatement(CacheTable.RANGE_SCAN);
          scanDone.add(pool.submit(() -> rangeScans(scan, random, go, stop)));
        } else {
          PreparedStatement lookup = c.prepareStatement(CacheTable.POINT_GET);
          getDone.add(pool.submit(() -> pointGets(lookup, random, go, stop)));
        }
      }
      System.gc();
      Window window = new Window(connections.get(0));
      long start = System.nanoTime();
      go.countDown();
      Thread.sleep(duration.toMillis());
      stop.set(true);
      ClientResult scans = sum(scanDone);
      ClientResult lookups = sum(getDone);
      double seconds = (System.nanoTime() - start) / 1e9;
      String[] hitsAndGc = window.close();
      long gets = lookups.latency().getTotalCount();
      double scannedRows = (double) scans.statements() * rangeRows;
      List<String[]> result = new ArrayList<>();
      result.add(
          row(
              "mixed " + text(duration) + ": all clients",
              cache,
              String.valueOf(clients),
              "",
              "",
              "",
              "",
              count((scans.statements() + gets) / seconds),
              "",
              "",
              hitsAndGc));
      result.add(
          row(
              String.format(Locale.ROOT, "  range scans of %,d rows", rangeRows),
              cache,
              String.valueOf(scanThreads),
              "",
              count(scannedRows / seconds),
              mb(diskBytes * (scannedRows / rows) / seconds),
              mb(uncompressedBytes * (scannedRows / rows) / seconds),
              count(scans.statements() / seconds),
              perOp(scans.bytes(), scannedRows),
              ""));
      result.add(
          row(
              "  point gets",
              cache,
              String.valueOf(getThreads),
              "",
              "",
              "",
              "",
              count(gets / seconds),
              perOp(lookups.bytes(), gets),
              gets == 0 ? "" : String.valueOf(lookups.latency().getValueAtPercentile(99))));
      return result;
    } finally {
      stop.set(true);
      pool.shutdownNow();
      Closeables.closeAll(connections, SQLException.class);
    }
  }

  private static ClientResult sum(List<Future<ClientResult>> clients)
      throws InterruptedException, ExecutionException {
    long statements = 0;
    long bytes = 0;
    Histogram latency = new Histogram(3);
    for (Future<ClientResult> f : clients) {
      ClientResult r = f.get();
      statements += r.statements();
      bytes += r.bytes();
      latency.add(r.latency());
    }
    return new ClientResult(statements, bytes, latency);
  }

  private ClientResult rangeScans(
      PreparedStatement scan, SplittableRandom random, CountDownLatch go, AtomicBoolean stop)
      throws SQLException, InterruptedException {
    go.await();
    long bytes = meters.currentThreadAllocatedBytes();
    long n = 0;
    while (!stop.get()) {
      rangeScan(scan, random);
      n++;
    }
    return new ClientResult(n, meters.currentThreadAllocatedBytes() - bytes, new Histogram(3));
  }

  private ClientResult pointGets(
      PreparedStatement lookup, SplittableRandom random, CountDownLatch go, AtomicBoolean stop)
      throws SQLException, InterruptedException {
    go.await();
    Histogram latency = new Histogram(3);
    long bytes = meters.currentThreadAllocatedBytes();
    long n = 0;
    while (!stop.get()) {
      long t = System.nanoTime();
      get(lookup, random.nextLong(rows));
      latency.recordValue(Math.max(1, (System.nanoTime() - t) / 1000));
      n++;
    }
    return new ClientResult(n, meters.currentThreadAllocatedBytes() - bytes, latency);
  }

  private void rangeScan(PreparedStatement scan, SplittableRandom random) throws SQLException {
    long from = random.nextLong(rows - rangeRows + 1);
    scan.setLong(1, from);
    scan.setLong(2, from + rangeRows);
    check(scan, rangeRows);
  }

  /** Runs a counting query and checks its first column. */
  private static void check(PreparedStatement query, long expected) throws SQLException {
    try (ResultSet r = query.executeQuery()) {
      long found = r.next() ? r.getLong(1) : -1;
      if (found != expected) {
        throw new SQLException(
            "Wrong answer: expected [" + expected + "], found [" + found + "]: " + query);
      }
    }
  }

  private static void get(PreparedStatement lookup, long k) throws SQLException {
    lookup.setLong(1, k);
    try (ResultSet r = lookup.executeQuery()) {
      if (!r.next() || r.getLong(1) != k || r.getString(5) == null) {
        throw new SQLException("Row [" + k + "] not found");
      }
    }
  }

  private static String text(Duration duration) {
    long ms = duration.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + " s" : ms + " ms";
  }

  private static long medianNanos(List<Run> runs) {
    return median(runs.stream().map(Run::nanos).toList());
  }

  private static long medianBytes(List<Run> runs) {
    return median(runs.stream().map(Run::bytes).toList());
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private String perOp(long bytes, double ops) {
    if (!meters.allocationSupported() || ops <= 0) {
      return "";
    }
    return String.format(Locale.ROOT, bytes / ops < 10 ? "%.2f" : "%,.0f", bytes / ops);
  }

  private static String ms(double ms) {
    return String.format(Locale.ROOT, ms < 10 ? "%.2f" : ms < 1000 ? "%.1f" : "%,.0f", ms);
  }

  private static String count(double perSecond) {
    return String.format(Locale.ROOT, "%,.0f", perSecond);
  }

  private static String mb(double bytesPerSecond) {
    return String.format(Locale.ROOT, "%,.1f", bytesPerSecond / 1e6);
  }
}
