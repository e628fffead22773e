package io.cairn.tpch.pe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cairn.core.SuppressForbidden;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.TableOptions;
import io.cairn.core.error.CairnException;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.TableSpec;
import io.cairn.store.Stores;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code bin/cairn pe <command>}: HBase PerformanceEvaluation's tests over Cairn's KV SPI (no SQL).
 */
@Command(
    name = "pe",
    mixinStandardHelpOptions = true,
    versionProvider = io.cairn.tpch.cli.Version.class,
    description = {
      "The KV performance evaluation tool, after HBase's PerformanceEvaluation: runs one command"
          + " with --clients threads straight on the KV layer and prints, per client and"
          + " aggregated, the time, latency percentiles (us) and throughput.",
      "",
      "Client i works on rows [i*rows, (i+1)*rows); random commands pick rows in"
          + " [0, clients*rows). Keys are row numbers zero-padded to 26 digits (VARCHAR key),"
          + " values one VARBINARY column of --valueSize random bytes. Read commands first write"
          + " the table when it does not exist (not timed).",
      "",
      "Commands:",
      "  randomRead       random gets (--multiGet N: N keys per request, one scan)",
      "  randomWrite      puts of random rows",
      "  sequentialRead   gets of the client's rows in order",
      "  sequentialWrite  puts of the client's rows in order",
      "  scan             one scanner over the client's rows; an operation: one next()",
      "  scanRange10      scans of 10 rows from a random start key (rows/10 scans)",
      "  scanRange100     scans of 100 rows from a random start key (rows/100 scans)",
      "  scanRange1000    scans of 1000 rows from a random start key (rows/1000 scans)",
      "  filterScan       one scan of the client's rows, server-side filter matches none",
      ""
    },
    exitCodeListHeading = "Exit codes:%n",
    exitCodeList = {
      "0:the run completed and every read found what it should",
      "1:failure, or a read missed rows",
      "2:bad command line"
    })
public final class PeCommand implements Callable<Integer> {
  /** The commands, by their command-line names. */
  enum Kind {
    RANDOM_READ("randomRead"),
    RANDOM_WRITE("randomWrite"),
    SEQUENTIAL_READ("sequentialRead"),
    SEQUENTIAL_WRITE("sequentialWrite"),
    SCAN("scan"),
    SCAN_RANGE_10("scanRange10"),
    SCAN_RANGE_100("scanRange100"),
    SCAN_RANGE_1000("scanRange1000"),
    FILTER_SCAN("filterScan");

    final String cliName;

    Kind(String cliName) {
      this.cliName = cliName;
    }

    static List<String> names() {
      return Arrays.stream(values()).map(k -> k.cliName).toList();
    }

    PeWorkload newTest(PeWorkload.Config config, KvTable table, int client) {
      return switch (this) {
        case RANDOM_READ -> new PeWorkload.RandomReadTest(config, table, client);
        case RANDOM_WRITE -> new PeWorkload.RandomWriteTest(config, table, client);
        case SEQUENTIAL_READ -> new PeWorkload.SequentialReadTest(config, table, client);
        case SEQUENTIAL_WRITE -> new PeWorkload.SequentialWriteTest(config, table, client);
        case SCAN -> new PeWorkload.ScanTest(config, table, client);
        case SCAN_RANGE_10 -> new PeWorkload.RandomScanWithRangeTest(config, table, client, 10);
        case SCAN_RANGE_100 -> new PeWorkload.RandomScanWithRangeTest(config, table, client, 100);
        case SCAN_RANGE_1000 -> new PeWorkload.RandomScanWithRangeTest(config, table, client, 1000);
        case FILTER_SCAN -> new PeWorkload.FilterAllTest(config, table, client);
      };
    }
  }

  /** Converts a command name, naming the accepted ones when it is unknown. */
  static final class KindConverter implements CommandLine.ITypeConverter<Kind> {
    @Override
    public Kind convert(String value) {
      for (Kind k : Kind.values()) {
        if (k.cliName.equalsIgnoreCase(value)) {
          return k;
        }
      }
      throw new CommandLine.TypeConversionException(
          "expected one of " + Kind.names() + ", found [" + value + "]");
    }
  }

  /** Lists the command names in the usage text. */
  static final class KindCandidates implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Kind.names().iterator();
    }
  }

  private static final String MEM_PREFIX = "jdbc:cairn:mem:";
  private static final String FILE_PREFIX = "jdbc:cairn:file:";

  /** Keys splitting rows [0, totalRows) into {@code regions} equal regions (none for 0 or 1). */
  static List<Bytes> splitPoints(int regions, long totalRows) {
    List<Bytes> points = new ArrayList<>();
    for (int i = 1; i < regions; i++) {
      points.add(PeTable.key(totalRows * i / regions));
    }
    return points;
  }

  private static final double MB = 1024.0 * 1024.0;
  private static final int FILL_BATCH = 500;

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "<command>",
      converter = KindConverter.class,
      completionCandidates = KindCandidates.class,
      description = "One of: ${COMPLETION-CANDIDATES}.")
  Kind kind;

  @Option(
      names = "--rows",
      description = "Rows per client. Default: ${DEFAULT-VALUE}.",
      defaultValue = "1048576")
  long rows;

  @Option(
      names = "--valueSize",
      description = "Value size in bytes. Default: ${DEFAULT-VALUE}.",
      defaultValue = "1000")
  int valueSize;

  @Option(
      names = "--clients",
      description = "Client threads, each on its own slice of rows. Default: ${DEFAULT-VALUE}.",
      defaultValue = "1")
  int clients;

  @Option(
      names = "--multiGet",
      description =
          "randomRead: keys per request, read by one scan of N point ranges."
              + " Default: ${DEFAULT-VALUE} (one get per request).",
      defaultValue = "0")
  int multiGet;

  @Option(
      names = "--blockEncoding",
      description =
          "Data block encoding: NONE, PREFIX, FAST_DIFF or ROW_INDEX. Recorded; takes effect with"
              + " block files (the in-memory store ignores it). Default: ${DEFAULT-VALUE}.",
      defaultValue = "NONE")
  String blockEncoding;

  @Option(
      names = "--compress",
      description =
          "Block compression: NONE, LZ4, SNAPPY, ZSTD or GZIP. Recorded; takes effect with block"
              + " files (the in-memory store ignores it). Default: ${DEFAULT-VALUE}.",
      defaultValue = "NONE")
  String compress;

  @Option(
      names = "--presplit",
      description =
          "Regions to pre-split the table into. Recorded; takes effect when tables have several"
              + " regions. Default: ${DEFAULT-VALUE}.",
      defaultValue = "0")
  int presplit;

  @Option(
      names = "--url",
      description =
          "Store to run against: jdbc:cairn:mem:NAME (a new in-memory store in this JVM) or"
              + " jdbc:cairn:file:DIR (a durable store, opened by this JVM; the table is created"
              + " when missing and kept). Default: ${DEFAULT-VALUE}.",
      defaultValue = "jdbc:cairn:mem:pe")
  String url;

  @Option(
      names = "--table",
      description = "Table name. Default: ${DEFAULT-VALUE}.",
      defaultValue = "TestTable")
  String table;

  @Option(names = "--seed", description = "Random seed. Default: a new one, printed.")
  Long seed;

  @Option(
      names = "--sampleRate",
      description =
          "randomRead: read this fraction of the rows, in (0, 1] (as HBase PE)."
              + " Default: ${DEFAULT-VALUE}.",
      defaultValue = "1.0")
  double sampleRate;

  @Option(names = "--results", description = "Directory to write the results to as JSON.")
  Path results;

  @Override
  @SuppressForbidden(reason = "command-line output")
  public Integer call() throws Exception {
    return run(System.out, System.err);
  }

  private CommandLine.ParameterException invalid(String option, String expected, Object found) {
    return new CommandLine.ParameterException(
        spec.commandLine(),
        "Invalid value for option '"
            + option
            + "': expected "
            + expected
            + ", found ["
            + found
            + "]");
  }

  private String tableOption(String option, String name, String value) {
    try {
      return TableOptions.validate(Map.of(name, value)).get(name);
    } catch (CairnException e) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "Invalid value for option '"
              + option
              + "' (table option "
              + name
              + "): "
              + e.getMessage().substring(e.getMessage().indexOf(": ") + 2),
          e);
    }
  }

  private List<String> validate() {
    if (rows <= 0) {
      throw invalid("--rows", "a positive number of rows", rows);
    }
    if (valueSize <= 0) {
      throw invalid("--valueSize", "a positive number of bytes", valueSize);
    }
    if (clients <= 0 || clients > 1024) {
      throw invalid("--clients", "a number of threads in [1, 1024]", clients);
    }
    if (rows > Long.MAX_VALUE / clients / 2) {
      throw invalid("--rows", "fewer rows: rows * clients overflows", rows);
    }
    if (multiGet < 0) {
      throw invalid("--multiGet", "0 (off) or a positive number of keys", multiGet);
    }
    if (!(sampleRate > 0 && sampleRate <= 1)) {
      throw invalid("--sampleRate", "a fraction in (0, 1]", sampleRate);
    }
    if (presplit < 0) {
      throw invalid("--presplit", "0 (off) or a positive number of regions", presplit);
    }
    if (table.isBlank()) {
      throw invalid("--table", "a table name", table);
    }
    blockEncoding = tableOption("--blockEncoding", "DATA_BLOCK_ENCODING", blockEncoding);
    compress = tableOption("--compress", "COMPRESSION", compress);
    boolean memory = url.startsWith(MEM_PREFIX) && url.length() > MEM_PREFIX.length();
    boolean file = url.startsWith(FILE_PREFIX) && url.length() > FILE_PREFIX.length();
    if (!memory && !file) {
      throw invalid(
          "--url",
          "jdbc:cairn:mem:NAME or jdbc:cairn:file:DIR (pe runs the store in this JVM;"
              + " jdbc:cairn://host:port is not supported by pe yet)",
          url);
    }
    List<String> notes = new ArrayList<>();
    if (memory) {
      notes.add(
          "--blockEncoding "
              + blockEncoding
              + " --compress "
              + compress
              + " recorded; they take effect with block files: the in-memory store ignores them");
    }
    if (multiGet > 0 && kind != Kind.RANDOM_READ) {
      notes.add("--multiGet applies to randomRead only; ignored by " + kind.cliName);
    }
    if (sampleRate != 1.0 && kind != Kind.RANDOM_READ) {
      notes.add("--sampleRate applies to randomRead only; ignored by " + kind.cliName);
    }
    return notes;
  }

  private int run(PrintStream out, PrintStream err) throws Exception {
    List<String> notes = validate();
    long runSeed = seed != null ? seed : new SplittableRandom().nextLong();
    PeWorkload.Config config =
        new PeWorkload.Config(rows, valueSize, clients, multiGet, sampleRate, runSeed);
    for (String note : notes) {
      out.println("Note: " + note);
    }
    out.printf(
        Locale.ROOT,
        "pe %s: %d client(s) x %,d rows, valueSize %d, table %s, %s, seed %d%n",
        kind.cliName,
        clients,
        rows,
        valueSize,
        table,
        url,
        runSeed);
    try (KvStore store =
        url.startsWith(MEM_PREFIX)
            ? Stores.inMemory(url.substring(MEM_PREFIX.length()))
            : Stores.open(
                Path.of(url.substring(FILE_PREFIX.length())).toAbsolutePath().normalize(),
                Map.of())) {
      KvTable kv = store.table(table).orElse(null);
      if (kv == null) {
        kv =
            store.createTable(
                table,
                new TableSpec(
                    Map.of("DATA_BLOCK_ENCODING", blockEncoding, "COMPRESSION", compress),
                    splitPoints(presplit, rows * clients)));
        if (kind.newTest(config, kv, 0).reads()) {
          fill(out, err, kv, config);
        }
      }
      return measure(out, err, kv, config, notes);
    }
  }

  /** Writes every client's rows (untimed) so that read commands find them. */
  private void fill(PrintStream out, PrintStream err, KvTable kv, PeWorkload.Config config)
      throws Exception {
    out.printf(
        Locale.ROOT,
        "Table %s does not exist: writing %,d rows of %d bytes first with %d thread(s)"
            + " (not measured)%n",
        table,
        config.totalRows(),
        valueSize,
        clients);
    long start = System.nanoTime();
    try (ProgressBar bar =
        new ProgressBarBuilder()
            .setTaskName("write " + table)
            .setInitialMax(config.totalRows())
            .setStyle(ProgressBarStyle.ASCII)
            .setConsumer(new ConsoleProgressBarConsumer(err))
            .showSpeed()
            .build()) {
      runClients(
          clients,
          c -> {
            SplittableRandom random = new SplittableRandom(config.seed() ^ 0x5DEECE66DL ^ c);
            long first = c * config.rows();
            long end = first + config.rows();
            List<Mutation> batch = new ArrayList<>(FILL_BATCH);
            for (long row = first; row < end; row++) {
              byte[] value = new byte[valueSize];
              random.nextBytes(value);
              batch.add(PeTable.put(row, value));
              if (batch.size() == FILL_BATCH || row == end - 1) {
                kv.mutate(batch);
                bar.stepBy(batch.size());
                batch = new ArrayList<>(FILL_BATCH);
              }
            }
          });
    }
    out.printf(
        Locale.ROOT,
        "Wrote %,d rows in %.1f s%n",
        config.totalRows(),
        (System.nanoTime() - start) / 1e9);
  }

  /** Runs {@code body} for clients 0..n-1 on threads TestClient-i, started together. */
  private static void runClients(int n, LongConsumer body) throws Exception {
    AtomicInteger names = new AtomicInteger();
    ExecutorService pool =
        Executors.newFixedThreadPool(
            n,
            r -> {
              Thread t = new Thread(r, "TestClient-" + names.getAndIncrement());
              t.setDaemon(true);
              return t;
            });
    try {
      CountDownLatch ready = new CountDownLatch(n);
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int client = i;
        futures.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  ready.await();
                  body.accept(client);
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (ExecutionException e) {
          if (e.getCause() instanceof Exception cause) {
            throw cause;
          }
          throw e;
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private int measure(
      PrintStream out, PrintStream err, KvTable kv, PeWorkload.Config config, List<String> notes)
      throws Exception {
    PeWorkload[] tests = new PeWorkload[clients];
    Histogram[] histograms = new Histogram[clients];
    long[] elapsed = new long[clients];
    for (int c = 0; c < clients; c++) {
      tests[c] = kind.newTest(config, kv, c);
    }
    String testClass = tests[0].getClass().getName();
    String testName = tests[0].getClass().getSimpleName();
    long wallStart = System.nanoTime();
    runClients(
        clients,
        c -> {
          PeWorkload test = tests[(int) c];
          synchronized (out) {
            out.printf(
                Locale.ROOT,
                "[TestClient-%d] Start class %s at offset %d for %d rows%n",
                c,
                testClass,
                test.startRow,
                rows);
          }
          long t0 = System.nanoTime();
          histograms[(int) c] = test.run();
          elapsed[(int) c] = System.nanoTime() - t0;
        });
    long wall = System.nanoTime() - wallStart;

    List<PeResult.Client> perClient = new ArrayList<>();
    Histogram all = new Histogram(3);
    long totalOps = 0;
    long totalRows = 0;
    long totalFound = 0;
    long totalExpected = 0;
    List<String> failures = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      PeWorkload t = tests[c];
      PeResult.Client r =
          client("TestClient-" + c, t.startRow, histograms[c], t.rows, elapsed[c], t);
      perClient.add(r);
      printClient(out, testClass, testName, r);
      all.add(histograms[c]);
      totalOps += histograms[c].getTotalCount();
      totalRows += t.rows;
      totalFound += t.found;
      totalExpected += t.expected;
      String problem = t.verify();
      if (problem != null) {
        failures.add(problem);
      }
    }
    double wallMs = wall / 1e6;
    PeResult.Client aggregate =
        new PeResult.Client(
            "all",
            0,
            totalOps,
            totalRows,
            wallMs,
            totalOps / (wall / 1e9),
            mbPerSec(totalRows, wall),
            totalFound,
            totalExpected,
            PeResult.Latency.of(all));
    printSummary(out, testName, perClient, aggregate);
    if (tests[0].reads()) {
      out.printf(
          Locale.ROOT,
          "[%s] Rows found: %,d of %,d expected%s%n",
          testName,
          totalFound,
          totalExpected,
          kind == Kind.FILTER_SCAN ? " (filter matches nothing: 0 expected)" : "");
    }
    if (results != null) {
      writeJson(out, testClass, perClient, aggregate, notes, config.seed());
    }
    if (!failures.isEmpty()) {
      err.println("pe " + kind.cliName + ": reads missed rows: " + failures);
      return 1;
    }
    return 0;
  }

  private PeResult.Client client(
      String name, long offset, Histogram h, long rowCount, long nanos, PeWorkload t) {
    return new PeResult.Client(
        name,
        offset,
        h.getTotalCount(),
        rowCount,
        nanos / 1e6,
        h.getTotalCount() / (nanos / 1e9),
        mbPerSec(rowCount, nanos),
        t.found,
        t.expected,
        PeResult.Latency.of(h));
  }

  private double mbPerSec(long rowCount, long nanos) {
    return rowCount * (double) (PeTable.ROW_LENGTH + valueSize) / MB / (nanos / 1e9);
  }

  private void printClient(PrintStream out, String testClass, String testName, PeResult.Client r) {
    out.printf(
        Locale.ROOT,
        "[%s] Finished class %s in %d ms at offset %d for %d rows (%.2f MB/s)%n",
        r.name(),
        testClass,
        Math.round(r.elapsedMs()),
        r.offset(),
        r.rows(),
        r.mbPerSec());
    printLatency(out, "[" + r.name() + "] " + testName, r);
  }

  private static void printLatency(PrintStream out, String prefix, PeResult.Client r) {
    PeResult.Latency l = r.latencyUs();
    out.printf(
        Locale.ROOT,
        "%s latency (us), %,d measures: min=%.2f avg=%.2f p50=%.2f p75=%.2f p95=%.2f p99=%.2f"
            + " p99.9=%.2f p99.99=%.2f max=%.2f%n",
        prefix,
        l.count(),
        l.min(),
        l.avg(),
        l.p50(),
        l.p75(),
        l.p95(),
        l.p99(),
        l.p999(),
        l.p9999(),
        l.max());
    out.printf(
        Locale.ROOT,
        "%s throughput: %,.0f ops/s, %.2f MB/s%n",
        prefix,
        r.opsPerSec(),
        r.mbPerSec());
  }

  private void printSummary(
      PrintStream out, String testName, List<PeResult.Client> perClient, PeResult.Client agg) {
    List<Long> timings = perClient.stream().map(r -> Math.round(r.elapsedMs())).toList();
    double min = perClient.stream().mapToDouble(PeResult.Client::elapsedMs).min().orElse(0);
    double max = perClient.stream().mapToDouble(PeResult.Client::elapsedMs).max().orElse(0);
    double avg = perClient.stream().mapToDouble(PeResult.Client::elapsedMs).average().orElse(0);
    out.printf(Locale.ROOT, "[%s] Summary of timings (ms): %s%n", testName, timings);
    out.printf(
        Locale.ROOT,
        "[%s duration ]\tMin: %.0fms\tMax: %.0fms\tAvg: %.0fms%n",
        testName,
        min,
        max,
        avg);
    out.printf(
        Locale.ROOT,
        "[%s] Aggregate over %d client(s), %,d rows in %.0f ms wall clock%n",
        testName,
        perClient.size(),
        agg.rows(),
        agg.elapsedMs());
    printLatency(out, "[" + testName + " all clients]", agg);
  }

  private void writeJson(
      PrintStream out,
      String testClass,
      List<PeResult.Client> perClient,
      PeResult.Client aggregate,
      List<String> notes,
      long runSeed)
      throws java.io.IOException {
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("rows", rows);
    options.put("valueSize", valueSize);
    options.put("clients", clients);
    options.put("multiGet", multiGet);
    options.put("sampleRate", sampleRate);
    options.put("blockEncoding", blockEncoding);
    options.put("compress", compress);
    options.put("presplit", presplit);
    options.put("url", url);
    options.put("table", table);
    options.put("seed", runSeed);
    PeResult result = new PeResult(kind.cliName, testClass, options, perClient, aggregate, notes);
    Files.createDirectories(results);
    Path file =
        results.resolve(
            String.format(
                Locale.ROOT,
                "pe-%s-%dx%d-v%d-%d.json",
                kind.cliName,
                clients,
                rows,
                valueSize,
                System.currentTimeMillis()));
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), result);
    out.println("Results written to " + file);
  }
}
