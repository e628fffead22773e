package io.cairn.tpch.queries;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cairn.core.SuppressForbidden;
import io.cairn.tpch.cli.SuiteOptions;
import io.cairn.tpch.load.TpchLoader;
import io.cairn.tpch.load.TpchSchema;
import io.cairn.tpch.report.JsonReport;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/cairn bench tpch}: runs the 22 TPC-H queries and checks their answers. */
@Command(
    name = "tpch",
    mixinStandardHelpOptions = true,
    versionProvider = io.cairn.tpch.cli.Version.class,
    sortOptions = false,
    description = {
      "Runs the 22 TPC-H queries (specification clause 2.4, validation parameters) on Cairn,"
          + " checks every answer against a reference database loaded with the same generated"
          + " data, and reports per query: ok, wrong (first differing row and column), error (the"
          + " exception) or timeout, with the median, min and max time of the measured runs"
          + " (a run's time includes fetching every row) after its warm-up (--warmups runs, more"
          + " within --warmup-ms) and the time of its first run (a warm-up unless --warmups is 0:"
          + " on code the JIT has not compiled yet).",
      "",
      "Loads the 8 tables first where they are missing or hold another scale factor. Answers"
          + " are compared row by row when the query has ORDER BY, as multisets otherwise;"
          + " numbers within a relative 1e-6 (absolute 1e-9 near zero), strings without"
          + " trailing blanks (CHAR padding), dates by value.",
      "",
      "Writes the report as a table on standard output and as JSON (with the machine and the"
          + " parameters) to --results. Exit code: 0 when the suite ran, even with wrong or"
          + " failing queries (the report tells; see --fail-on-wrong), 1 when the setup failed"
          + " (connection, loading, results directory), 2 for usage errors.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  bin/cairn bench tpch --sf 0.01",
      "  bin/cairn bench tpch --sf 1 --queries 1,3,6 --runs 5 --warmups 1",
      "  bin/cairn bench tpch --sf 0.1 --compare-url jdbc:duckdb: --compare-url jdbc:h2:mem:tpch",
      "  bin/cairn bench tpch --sf 0.01 --runs 1 --fail-on-wrong     # CI smoke test"
    })
public final class TpchQueriesCommand implements Callable<Integer> {
  /** An in-memory DuckDB lives only while a connection is open and each bare URL is a new one. */
  private static final String DUCKDB_IN_MEMORY = "jdbc:duckdb:";

  @Spec CommandSpec spec;

  @Mixin SuiteOptions runOptions = new SuiteOptions(5, 1);

  @Option(
      names = "--warmup-ms",
      paramLabel = "MS",
      description =
          "After --warmups unmeasured runs, a query goes on warming up until its warm-up runs after"
              + " the first took MS milliseconds together (at most "
              + MAX_WARMUPS
              + " runs), as bench lineitem does: a query is then measured with its code compiled,"
              + " not while the JIT compiles it (TPC-H Q3 took 4 runs to settle); 0: exactly"
              + " --warmups runs. The JSON says each query's warm-up runs. Default:"
              + " ${DEFAULT-VALUE}.",
      defaultValue = "1000")
  long warmupMillis;

  /** The most warm-up runs of one query, whatever --warmup-ms. */
  static final int MAX_WARMUPS = 1_000;

  @Option(
      names = "--sf",
      description = "TPC-H scale factor (1 = about 1 GB of raw data). Default: ${DEFAULT-VALUE}.",
      defaultValue = "0.01")
  double scaleFactor;

  @Option(
      names = "--url",
      description = "JDBC URL of the Cairn database under test. Default: ${DEFAULT-VALUE}.",
      defaultValue = "jdbc:cairn:mem:tpch")
  String url;

  @Option(
      names = "--reference-url",
      description =
          "JDBC URL of the database whose answers are taken as correct (loaded with the same"
              + " generator at the same scale factor), e.g. jdbc:h2:mem:ref. Default: an"
              + " in-memory DuckDB (${DEFAULT-VALUE}).",
      defaultValue = DUCKDB_IN_MEMORY)
  String referenceUrl;

  @Option(
      names = "--compare-url",
      paramLabel = "URL",
      description =
          "Also run the suite on this database (repeatable) and show its median and its ratio"
              + " to Cairn's per query; its answers are checked too.")
  List<String> compareUrls = new ArrayList<>();

  @Option(
      names = "--queries",
      split = ",",
      paramLabel = "N",
      description =
          "Queries to run, e.g. 1,3,6 (numbers 1 to 22, optionally with a Q). Default: all.")
  List<String> queries = new ArrayList<>();

  @Option(
      names = "--timeout-seconds",
      description = "Per-query timeout (each run), 0 for none. Default: ${DEFAULT-VALUE}.",
      defaultValue = "300")
  int timeoutSeconds;

  @Option(
      names = "--results",
      paramLabel = "DIR",
      description =
          "Directory of the JSON report (results/tpch-<timestamp>.json). Default: ${DEFAULT-VALUE}.",
      defaultValue = "results")
  Path results;

  @Option(
      names = "--fail-on-wrong",
      description = "Exit with 1 when any query is wrong, fails or times out (for CI).")
  boolean failOnWrong;

  @Override
  @SuppressForbidden(reason = "command-line output: the report on stdout, progress on stderr")
  public Integer call() throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    List<TpchQueries.Query> selected = selectQueries();
    validate();

    List<String> targets = new ArrayList<>();
    targets.add(url);
    targets.addAll(compareUrls);
    Map<String, String> resolved = new LinkedHashMap<>();
    int memoryDb = 0;
    for (String u : concat(List.of(referenceUrl), targets)) {
      if (!resolved.containsKey(u)) {
        resolved.put(
            u,
            u.equals(DUCKDB_IN_MEMORY)
                ? "jdbc:duckdb:memory:cairn_tpch_"
                    + (memoryDb++)
                    + "_"
                    + ProcessHandle.current().pid()
                : u);
      }
    }
    // One connection per database held open for the whole run: in-memory databases (DuckDB, H2)
    // vanish when their last connection closes.
    List<Connection> keepers = new ArrayList<>();
    try {
      Map<String, List<Map<String, Object>>> loads = new LinkedHashMap<>();
      for (String u : new LinkedHashSet<>(resolved.values())) {
        try {
          keepers.add(DriverManager.getConnection(u));
        } catch (SQLException | RuntimeException e) {
          err.println("Setup failed: cannot connect to " + u + ": " + QueryExecutor.message(e));
          return 1;
        }
      }
      for (String u : new LinkedHashSet<>(resolved.values())) {
        try {
          loads.put(u, load(u, err));
        } catch (SQLException | IOException | RuntimeException e) {
          err.println("Setup failed: loading " + u + ": " + QueryExecutor.message(e));
          return 1;
        }
      }
      Report report = runSuite(selected, resolved, targets, err);
      report.load = loads;
      report.print(out);
      Path file = report.write(results);
      out.println("Report written to " + file);
      return failOnWrong && report.failures() > 0 ? 1 : 0;
    } catch (IOException e) {
      err.println("Could not write the report to " + results + ": " + e.getMessage());
      return 1;
    } finally {
      for (Connection c : keepers) {
        try {
          c.close();
        } catch (SQLException ignored) {
          // Closing only frees an in-memory database.
        }
      }
    }
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private void validate() {
    if (scaleFactor < 0.01) {
      // Below 0.01 the generator's PARTSUPP supplier formula repeats keys (e.g. SF 0.005 gives
      // (651, 2) twice): Cairn's UPSERT would keep one row, other databases reject the load.
      throw usage(
          "--sf must be at least 0.01 (smaller scale factors generate duplicate PARTSUPP keys),"
              + " found ["
              + scaleFactor
              + "]");
    }
    if (runOptions.runs() < 1) {
      throw usage("--runs must be at least 1, found [" + runOptions.runs() + "]");
    }
    if (warmupMillis < 0) {
      throw usage("--warmup-ms must not be negative, found [" + warmupMillis + "]");
    }
    if (runOptions.warmups() < 0) {
      throw usage("--warmups must not be negative, found [" + runOptions.warmups() + "]");
    }
    if (timeoutSeconds < 0) {
      throw usage("--timeout-seconds must not be negative, found [" + timeoutSeconds + "]");
    }
  }

  private CommandLine.ParameterException usage(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }

  private List<TpchQueries.Query> selectQueries() {
    if (queries.isEmpty()) {
      return TpchQueries.all(scaleFactor);
    }
    List<TpchQueries.Query> selected = new ArrayList<>();
    LinkedHashSet<Integer> numbers = new LinkedHashSet<>();
    for (String q : queries) {
      String digits = q.strip().toUpperCase(Locale.ROOT);
      digits = digits.startsWith("Q") ? digits.substring(1) : digits;
      int n;
      try {
        n = Integer.parseInt(digits);
      } catch (NumberFormatException e) {
        throw usage("--queries takes numbers from 1 to 22, found [" + q + "]");
      }
      if (n < 1 || n > 22) {
        throw usage("--queries takes numbers from 1 to 22, found [" + q + "]");
      }
      numbers.add(n);
    }
    for (int n : numbers) {
      selected.add(TpchQueries.query(n, scaleFactor));
    }
    return selected;
  }

  private List<Map<String, Object>> load(String u, PrintStream err)
      throws SQLException, IOException {
    long expected = 0;
    for (String t : TpchSchema.TABLES) {
      expected += TpchSchema.expectedRows(t, scaleFactor);
    }
    List<TpchLoader.TableResult> loaded;
    err.printf(Locale.ROOT, "Checking TPC-H SF %s in %s%n", scaleFactor, u);
    try (ProgressBar bar =
        new ProgressBarBuilder()
            .setTaskName("load")
            .setInitialMax(expected)
            .setStyle(ProgressBarStyle.ASCII)
            .setConsumer(new ConsoleProgressBarConsumer(err))
            .showSpeed()
            .continuousUpdate()
            .build()) {
      loaded =
          TpchLoader.ensureLoaded(
              u, scaleFactor, TpchSchema.TABLES, runOptions.threads(), bar::stepBy);
    }
    List<Map<String, Object>> tables = new ArrayList<>();
    for (TpchLoader.TableResult r : loaded) {
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("table", r.table());
      t.put("rows", r.rows());
      t.put("seconds", r.nanos() / 1e9);
      tables.add(t);
    }
    err.printf(
        Locale.ROOT,
        "  %s%n",
        loaded.isEmpty() ? "already loaded" : "loaded " + loaded.size() + " tables");
    List<String> names = new ArrayList<>();
    for (TpchLoader.TableResult r : loaded) {
      names.add(r.table());
    }
    // as `tpch load` does: the planner's join orders see every row loaded from the first query on
    if (TpchLoader.updateStatistics(u, names)) {
      err.printf(Locale.ROOT, "  statistics of %d tables collected%n", names.size());
    }
    return tables;
  }

  private Report runSuite(
      List<TpchQueries.Query> selected,
      Map<String, String> resolved,
      List<String> targets,
      PrintStream err) {
    Report report = new Report();
    report.parameters = parameters(selected);
    report.machine = machine();
    report.targets = new ArrayList<>(targets);
    List<QueryExecutor> executors = new ArrayList<>();
    try (QueryExecutor reference = new QueryExecutor(resolved.get(referenceUrl), timeoutSeconds)) {
      for (String t : targets) {
        executors.add(new QueryExecutor(resolved.get(t), timeoutSeconds));
      }
      settleHeap();
      for (TpchQueries.Query q : selected) {
        QueryExecutor.Outcome expected = reference.run(q.sql());
        Report.QueryResult result = new Report.QueryResult(q.name(), q.sql());
        if (expected instanceof QueryExecutor.Answered a) {
          result.referenceRows = a.answer().rows().size();
          result.referenceMs = a.nanos() / 1e6;
        } else {
          result.referenceError = describe(expected);
        }
        for (int i = 0; i < targets.size(); i++) {
          Report.Run run = measure(q, executors.get(i), expected);
          run.url = targets.get(i);
          result.runs.add(run);
          err.printf(
              Locale.ROOT,
              "%-4s %-8s %10s ms  %s%n",
              q.name(),
              run.status,
              run.medianMs == null ? "-" : String.format(Locale.ROOT, "%.1f", run.medianMs),
              run.url);
        }
        report.queries.add(result);
      }
    } finally {
      executors.forEach(QueryExecutor::close);
    }
    return report;
  }

  private Report.Run measure(
      TpchQueries.Query q, QueryExecutor executor, QueryExecutor.Outcome expected) {
    Report.Run run = new Report.Run();
    QueryExecutor.Answered last = null;
    int warmups = runOptions.warmups();
    long warmupNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(warmupMillis);
    long warmupStart = System.nanoTime();
    int warmed = 0;
    int measured = 0;
    while (measured < runOptions.runs()) {
      boolean warming =
          warmed < warmups
              || (warmups > 0
                  && warmed < MAX_WARMUPS
                  && System.nanoTime() - warmupStart < warmupNanos);
      QueryExecutor.Outcome outcome = executor.run(q.sql());
      if (!(outcome instanceof QueryExecutor.Answered a)) {
        run.status = outcome instanceof QueryExecutor.TimedOut ? "timeout" : "error";
        run.detail = describe(outcome);
        return run;
      }
      if (warmed + measured == 0) {
        run.firstMs = a.nanos() / 1e6;
        // the first run's cold cost (class loading, an empty cache) does not count: the budget is
        // for runs on warm code (TPC-H Q1's first run took 1.9 s, and the four after it 140-210)
        warmupStart = System.nanoTime();
      }
      if (warming) {
        warmed++;
      } else {
        run.timesMs.add(a.nanos() / 1e6);
        measured++;
      }
      last = a;
    }
    run.warmups = warmed;
    run.rows = last.answer().rows().size();
    List<Double> sorted = new ArrayList<>(run.timesMs);
    sorted.sort(null);
    int n = sorted.size();
    run.medianMs = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    run.minMs = sorted.get(0);
    run.maxMs = sorted.get(n - 1);
    if (expected instanceof QueryExecutor.Answered reference) {
      ResultCheck.Verdict verdict =
          ResultCheck.compare(reference.answer(), last.answer(), q.ordered());
      run.status = verdict.matches() ? "ok" : "wrong";
      run.detail = verdict.detail();
    } else {
      run.status = "unchecked";
      run.detail = "the reference failed: " + describe(expected);
    }
    return run;
  }

  private static String describe(QueryExecutor.Outcome outcome) {
    if (outcome instanceof QueryExecutor.Failed f) {
      return f.message();
    }
    if (outcome instanceof QueryExecutor.TimedOut t) {
      return "timeout: " + t.message();
    }
    return "answered";
  }

  private Map<String, Object> parameters(List<TpchQueries.Query> selected) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("sf", scaleFactor);
    p.put("url", url);
    p.put("referenceUrl", referenceUrl);
    p.put("compareUrls", compareUrls);
    p.put("queries", selected.stream().map(TpchQueries.Query::name).toList());
    p.put("runs", runOptions.runs());
    p.put("warmups", runOptions.warmups());
    p.put("warmupMs", warmupMillis);
    p.put("timeoutSeconds", timeoutSeconds);
    p.put("tolerance", Map.of("relative", ResultCheck.RELATIVE, "absolute", ResultCheck.ABSOLUTE));
    return p;
  }

  static Map<String, Object> machine() {
    Map<String, Object> m = new LinkedHashMap<>();
    Runtime rt = Runtime.getRuntime();
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    m.put("arch", System.getProperty("os.arch"));
    m.put("cores", rt.availableProcessors());
    m.put("maxHeapBytes", rt.maxMemory());
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    m.put("jvmArguments", JsonReport.MachineInfo.currentJvmArguments());
    try {
      m.put("host", java.net.InetAddress.getLocalHost().getHostName());
    } catch (IOException e) {
      m.put("host", "unknown");
    }
    return m;
  }

  /** The report: the table on stdout and the JSON file. */
  static final class Report {
    public String suite = "tpch";
    public String timestamp = LocalDateTime.now(ZoneOffset.UTC).withNano(0).toString() + "Z";
    public Map<String, Object> parameters;
    public Map<String, Object> machine;
    public Map<String, List<Map<String, Object>>> load;
    public List<String> targets;
    public List<QueryResult> queries = new ArrayList<>();

    /** One query: the reference's answer and a run per target (Cairn first). */
    static final class QueryResult {
      public final String query;
      public final String sql;
      public Integer referenceRows;
      public Double referenceMs;
      public String referenceError;
      public List<Run> runs = new ArrayList<>();

      QueryResult(String query, String sql) {
        this.query = query;
        this.sql = sql;
      }

      /** Cairn's status, also at the top level of the JSON for easy reading. */
      public String getStatus() {
        return runs.get(0).status;
      }
    }

    /** One query on one target. */
    static final class Run {
      public String url;
      public String status;
      public String detail;
      public Integer rows;
      public Double medianMs;
      public Double minMs;
      public Double maxMs;

      /**
       * The query's first run (a warm-up unless --warmups is 0): its cost on code the JIT has not
       * compiled yet and data no query of the suite read before.
       */
      public Double firstMs;

      /** The unmeasured runs before the measured ones (--warmups, more within --warmup-ms). */
      public Integer warmups;

      public List<Double> timesMs = new ArrayList<>();
    }

    /** Queries of the first target (Cairn) that are not ok. */
    long failures() {
      return queries.stream().filter(q -> !"ok".equals(q.getStatus())).count();
    }

    public Map<String, Long> getSummary() {
      Map<String, Long> s = new LinkedHashMap<>();
      for (String status : List.of("ok", "wrong", "error", "timeout", "unchecked")) {
        s.put(status, queries.stream().filter(q -> status.equals(q.getStatus())).count());
      }
      return s;
    }

    void print(PrintStream out) {
      StringBuilder header =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "%-5s %-9s %10s %10s %10s %10s %8s %10s",
                  "query",
                  "status",
                  "median ms",
                  "min ms",
                  "max ms",
                  "first ms",
                  "rows",
                  "ref ms"));
      for (int i = 1; i < targets.size(); i++) {
        header.append(
            String.format(Locale.ROOT, " | %-9s %10s %7s", "cmp" + i, "median ms", "ratio"));
      }
      out.println();
      out.println(header);
      for (QueryResult q : queries) {
        Run cairn = q.runs.get(0);
        StringBuilder line =
            new StringBuilder(
                String.format(
                    Locale.ROOT,
                    "%-5s %-9s %10s %10s %10s %10s %8s %10s",
                    q.query,
                    cairn.status,
                    ms(cairn.medianMs),
                    ms(cairn.minMs),
                    ms(cairn.maxMs),
                    ms(cairn.firstMs),
                    cairn.rows == null ? "-" : cairn.rows.toString(),
                    ms(q.referenceMs)));
        for (int i = 1; i < q.runs.size(); i++) {
          Run other = q.runs.get(i);
          String ratio =
              other.medianMs == null || cairn.medianMs == null || other.medianMs == 0
                  ? "-"
                  : String.format(Locale.ROOT, "%.2fx", cairn.medianMs / other.medianMs);
          line.append(
              String.format(
                  Locale.ROOT, " | %-9s %10s %7s", other.status, ms(other.medianMs), ratio));
        }
        out.println(line);
      }
      for (int i = 1; i < targets.size(); i++) {
        out.printf(
            Locale.ROOT, "cmp%d = %s (ratio = Cairn median / its median)%n", i, targets.get(i));
      }
      boolean any = false;
      for (QueryResult q : queries) {
        for (Run r : q.runs) {
          if (!"ok".equals(r.status)) {
            if (!any) {
              out.println();
              out.println("Problems:");
              any = true;
            }
            out.printf(Locale.ROOT, "  %s %s on %s: %s%n", q.query, r.status, r.url, r.detail);
          }
        }
      }
      Map<String, Long> s = getSummary();
      out.println();
      out.printf(
          Locale.ROOT,
          "Summary: %d queries on %s: %d ok, %d wrong, %d error, %d timeout%s%n",
          queries.size(),
          targets.get(0),
          s.get("ok"),
          s.get("wrong"),
          s.get("error"),
          s.get("timeout"),
          s.get("unchecked") > 0
              ? ", " + s.get("unchecked") + " unchecked (reference failed)"
              : "");
    }

    private static String ms(Double v) {
      return v == null ? "-" : String.format(Locale.ROOT, "%.1f", v);
    }

    Path write(Path dir) throws IOException {
      Files.createDirectories(dir);
      String stamp =
          LocalDateTime.now(ZoneOffset.UTC)
              .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS", Locale.ROOT));
      Path file = dir.resolve("tpch-" + stamp + ".json");
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), this);
      return file;
    }
  }

  /** Collects the load's garbage before the first measured query (see LineitemCommand). */
  @SuppressWarnings("CallToSystemGC")
  private static void settleHeap() {
    for (int i = 0; i < 2; i++) {
      System.gc();
    }
  }
}
