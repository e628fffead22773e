package io.cairn.tpch.server;

import io.cairn.core.SuppressForbidden;
import io.cairn.core.io.Closeables;
import io.cairn.server.rpc.ServerProcess;
import io.cairn.tpch.cli.RunOptions;
import io.cairn.tpch.cli.WorkDirectoryOptions;
import io.cairn.tpch.report.JsonReport;
import io.cairn.tpch.report.TextTable;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/cairn bench server}: point lookups and scans through a Cairn server process over
 * loopback, against the same table in an embedded database in this JVM. See the command's
 * description and docs/benchmarks.md ("Network server (loopback)").
 */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    versionProvider = io.cairn.tpch.cli.Version.class,
    sortOptions = false,
    description = {
      "Measures the network server over loopback against the embedded database. Starts a Cairn"
          + " server process (io.cairn.server.rpc.ServerMain on 127.0.0.1, a free port, no status"
          + " page, heap --server-heap) and loads a table T (ID BIGINT PRIMARY KEY, GRP INTEGER,"
          + " QTY DECIMAL(15,2), PRICE DOUBLE, D DATE, NAME VARCHAR(40), NOTE VARCHAR(80); about"
          + " 100 bytes of raw values per row) of --rows rows into it through"
          + " jdbc:cairn://127.0.0.1:PORT, and the same rows into an embedded database in this"
          + " JVM, both in memory (--store mem) or both durable (--store file, in --dir). Then it"
          + " prints one table, embedded against loopback:",
      "- point lookups, SELECT * FROM T WHERE ID = ? through a PreparedStatement with random"
          + " keys, by each number of --clients at once (a thread and a JDBC connection each; the"
          + " driver multiplexes every connection to one server on one TCP connection): each"
          + " phase runs --warmup seconds unmeasured, then --seconds measured; lookups/s,"
          + " latency mean, p50, p99, p99.9 (HdrHistogram, closed loop: a client sends its next"
          + " lookup when the last one has answered) and CPU per lookup;",
      "- SELECT * FROM T (every row travels to the client), SELECT COUNT(*) FROM T (counted in"
          + " the store's scanner) and SELECT * FROM T WHERE GRP = 7 (a filter keeping 0.1% of"
          + " the rows, evaluated next to the data): median time of --runs runs after --warmups"
          + " unmeasured ones, rows/s and raw MB/s.",
      "",
      "First --jit-warmup seconds of lookups and 3 runs of each scan on each side let the JIT"
          + " compile both JVMs' paths. Embedded and loopback phases alternate (embedded first) so"
          + " that both see the same machine."
          + " CPU is the user + system time of this process and of the server process"
          + " (ProcessHandle), per lookup or per scan; on the embedded side only this process"
          + " works. Context switches (Linux: voluntary and involuntary, of every thread of both"
          + " processes, /proc/PID/task) per lookup. raw MB/s = raw bytes of the values returned (8 per BIGINT, DOUBLE and"
          + " DECIMAL, 4 per INTEGER and DATE, the strings' UTF-8 bytes) / time. The server logs"
          + " to server.log in the work directory (nothing when slf4j-nop is its SLF4J provider,"
          + " as on the tools' class path; --server-classpath with the server module's class path"
          + " gives its logs).",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  bin/cairn bench server",
      "  bin/cairn bench server --rows 100000 --seconds 5 --clients 1,4,16",
      "  bin/cairn bench server --store file --results results",
      "  bin/cairn bench server --server-jvm-option=-XX:StartFlightRecording=filename=server.jfr"
    })
public final class ServerBenchCommand implements Callable<Integer> {
  /** Where both databases live: in memory, or durable (block files and the block cache). */
  enum Store {
    mem,
    file
  }

  @Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--rows",
      description = "Rows of T. Default: ${DEFAULT-VALUE}.",
      defaultValue = "1000000")
  long rows;

  @Option(
      names = "--clients",
      split = ",",
      paramLabel = "N",
      description = "Numbers of concurrent lookup clients, one phase each. Default: 1,8,64.")
  List<Integer> clients = new ArrayList<>(List.of(1, 8, 64));

  @Option(
      names = "--seconds",
      description = "Measured length of each lookup phase, in seconds. Default: ${DEFAULT-VALUE}.",
      defaultValue = "10")
  double seconds;

  @Option(
      names = "--warmup",
      description =
          "Unmeasured lookups before each measured phase, in seconds. Default: ${DEFAULT-VALUE}.",
      defaultValue = "5")
  double warmup;

  @Option(
      names = "--jit-warmup",
      description =
          "Unmeasured work on each side before the first measurement, in seconds, so that both"
              + " JVMs have compiled the lookup and scan paths: lookups by 8 clients for this long,"
              + " then each scan 3 times. Default: ${DEFAULT-VALUE}.",
      defaultValue = "20")
  double jitWarmup;

  @Mixin RunOptions runOptions = new RunOptions(5, 1);

  @Option(
      names = "--batch",
      description = "Rows per executeBatch and commit while loading. Default: ${DEFAULT-VALUE}.",
      defaultValue = "5000")
  int batch;

  @Option(
      names = "--store",
      description =
          "mem: jdbc:cairn:mem: in this JVM and a --mem server; file: jdbc:cairn:file: and a"
              + " --data server, T flushed and major-compacted after loading (reads from block"
              + " files through the block cache). Default: ${DEFAULT-VALUE}.",
      defaultValue = "mem")
  Store store;

  @Mixin WorkDirectoryOptions workDirectory;

  @Option(
      names = "--server-heap",
      description = "The server JVM's heap, -Xms and -Xmx. Default: ${DEFAULT-VALUE}.",
      defaultValue = "2g")
  String serverHeap;

  @Option(
      names = "--server-jvm-option",
      paramLabel = "OPTION",
      description =
          "Another option for the server's JVM (repeatable), e.g."
              + " --server-jvm-option=-XX:StartFlightRecording=filename=server.jfr")
  List<String> serverJvmOptions = new ArrayList<>();

  @Option(
      names = "--server-classpath",
      paramLabel = "PATH",
      description = "Class path of the server's JVM. Default: this JVM's class path.")
  String serverClasspath;

  @Option(
      names = "--results",
      paramLabel = "DIR",
      description = "Directory to write the results to as JSON (server-<UTC timestamp>.json).")
  Path results;

  @Option(
      names = "--seed",
      description = "Random seed of the lookup keys. Default: ${DEFAULT-VALUE}.",
      defaultValue = "42")
  long seed;

  private final TextTable table =
      new TextTable("metric", "embedded", "loopback", "loopback/embedded");
  private final List<Map<String, Object>> metrics = new ArrayList<>();

  /** How long the server may take to start, and to stop after SIGTERM before it is killed. */
  private static final Duration SERVER_TIMEOUT = Duration.ofSeconds(60);

  @Override
  @SuppressForbidden(reason = "command-line output")
  public Integer call() throws Exception {
    PrintStream out = System.out;
    checkOptions();
    Path root = workDirectory.create("cairn-bench-server", this::usage);
    JsonReport.MachineInfo machine = JsonReport.MachineInfo.current();
    double loadBefore = loadAverage();
    out.printf(
        Locale.ROOT,
        "Machine: %s; collectors: %s; load average %.2f%n",
        machine.describe(),
        collectors(),
        loadBefore);
    Map<String, Object> setup = new LinkedHashMap<>();
    List<LookupPhase> lookups = new ArrayList<>();
    List<ScanPhase> scans = new ArrayList<>();
    try {
      BenchTable.Contents contents = BenchTable.Contents.of(rows);
      List<String> jvmOptions = serverJvmOptions();
      List<String> storeArguments =
          store == Store.mem
              ? List.of("--mem")
              : List.of("--data", root.resolve("server-data").toString());
      String embeddedUrl =
          store == Store.mem
              ? "jdbc:cairn:mem:bench-server-" + ProcessHandle.current().pid()
              : "jdbc:cairn:file:" + root.resolve("embedded-data");
      out.printf(Locale.ROOT, "Starting the server: java %s ... %s%n", jvmOptions, storeArguments);
      ServerProcess server = startServer(jvmOptions, storeArguments, root);
      try (server) {
        out.printf(
            Locale.ROOT,
            "  %s (pid %d) accepts connections after %,d ms%n",
            server.url(),
            server.pid(),
            server.startMillis());
        setup.put("serverUrl", server.url());
        setup.put("serverPid", server.pid());
        setup.put("serverJvmOptions", jvmOptions);
        setup.put("serverArguments", storeArguments);
        setup.put("serverStartMillis", server.startMillis());
        setup.put("embeddedUrl", embeddedUrl);
        setup.put("clientMaxHeapBytes", Runtime.getRuntime().maxMemory());
        setup.put("clientCollectors", collectors());
        Sides sides = new Sides(embeddedUrl, server);
        try (Connection embedded = DriverManager.getConnection(embeddedUrl);
            Connection loopback = DriverManager.getConnection(server.url())) {
          load(out, sides, embedded, loopback);
          List<ScanQuery> queries = queries(contents);
          if (jitWarmup > 0) {
            jitWarmup(out, sides, embedded, loopback, queries);
          }
          for (int n : clients) {
            LookupPhase e = lookups(out, sides, Side.EMBEDDED, n, warmup, seconds);
            LookupPhase l = lookups(out, sides, Side.LOOPBACK, n, warmup, seconds);
            lookups.add(e);
            lookups.add(l);
            addLookupRows(e, l);
          }
          for (ScanQuery q : queries) {
            ScanPhase e = scan(out, sides, Side.EMBEDDED, embedded, q);
            ScanPhase l = scan(out, sides, Side.LOOPBACK, loopback, q);
            scans.add(e);
            scans.add(l);
            addScanRows(q, e, l);
          }
          if (store == Store.mem) {
            BenchTable.drop(embedded); // the in-memory database lives as long as this JVM
          }
        }
        checkAlive(server);
      }
      setup.put("serverStopMillis", server.stopTime().toMillis());
      setup.put("serverKilled", server.killed());
      setup.put("serverExitValue", server.exitValue());
      double loadAfter = loadAverage();
      setup.put("loadAverageBefore", loadBefore);
      setup.put("loadAverageAfter", loadAfter);
      out.println();
      out.printf(
          Locale.ROOT,
          "T: %,d rows, %.1f raw bytes/row; both databases %s; server heap %s, worker threads"
              + " default; client heap %,d MiB; JIT warm-up %s s per side; lookups %s s after %s s"
              + " warm-up per phase; scans: medians of %d runs after %d unmeasured; load average"
              + " %.2f before, %.2f after%n",
          rows,
          contents.rawBytes() / (double) rows,
          store == Store.mem ? "in memory" : "durable (block files, block cache)",
          serverHeap,
          Runtime.getRuntime().maxMemory() >> 20,
          number(jitWarmup),
          number(seconds),
          number(warmup),
          runOptions.runs(),
          runOptions.warmups(),
          loadBefore,
          loadAfter);
      out.print(table.render());
      out.println(
          "loopback/embedded: the loopback figure divided by the embedded one (below 1: fewer"
              + " per second, above 1: longer). CPU: user + system time of the client (this"
              + " process) + the server process; for embedded, this process alone.");
      out.printf(
          Locale.ROOT,
          "Server stopped gracefully in %,d ms (exit %d%s)%s%n",
          server.stopTime().toMillis(),
          server.exitValue(),
          server.exitValue() == 143 ? ": SIGTERM, after its shutdown hook ran" : "",
          server.killed() ? " - WARNING: it did not stop in time and was killed" : "");
      if (results != null) {
        Path file = writeJson(machine, contents, setup, lookups, scans);
        out.println("Results: " + file);
      }
    } finally {
      workDirectory.finish(root, out, "Work directory kept: ", root);
    }
    return 0;
  }

  private void checkOptions() {
    if (rows < 1) {
      throw usage("--rows: expected >= 1, found [" + rows + "]");
    }
    if (clients.isEmpty() || clients.stream().anyMatch(n -> n < 1 || n > 1024)) {
      throw usage("--clients: expected numbers from 1 to 1024, found " + clients);
    }
    if (!(seconds > 0) || !(warmup >= 0) || !(jitWarmup >= 0)) {
      throw usage(
          "--seconds: expected > 0, --warmup and --jit-warmup: expected >= 0; found ["
              + seconds
              + "], ["
              + warmup
              + "] and ["
              + jitWarmup
              + "]");
    }
    if (runOptions.runs() < 1 || runOptions.warmups() < 0) {
      throw usage("--runs: expected >= 1, --warmups: expected >= 0");
    }
    if (batch < 1) {
      throw usage("--batch: expected >= 1, found [" + batch + "]");
    }
    if (!serverHeap.matches("[0-9]+[kKmMgG]?")) {
      throw usage("--server-heap: expected a size such as 2g or 512m, found [" + serverHeap + "]");
    }
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  private List<String> serverJvmOptions() {
    List<String> options = new ArrayList<>();
    options.add("-Xms" + serverHeap);
    options.add("-Xmx" + serverHeap);
    // as bin/cairn server: the block files' codecs load native code
    options.add("--enable-native-access=ALL-UNNAMED");
    options.addAll(serverJvmOptions);
    return options;
  }

  private List<ScanQuery> queries(BenchTable.Contents contents) {
    return List.of(
        new ScanQuery(BenchTable.SCAN_ALL, "SELECT * FROM T", rows, contents.rawBytes(), true),
        new ScanQuery(BenchTable.COUNT, "SELECT COUNT(*) FROM T", rows, 0, false),
        new ScanQuery(
            BenchTable.SCAN_SELECTIVE,
            String.format(
                Locale.ROOT,
                "SELECT * WHERE GRP = 7 (%,d rows, %.2f%%)",
                contents.selectiveRows(),
                100.0 * contents.selectiveRows() / rows),
            contents.selectiveRows(),
            contents.selectiveRawBytes(),
            true));
  }

  /**
   * Runs of each scan in the JIT warm-up: one left the client's large-page paths (Netty's pooled
   * allocator for big buffers, protobuf's parsing of big pages) to be compiled during the first
   * measured SELECT * over loopback, which took 2-3 times the median.
   */
  private static final int JIT_WARMUP_SCANS = 3;

  /** Lookups by 8 clients, then each scan {@link #JIT_WARMUP_SCANS} times, on each side. */
  @SuppressForbidden(reason = "command-line output")
  private void jitWarmup(
      PrintStream out,
      Sides sides,
      Connection embedded,
      Connection loopback,
      List<ScanQuery> queries)
      throws SQLException, InterruptedException, ExecutionException {
    out.printf(
        Locale.ROOT,
        "JIT warm-up: %s s of lookups by 8 clients and each scan %d times, on each side%n",
        number(jitWarmup),
        JIT_WARMUP_SCANS);
    for (Side side : Side.values()) {
      lookups(null, sides, side, 8, jitWarmup, 0);
      Connection c = side == Side.EMBEDDED ? embedded : loopback;
      for (ScanQuery q : queries) {
        try (PreparedStatement p = c.prepareStatement(q.sql())) {
          for (int i = 0; i < JIT_WARMUP_SCANS; i++) {
            runScan(p, q, side);
          }
        }
      }
    }
  }

  // --- the two sides ----------------------------------------------------------------------------

  enum Side {
    EMBEDDED("embedded"),
    LOOPBACK("loopback");

    final String label;

    Side(String label) {
      this.label = label;
    }
  }

  /**
   * Starts the server on 127.0.0.1 and a free port, without its status page, its output in
   * server.log of {@code directory}; a shutdown hook stops it if this JVM exits first (Ctrl-C).
   */
  private ServerProcess startServer(
      List<String> jvmOptions, List<String> storeArguments, Path directory) throws IOException {
    Files.createDirectories(directory);
    return ServerProcess.builder(
            serverClasspath != null ? serverClasspath : System.getProperty("java.class.path"))
        .jvmOptions(jvmOptions)
        .arguments(storeArguments)
        .arguments(List.of("--host", "127.0.0.1", "--port", "0", "--http-port", "-1"))
        .portFile(directory.resolve("server.port"))
        .output(directory.resolve("server.log"), false)
        .startTimeout(SERVER_TIMEOUT)
        .stopTimeout(SERVER_TIMEOUT)
        .stopOnExit("cairn-bench-server-stop")
        .start();
  }

  /** Fails, with the end of the server's output, when the server is no longer running. */
  private static void checkAlive(ServerProcess server) {
    if (!server.isAlive()) {
      throw new IllegalStateException(
          "The Cairn server exited with ["
              + server.exitValue()
              + "] during the benchmark; its output ("
              + server.log()
              + "):\n"
              + server.output());
    }
  }

  /** How to reach each side, and what each process has used so far. */
  private record Sides(String embeddedUrl, ServerProcess server) {
    String url(Side side) {
      return side == Side.EMBEDDED ? embeddedUrl : server.url();
    }

    /** CPU time and context switches of this process and of the server process so far. */
    ProcessMeter.Sample[] use() {
      return new ProcessMeter.Sample[] {
        ProcessMeter.read(ProcessHandle.current()), ProcessMeter.read(server.toHandle())
      };
    }

    /** CPU seconds since {@code before}: this process, the server process. */
    double[] cpuSince(ProcessMeter.Sample[] before) {
      ProcessMeter.Sample[] used = useSince(before);
      return new double[] {used[0].cpuNanos() / 1e9, used[1].cpuNanos() / 1e9};
    }

    /** The use since {@code before}: this process, the server process. */
    ProcessMeter.Sample[] useSince(ProcessMeter.Sample[] before) {
      ProcessMeter.Sample[] now = use();
      return new ProcessMeter.Sample[] {now[0].minus(before[0]), now[1].minus(before[1])};
    }
  }

  // --- loading ----------------------------------------------------------------------------------

  @SuppressForbidden(reason = "command-line output")
  private void load(PrintStream out, Sides sides, Connection embedded, Connection loopback)
      throws SQLException {
    double[] perSecond = new double[2];
    for (Side side : Side.values()) {
      Connection c = side == Side.EMBEDDED ? embedded : loopback;
      out.printf(Locale.ROOT, "Loading %,d rows, %s%n", rows, side.label);
      long start = System.nanoTime();
      BenchTable.createAndLoad(c, rows, batch);
      double s = (System.nanoTime() - start) / 1e9;
      perSecond[side.ordinal()] = rows / s;
      out.printf(Locale.ROOT, "  %.1f s, %,.0f rows/s%n", s, rows / s);
      if (store == Store.file) {
        long flush = System.nanoTime();
        BenchTable.flushAndCompact(c);
        out.printf(
            Locale.ROOT,
            "  flushed and major-compacted in %.1f s%n",
            (System.nanoTime() - flush) / 1e9);
      }
      checkAlive(sides.server());
    }
    addRow(
        String.format(Locale.ROOT, "load, rows/s (1 writer, batches of %,d)", batch),
        perSecond[0],
        perSecond[1],
        "rows/s");
  }

  // --- point lookups ----------------------------------------------------------------------------

  /** One lookup phase: what the clients did in the measured window. */
  record LookupPhase(
      String side,
      int clients,
      long lookups,
      double seconds,
      double p50Us,
      double p99Us,
      double p999Us,
      double maxUs,
      double meanUs,
      double clientCpuSeconds,
      double serverCpuSeconds,
      long clientContextSwitches,
      long serverContextSwitches,
      double loadAverage) {
    double perSecond() {
      return lookups / seconds;
    }

    /** Context switches per lookup, both processes together; NaN where unknown. */
    double switchesPerLookup() {
      return clientContextSwitches < 0 || serverContextSwitches < 0
          ? Double.NaN
          : (clientContextSwitches + serverContextSwitches) / (double) lookups;
    }

    /** CPU microseconds per lookup, this process and the server together. */
    double cpuUsPerLookup() {
      return (clientCpuSeconds + serverCpuSeconds) * 1e6 / lookups;
    }
  }

  private static final int WARMING = 0;
  private static final int MEASURING = 1;
  private static final int STOPPED = 2;

  @SuppressForbidden(reason = "command-line output")
  private LookupPhase lookups(
      PrintStream out, Sides sides, Side side, int n, double warmupSeconds, double measuredSeconds)
      throws SQLException, InterruptedException, ExecutionException {
    if (out != null) {
      out.printf(
          Locale.ROOT,
          "Lookups, %d client%s, %s: %s s warm-up, %s s measured%n",
          n,
          n == 1 ? "" : "s",
          side.label,
          number(warmupSeconds),
          number(measuredSeconds));
    }
    List<Connection> connections = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(n);
    AtomicInteger state = new AtomicInteger(WARMING);
    try {
      List<PreparedStatement> statements = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Connection c = DriverManager.getConnection(sides.url(side));
        connections.add(c);
        statements.add(c.prepareStatement(BenchTable.LOOKUP));
      }
      System.gc(); // each phase starts from a collected heap
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Histogram>> done = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        PreparedStatement lookup = statements.get(i);
        SplittableRandom random = new SplittableRandom(seed * 1_000_003 + i);
        done.add(pool.submit(() -> lookupLoop(lookup, random, go, state)));
      }
      go.countDown();
      sleep(warmupSeconds, done);
      ProcessMeter.Sample[] before = sides.use();
      long start = System.nanoTime();
      state.set(MEASURING);
      sleep(measuredSeconds, done);
      state.set(STOPPED);
      double elapsed = (System.nanoTime() - start) / 1e9;
      ProcessMeter.Sample[] use = sides.useSince(before);
      double[] used = {use[0].cpuNanos() / 1e9, use[1].cpuNanos() / 1e9};
      Histogram all = new Histogram(3);
      for (Future<Histogram> f : done) {
        all.add(f.get());
      }
      checkAlive(sides.server());
      LookupPhase phase =
          new LookupPhase(
              side.label,
              n,
              all.getTotalCount(),
              elapsed,
              all.getValueAtPercentile(50) / 1e3,
              all.getValueAtPercentile(99) / 1e3,
              all.getValueAtPercentile(99.9) / 1e3,
              all.getMaxValue() / 1e3,
              all.getMean() / 1e3,
              used[0],
              side == Side.EMBEDDED ? 0 : used[1],
              use[0].contextSwitches(),
              side == Side.EMBEDDED ? 0 : use[1].contextSwitches(),
              loadAverage());
      if (out == null) {
        return phase;
      }
      out.printf(
          Locale.ROOT,
          "  %,.0f lookups/s; p50 %s us, p99 %s us, p99.9 %s us, max %s us; CPU %.1f us/lookup"
              + " (client %.2f s, server %.2f s); context switches client %,d, server %,d; load"
              + " average %.2f%n",
          phase.perSecond(),
          micros(phase.p50Us()),
          micros(phase.p99Us()),
          micros(phase.p999Us()),
          micros(phase.maxUs()),
          phase.cpuUsPerLookup(),
          used[0],
          used[1],
          use[0].contextSwitches(),
          use[1].contextSwitches(),
          phase.loadAverage());
      return phase;
    } finally {
      state.set(STOPPED);
      pool.shutdown();
      if (!pool.awaitTermination(60, TimeUnit.SECONDS)) {
        pool.shutdownNow();
      }
      Closeables.closeAll(connections, SQLException.class);
    }
  }

  /** A client's loop: lookups until stopped; latencies (ns) of those that end while measuring. */
  private Histogram lookupLoop(
      PreparedStatement lookup, SplittableRandom random, CountDownLatch go, AtomicInteger state)
      throws SQLException, InterruptedException {
    Histogram latency = new Histogram(3);
    go.await();
    while (true) {
      long start = System.nanoTime();
      BenchTable.lookup(lookup, random.nextLong(rows));
      long nanos = System.nanoTime() - start;
      int now = state.get();
      if (now == MEASURING) {
        latency.recordValue(nanos);
      } else if (now == STOPPED) {
        return latency;
      }
    }
  }

  /** Sleeps {@code seconds}, failing early when a client failed. */
  private static void sleep(double seconds, List<Future<Histogram>> clients)
      throws InterruptedException, ExecutionException {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    while (true) {
      long left = end - System.nanoTime();
      if (left <= 0) {
        return;
      }
      Thread.sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, 100));
      for (Future<Histogram> f : clients) {
        if (f.isDone()) {
          f.get(); // a client ends early only by failing: throws its exception
          throw new IllegalStateException("A lookup client ended before the phase did");
        }
      }
    }
  }

  private void addLookupRows(LookupPhase e, LookupPhase l) {
    String who = e.clients() == 1 ? "1 client" : e.clients() + " clients";
    addRow("lookups, " + who + ": lookups/s", e.perSecond(), l.perSecond(), "lookups/s");
    addRow("  mean us", e.meanUs(), l.meanUs(), "us");
    addRow("  p50 us", e.p50Us(), l.p50Us(), "us");
    addRow("  p99 us", e.p99Us(), l.p99Us(), "us");
    addRow("  p99.9 us", e.p999Us(), l.p999Us(), "us");
    addRow(
        "  CPU us/lookup (client + server)", e.cpuUsPerLookup(), l.cpuUsPerLookup(), "us/lookup");
    if (!Double.isNaN(e.switchesPerLookup()) && !Double.isNaN(l.switchesPerLookup())) {
      addRow(
          "  context switches/lookup",
          e.switchesPerLookup(),
          l.switchesPerLookup(),
          "switches/lookup");
    }
  }

  // --- scans ------------------------------------------------------------------------------------

  /** A scan: its SQL, its name in the table, the rows it answers, their raw bytes. */
  private record ScanQuery(
      String sql, String name, long expectedRows, long rawBytes, boolean readsRows) {}

  /** One scan's measured runs on one side. */
  record ScanPhase(
      String side,
      String query,
      String sql,
      List<Double> runsMs,
      double medianMs,
      long rowsScanned,
      long rowsReturned,
      long rawBytesReturned,
      double medianClientCpuMs,
      double medianServerCpuMs,
      double loadAverage) {
    double rowsScannedPerSecond() {
      return rowsScanned / (medianMs / 1e3);
    }

    double rawMbPerSecond() {
      return rawBytesReturned / 1e6 / (medianMs / 1e3);
    }

    double cpuMs() {
      return medianClientCpuMs + medianServerCpuMs;
    }
  }

  @SuppressForbidden(reason = "command-line output")
  private ScanPhase scan(PrintStream out, Sides sides, Side side, Connection c, ScanQuery q)
      throws SQLException {
    out.printf(
        Locale.ROOT,
        "%s, %s: %d + %d runs%n",
        q.sql(),
        side.label,
        runOptions.warmups(),
        runOptions.runs());
    System.gc();
    List<Double> warmupTimes = new ArrayList<>();
    List<Double> times = new ArrayList<>();
    List<Double> clientCpu = new ArrayList<>();
    List<Double> serverCpu = new ArrayList<>();
    try (PreparedStatement p = c.prepareStatement(q.sql())) {
      for (int i = 0; i < runOptions.warmups() + runOptions.runs(); i++) {
        ProcessMeter.Sample[] before = sides.use();
        long start = System.nanoTime();
        runScan(p, q, side);
        long nanos = System.nanoTime() - start;
        double[] used = sides.cpuSince(before);
        if (i >= runOptions.warmups()) {
          times.add(nanos / 1e6);
          clientCpu.add(used[0] * 1e3);
          serverCpu.add(side == Side.EMBEDDED ? 0 : used[1] * 1e3);
        } else {
          warmupTimes.add(nanos / 1e6);
        }
      }
    }
    checkAlive(sides.server());
    ScanPhase phase =
        new ScanPhase(
            side.label,
            q.name(),
            q.sql(),
            List.copyOf(times),
            median(times),
            rows,
            q.readsRows() ? q.expectedRows() : 1,
            q.rawBytes(),
            median(clientCpu),
            median(serverCpu),
            loadAverage());
    out.printf(
        Locale.ROOT,
        "  median %s ms (unmeasured %s, measured %s), %,.0f rows/s scanned; CPU client %s ms,"
            + " server %s ms%n",
        ms(phase.medianMs()),
        warmupTimes.stream().map(ServerBenchCommand::ms).toList(),
        times.stream().map(ServerBenchCommand::ms).toList(),
        phase.rowsScannedPerSecond(),
        ms(phase.medianClientCpuMs()),
        ms(phase.medianServerCpuMs()));
    return phase;
  }

  /** Runs a scan and checks the number of rows it answers. */
  private static void runScan(PreparedStatement p, ScanQuery q, Side side) throws SQLException {
    long found = q.readsRows() ? BenchTable.readAll(p) : BenchTable.readCount(p);
    if (found != q.expectedRows()) {
      throw new SQLException(
          "Wrong answer from "
              + side.label
              + " "
              + q.sql()
              + ": expected ["
              + q.expectedRows()
              + "] rows, found ["
              + found
              + "]");
    }
  }

  private void addScanRows(ScanQuery q, ScanPhase e, ScanPhase l) {
    addRow(q.name() + ": median ms", e.medianMs(), l.medianMs(), "ms");
    addRow("  rows scanned/s", e.rowsScannedPerSecond(), l.rowsScannedPerSecond(), "rows/s");
    if (q.readsRows() && q.expectedRows() == rows) {
      addRow("  raw MB/s to the client", e.rawMbPerSecond(), l.rawMbPerSecond(), "MB/s");
    }
    addRow("  CPU ms (client + server)", e.cpuMs(), l.cpuMs(), "ms");
  }

  // --- the table and the JSON -------------------------------------------------------------------

  private void addRow(String metric, double embedded, double loopback, String unit) {
    double ratio = embedded == 0 ? Double.NaN : loopback / embedded;
    table.addRow(
        metric,
        value(embedded),
        value(loopback),
        Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, ratio < 10 ? "%.2f" : "%.1f", ratio));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("metric", metric.strip());
    m.put("unit", unit);
    m.put("embedded", embedded);
    m.put("loopback", loopback);
    m.put("loopbackOverEmbedded", Double.isNaN(ratio) ? null : ratio);
    metrics.add(m);
  }

  private Path writeJson(
      JsonReport.MachineInfo machine,
      BenchTable.Contents contents,
      Map<String, Object> setup,
      List<LookupPhase> lookups,
      List<ScanPhase> scans)
      throws IOException {
    LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("benchmark", "server");
    json.put("timestampUtc", now.toString());
    json.put("machine", machine);
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("rows", rows);
    options.put("clients", clients);
    options.put("seconds", seconds);
    options.put("warmup", warmup);
    options.put("jitWarmup", jitWarmup);
    options.put("runs", runOptions.runs());
    options.put("warmups", runOptions.warmups());
    options.put("batch", batch);
    options.put("store", store.name());
    options.put("serverHeap", serverHeap);
    options.put("seed", seed);
    options.put(
        "commandLine", String.join(" ", spec.commandLine().getParseResult().originalArgs()));
    json.put("options", options);
    json.put("table", contents);
    json.put("setup", setup);
    json.put("metrics", metrics);
    json.put("lookups", lookups);
    json.put("scans", scans);
    return JsonReport.write(results.resolve(JsonReport.fileName("server", now)), json);
  }

  // --- helpers ----------------------------------------------------------------------------------

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static String collectors() {
    return String.join(
        ", ",
        ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(GarbageCollectorMXBean::getName)
            .toList());
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static String value(double v) {
    if (v == 0) {
      return "0";
    }
    return String.format(Locale.ROOT, v < 10 ? "%.2f" : v < 1000 ? "%.1f" : "%,.0f", v);
  }

  private static String ms(double ms) {
    return value(ms);
  }

  private static String micros(double us) {
    return value(us);
  }

  private static String number(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }
}
