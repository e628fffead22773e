package io.cairn.tpch.bench;

import io.cairn.core.SuppressForbidden;
import io.cairn.tpch.cli.JvmMeters;
import io.cairn.tpch.cli.SuiteOptions;
import io.cairn.tpch.load.TpchLoader;
import io.cairn.tpch.report.BarChart;
import io.cairn.tpch.report.JsonReport;
import io.cairn.tpch.report.Stats;
import io.cairn.tpch.report.TextTable;
import io.trino.tpch.LineItem;
import io.trino.tpch.TpchTable;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bin/cairn bench lineitem}: the LINEITEM suite on Cairn and, optionally, other databases.
 */
@Command(
    name = "lineitem",
    mixinStandardHelpOptions = true,
    versionProvider = io.cairn.tpch.cli.Version.class,
    sortOptions = false,
    description = {
      "Runs the LINEITEM suite: COUNT(*) (plain, filtered, with /*+ NO_CACHE */ and /*+ SERIAL */),"
          + " SELECT * ORDER BY L_EXTENDEDPRICE (first row and all rows, also SERIAL, and with LIMIT"
          + " 10), joins with a key table J of 1,000 and 131,072 keys, an equality filter on"
          + " L_EXTENDEDPRICE without and with an index (and building the index), TPC-H Q1 and Q6"
          + " (also SERIAL; answers checked against DuckDB), point lookups by primary key,"
          + " the load rate with 0, 1 and 3 indexes, and the first query in a fresh JVM.",
      "",
      "Loads LINEITEM first when the database does not hold it at the scale factor (an embedded"
          + " jdbc:cairn:mem: store lives in this JVM, so it is always loaded here; a jdbc:cairn:file:"
          + " store loaded by this run is then flushed and compacted with FLUSH TABLE and COMPACT"
          + " TABLE, so that the store's own background work does not overlap the first queries;"
          + " a jdbc:cairn:hbase: one with FLUSH TABLE, MAJOR_COMPACT TABLE and UPDATE STATISTICS,"
          + " as Phoenix on HBase is measured)."
          + " Each query"
          + " runs --warmups times unmeasured (more when faster than --warmup-ms) and --runs"
          + " times measured; a query that fails is"
          + " reported as ERROR with the database's message and the suite goes on.",
      "",
      "rows/s = rows of LINEITEM / median time; MB/s uses the raw size of LINEITEM, the length of"
          + " its dbgen text form (.tbl lines) averaged over the first 10,000 generated rows.",
      "Per core: a Cairn query runs on 1 core with /*+ SERIAL */, else on min(parallelism,"
          + " available processors) (other databases: the available processors); MB/s per core"
          + " divides by those cores. CPU ms/run, busy cores (CPU time / elapsed time) and MB per"
          + " CPU-second come from the process's CPU time over the measured runs (all threads: the"
          + " query's, the collector's, the compiler's). The speedup of each query over its SERIAL"
          + " variant is the ratio of their median times in this run. B alloc/row is the heap the"
          + " JVM allocated over the measured runs (every Java thread's, the query's and the scan"
          + " workers', counted in TLABs) / (runs x rows of LINEITEM); the JSON has it as allocatedBytesPerRow, the total as allocatedBytes,"
          + " and how it was read as allocationMethod (-1 or absent where the JVM cannot tell).",
      "At the start the command measures this machine's memory read bandwidth (a sequential sum"
          + " of a large long[], one thread and all threads, best of 5 passes; --no-memory-probe"
          + " skips it) and sets each scan's MB/s per core against the bandwidth per core.",
      "Hints are Cairn syntax and are sent unchanged to every database: elsewhere /*+ ... */ is a"
          + " comment. Indexes are CREATE LOCAL INDEX on Cairn and CREATE INDEX elsewhere; a"
          + " database other than Cairn that refuses CREATE INDEX gets n/a for the index items.",
      "Indexes: eq-noindex is SELECT /*+ NO_INDEX */ COUNT(*) FROM LINEITEM WHERE"
          + " L_EXTENDEDPRICE = x (x the price of the first line, so that rows match), run before"
          + " the index exists; index-build is CREATE INDEX LI_EP ON LINEITEM (L_EXTENDEDPRICE),"
          + " timed once; eq-index is the same query without the hint, with the index (its count"
          + " checked against eq-noindex's; on Cairn also that EXPLAIN names LI_EP). The index is"
          + " dropped afterwards, so the other queries run on the table as loaded.",
      "load-indexes writes the first --index-load-rows rows of LINEITEM (generated once, before"
          + " any timing) into a new table LINEITEM_LOAD with 0, 1 (L_EXTENDEDPRICE) and 3"
          + " (L_EXTENDEDPRICE; L_SHIPDATE; L_PARTKEY, L_SUPPKEY) indexes created before the rows,"
          + " --warmups + --runs times each (the table made afresh every time), and reports rows/s"
          + " at the median and the time against the load without indexes (the write cost per"
          + " index). Writes: UPSERT (Cairn) or INSERT batches of 5,000 rows, one commit each,"
          + " --threads writers; DuckDB's Appender. LINEITEM_LOAD is dropped at the end.",
      "fresh-jvm is the time from starting a new java process (this JVM's java, --enable-native-"
          + "access=ALL-UNNAMED, this JVM's class path, no class-data archive) to the answer of its"
          + " first query, --runs processes one after another, none warmed up; it has its own row"
          + " and is left out of the chart and the per-core figures. An embedded store belongs to"
          + " this process (a jdbc:cairn:mem: database is invisible to another one, a"
          + " jdbc:cairn:file: store is locked by this run's connection), so for those URLs the"
          + " child opens a fresh "
          + FreshJvm.MEMORY_URL
          + ", writes "
          + FreshJvm.SETUP_ROWS
          + " rows into a table and counts half of them ("
          + FreshJvm.QUERY
          + "); with a"
          + " server URL (jdbc:cairn://) it runs count-where on the same LINEITEM. Its notes and the"
          + " JSON (childConnectNanos, childSetupNanos, childQueryNanos, exitNanos) split the"
          + " child's own time. Other databases: n/a.",
      "Q1 and Q6 answers are checked against an in-process DuckDB holding the same rows (the first"
          + " DuckDB --compare-url, else a private one); DuckDB is loaded with its Appender, the"
          + " other databases with TpchLoader (UPSERT on Cairn, INSERT elsewhere).",
      "",
      "Writes a table to stdout, and <results>/lineitem-<UTC timestamp>.json (with the EXPLAIN of"
          + " every query, printed too with --explain) with a bar chart of the median times (<same"
          + " name>.png) next to it.",
      ""
    },
    footer = {
      "",
      "Queries (for --only): count, count-where, count-nocache, count-where-nocache, count-serial,"
          + " count-where-serial, orderby, orderby-serial, orderby-limit10, join-1000, join-131072,"
          + " join-262144 and join-1048576 (only when named here), eq-noindex, index-build, eq-index, q1, q6, q1-serial, q6-serial, lookup,"
          + " load-indexes (its results: load-indexes.0, load-indexes.1, load-indexes.3),"
          + " fresh-jvm.",
      "",
      "Examples:",
      "  bin/cairn bench lineitem --sf 0.1",
      "  bin/cairn bench lineitem --sf 1 --compare-url jdbc:duckdb: "
          + "--compare-url 'jdbc:h2:mem:x;DB_CLOSE_DELAY=-1'",
      "  bin/cairn bench lineitem --sf 0.01 --only q1,q6 --runs 3",
      "  bin/cairn bench lineitem --sf 1 --url jdbc:cairn:file:/tmp/li --only"
          + " eq-noindex,index-build,eq-index,load-indexes --compare-url jdbc:duckdb:",
      "  bin/cairn bench lineitem --sf 1 --url jdbc:cairn:file:/tmp/li --only"
          + " count,count-where,count-nocache,count-where-nocache,count-serial,count-where-serial,"
          + "q1,q6,q1-serial,q6-serial --explain"
    })
public final class LineitemCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @Mixin SuiteOptions runOptions = new SuiteOptions(5, 1);

  @Option(
      names = "--sf",
      description = "TPC-H scale factor (1 = 6 million rows). Default: ${DEFAULT-VALUE}.",
      defaultValue = "1")
  double scaleFactor;

  @Option(
      names = "--url",
      description = "JDBC URL of the database measured first. Default: ${DEFAULT-VALUE}.",
      defaultValue = "jdbc:cairn:mem:lineitem")
  String url;

  @Option(
      names = "--compare-url",
      paramLabel = "URL",
      description = {
        "Another database to run the same suite on (repeatable); the report shows its median and"
            + " the ratio other/first per query. E.g. jdbc:duckdb: (made a named in-memory"
            + " database shared by this JVM's connections) or 'jdbc:h2:mem:x;DB_CLOSE_DELAY=-1'."
      })
  List<String> compareUrls = new ArrayList<>();

  @Option(
      names = "--results",
      paramLabel = "DIR",
      description = "Directory for the JSON and PNG files. Default: ${DEFAULT-VALUE}.",
      defaultValue = "results")
  Path results;

  @Option(
      names = "--only",
      split = ",",
      paramLabel = "NAME",
      description = "Run only these queries (see the list below). Default: all.")
  List<String> only = new ArrayList<>();

  @Option(
      names = "--warmup-ms",
      paramLabel = "MS",
      description =
          "A query faster than this warms up with more runs than --warmups, until its warm-up"
              + " took MS milliseconds (at most "
              + LineitemSuite.MAX_WARMUPS
              + " runs), so that a query of a millisecond is measured with its code compiled, not"
              + " while the JIT compiles it; 0: exactly --warmups runs. Default: ${DEFAULT-VALUE}.",
      defaultValue = "1000")
  long warmupMillis;

  @Option(
      names = "--lookups",
      description =
          "Point lookups per run; unmeasured runs come first, --warmups of them and more until"
              + " they took --lookup-warmup-ms. Default: ${DEFAULT-VALUE}.",
      defaultValue = "10000")
  int lookups;

  @Option(
      names = "--lookup-warmup-ms",
      paramLabel = "MS",
      description =
          "The lookups warm up with more runs than --warmups until their warm-up took MS"
              + " milliseconds: a lookup's code path is long, and on 2 cores the JIT compiles it"
              + " over 2-4 s of lookups (measured after 1 s, the p50 is half as high again);"
              + " 0: exactly --warmups runs. Default: ${DEFAULT-VALUE}.",
      defaultValue = "4000")
  long lookupWarmupMillis;

  @Option(
      names = "--seed",
      description =
          "Seed of the random J keys and of the lookup keys' sample. Default: ${DEFAULT-VALUE}.",
      defaultValue = "42")
  long seed;

  @Option(
      names = "--parallelism",
      paramLabel = "N",
      description =
          "Chunks of a scan run at once on Cairn: passed as the connection property"
              + " parallelism=N to the Cairn URLs. Default: not passed (Cairn's default, the"
              + " number of cores).")
  Integer parallelism;

  @Option(
      names = "--index-load-rows",
      paramLabel = "N",
      description =
          "Rows that load-indexes writes with 0, 1 and 3 indexes: the first N rows of LINEITEM at"
              + " --sf (all of them when --sf gives fewer). Default: ${DEFAULT-VALUE}.",
      defaultValue = "100000")
  long indexLoadRows;

  @Option(
      names = "--explain",
      description = "Print each query's plan (EXPLAIN); the JSON has them in any case.")
  boolean explain;

  @Option(
      names = "--no-memory-probe",
      description = "Do not measure the memory bandwidth at the start.")
  boolean noMemoryProbe;

  @Option(
      names = "--memory-probe-mib",
      paramLabel = "MIB",
      description =
          "Size of the memory probe's array (at most a quarter of the heap). Default:"
              + " ${DEFAULT-VALUE}.",
      defaultValue = "" + MemoryBandwidth.DEFAULT_MIB)
  int memoryProbeMib;

  /** Passes of each kind of the memory probe; the best counts. */
  static final int MEMORY_PROBE_PASSES = 5;

  /** Private in-process DuckDB holding the reference answers of Q1 and Q6. */
  static final String REFERENCE_URL = "jdbc:duckdb:memory:cairn_reference";

  @Override
  @SuppressForbidden(reason = "command-line output: the report on stdout, progress on stderr")
  public Integer call() throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    validate();
    Set<String> selected = new LinkedHashSet<>(only);
    List<String> urls = new ArrayList<>();
    urls.add(url.trim());
    for (String u : compareUrls) {
      urls.add(Dialect.shareable(u, urls.size()));
    }
    LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC);
    JsonReport.MachineInfo machine = JsonReport.MachineInfo.current();
    out.printf(
        Locale.ROOT,
        "LINEITEM suite, SF %s, %d warm-up(s) (more within %d ms for a fast query) and %d measured"
            + " run(s) per query%n",
        scaleFactor,
        runOptions.warmups(),
        warmupMillis,
        runOptions.runs());
    out.println("Machine: " + machine.describe());
    MemoryBandwidth.Result memory = null;
    if (!noMemoryProbe) {
      memory =
          MemoryBandwidth.measure(
              MemoryBandwidth.fittingMib(memoryProbeMib), machine.cores(), MEMORY_PROBE_PASSES);
      out.println("Memory: " + memory.describe());
    }

    List<Connection> keepers = new ArrayList<>();
    try {
      // Held open for the whole run: in-memory databases live as long as a connection does.
      List<Map<String, Object>> databases = new ArrayList<>();
      for (String u : urls) {
        keepers.add(DriverManager.getConnection(u));
        Map<String, Object> db = new LinkedHashMap<>();
        db.put("url", u);
        db.put("product", product(keepers.get(keepers.size() - 1)));
        db.put("load", load(u, out, err));
        databases.add(db);
      }
      Map<String, List<List<Object>>> reference = new LinkedHashMap<>();
      String refUrl = null;
      if (selected.isEmpty() || selected.contains("q1") || selected.contains("q6")) {
        refUrl =
            urls.stream().filter(u -> Dialect.of(u) == Dialect.DUCKDB).findFirst().orElse(null);
        if (refUrl == null) {
          refUrl = REFERENCE_URL;
          keepers.add(DriverManager.getConnection(refUrl));
          out.println("Reference for Q1 and Q6: DuckDB in this JVM (" + refUrl + ")");
          load(refUrl, out, err);
        }
        try (Connection c = DriverManager.getConnection(refUrl)) {
          reference.put("q1", answer(c, LineitemSuite.Q1));
          reference.put("q6", answer(c, LineitemSuite.Q6));
        } catch (SQLException e) {
          out.println("Reference answers unavailable: " + LineitemSuite.message(e));
        }
      }
      double bytesPerRow = bytesPerRow(scaleFactor);
      out.printf(
          Locale.ROOT,
          "Raw LINEITEM size: %.1f bytes/row (dbgen text form, mean of the first 10,000 rows)%n",
          bytesPerRow);

      Consumer<String> progress = err::println;
      LineitemSuite suite =
          new LineitemSuite(
              runOptions.warmups(),
              warmupMillis,
              runOptions.runs(),
              lookups,
              lookupWarmupMillis,
              seed,
              selected,
              bytesPerRow,
              parallelism,
              new LineitemSuite.IndexLoad(scaleFactor, indexLoadRows, runOptions.threads()),
              progress);
      List<List<QueryResult>> all = new ArrayList<>();
      for (int i = 0; i < urls.size(); i++) {
        String u = urls.get(i);
        err.println("Running the suite on " + u);
        settleHeap();
        List<QueryResult> r = suite.run(u, reference, refUrl);
        addMemoryShare(r, memory);
        all.add(r);
        List<Map<String, Object>> speedups = LineitemSuite.speedups(r);
        databases.get(i).put("rows", rowsOf(u));
        databases
            .get(i)
            .put(
                "defaultCores",
                LineitemSuite.cores(
                    u, "count", Dialect.of(u) == Dialect.CAIRN ? parallelism : null));
        databases.get(i).put("speedupOverSerial", speedups);
        long peakResident = JvmMeters.peakResidentBytes();
        databases.get(i).put("peakResidentBytesSoFar", peakResident < 0 ? null : peakResident);
        databases.get(i).put("queries", r);
        out.println();
        out.println(databases.get(i).get("product") + " (" + u + ")");
        out.print(table(r));
        out.println();
        out.print(perCoreTable(r));
        if (!speedups.isEmpty()) {
          out.println();
          out.print(speedupTable(speedups));
        }
        out.print(memoryLines(r, memory));
        if (peakResident >= 0) {
          out.printf(
              Locale.ROOT,
              "peak RSS of this process so far: %,d MiB (heap, off-heap caches, code; and the"
                  + " compared databases loaded in it so far)%n",
              peakResident >> 20);
        }
        if (explain) {
          out.println();
          out.print(plans(r));
        }
      }
      if (urls.size() > 1) {
        out.println();
        out.print(comparison(urls, databases, all));
      }

      Map<String, Object> json = new LinkedHashMap<>();
      json.put("suite", "lineitem");
      json.put("timestampUtc", now.toString());
      json.put("machine", machine);
      json.put("memoryBandwidth", memory == null ? null : memoryJson(memory));
      Map<String, Object> parameters = new LinkedHashMap<>();
      parameters.put("scaleFactor", scaleFactor);
      parameters.put("runs", runOptions.runs());
      parameters.put("warmups", runOptions.warmups());
      parameters.put("warmupMs", warmupMillis);
      parameters.put("lookupWarmupMs", lookupWarmupMillis);
      parameters.put("lookups", lookups);
      parameters.put("seed", seed);
      parameters.put("only", selected.isEmpty() ? LineitemSuite.NAMES : List.copyOf(selected));
      parameters.put("bytesPerRow", bytesPerRow);
      parameters.put(
          "bytesPerRowMethod",
          "length of the dbgen text form (.tbl line plus newline), mean of the first 10,000 rows");
      parameters.put("referenceUrl", refUrl);
      parameters.put("parallelism", parallelism);
      parameters.put("indexLoadRows", indexLoadRows);
      parameters.put("cpuTimeMethod", ProcessCpu.method());
      parameters.put("allocationMethod", JvmMeters.create().allocationMethod());
      parameters.put(
          "commandLine", String.join(" ", spec.commandLine().getParseResult().originalArgs()));
      json.put("parameters", parameters);
      json.put("databases", databases);
      Path file = results.resolve(JsonReport.fileName("lineitem", now));
      JsonReport.write(file, json);
      Path png = chart(file, databases, all);
      out.println();
      out.println("Results: " + file);
      out.println("Chart:   " + png);
      return 0;
    } finally {
      for (Connection c : keepers) {
        try {
          c.close();
        } catch (SQLException e) {
          err.println("Closing a connection failed: " + LineitemSuite.message(e));
        }
      }
    }
  }

  private void validate() {
    List<String> unknown = new ArrayList<>();
    for (String name : only) {
      if (!LineitemSuite.NAMES.contains(name)) {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "Unknown query in --only: " + unknown + "; expected some of " + LineitemSuite.NAMES);
    }
    if (parallelism != null && parallelism < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "Expected --parallelism >= 1; found [" + parallelism + "]");
    }
    if (memoryProbeMib < 1 || memoryProbeMib > MemoryBandwidth.MAX_MIB) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "Expected --memory-probe-mib in [1, "
              + MemoryBandwidth.MAX_MIB
              + "]; found ["
              + memoryProbeMib
              + "]");
    }
    if (runOptions.runs() < 1
        || runOptions.warmups() < 0
        || warmupMillis < 0
        || lookups < 1
        || lookupWarmupMillis < 0
        || scaleFactor <= 0) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          String.format(
              Locale.ROOT,
              "Expected --sf > 0, --runs >= 1, --warmups >= 0, --warmup-ms >= 0, --lookups >= 1,"
                  + " --lookup-warmup-ms >= 0; found %s, %d, %d, %d, %d, %d",
              scaleFactor,
              runOptions.runs(),
              runOptions.warmups(),
              warmupMillis,
              lookups,
              lookupWarmupMillis));
    }
    if (indexLoadRows < 1 || indexLoadRows > Integer.MAX_VALUE) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "Expected --index-load-rows in [1, "
              + Integer.MAX_VALUE
              + "]; found ["
              + indexLoadRows
              + "]");
    }
  }

  /** Loads LINEITEM into {@code u} unless it is there; prints and returns what it did. */
  private Map<String, Object> load(String u, PrintStream out, PrintStream err) throws SQLException {
    Map<String, Object> load = new LinkedHashMap<>();
    long start = System.nanoTime();
    List<TpchLoader.TableResult> loaded;
    try (ProgressBar bar =
        new ProgressBarBuilder()
            .setTaskName("LINEITEM")
            .setInitialMax(io.cairn.tpch.load.TpchSchema.expectedRows("LINEITEM", scaleFactor))
            .setStyle(ProgressBarStyle.ASCII)
            .setConsumer(new ConsoleProgressBarConsumer(err))
            .showSpeed()
            .build()) {
      loaded =
          TpchLoader.ensureLoaded(
              u, scaleFactor, List.of("LINEITEM"), runOptions.threads(), bar::stepBy);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    load.put("loadedByThisRun", !loaded.isEmpty());
    if (loaded.isEmpty()) {
      out.printf(Locale.ROOT, "%s: LINEITEM already loaded at SF %s%n", u, scaleFactor);
    } else {
      TpchLoader.TableResult r = loaded.get(0);
      load.put("rows", r.rows());
      load.put("seconds", r.nanos() / 1e9);
      load.put("rowsPerSecond", r.rowsPerSecond());
      load.put("secondsIncludingCheck", seconds);
      out.printf(
          Locale.ROOT,
          "%s: loaded %,d rows of LINEITEM in %.1f s: %,.0f rows/s (%s)%n",
          u,
          r.rows(),
          r.nanos() / 1e9,
          r.rowsPerSecond(),
          Dialect.of(u) == Dialect.DUCKDB ? "DuckDB Appender" : runOptions.threads() + " writers");
      load.put("method", Dialect.of(u) == Dialect.DUCKDB ? "DuckDB Appender" : "TpchLoader");
      if (isDurableCairn(u)) {
        long settle = System.nanoTime();
        boolean hbase = isHBase(u);
        try (Connection c = DriverManager.getConnection(u);
            Statement s = c.createStatement()) {
          s.execute("FLUSH TABLE LINEITEM");
          if (hbase) {
            // as Phoenix's figures were measured: one file per region, statistics collected
            s.execute("MAJOR_COMPACT TABLE LINEITEM");
            s.execute("UPDATE STATISTICS LINEITEM");
          } else {
            s.execute("COMPACT TABLE LINEITEM");
          }
        }
        double settleSeconds = (System.nanoTime() - settle) / 1e9;
        load.put("flushAndCompactSeconds", settleSeconds);
        out.printf(
            Locale.ROOT,
            "%s: %s in %.1f s%n",
            u,
            hbase
                ? "FLUSH TABLE, MAJOR_COMPACT TABLE and UPDATE STATISTICS LINEITEM"
                : "FLUSH TABLE and COMPACT TABLE LINEITEM",
            settleSeconds);
      }
    }
    return load;
  }

  /**
   * A durable Cairn store: after loading it the command flushes and compacts LINEITEM itself, as
   * the store would do in the background while the first queries run.
   */
  static boolean isDurableCairn(String u) {
    return u.toLowerCase(Locale.ROOT).startsWith("jdbc:cairn:file:") || isHBase(u);
  }

  /** Cairn over HBase: after loading, also a major compaction and UPDATE STATISTICS. */
  static boolean isHBase(String u) {
    return u.toLowerCase(Locale.ROOT).startsWith("jdbc:cairn:hbase:");
  }

  private static long rowsOf(String u) throws SQLException {
    try (Connection c = DriverManager.getConnection(u)) {
      return LineitemSuite.countRows(c);
    }
  }

  private static String product(Connection c) throws SQLException {
    DatabaseMetaData md = c.getMetaData();
    return md.getDatabaseProductName() + " " + md.getDatabaseProductVersion();
  }

  private static List<List<Object>> answer(Connection c, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          row.add(rs.getObject(i));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** Mean length of the dbgen text form of the first 10,000 LINEITEM rows, newline included. */
  static double bytesPerRow(double scaleFactor) {
    long bytes = 0;
    int rows = 0;
    for (LineItem item : TpchTable.LINE_ITEM.createGenerator(scaleFactor, 1, 1)) {
      bytes += item.toLine().length() + 1;
      if (++rows == 10_000) {
        break;
      }
    }
    return rows == 0 ? 0 : (double) bytes / rows;
  }

  static String table(List<QueryResult> results) {
    TextTable t =
        new TextTable("query", "min ms", "median ms", "max ms", "rows/s", "MB/s", "answer / notes")
            .alignLeft(6);
    for (QueryResult r : results) {
      if (r.failed()) {
        t.addRow(r.name(), r.status(), "", "", "", "", r.error());
        continue;
      }
      Map<String, Object> x = r.extra();
      String notes = r.check() == null ? "" : r.check();
      if (r.name().equals("lookup")) {
        notes =
            String.format(
                Locale.ROOT,
                "%s lookups/run: p50 %.1f us, p99 %.1f us, max %.1f us, %,.0f lookups/s; %s",
                x.get("lookupsPerPass"),
                (Double) x.get("p50Us"),
                (Double) x.get("p99Us"),
                (Double) x.get("maxUs"),
                (Double) x.get("lookupsPerSecond"),
                notes);
      } else if (r.name().startsWith("orderby") && !r.name().endsWith("first-row")) {
        notes = String.format(Locale.ROOT, "%,d rows read", r.rows());
      } else if (r.name().startsWith("load-indexes.")) {
        notes = loadNotes(r);
      } else if (r.name().equals("index-build")) {
        notes = "run once; rows/s: rows of LINEITEM indexed per second";
      } else if (r.name().equals(FreshJvm.NAME)) {
        notes = freshJvmNotes(r);
      }
      t.addRow(
          r.name(),
          ms(r.stats().minMs()),
          ms(r.stats().medianMs()),
          ms(r.stats().maxMs()),
          x.containsKey("rowsPerSecond")
              ? String.format(Locale.ROOT, "%,.0f", (Double) x.get("rowsPerSecond"))
              : "",
          x.containsKey("mbPerSecond")
              ? String.format(Locale.ROOT, "%,.1f", (Double) x.get("mbPerSecond"))
              : "",
          notes);
    }
    return t.render();
  }

  /**
   * The fresh-jvm row's notes: what the child ran and the medians of its own connect, set-up and
   * query times.
   */
  static String freshJvmNotes(QueryResult r) {
    Map<String, Object> x = r.extra();
    return String.format(
        Locale.ROOT,
        "java start to answer, a new JVM a run, not warmed up; %s; in the child: connect %s ms,"
            + " set-up %s ms, query %s ms (medians); %s",
        x.get("childNote"),
        medianMs(x.get("childConnectNanos")),
        medianMs(x.get("childSetupNanos")),
        medianMs(x.get("childQueryNanos")),
        r.check());
  }

  private static String medianMs(Object nanos) {
    if (!(nanos instanceof List<?> list) || list.isEmpty()) {
      return "?";
    }
    return ms(Stats.ofNanos(list.stream().map(v -> ((Number) v).longValue()).toList()).medianMs());
  }

  /**
   * A load-indexes row's notes: rows, writers, the indexes, the time against the load without
   * indexes and the answer check (the rows counted after the load).
   */
  static String loadNotes(QueryResult r) {
    Map<String, Object> x = r.extra();
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%,d rows, %s; indexes: %s",
                (Integer) x.get("rowsWritten"),
                "DuckDB Appender".equals(x.get("method"))
                    ? "DuckDB Appender"
                    : x.get("writers") + " writer(s)",
                x.get("indexColumns") instanceof List<?> l && !l.isEmpty()
                    ? String.join("; ", l.stream().map(String::valueOf).toList())
                    : "none"));
    if (x.get("timeVsNoIndex") instanceof Double ratio
        && x.get("extraTimePerIndex") instanceof Double perIndex) {
      b.append(
          String.format(
              Locale.ROOT, "; %.2fx the time without, %+.0f%% per index", ratio, perIndex * 100));
    }
    if (r.check() != null) {
      b.append("; ").append(r.check());
    }
    return b.toString();
  }

  /**
   * The per-core figures of the queries that read all of LINEITEM: cores, MB/s per core, CPU per
   * run, busy cores, MB per CPU-second, the share of the memory bandwidth per core and the heap
   * bytes allocated per row.
   */
  static String perCoreTable(List<QueryResult> results) {
    TextTable t =
        new TextTable(
            "per core",
            "cores",
            "rows/s/core",
            "MB/s/core",
            "CPU ms/run",
            "busy cores",
            "MB/CPU-s",
            "% mem bw/core",
            "B alloc/row");
    for (QueryResult r : results) {
      Map<String, Object> x = r.extra();
      if (r.failed() || !x.containsKey("mbPerSecondPerCore")) {
        continue;
      }
      t.addRow(
          r.name(),
          String.valueOf(x.get("cores")),
          number("%,.0f", x.get("rowsPerSecondPerCore")),
          number("%,.1f", x.get("mbPerSecondPerCore")),
          number("%,.1f", x.get("cpuMsPerRun")),
          number("%.2f", x.get("busyCores")),
          number("%,.1f", x.get("mbPerCpuSecond")),
          x.get("memoryBandwidthShare") instanceof Double share
              ? String.format(Locale.ROOT, "%.2f%%", share * 100)
              : "",
          number("%,.2f", x.get("allocatedBytesPerRow")));
    }
    return t.render();
  }

  private static String number(String format, Object value) {
    return value instanceof Number n ? String.format(Locale.ROOT, format, n.doubleValue()) : "";
  }

  static String speedupTable(List<Map<String, Object>> speedups) {
    TextTable t =
        new TextTable("speedup over SERIAL", "cores", "median ms", "SERIAL median ms", "speedup");
    for (Map<String, Object> s : speedups) {
      t.addRow(
          String.valueOf(s.get("query")),
          String.valueOf(s.get("cores")),
          ms((Double) s.get("medianMs")),
          ms((Double) s.get("serialMedianMs")),
          String.format(Locale.ROOT, "%.2fx", (Double) s.get("speedup")));
    }
    return t.render();
  }

  /**
   * Sets each query's MB/s per core against the memory bandwidth per core ({@code
   * memoryBandwidthShare}, a fraction); nothing without a probe.
   */
  static void addMemoryShare(List<QueryResult> results, MemoryBandwidth.Result memory) {
    if (memory == null || memory.perCoreBytesPerSecond() <= 0) {
      return;
    }
    for (QueryResult r : results) {
      if (r.extra().get("mbPerSecondPerCore") instanceof Double perCore) {
        r.extra().put("memoryBandwidthShare", perCore * 1e6 / memory.perCoreBytesPerSecond());
      }
    }
  }

  /**
   * "count: scan X MB/s per core = Y% of the memory bandwidth per core" for the queries compared
   * with SERIAL and their SERIAL variants.
   */
  static String memoryLines(List<QueryResult> results, MemoryBandwidth.Result memory) {
    if (memory == null) {
      return "";
    }
    Set<String> names = new LinkedHashSet<>();
    LineitemSuite.SERIAL_PAIRS.forEach(
        (parallel, serial) -> {
          names.add(parallel);
          names.add(serial);
        });
    StringBuilder b = new StringBuilder();
    for (QueryResult r : results) {
      Map<String, Object> x = r.extra();
      if (!names.contains(r.name())
          || !(x.get("mbPerSecondPerCore") instanceof Double perCore)
          || !(x.get("memoryBandwidthShare") instanceof Double share)) {
        continue;
      }
      if (b.length() == 0) {
        b.append(System.lineSeparator());
      }
      b.append(
          String.format(
              Locale.ROOT,
              "%s: scan %,.1f MB/s per core (%s core(s)) = %.2f%% of the memory bandwidth per core"
                  + " (%,.0f MB/s)%s%n",
              r.name(),
              perCore,
              x.get("cores"),
              share * 100,
              memory.perCoreBytesPerSecond() / 1e6,
              x.get("mbPerCpuSecond") instanceof Double perCpu
                  ? String.format(Locale.ROOT, "; %,.1f MB per CPU-second", perCpu)
                  : ""));
    }
    return b.toString();
  }

  /** Each query's EXPLAIN, indented under its name. */
  static String plans(List<QueryResult> results) {
    StringBuilder b = new StringBuilder();
    for (QueryResult r : results) {
      if (r.extra().get("explain") instanceof List<?> lines && !lines.isEmpty()) {
        b.append("EXPLAIN ").append(r.name()).append(':').append(System.lineSeparator());
        for (Object line : lines) {
          b.append("    ").append(line).append(System.lineSeparator());
        }
      }
    }
    return b.toString();
  }

  private static Map<String, Object> memoryJson(MemoryBandwidth.Result m) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("bytes", m.bytes());
    json.put("threads", m.threads());
    json.put("passes", m.passes());
    json.put("singleThreadMbPerSecond", m.singleThreadBytesPerSecond() / 1e6);
    json.put("allThreadsMbPerSecond", m.allThreadsBytesPerSecond() / 1e6);
    json.put("perCoreMbPerSecond", m.perCoreBytesPerSecond() / 1e6);
    json.put("method", m.method());
    return json;
  }

  static String ms(double ms) {
    return String.format(Locale.ROOT, ms < 10 ? "%,.3f" : ms < 1000 ? "%,.1f" : "%,.0f", ms);
  }

  private static String comparison(
      List<String> urls, List<Map<String, Object>> databases, List<List<QueryResult>> all) {
    List<String> header = new ArrayList<>();
    header.add("median ms");
    for (Map<String, Object> db : databases) {
      header.add(shortName(db));
    }
    for (int i = 1; i < urls.size(); i++) {
      header.add(shortName(databases.get(i)) + "/" + shortName(databases.get(0)));
    }
    TextTable t = new TextTable(header.toArray(String[]::new));
    for (QueryResult first : all.get(0)) {
      List<String> row = new ArrayList<>();
      row.add(first.name());
      List<QueryResult> same = new ArrayList<>();
      for (List<QueryResult> results : all) {
        QueryResult match =
            results.stream().filter(r -> r.name().equals(first.name())).findFirst().orElse(null);
        same.add(match);
        row.add(
            match == null ? "" : match.failed() ? match.status() : ms(match.stats().medianMs()));
      }
      for (int i = 1; i < same.size(); i++) {
        QueryResult other = same.get(i);
        row.add(
            other == null || other.failed() || first.failed() || first.stats().medianMs() <= 0
                ? "-"
                : String.format(
                    Locale.ROOT, "%.3f", other.stats().medianMs() / first.stats().medianMs()));
      }
      t.addRow(row.toArray(String[]::new));
    }
    return t.render();
  }

  private static String shortName(Map<String, Object> db) {
    String product = String.valueOf(db.get("product"));
    int space = product.indexOf(' ');
    return space < 0 ? product : product.substring(0, space);
  }

  private static Path chart(
      Path json, List<Map<String, Object>> databases, List<List<QueryResult>> all)
      throws java.io.IOException {
    List<String> names = new ArrayList<>();
    for (List<QueryResult> results : all) {
      for (QueryResult r : results) {
        // seconds of JVM start-up would flatten every other bar
        if (!names.contains(r.name()) && !r.name().equals(FreshJvm.NAME)) {
          names.add(r.name());
        }
      }
    }
    BarChart chart =
        new BarChart("LINEITEM suite: median time per query (lookup: per run)", "ms", names);
    for (int i = 0; i < all.size(); i++) {
      List<Double> values = new ArrayList<>();
      for (String name : names) {
        values.add(
            all.get(i).stream()
                .filter(r -> r.name().equals(name) && !r.failed())
                .map(r -> r.stats().medianMs())
                .findFirst()
                .orElse(null));
      }
      chart.addSeries(
          shortName(databases.get(i)) + " (" + databases.get(i).get("url") + ")", values);
    }
    String base = json.getFileName().toString().replaceFirst("\\.json$", ".png");
    return chart.writePng(json.resolveSibling(base), 1200, 700);
  }

  /**
   * Loading leaves the heap full of young garbage and promoted data; collecting it before the first
   * measured query keeps the collector's catch-up work out of the first queries' times.
   */
  @SuppressWarnings("CallToSystemGC")
  private static void settleHeap() {
    for (int i = 0; i < 2; i++) {
      System.gc();
    }
  }
}
