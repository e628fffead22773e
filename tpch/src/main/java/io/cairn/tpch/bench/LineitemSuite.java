package io.cairn.tpch.bench;

import io.cairn.tpch.cli.JvmMeters;
import io.cairn.tpch.load.GeneratedRows;
import io.cairn.tpch.load.TpchLoader;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;

/**
 * The LINEITEM suite on one database: each query runs {@code warmups} times unmeasured and {@code
 * runs} times measured, on one connection; a query that fails is recorded as {@link
 * QueryResult#ERROR} with the database's message and the suite goes on.
 */
final class LineitemSuite {
  /** The names {@code --only} accepts, in the order the suite runs them. */
  static final List<String> NAMES =
      List.of(
          "count",
          "count-where",
          "count-nocache",
          "count-where-nocache",
          "count-serial",
          "count-where-serial",
          "orderby",
          "orderby-serial",
          "orderby-limit10",
          "join-1000",
          "join-131072",
          "join-262144",
          "join-1048576",
          "eq-noindex",
          "index-build",
          "eq-index",
          "q1",
          "q6",
          "q1-serial",
          "q6-serial",
          "lookup",
          "load-indexes",
          FreshJvm.NAME);

  /**
   * The queries whose default run is compared with their {@code /*+ SERIAL *}{@code /} run: each
   * name maps to the name of its SERIAL variant's result.
   */
  static final Map<String, String> SERIAL_PAIRS =
      orderedMap(
          "count", "count-serial",
          "count-where", "count-where-serial",
          "q1", "q1-serial",
          "q6", "q6-serial",
          "orderby.first-row", "orderby-serial.first-row");

  /** The connection property that sets how many chunks of a scan run at once. */
  static final String PARALLELISM = "parallelism";

  static final String COUNT = "SELECT COUNT(*) FROM LINEITEM";
  static final String COUNT_WHERE = "SELECT COUNT(*) FROM LINEITEM WHERE L_QUANTITY < 1000";
  static final String ORDER_BY = "SELECT * FROM LINEITEM ORDER BY L_EXTENDEDPRICE";
  static final String JOIN = "SELECT COUNT(*) FROM LINEITEM, J WHERE L_EXTENDEDPRICE = K1";

  /** The keys in J of each join query (join-KEYS), in the order they run. */
  static final int[] JOIN_KEYS = {1_000, 131_072, 262_144, 1_048_576};

  static final String LOOKUP = "SELECT * FROM LINEITEM WHERE L_ORDERKEY = ? AND L_LINENUMBER = ?";

  /** The equality filter of eq-noindex and eq-index, before the value. */
  static final String EQ = "SELECT COUNT(*) FROM LINEITEM WHERE L_EXTENDEDPRICE = ";

  /** The index that index-build builds and eq-index reads. */
  static final String INDEX = "LI_EP";

  /** The copy of LINEITEM that load-indexes writes (created and dropped by the suite). */
  static final String LOAD_TABLE = "LINEITEM_LOAD";

  /**
   * The indexes of each load-indexes run, by their count: name and column list. The first is
   * eq-index's column; then a date and a composite of two keys.
   */
  static final Map<Integer, List<List<String>>> LOAD_INDEXES =
      Map.of(
          0,
          List.of(),
          1,
          List.of(List.of("LIL_EP", "L_EXTENDEDPRICE")),
          3,
          List.of(
              List.of("LIL_EP", "L_EXTENDEDPRICE"),
              List.of("LIL_SD", "L_SHIPDATE"),
              List.of("LIL_PS", "L_PARTKEY, L_SUPPKEY")));

  /** The index counts of load-indexes, in the order it runs them. */
  static final List<Integer> LOAD_INDEX_COUNTS = List.of(0, 1, 3);

  /** TPC-H Q1 with the validation parameter DELTA = 90 days. */
  static final String Q1 =
      "SELECT L_RETURNFLAG, L_LINESTATUS, SUM(L_QUANTITY) AS SUM_QTY,"
          + " SUM(L_EXTENDEDPRICE) AS SUM_BASE_PRICE,"
          + " SUM(L_EXTENDEDPRICE * (1 - L_DISCOUNT)) AS SUM_DISC_PRICE,"
          + " SUM(L_EXTENDEDPRICE * (1 - L_DISCOUNT) * (1 + L_TAX)) AS SUM_CHARGE,"
          + " AVG(L_QUANTITY) AS AVG_QTY, AVG(L_EXTENDEDPRICE) AS AVG_PRICE,"
          + " AVG(L_DISCOUNT) AS AVG_DISC, COUNT(*) AS COUNT_ORDER"
          + " FROM LINEITEM WHERE L_SHIPDATE <= DATE '1998-12-01' - INTERVAL '90' DAY"
          + " GROUP BY L_RETURNFLAG, L_LINESTATUS ORDER BY L_RETURNFLAG, L_LINESTATUS";

  /** TPC-H Q6 with the validation parameters DATE 1994-01-01, DISCOUNT 0.06, QUANTITY 24. */
  static final String Q6 =
      "SELECT SUM(L_EXTENDEDPRICE * L_DISCOUNT) AS REVENUE FROM LINEITEM"
          + " WHERE L_SHIPDATE >= DATE '1994-01-01'"
          + " AND L_SHIPDATE < DATE '1994-01-01' + INTERVAL '1' YEAR"
          + " AND L_DISCOUNT BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND L_QUANTITY < 24";

  /** Relative tolerance of the Q1/Q6 answer check. */
  static final double TOLERANCE = 1e-6;

  private final int warmups;
  private final long warmupNanos;
  private final long lookupWarmupNanos;
  private final int runs;
  private final int lookups;
  private final long seed;
  private final Set<String> only;
  private final double bytesPerRow;
  private final Integer parallelism;
  private final IndexLoad indexLoad;
  private final Consumer<String> progress;

  /** The JVM's allocation counter, read around each query's measured runs. */
  private final JvmMeters meters = JvmMeters.create();

  /** The rows load-indexes writes, generated at its first run and kept for every database. */
  private GeneratedRows loadRows;

  /**
   * What load-indexes writes: the first {@code rows} rows of LINEITEM at {@code scaleFactor} (all
   * of them when it gives fewer) with {@code writers} connections at once.
   */
  record IndexLoad(double scaleFactor, long rows, int writers) {}

  /** Warm-up runs of a query at most, however fast it is. */
  static final int MAX_WARMUPS = 10_000;

  LineitemSuite(
      int warmups,
      long warmupMillis,
      int runs,
      int lookups,
      long lookupWarmupMillis,
      long seed,
      Set<String> only,
      double bytesPerRow,
      Integer parallelism,
      IndexLoad indexLoad,
      Consumer<String> progress) {
    this.warmups = warmups;
    this.warmupNanos = warmupMillis * 1_000_000;
    this.runs = runs;
    this.lookups = lookups;
    this.lookupWarmupNanos = lookupWarmupMillis * 1_000_000;
    this.seed = seed;
    this.only = only;
    this.bytesPerRow = bytesPerRow;
    this.parallelism = parallelism;
    this.indexLoad = indexLoad;
    this.progress = progress;
  }

  /** Queries that run only when --only names them (long: they fill J with many keys). */
  static final Set<String> ON_REQUEST = Set.of("join-262144", "join-1048576");

  private boolean selected(String name) {
    return only.isEmpty() ? !ON_REQUEST.contains(name) : only.contains(name);
  }

  /** The rows of LINEITEM in the database at {@code url}. */
  static long countRows(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(COUNT)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * The connection properties the suite connects to {@code url} with: {@value #PARALLELISM} on
   * Cairn URLs when {@code parallelism} is given, nothing else.
   */
  static Properties connectionProperties(String url, Integer parallelism) {
    Properties p = new Properties();
    if (parallelism != null && Dialect.of(url) == Dialect.CAIRN) {
      p.setProperty(PARALLELISM, Integer.toString(parallelism));
    }
    return p;
  }

  /**
   * The cores a scan of the database at {@code url} runs on: on Cairn 1 for a SERIAL query, else
   * min(parallelism, available processors), parallelism defaulting to the available processors;
   * elsewhere the available processors (the other databases run their own thread pools and see the
   * SERIAL hint as a comment).
   */
  static int cores(String url, String name, Integer parallelism) {
    int processors = Runtime.getRuntime().availableProcessors();
    if (Dialect.of(url) != Dialect.CAIRN) {
      return processors;
    }
    if (name.contains("-serial")) {
      return 1;
    }
    return Math.min(parallelism == null ? processors : parallelism, processors);
  }

  /** Runs the suite; {@code reference} holds DuckDB's Q1 and Q6 answers (or is empty). */
  List<QueryResult> run(String url, Map<String, List<List<Object>>> reference, String refUrl)
      throws SQLException {
    Dialect dialect = Dialect.of(url);
    List<QueryResult> results = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, connectionProperties(url, parallelism))) {
      long rows = countRows(c);
      Consumer<QueryResult> add =
          r -> {
            addRates(r, rows, cores(url, r.name(), parallelism));
            results.add(r);
            progress.accept(summary(r));
          };
      if (selected("count")) {
        add.accept(timed(c, "count", COUNT, false).result());
      }
      if (selected("count-where")) {
        add.accept(timed(c, "count-where", COUNT_WHERE, false).result());
      }
      for (String hint : List.of("NO_CACHE", "SERIAL")) {
        String suffix = "-" + hint.replace("_", "").toLowerCase(Locale.ROOT);
        if (selected("count" + suffix)) {
          add.accept(timed(c, "count" + suffix, hinted(COUNT, hint), false).result());
        }
        if (selected("count-where" + suffix)) {
          add.accept(timed(c, "count-where" + suffix, hinted(COUNT_WHERE, hint), false).result());
        }
      }
      for (String name : List.of("orderby", "orderby-serial")) {
        if (selected(name)) {
          String sql = name.equals("orderby") ? ORDER_BY : hinted(ORDER_BY, "SERIAL");
          Timed t = timed(c, name + ".all-rows", sql, false);
          if (t.error != null) {
            add.accept(QueryResult.error(name + ".first-row", sql, t.error));
          } else {
            Map<String, Object> extra = extra();
            extra.put("explain", t.explain);
            add.accept(QueryResult.ok(name + ".first-row", sql, t.firstRow, 1, null, extra));
          }
          add.accept(t.result());
        }
      }
      if (selected("orderby-limit10")) {
        add.accept(timed(c, "orderby-limit10", ORDER_BY + " LIMIT 10", false).result());
      }
      for (int keys : JOIN_KEYS) {
        String name = "join-" + keys;
        if (selected(name)) {
          String setup = fillJ(c, dialect, keys);
          add.accept(
              setup != null
                  ? QueryResult.error(name, JOIN, "creating and filling J failed: " + setup)
                  : timed(c, name, JOIN, false).result());
        }
      }
      if (IntStream.of(JOIN_KEYS).anyMatch(k -> selected("join-" + k))) {
        quietly(c, "DROP TABLE IF EXISTS J");
      }
      indexQueries(c, dialect, add);
      for (String q : List.of("q1", "q6", "q1-serial", "q6-serial")) {
        if (selected(q)) {
          String base = q.startsWith("q1") ? "q1" : "q6";
          String sql = base.equals("q1") ? Q1 : Q6;
          Timed t = timed(c, q, q.endsWith("-serial") ? hinted(sql, "SERIAL") : sql, true);
          QueryResult r = t.result();
          if (!r.failed()) {
            r = r.withCheck(check(t.answer, reference.get(base), url.equals(refUrl)));
          }
          add.accept(r);
        }
      }
      if (selected("lookup")) {
        add.accept(lookups(c));
      }
      if (selected("load-indexes")) {
        loadIndexes(c, url, dialect).forEach(add);
      }
      if (selected(FreshJvm.NAME)) {
        add.accept(
            dialect == Dialect.CAIRN
                ? FreshJvm.measure(url, rows, runs, progress)
                : QueryResult.notApplicable(
                    FreshJvm.NAME,
                    FreshJvm.QUERY,
                    "Cairn only: the child JVM runs Cairn's driver"));
      }
    }
    return results;
  }

  /**
   * eq-noindex, index-build and eq-index, in this order: the equality query with {@code /*+
   * NO_INDEX *}{@code /} (before the index exists, so that it reads the table on every database:
   * elsewhere the hint is a comment), CREATE INDEX on L_EXTENDEDPRICE timed once, the query again
   * with the index; the index is dropped afterwards (and on Cairn the table compacted), so the rest
   * of the suite runs on the table as it was. eq-index alone still builds the index (unreported). A
   * database that refuses CREATE INDEX (other than Cairn) gets "n/a" for both.
   */
  private void indexQueries(Connection c, Dialect dialect, Consumer<QueryResult> add) {
    boolean noIndex = selected("eq-noindex");
    boolean build = selected("index-build");
    boolean withIndex = selected("eq-index");
    if (!noIndex && !build && !withIndex) {
      return;
    }
    String eq;
    try {
      eq = EQ + extendedPriceOfFirstLine(c).toPlainString();
    } catch (SQLException e) {
      String error = "no value of L_EXTENDEDPRICE: " + message(e);
      for (String name : List.of("eq-noindex", "index-build", "eq-index")) {
        if (selected(name)) {
          add.accept(QueryResult.error(name, EQ + "?", error));
        }
      }
      return;
    }
    List<List<Object>> noIndexAnswer = null;
    if (noIndex) {
      Timed t = timed(c, "eq-noindex", hinted(eq, "NO_INDEX"), true);
      noIndexAnswer = t.answer;
      add.accept(t.result());
    }
    if (!build && !withIndex) {
      return;
    }
    String ddl = dialect.createIndex(INDEX, "LINEITEM", "L_EXTENDEDPRICE");
    String drop = dialect.dropIndex(INDEX, "LINEITEM");
    quietly(c, drop);
    Timed built = timedOnce(c, "index-build", ddl);
    boolean notApplicable = built.error != null && dialect != Dialect.CAIRN;
    if (build) {
      add.accept(
          notApplicable
              ? QueryResult.notApplicable("index-build", ddl, built.error)
              : built.result());
    }
    if (withIndex) {
      if (built.error != null) {
        String why = "no index: " + ddl + " failed: " + built.error;
        add.accept(
            notApplicable
                ? QueryResult.notApplicable("eq-index", eq, why)
                : QueryResult.error("eq-index", eq, why));
      } else {
        Timed t = timed(c, "eq-index", eq, true);
        QueryResult r = t.result();
        add.accept(
            r.failed() ? r : r.withCheck(indexCheck(t.answer, noIndexAnswer, t.explain, dialect)));
      }
    }
    if (built.error == null) {
      quietly(c, drop);
      if (dialect == Dialect.CAIRN) {
        compactAfterDrop(c);
      }
    }
  }

  /**
   * Compacts LINEITEM after its index was dropped, so that the queries after it run on the table as
   * it was: the build added a file of entries to each region, and the compactions it brings (which
   * also drop the dropped index's entries) otherwise run in the background for seconds, taking a
   * core from the next queries (Q1 and Q6 then gained nothing from their second core).
   */
  private void compactAfterDrop(Connection c) {
    long start = System.nanoTime();
    try (Statement s = c.createStatement()) {
      s.execute("COMPACT TABLE LINEITEM");
      s.execute("UPDATE STATISTICS LINEITEM"); // now, not by the background keeper later
      progress.accept(
          String.format(
              Locale.ROOT,
              "  LINEITEM compacted and its statistics collected after DROP INDEX in %.1f s",
              (System.nanoTime() - start) / 1e9));
    } catch (SQLException e) {
      progress.accept("  compacting LINEITEM after DROP INDEX failed: " + message(e));
    }
  }

  /**
   * eq-index's answer against eq-noindex's (the same count, or "wrong"), and on Cairn whether its
   * EXPLAIN names the index.
   */
  static String indexCheck(
      List<List<Object>> answer,
      List<List<Object>> noIndexAnswer,
      List<String> explain,
      Dialect dialect) {
    String check;
    if (noIndexAnswer == null) {
      check = "unchecked (eq-noindex not run)";
    } else if (answer.equals(noIndexAnswer)) {
      check = QueryResult.OK;
    } else {
      return "wrong: " + answer + ", eq-noindex " + noIndexAnswer;
    }
    if (dialect == Dialect.CAIRN && explain.stream().noneMatch(line -> line.contains(INDEX))) {
      check += "; EXPLAIN does not name " + INDEX;
    }
    return check;
  }

  /**
   * load-indexes: the same rows (the first {@link IndexLoad#rows} of LINEITEM, generated once
   * before any timing) written into {@link #LOAD_TABLE}, a copy of LINEITEM made afresh for every
   * run with 0, 1 and 3 indexes ({@link #LOAD_INDEXES}) created before the rows; the time of the
   * writes only, warmups + runs times, median. The table is dropped at the end. A database that
   * refuses CREATE INDEX (other than Cairn) gets "n/a" for the runs with indexes.
   */
  private List<QueryResult> loadIndexes(Connection c, String url, Dialect dialect) {
    if (loadRows == null) {
      loadRows = GeneratedRows.first("LINEITEM", indexLoad.scaleFactor(), indexLoad.rows());
      progress.accept(
          String.format(
              Locale.ROOT,
              "  load-indexes: %,d rows, the first of LINEITEM at SF %s, into %s",
              loadRows.size(),
              indexLoad.scaleFactor(),
              LOAD_TABLE));
    }
    boolean appender = dialect == Dialect.DUCKDB;
    int writers = appender ? 1 : Math.max(1, indexLoad.writers());
    String method =
        appender
            ? "DuckDB Appender"
            : String.format(
                Locale.ROOT,
                "%s batches of %,d rows, one commit each",
                dialect.insertVerb(),
                TpchLoader.BATCH);
    List<QueryResult> results = new ArrayList<>();
    try {
      for (int count : LOAD_INDEX_COUNTS) {
        results.add(loadWithIndexes(c, url, dialect, count, writers, method));
      }
    } finally {
      quietly(c, "DROP TABLE IF EXISTS " + LOAD_TABLE);
    }
    QueryResult none = results.get(0);
    for (QueryResult r : results) {
      if (r != none && !r.failed() && !none.failed() && none.stats().medianMs() > 0) {
        int indexes = (Integer) r.extra().get("indexes");
        double ratio = r.stats().medianMs() / none.stats().medianMs();
        r.extra().put("timeVsNoIndex", ratio);
        r.extra().put("extraTimePerIndex", (ratio - 1) / indexes);
      }
    }
    return results;
  }

  private QueryResult loadWithIndexes(
      Connection c, String url, Dialect dialect, int count, int writers, String method) {
    String name = "load-indexes." + count;
    List<String> ddl = new ArrayList<>();
    ddl.add(loadRows.createTable(LOAD_TABLE));
    for (List<String> index : LOAD_INDEXES.get(count)) {
      ddl.add(dialect.createIndex(index.get(0), LOAD_TABLE, index.get(1)));
    }
    String sql = String.join("; ", ddl) + "; " + dialect.insertVerb() + " INTO " + LOAD_TABLE;
    List<Long> nanos = new ArrayList<>();
    try {
      for (int i = 0; i < warmups + runs; i++) {
        try (Statement s = c.createStatement()) {
          s.execute("DROP TABLE IF EXISTS " + LOAD_TABLE);
          s.execute(ddl.get(0));
          for (String index : ddl.subList(1, ddl.size())) {
            try {
              s.execute(index);
            } catch (SQLException e) {
              return dialect == Dialect.CAIRN
                  ? QueryResult.error(name, sql, index + " failed: " + message(e))
                  : QueryResult.notApplicable(name, sql, index + " failed: " + message(e));
            }
          }
        }
        TpchLoader.TableResult written = loadRows.writeTo(url, LOAD_TABLE, writers);
        if (i >= warmups) {
          nanos.add(written.nanos());
        }
      }
      long rows;
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + LOAD_TABLE)) {
        rs.next();
        rows = rs.getLong(1);
      }
      Map<String, Object> extra = extra();
      extra.put("indexes", count);
      extra.put(
          "indexColumns", LOAD_INDEXES.get(count).stream().map(index -> index.get(1)).toList());
      extra.put("rowsWritten", loadRows.size());
      extra.put("writers", writers);
      extra.put("method", method);
      QueryResult r =
          QueryResult.ok(
              name,
              sql,
              nanos,
              rows,
              rows == loadRows.size()
                  ? QueryResult.OK
                  : String.format(
                      Locale.ROOT,
                      "wrong: %,d rows in %s after writing %,d",
                      rows,
                      LOAD_TABLE,
                      loadRows.size()),
              extra);
      extra.put("rowsPerSecond", r.stats().perSecondAtMedian(loadRows.size()));
      return r;
    } catch (SQLException | RuntimeException e) {
      return QueryResult.error(name, sql, message(e));
    }
  }

  /** {@code SELECT /*+ hint *}{@code / ...}: the hint right after SELECT. */
  static String hinted(String sql, String hint) {
    return "SELECT /*+ " + hint + " */" + sql.substring("SELECT".length());
  }

  /**
   * The measured runs of a query must take this long together for the CPU figures: the system
   * counts CPU time in ticks (10 ms on Linux), so shorter runs would give figures off by more than
   * 5%.
   */
  static final long MIN_CPU_WALL_NANOS = 200_000_000L;

  /**
   * Adds the rates of a query that reads all of LINEITEM: rows/s and raw MB/s at the median time,
   * the same per core on {@code cores} cores, and from the process CPU time of the measured runs
   * (when they took {@link #MIN_CPU_WALL_NANOS} or more together) the CPU milliseconds per run, the
   * cores kept busy (CPU time / elapsed time) and raw MB per CPU-second; and the heap bytes the JVM
   * allocated over the measured runs (every thread) per row of LINEITEM and run.
   */
  private void addRates(QueryResult r, long rows, int cores) {
    if (r.failed()
        || r.name().equals("lookup")
        || r.name().startsWith("load-indexes")
        || r.name().equals(FreshJvm.NAME)) {
      return;
    }
    Map<String, Object> x = r.extra();
    x.put("cores", cores);
    if (r.name().endsWith(".first-row")) {
      return;
    }
    double rowsPerSecond = r.stats().perSecondAtMedian(rows);
    double mbPerSecond = rowsPerSecond * bytesPerRow / 1e6;
    x.put("rowsProcessed", rows);
    x.put("rowsPerSecond", rowsPerSecond);
    x.put("mbPerSecond", mbPerSecond);
    x.put("rowsPerSecondPerCore", rowsPerSecond / cores);
    x.put("mbPerSecondPerCore", mbPerSecond / cores);
    Object cpu = x.get("cpuNanos");
    long wall = r.runsNanos().stream().mapToLong(Long::longValue).sum();
    if (cpu instanceof Long cpuNanos && cpuNanos > 0 && wall >= MIN_CPU_WALL_NANOS) {
      double cpuSeconds = cpuNanos / 1e9;
      x.put("cpuMsPerRun", cpuNanos / 1e6 / r.runsNanos().size());
      x.put("busyCores", (double) cpuNanos / wall);
      x.put("mbPerCpuSecond", rows * bytesPerRow * r.runsNanos().size() / 1e6 / cpuSeconds);
    }
    if (x.get("allocatedBytes") instanceof Long allocated && allocated >= 0 && rows > 0) {
      x.put("allocatedBytesPerRow", (double) allocated / ((double) rows * r.runsNanos().size()));
    }
  }

  /**
   * Speedup of each query's default run over its SERIAL run ({@link #SERIAL_PAIRS}): the ratio of
   * their median times, measured in the same run of the suite; pairs with a side missing or failed
   * are left out.
   */
  static List<Map<String, Object>> speedups(List<QueryResult> results) {
    Map<String, QueryResult> byName = new LinkedHashMap<>();
    for (QueryResult r : results) {
      byName.put(r.name(), r);
    }
    List<Map<String, Object>> speedups = new ArrayList<>();
    for (Map.Entry<String, String> pair : SERIAL_PAIRS.entrySet()) {
      QueryResult parallel = byName.get(pair.getKey());
      QueryResult serial = byName.get(pair.getValue());
      if (parallel == null || serial == null || parallel.failed() || serial.failed()) {
        continue;
      }
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("query", parallel.name());
      s.put("serialQuery", serial.name());
      s.put("medianMs", parallel.stats().medianMs());
      s.put("serialMedianMs", serial.stats().medianMs());
      s.put(
          "speedup",
          parallel.stats().medianMs() <= 0
              ? 0.0
              : serial.stats().medianMs() / parallel.stats().medianMs());
      s.put("cores", parallel.extra().get("cores"));
      speedups.add(s);
    }
    return speedups;
  }

  static String summary(QueryResult r) {
    return r.failed()
        ? String.format(Locale.ROOT, "  %-24s %s %s", r.name(), r.status(), r.error())
        : String.format(
            Locale.ROOT,
            "  %-24s median %,.2f ms%s",
            r.name(),
            r.stats().medianMs(),
            r.check() == null ? "" : ", answer " + r.check());
  }

  private static Map<String, Object> extra() {
    return new LinkedHashMap<>();
  }

  private static Map<String, String> orderedMap(String... keysAndValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return Collections.unmodifiableMap(m);
  }

  /**
   * The database's plan of {@code sql} ({@code EXPLAIN sql}), one element a line; on failure one
   * line naming the error (not every database explains every statement).
   */
  static List<String> explain(Connection c, String sql) {
    List<String> lines = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> cells = new ArrayList<>();
        for (int col = 1; col <= columns; col++) {
          String v = rs.getString(col);
          if (v != null) {
            cells.add(v);
          }
        }
        for (String line : String.join(" ", cells).split("\\R")) {
          if (!line.isBlank()) {
            lines.add(line.stripTrailing());
          }
        }
      }
    } catch (SQLException | RuntimeException e) {
      lines.add("EXPLAIN failed: " + message(e));
    }
    return List.copyOf(lines);
  }

  /** The outcome of the runs of one statement. */
  private static final class Timed {
    final String name;
    final String sql;
    final List<Long> nanos = new ArrayList<>();
    final List<Long> firstRow = new ArrayList<>();
    long cpuNanos;
    long allocatedBytes = -1;
    int warmups;
    List<String> explain = List.of();
    long rows;
    List<List<Object>> answer;
    String error;

    Timed(String name, String sql) {
      this.name = name;
      this.sql = sql;
    }

    QueryResult result() {
      Map<String, Object> extra = extra();
      if (!explain.isEmpty()) {
        extra.put("explain", explain);
      }
      if (warmups > 0) {
        extra.put("warmups", warmups);
      }
      if (error != null) {
        QueryResult r = QueryResult.error(name, sql, error);
        r.extra().putAll(extra);
        return r;
      }
      if (cpuNanos >= 0) {
        extra.put("cpuNanos", cpuNanos);
      }
      if (allocatedBytes >= 0) {
        extra.put("allocatedBytes", allocatedBytes);
      }
      return QueryResult.ok(name, sql, nanos, rows, null, extra);
    }
  }

  /**
   * Explains {@code sql} once, warms it up ({@code warmups} runs, and for a fast query more, until
   * the warm-up took {@code warmupMillis}: a query of a millisecond is otherwise measured while the
   * JIT still compiles its code), then runs it {@code runs} times, reading every column of every
   * row; records the full time, the time to the first row, and the process CPU time and the heap
   * bytes allocated by the JVM's threads over the measured runs.
   */
  /**
   * Whether another unmeasured run is due after {@code done} of them, begun at {@code startNanos}:
   * the first {@code warmups}, then more (up to {@link #MAX_WARMUPS}) until they took {@code
   * budgetNanos}; none at all with {@code warmups} 0.
   */
  private boolean warmingUp(int done, long startNanos, long budgetNanos) {
    return done < warmups
        || (warmups > 0 && done < MAX_WARMUPS && System.nanoTime() - startNanos < budgetNanos);
  }

  private Timed timed(Connection c, String name, String sql, boolean keepAnswer) {
    Timed t = new Timed(name, sql);
    t.explain = explain(c, sql);
    try {
      long warmStart = System.nanoTime();
      while (warmingUp(t.warmups, warmStart, warmupNanos)) {
        runOnce(c, sql, keepAnswer, t);
        t.warmups++;
      }
      long cpuStart = ProcessCpu.nanos();
      long allocatedStart = meters.allocatedBytes();
      for (int i = 0; i < runs; i++) {
        long[] times = runOnce(c, sql, keepAnswer, t);
        t.nanos.add(times[0]);
        t.firstRow.add(times[1]);
      }
      long allocatedEnd = meters.allocatedBytes();
      long cpuEnd = ProcessCpu.nanos();
      t.cpuNanos = cpuStart >= 0 && cpuEnd >= 0 ? cpuEnd - cpuStart : -1;
      t.allocatedBytes =
          allocatedStart >= 0 && allocatedEnd >= allocatedStart
              ? allocatedEnd - allocatedStart
              : -1;
    } catch (SQLException | RuntimeException e) {
      t.error = message(e);
    }
    return t;
  }

  /**
   * Runs {@code sql} once, reading every column of every row into {@code t}'s row count (and
   * answer); returns the elapsed time and the time to the first row.
   */
  private static long[] runOnce(Connection c, String sql, boolean keepAnswer, Timed t)
      throws SQLException {
    long start = System.nanoTime();
    long first = -1;
    long count = 0;
    List<List<Object>> answer = keepAnswer ? new ArrayList<>() : null;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        if (first < 0) {
          first = System.nanoTime() - start;
        }
        List<Object> row = keepAnswer ? new ArrayList<>(columns) : null;
        for (int col = 1; col <= columns; col++) {
          Object v = rs.getObject(col);
          if (row != null) {
            row.add(v);
          }
        }
        if (answer != null) {
          answer.add(row);
        }
        count++;
      }
    }
    long elapsed = System.nanoTime() - start;
    t.rows = count;
    t.answer = answer;
    return new long[] {elapsed, first < 0 ? elapsed : first};
  }

  /** Runs a statement that cannot be repeated (e.g. CREATE INDEX) once, measured. */
  private static Timed timedOnce(Connection c, String name, String sql) {
    Timed t = new Timed(name, sql);
    try (Statement s = c.createStatement()) {
      long start = System.nanoTime();
      s.execute(sql);
      t.nanos.add(System.nanoTime() - start);
    } catch (SQLException | RuntimeException e) {
      t.error = message(e);
    }
    return t;
  }

  /** The database's message, on one line, with the SQLState when there is one. */
  static String message(Exception e) {
    String text = String.valueOf(e.getMessage()).replaceAll("\\s*\\R\\s*", " ").trim();
    if (e instanceof SQLException sql && sql.getSQLState() != null) {
      return sql.getSQLState() + " " + text;
    }
    return e.getClass().getSimpleName() + ": " + text;
  }

  private static void quietly(Connection c, String sql) {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      // Clean-up of something that may not exist (DROP INDEX before CREATE INDEX, ...).
    }
  }

  private static BigDecimal extendedPriceOfFirstLine(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT L_EXTENDEDPRICE FROM LINEITEM WHERE L_ORDERKEY = 1 AND L_LINENUMBER = 1")) {
      if (!rs.next()) {
        throw new SQLException("LINEITEM has no row with L_ORDERKEY = 1 AND L_LINENUMBER = 1");
      }
      return rs.getBigDecimal(1);
    }
  }

  /**
   * (Re)creates J (K1 DECIMAL(15,2) PRIMARY KEY) with {@code keys} distinct values drawn uniformly
   * from L_EXTENDEDPRICE's range with the suite's seed; returns the error message or null.
   */
  private String fillJ(Connection c, Dialect dialect, int keys) {
    try {
      long low;
      long high;
      try (Statement s = c.createStatement();
          ResultSet rs =
              s.executeQuery("SELECT MIN(L_EXTENDEDPRICE), MAX(L_EXTENDEDPRICE) FROM LINEITEM")) {
        rs.next();
        low = rs.getBigDecimal(1).movePointRight(2).longValueExact();
        high = rs.getBigDecimal(2).movePointRight(2).longValueExact();
      }
      try (Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS J");
        s.execute("CREATE TABLE J (K1 DECIMAL(15,2) NOT NULL PRIMARY KEY)");
      }
      Random random = new Random(seed + keys);
      Set<Long> cents = new HashSet<>();
      long span = Math.max(1, high - low + 1);
      int wanted = (int) Math.min(keys, span);
      boolean autoCommit = c.getAutoCommit();
      c.setAutoCommit(false);
      try (PreparedStatement insert =
          c.prepareStatement(dialect.insertVerb() + " INTO J VALUES (?)")) {
        int pending = 0;
        while (cents.size() < wanted) {
          long v = low + (long) (random.nextDouble() * span);
          if (cents.add(v)) {
            insert.setBigDecimal(1, BigDecimal.valueOf(v, 2));
            insert.addBatch();
            if (++pending == 5_000) {
              insert.executeBatch();
              pending = 0;
            }
          }
        }
        if (pending > 0) {
          insert.executeBatch();
        }
        c.commit();
      } finally {
        c.setAutoCommit(autoCommit);
      }
      return null;
    } catch (SQLException | RuntimeException e) {
      return message(e);
    }
  }

  /**
   * Point lookups by full primary key through one PreparedStatement: keys sampled (reservoir, the
   * suite's seed) from the rows of LINEITEM; unmeasured passes ({@code warmups}, and more until
   * they took {@code lookupWarmupMillis}: a pass of 10,000 lookups takes about 0.1 s, and the JIT
   * compiles their long path over seconds), then runs measured passes of {@code lookups} lookups
   * each, every latency recorded in one HdrHistogram.
   */
  private QueryResult lookups(Connection c) {
    try {
      long[][] keys = sampleKeys(c);
      List<String> plan =
          explain(
              c,
              LOOKUP
                  .replaceFirst("\\?", Long.toString(keys[0][0]))
                  .replaceFirst("\\?", Long.toString(keys[0][1])));
      Histogram histogram = new Histogram(3);
      List<Long> passes = new ArrayList<>();
      long misses = 0;
      int warmupPasses = 0;
      try (PreparedStatement ps = c.prepareStatement(LOOKUP)) {
        long warmStart = System.nanoTime();
        while (warmingUp(warmupPasses, warmStart, lookupWarmupNanos)) {
          warmupPasses++;
          for (long[] key : keys) {
            lookupOnce(ps, key);
          }
        }
        for (int pass = 0; pass < runs; pass++) {
          long passStart = System.nanoTime();
          for (long[] key : keys) {
            long start = System.nanoTime();
            int found = lookupOnce(ps, key);
            histogram.recordValue(System.nanoTime() - start);
            if (found != 1) {
              misses++;
            }
          }
          passes.add(System.nanoTime() - passStart);
        }
      }
      long total = (long) keys.length * runs;
      Map<String, Object> extra = extra();
      extra.put("explain", plan);
      extra.put("lookupsPerPass", keys.length);
      extra.put("warmupPasses", warmupPasses);
      extra.put("p50Us", histogram.getValueAtPercentile(50) / 1e3);
      extra.put("p99Us", histogram.getValueAtPercentile(99) / 1e3);
      extra.put("maxUs", histogram.getMaxValue() / 1e3);
      extra.put("meanUs", histogram.getMean() / 1e3);
      double seconds = passes.stream().mapToLong(Long::longValue).sum() / 1e9;
      extra.put("lookupsPerSecond", seconds > 0 ? total / seconds : 0);
      extra.put("misses", misses);
      String check =
          misses == 0
              ? QueryResult.OK
              : String.format(Locale.ROOT, "wrong (%d of %d keys not found once)", misses, total);
      return QueryResult.ok("lookup", LOOKUP, passes, total - misses, check, extra);
    } catch (SQLException | RuntimeException e) {
      return QueryResult.error("lookup", LOOKUP, message(e));
    }
  }

  /** One lookup of {@code key} that reads every column of what it finds: the rows found. */
  private static int lookupOnce(PreparedStatement ps, long[] key) throws SQLException {
    ps.setLong(1, key[0]);
    ps.setInt(2, (int) key[1]);
    int found = 0;
    try (ResultSet rs = ps.executeQuery()) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        for (int col = 1; col <= columns; col++) {
          rs.getObject(col);
        }
        found++;
      }
    }
    return found;
  }

  private long[][] sampleKeys(Connection c) throws SQLException {
    Random random = new Random(seed);
    List<long[]> reservoir = new ArrayList<>();
    long seen = 0;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT L_ORDERKEY, L_LINENUMBER FROM LINEITEM")) {
      while (rs.next()) {
        long[] key = {rs.getLong(1), rs.getInt(2)};
        seen++;
        if (reservoir.size() < lookups) {
          reservoir.add(key);
        } else {
          long j = (long) (random.nextDouble() * seen);
          if (j < lookups) {
            reservoir.set((int) j, key);
          }
        }
      }
    }
    if (reservoir.isEmpty()) {
      throw new SQLException("LINEITEM is empty: no keys to look up");
    }
    Collections.shuffle(reservoir, random);
    long[][] keys = new long[lookups][];
    for (int i = 0; i < lookups; i++) {
      keys[i] = reservoir.get(i % reservoir.size());
    }
    return keys;
  }

  /** The answer of Q1 or Q6 against DuckDB's, cell by cell, numbers within {@link #TOLERANCE}. */
  static String check(List<List<Object>> answer, List<List<Object>> expected, boolean isReference) {
    if (isReference) {
      return "ok (reference)";
    }
    if (expected == null) {
      return "unchecked (no reference answer)";
    }
    Set<Integer> rounded = new java.util.TreeSet<>();
    if (answer.size() != expected.size()) {
      return String.format(
          Locale.ROOT, "wrong: %d rows, DuckDB has %d", answer.size(), expected.size());
    }
    for (int r = 0; r < answer.size(); r++) {
      List<Object> a = answer.get(r);
      List<Object> e = expected.get(r);
      if (a.size() != e.size()) {
        return String.format(
            Locale.ROOT, "wrong: row %d has %d columns, DuckDB %d", r + 1, a.size(), e.size());
      }
      for (int col = 0; col < a.size(); col++) {
        if (!same(a.get(col), e.get(col))) {
          if (atReturnedScale(a.get(col), e.get(col))) {
            rounded.add(col + 1);
            continue;
          }
          return String.format(
              Locale.ROOT,
              "wrong: row %d column %d is [%s], DuckDB [%s]",
              r + 1,
              col + 1,
              a.get(col),
              e.get(col));
        }
      }
    }
    return rounded.isEmpty()
        ? QueryResult.OK
        : "ok (column(s) "
            + rounded
            + " equal to DuckDB's only at the decimal scale the database returned)";
  }

  /**
   * True when {@code a} is a DECIMAL and {@code e}, rounded half-up to {@code a}'s scale, equals
   * it: e.g. an AVG returned with 6 decimals (0.050081) against DuckDB's double (0.0500813390...).
   */
  static boolean atReturnedScale(Object a, Object e) {
    if (a instanceof BigDecimal x && e instanceof Number y) {
      BigDecimal v =
          new BigDecimal(y.toString()).setScale(x.scale(), java.math.RoundingMode.HALF_UP);
      return v.compareTo(x) == 0;
    }
    return false;
  }

  static boolean same(Object a, Object e) {
    if (a == null || e == null) {
      return a == e;
    }
    if (a instanceof Number x && e instanceof Number y) {
      double u = x.doubleValue();
      double v = y.doubleValue();
      return Math.abs(u - v) <= TOLERANCE * Math.max(Math.abs(u), Math.abs(v));
    }
    return a.toString().trim().equals(e.toString().trim());
  }
}
