package io.cairn.tpch.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cairn.tpch.CairnTool;
import io.cairn.tpch.report.JsonReport;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class TestLineitemCommandSmoke {
  @TempDir Path dir;

  @Test
  void runsTheWholeSuiteAndWritesJsonAndChart() throws Exception {
    int exit =
        CairnTool.run(
            "bench",
            "lineitem",
            "--sf",
            "0.001",
            "--url",
            "jdbc:cairn:mem:lineitem_smoke",
            "--runs",
            "1",
            "--warmups",
            "0",
            "--lookups",
            "200",
            "--memory-probe-mib",
            "16",
            "--explain",
            "--results",
            dir.toString());
    assertThat(exit).isZero();
    List<Path> json;
    try (Stream<Path> files = Files.list(dir)) {
      json = files.filter(p -> p.toString().endsWith(".json")).toList();
    }
    assertThat(json).hasSize(1);
    assertThat(
            json.get(0)
                .resolveSibling(json.get(0).getFileName().toString().replace(".json", ".png")))
        .exists();
    File file = json.get(0).toFile();
    JsonNode root = JsonReport.mapper().readTree(file);
    assertThat(root.path("machine").path("cores").asInt()).isPositive();
    Map<String, JsonNode> queries = new HashMap<>();
    for (JsonNode q : root.path("databases").get(0).path("queries")) {
      queries.put(q.path("name").asText(), q);
    }
    assertThat(queries.keySet())
        .contains("count", "orderby.first-row", "orderby.all-rows", "join-131072", "lookup")
        .as("the long joins run only when --only names them")
        .doesNotContain("join-262144", "join-1048576");
    assertThat(queries.get("q1").path("check").asText()).startsWith("ok");
    assertThat(queries.get("q6").path("check").asText()).startsWith("ok");
    // heap allocated per row over the measured runs, for the queries that read all of LINEITEM
    for (String name : List.of("count", "count-where", "q1", "q6")) {
      JsonNode x = queries.get(name).path("extra");
      assertThat(x.path("allocatedBytes").asLong()).as(name).isNotNegative();
      assertThat(x.path("allocatedBytesPerRow").isNumber()).as(name).isTrue();
      assertThat(x.path("allocatedBytesPerRow").asDouble()).as(name).isNotNegative();
    }
    assertThat(root.path("parameters").path("allocationMethod").asText()).isNotEmpty();
    // the process's peak resident set after the suite (Linux: VmHWM), at least the heap it used
    if (Files.exists(Path.of("/proc/self/status"))) {
      assertThat(root.path("databases").get(0).path("peakResidentBytesSoFar").asLong())
          .isGreaterThan(Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory());
    }
    // the first query in a fresh JVM: its own item, answered right, not among the per-core rates
    JsonNode fresh = queries.get("fresh-jvm");
    assertThat(fresh.path("status").asText()).as(fresh.toString()).isEqualTo("ok");
    assertThat(fresh.path("check").asText()).isEqualTo("ok");
    assertThat(fresh.path("runsNanos")).hasSize(1);
    assertThat(fresh.path("runsNanos").get(0).asLong()).isPositive();
    assertThat(fresh.path("extra").path("childUrl").asText()).isEqualTo(FreshJvm.MEMORY_URL);
    assertThat(fresh.path("extra").path("childQueryNanos").get(0).asLong()).isPositive();
    assertThat(fresh.path("extra").has("rowsPerSecond")).isFalse();
    assertThat(queries.get("index-build").path("status").asText()).isEqualTo("ok");
    assertThat(queries.get("index-build").path("sql").asText())
        .isEqualTo("CREATE LOCAL INDEX LI_EP ON LINEITEM (L_EXTENDEDPRICE)");
    assertThat(queries.get("index-build").path("runsNanos")).hasSize(1);
    assertThat(queries.get("eq-index").path("status").asText()).isEqualTo("ok");
    // the same count as eq-noindex, and the plan reads LI_EP
    assertThat(queries.get("eq-index").path("check").asText()).isEqualTo("ok");
    assertThat(queries.get("eq-index").path("extra").path("explain").toString()).contains("LI_EP");
    assertThat(queries.get("eq-noindex").path("extra").path("explain").toString())
        .doesNotContain("LI_EP");
    assertThat(queries.get("eq-noindex").path("status").asText()).isEqualTo("ok");
    assertThat(queries.get("eq-noindex").path("sql").asText())
        .startsWith("SELECT /*+ NO_INDEX */ COUNT(*) FROM LINEITEM WHERE L_EXTENDEDPRICE = ");
    JsonNode load = queries.get("load-indexes.0");
    assertThat(load.path("check").asText()).isEqualTo("ok");
    assertThat(load.path("rows").asLong()).isEqualTo(6_005);
    assertThat(load.path("extra").path("rowsWritten").asLong()).isEqualTo(6_005);
    assertThat(load.path("extra").path("rowsPerSecond").asDouble()).isPositive();
    assertThat(load.path("extra").path("method").asText()).startsWith("UPSERT batches");
    assertThat(load.path("extra").has("mbPerSecond")).isFalse();
    for (String name : List.of("load-indexes.1", "load-indexes.3")) {
      assertThat(queries.get(name).path("status").asText()).as(name).isEqualTo("ok");
      assertThat(queries.get(name).path("check").asText()).as(name).isEqualTo("ok");
      assertThat(queries.get(name).path("extra").path("timeVsNoIndex").asDouble()).isPositive();
    }
    assertThat(queries.get("count").path("status").asText()).isEqualTo("ok");
    assertThat(queries.get("count").path("stats").path("medianMs").asDouble()).isPositive();
    assertThat(queries.get("lookup").path("check").asText()).isEqualTo("ok");

    // SERIAL variants, per-core rates, speedups over SERIAL, plans and the memory probe.
    assertThat(queries.keySet())
        .contains("q1-serial", "q6-serial", "orderby-serial.first-row", "orderby-serial.all-rows");
    assertThat(queries.get("q1-serial").path("check").asText()).startsWith("ok");
    assertThat(queries.get("q6-serial").path("check").asText()).startsWith("ok");
    assertThat(queries.get("q1-serial").path("sql").asText()).startsWith("SELECT /*+ SERIAL */");
    int cores = root.path("machine").path("cores").asInt();
    assertThat(queries.get("count").path("extra").path("cores").asInt()).isEqualTo(cores);
    assertThat(queries.get("count-serial").path("extra").path("cores").asInt()).isEqualTo(1);
    JsonNode countSerial = queries.get("count-serial").path("extra");
    assertThat(countSerial.path("mbPerSecondPerCore").asDouble())
        .isEqualTo(countSerial.path("mbPerSecond").asDouble());
    assertThat(queries.get("q6").path("extra").path("mbPerSecondPerCore").asDouble()).isPositive();
    JsonNode memory = root.path("memoryBandwidth");
    assertThat(memory.path("bytes").asLong()).isEqualTo(16L << 20);
    assertThat(memory.path("perCoreMbPerSecond").asDouble()).isPositive().isFinite();
    assertThat(memory.path("singleThreadMbPerSecond").asDouble()).isPositive().isFinite();
    assertThat(queries.get("q6").path("extra").path("memoryBandwidthShare").asDouble())
        .isPositive();
    List<String> pairs = new ArrayList<>();
    for (JsonNode s : root.path("databases").get(0).path("speedupOverSerial")) {
      pairs.add(s.path("query").asText() + "/" + s.path("serialQuery").asText());
      assertThat(s.path("speedup").asDouble()).isPositive().isFinite();
    }
    assertThat(pairs)
        .containsExactly(
            "count/count-serial",
            "count-where/count-where-serial",
            "q1/q1-serial",
            "q6/q6-serial",
            "orderby.first-row/orderby-serial.first-row");
    assertThat(queries.get("count-serial").path("extra").path("explain").get(0).asText())
        .doesNotStartWith("EXPLAIN failed");
    assertThat(queries.get("count-serial").path("extra").path("explain").toString())
        .contains("LINEITEM");
    assertThat(queries.get("lookup").path("extra").path("explain").size()).isPositive();
    for (JsonNode q : queries.values()) {
      JsonNode x = q.path("extra");
      if (q.path("status").asText().equals("ok") && x.has("mbPerSecond")) {
        assertThat(x.path("cpuNanos").asLong()).as(q.path("name").asText()).isNotNegative();
      }
      if (x.has("busyCores")) {
        assertThat(x.path("busyCores").asDouble()).isPositive().isFinite();
        assertThat(x.path("mbPerCpuSecond").asDouble()).isPositive().isFinite();
      }
    }
  }

  @Test
  void fileStoreIsLoadedOnceAndRunsWithAParallelism() throws Exception {
    Path store = dir.resolve("store");
    JsonNode first = runOnFileStore(store, dir.resolve("first"));
    JsonNode second = runOnFileStore(store, dir.resolve("second"));

    JsonNode load = first.path("databases").get(0).path("load");
    assertThat(load.path("loadedByThisRun").asBoolean()).isTrue();
    assertThat(load.path("flushAndCompactSeconds").asDouble()).isNotNegative();

    JsonNode db = second.path("databases").get(0);
    assertThat(db.path("load").path("loadedByThisRun").asBoolean()).isFalse();
    assertThat(db.path("load").has("flushAndCompactSeconds")).isFalse();
    assertThat(second.path("memoryBandwidth").isNull()).isTrue();
    assertThat(second.path("parameters").path("parallelism").asInt()).isEqualTo(2);
    assertThat(db.path("defaultCores").asInt())
        .isEqualTo(Math.min(2, Runtime.getRuntime().availableProcessors()));
    Map<String, JsonNode> queries = new HashMap<>();
    for (JsonNode q : db.path("queries")) {
      queries.put(q.path("name").asText(), q);
    }
    assertThat(queries.keySet())
        .containsExactlyInAnyOrder("count", "count-nocache", "count-serial", "q6", "q6-serial");
    assertThat(queries.get("q6-serial").path("check").asText()).startsWith("ok");
    assertThat(queries.get("count-nocache").path("extra").path("explain").toString())
        .contains("NO_CACHE");
    assertThat(db.path("speedupOverSerial")).hasSize(2);
  }

  /** One run of a few queries on the file store, with --parallelism 2; its JSON report. */
  private static JsonNode runOnFileStore(Path store, Path results) throws Exception {
    int exit =
        CairnTool.run(
            "bench",
            "lineitem",
            "--sf",
            "0.001",
            "--url",
            "jdbc:cairn:file:" + store,
            "--only",
            "count,count-nocache,count-serial,q6,q6-serial",
            "--parallelism",
            "2",
            "--no-memory-probe",
            "--runs",
            "3",
            "--warmups",
            "0",
            "--results",
            results.toString());
    assertThat(exit).isZero();
    List<Path> json;
    try (Stream<Path> files = Files.list(results)) {
      json = files.filter(f -> f.toString().endsWith(".json")).toList();
    }
    assertThat(json).hasSize(1);
    return JsonReport.mapper().readTree(json.get(0).toFile());
  }

  @Test
  void indexItemsRunInOrderAndCheckTheirAnswers() throws Exception {
    JsonNode db =
        runOnly(
            "jdbc:duckdb:memory:lineitem_index_smoke",
            "eq-noindex,index-build,eq-index,load-indexes");
    List<String> names = new ArrayList<>();
    Map<String, JsonNode> queries = new HashMap<>();
    for (JsonNode q : db.path("queries")) {
      names.add(q.path("name").asText());
      queries.put(q.path("name").asText(), q);
    }
    assertThat(names)
        .containsExactly(
            "eq-noindex",
            "index-build",
            "eq-index",
            "load-indexes.0",
            "load-indexes.1",
            "load-indexes.3");
    assertThat(queries.get("index-build").path("sql").asText())
        .isEqualTo("CREATE INDEX LI_EP ON LINEITEM (L_EXTENDEDPRICE)");
    assertThat(queries.get("index-build").path("runsNanos")).hasSize(1);
    assertThat(queries.get("eq-index").path("runsNanos")).hasSize(2);
    assertThat(queries.get("eq-index").path("check").asText()).isEqualTo("ok");
    assertThat(queries.get("eq-index").path("rows").asLong()).isEqualTo(1);
    for (int count : new int[] {0, 1, 3}) {
      JsonNode load = queries.get("load-indexes." + count);
      assertThat(load.path("status").asText()).as("load-indexes.%d", count).isEqualTo("ok");
      assertThat(load.path("check").asText()).isEqualTo("ok");
      assertThat(load.path("rows").asLong()).isEqualTo(1_500);
      assertThat(load.path("runsNanos")).hasSize(2);
      assertThat(load.path("extra").path("indexes").asInt()).isEqualTo(count);
      assertThat(load.path("extra").path("indexColumns")).hasSize(count);
      assertThat(load.path("extra").path("method").asText()).isEqualTo("DuckDB Appender");
    }
    assertThat(queries.get("load-indexes.0").path("extra").has("timeVsNoIndex")).isFalse();
    assertThat(queries.get("load-indexes.3").path("extra").path("timeVsNoIndex").asDouble())
        .isPositive();
    assertThat(queries.get("load-indexes.3").path("sql").asText())
        .contains("CREATE INDEX LIL_PS ON LINEITEM_LOAD (L_PARTKEY, L_SUPPKEY)");
    // the suite leaves the table as it found it: no index, no LINEITEM_LOAD
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:memory:lineitem_index_smoke");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT COUNT(*) FROM duckdb_indexes() UNION ALL SELECT COUNT(*) FROM"
                    + " duckdb_tables() WHERE table_name = 'LINEITEM_LOAD'")) {
      while (rs.next()) {
        assertThat(rs.getLong(1)).isZero();
      }
    }
  }

  /**
   * A fast query warms up past --warmups until --warmup-ms passed (the JSON says how many runs);
   * --warmups 0 means none at all, whatever --warmup-ms says.
   */
  @Test
  void fastQueriesWarmUpForWarmupMs() throws Exception {
    JsonNode db =
        runOnly(
            "jdbc:cairn:mem:lineitem_warmup_smoke",
            "count",
            "--warmups",
            "1",
            "--warmup-ms",
            "300");
    JsonNode count = db.path("queries").get(0);
    assertThat(count.path("name").asText()).isEqualTo("count");
    assertThat(count.path("extra").path("warmups").asInt()).isGreaterThan(1);
    JsonNode none =
        runOnly("jdbc:cairn:mem:lineitem_nowarmup_smoke", "count", "--warmup-ms", "300");
    assertThat(none.path("queries").get(0).path("extra").has("warmups")).isFalse();
  }

  /**
   * The lookups warm up past --warmups until --lookup-warmup-ms passed (the JSON says how many
   * passes); --warmups 0 means none at all.
   */
  @Test
  void lookupsWarmUpForLookupWarmupMs() throws Exception {
    JsonNode db =
        runOnly(
            "jdbc:cairn:mem:lineitem_lookup_warmup_smoke",
            "lookup",
            "--warmups",
            "1",
            "--lookups",
            "50",
            "--lookup-warmup-ms",
            "300");
    JsonNode lookup = db.path("queries").get(0);
    assertThat(lookup.path("name").asText()).isEqualTo("lookup");
    assertThat(lookup.path("status").asText()).isEqualTo("ok");
    assertThat(lookup.path("extra").path("warmupPasses").asInt()).isGreaterThan(1);
    JsonNode none =
        runOnly(
            "jdbc:cairn:mem:lineitem_lookup_nowarmup_smoke",
            "lookup",
            "--lookups",
            "50",
            "--lookup-warmup-ms",
            "300");
    assertThat(none.path("queries").get(0).path("extra").path("warmupPasses").asInt()).isZero();
  }

  @Test
  void eqIndexAloneBuildsTheIndexUnreported() throws Exception {
    JsonNode db = runOnly("jdbc:duckdb:memory:lineitem_eq_index_smoke", "eq-index");
    assertThat(db.path("queries")).hasSize(1);
    JsonNode eq = db.path("queries").get(0);
    assertThat(eq.path("name").asText()).isEqualTo("eq-index");
    assertThat(eq.path("status").asText()).isEqualTo("ok");
    assertThat(eq.path("check").asText()).isEqualTo("unchecked (eq-noindex not run)");
  }

  /**
   * One run of the named items on {@code url} (SF 0.001, 2 runs, 1,500 rows for load-indexes), the
   * database's part of the JSON report; the first connection keeps an in-memory database open for
   * the caller's checks.
   */
  private JsonNode runOnly(String url, String only, String... more) throws Exception {
    Path results = dir.resolve(only.replace(',', '_') + "-" + Integer.toHexString(url.hashCode()));
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "bench",
            "lineitem",
            "--sf",
            "0.001",
            "--url",
            url,
            "--only",
            only,
            "--index-load-rows",
            "1500",
            "--no-memory-probe",
            "--runs",
            "2",
            "--results",
            results.toString()));
    if (!List.of(more).contains("--warmups")) {
      args.addAll(List.of("--warmups", "0"));
    }
    args.addAll(List.of(more));
    keeper = DriverManager.getConnection(url);
    int exit = CairnTool.run(args.toArray(String[]::new));
    assertThat(exit).isZero();
    List<Path> json;
    try (Stream<Path> files = Files.list(results)) {
      json = files.filter(f -> f.toString().endsWith(".json")).toList();
    }
    assertThat(json).hasSize(1);
    return JsonReport.mapper().readTree(json.get(0).toFile()).path("databases").get(0);
  }

  /** Keeps the in-memory database of {@link #runOnly} for the test's own checks. */
  private Connection keeper;

  @AfterEach
  void closeKeeper() throws Exception {
    if (keeper != null) {
      keeper.close();
    }
  }

  @Test
  void badIndexLoadRowsIsAUsageError() {
    assertThat(CairnTool.run("bench", "lineitem", "--index-load-rows", "0")).isEqualTo(2);
  }

  @Test
  void theIndexNamesAreAcceptedByOnly() {
    CommandLine line = new CommandLine(new LineitemCommand());
    line.parseArgs("--only", "index-build,eq-index,eq-noindex,load-indexes");
    assertThat(LineitemSuite.NAMES)
        .containsSubsequence("eq-noindex", "index-build", "eq-index")
        .endsWith("load-indexes", FreshJvm.NAME)
        .doesNotContain("index");
    assertThat(line.getUsageMessage())
        .contains("eq-noindex, index-build, eq-index")
        .contains("load-indexes", "--index-load-rows");
    assertThat(CairnTool.run("bench", "lineitem", "--only", "index")).isEqualTo(2);
  }

  @Test
  void badParallelismIsAUsageError() {
    assertThat(CairnTool.run("bench", "lineitem", "--parallelism", "0")).isEqualTo(2);
  }

  @Test
  void unknownQueryNameIsAUsageError() {
    assertThat(CairnTool.run("bench", "lineitem", "--only", "count,nope")).isEqualTo(2);
  }
}
