package io.cairn.hbase;

import static io.cairn.hbase.HBaseKvStore.FAMILY;
import static io.cairn.hbase.HBaseKvStore.QUALIFIER;

import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.Durability;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableStatistics;
import io.cairn.protocol.wire.WireMessages;
import io.cairn.store.coprocessor.ProgramScanner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Row;

/** A Cairn table in HBase ({@link HBaseKvStore}): rows are HBase rows of one cell. Thread-safe. */
final class HBaseKvTable implements KvTable {
  private final HBaseKvStore store;
  private final String name;
  private final TableName table;
  private volatile boolean dropped;
  private final HBaseStatistics statistics;
  private final HBaseIndexStatistics indexStatistics;

  /** The local indexes the table's writes maintain ({@link #defineIndexes}); null: none. */
  private volatile HBaseIndexes indexes;

  /** Whether {@link #defineIndexes} was called (the first call reads the catalog's indexes). */
  private boolean defined;

  HBaseKvTable(HBaseKvStore store, String name, TableName table) {
    this.store = store;
    this.name = name;
    this.table = table;
    this.statistics = new HBaseStatistics(store, name, table);
    this.indexStatistics = new HBaseIndexStatistics(store, name);
  }

  /**
   * UPDATE STATISTICS: every region counts its rows in its region server and cuts them into chunks
   * at guide posts every GUIDE_POSTS_WIDTH bytes of rows (the table's option, else {@value
   * HBaseStatistics#DEFAULT_GUIDE_POST_WIDTH}), and the chunks are kept in HBase ({@link
   * HBaseStatistics}).
   */
  @Override
  public TableStatistics updateStatistics() {
    checkUsable();
    String option = options().get("GUIDE_POSTS_WIDTH");
    long width = option == null ? HBaseStatistics.DEFAULT_GUIDE_POST_WIDTH : Long.parseLong(option);
    // the indexes' counts run in their region servers while the table's does
    List<HBaseIndexStatistics.Counting> counting = new ArrayList<>();
    HBaseIndexes maintained = indexes;
    if (maintained != null) {
      for (Map.Entry<Integer, TableName> index : maintained.tables().entrySet()) {
        counting.add(
            indexStatistics.start(
                index.getKey(), index.getValue(), maintained.definition(index.getKey()), width));
      }
    }
    TableStatistics collected = statistics.collect(regions(), width);
    counting.forEach(indexStatistics::finish);
    return collected;
  }

  /**
   * The statistics of local index {@code indexId} as the last UPDATE STATISTICS of the table (of
   * any client) collected them ({@link HBaseIndexStatistics}); empty before, or for an index the
   * table does not have.
   */
  @Override
  public java.util.Optional<io.cairn.kv.IndexStatistics> indexStatistics(int indexId) {
    checkUsable();
    HBaseIndexes maintained = indexes;
    if (maintained == null || !maintained.ids().contains(indexId)) {
      return java.util.Optional.empty();
    }
    return indexStatistics.of(indexId);
  }

  /** Adds index {@code indexId}'s rows of SYSTEM.INDEX_STATS ({@link HBaseIndexStatistics}). */
  void addIndexStatisticsRows(
      String schema, String tableName, String indexName, int indexId, List<Object[]> out) {
    HBaseIndexes maintained = indexes;
    if (maintained != null && maintained.ids().contains(indexId)) {
      indexStatistics.addRows(schema, tableName, indexName, indexId, out);
    }
  }

  /**
   * The chunks the last UPDATE STATISTICS collected; a region split or merged since (or before the
   * first), one chunk of unknown rows.
   */
  @Override
  public TableStatistics statistics() {
    checkUsable();
    return statistics.of(regions());
  }

  /**
   * The rows UPDATE STATISTICS counted (its regions' counts, summed; no request to HBase after the
   * first call); before the first, an estimate from the regions' bytes and a sample of rows.
   */
  @Override
  public long approximateRowCount() {
    return statistics.rows(this::regions);
  }

  @Override
  public String name() {
    return name;
  }

  /**
   * Applies the batch; atomic for one row only (HBase's unit). A batch of several rows is applied
   * row by row (a failure may leave some rows written). MUST_NOT_EXIST and VALUE_IS are HBase's
   * check-and-mutate; UNCHANGED_SINCE is NOT_SUPPORTED (no read points). Later mutations of a row
   * in the batch win, as in order.
   *
   * @throws ConditionFailedException when a condition fails: that row is not written
   */
  @Override
  public void mutate(List<Mutation> batch, Durability durability) {
    checkUsable();
    if (batch.isEmpty()) {
      return;
    }
    Map<Bytes, Mutation> last = new LinkedHashMap<>();
    int conditional = -1;
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.get(i);
      switch (m.condition().kind()) {
        case NONE -> {}
        case MUST_NOT_EXIST, VALUE_IS -> conditional = conditional < 0 ? i : conditional;
        case UNCHANGED_SINCE ->
            throw new CairnException(
                ErrorCode.NOT_SUPPORTED,
                "Table [" + name + "]: the HBase store has no read points, so no UNCHANGED_SINCE");
      }
      last.remove(m.key()); // keep the order of the last mutation of each row
      last.put(m.key(), m);
    }
    AsyncTable<?> t = store.connection().getTable(table);
    org.apache.hadoop.hbase.client.Durability d = durability(durability);
    HBaseIndexes maintained = indexes;
    HBaseIndexes.Write write = maintained == null ? null : maintained.prepare(last.values(), d);
    if (conditional >= 0) {
      mutateRowByRow(t, batch, last, d, write);
      return;
    }
    List<Row> rows = new ArrayList<>(last.size());
    for (Mutation m : last.values()) {
      rows.add(
          fenced(m instanceof Mutation.Put p ? put(p, d, write) : tombstone(m.key(), d), write));
    }
    inWaves(rows, t::batchAll);
    if (write != null) {
      write.finish(last.keySet(), List.of());
    }
  }

  /**
   * Sends {@code items} in waves of {@value #WAVE_RPCS} calls of at most {@value #RPC_ROWS} items
   * each, and returns the calls' answers in order: one call of 200,000 rows made the region server
   * hold them all at once (HBase warns past 5,000) and ran it out of heap.
   */
  <I, A> List<A> inWaves(
      List<I> items, java.util.function.Function<List<I>, CompletableFuture<A>> call) {
    List<A> answers = new ArrayList<>();
    for (int from = 0; from < items.size(); from += RPC_ROWS * WAVE_RPCS) {
      List<CompletableFuture<A>> wave = new ArrayList<>();
      for (int at = from;
          at < Math.min(items.size(), from + RPC_ROWS * WAVE_RPCS);
          at += RPC_ROWS) {
        wave.add(call.apply(items.subList(at, Math.min(items.size(), at + RPC_ROWS))));
      }
      store.await(CompletableFuture.allOf(wave.toArray(CompletableFuture[]::new)), name);
      for (CompletableFuture<A> answer : wave) {
        answers.add(answer.join());
      }
    }
    return answers;
  }

  /**
   * One multi-get of the rows' cells: what a read-modify-write compares its rows with and writes on
   * condition of ({@link Mutation.Condition#valueIs}). Tombstones are no rows.
   */
  @Override
  public Map<Bytes, Bytes> latestValues(List<Bytes> keys) {
    checkUsable();
    List<org.apache.hadoop.hbase.client.Get> gets = new ArrayList<>(keys.size());
    for (Bytes key : keys) {
      gets.add(
          new org.apache.hadoop.hbase.client.Get(key.peekArray()).addColumn(FAMILY, QUALIFIER));
    }
    List<org.apache.hadoop.hbase.client.Result> results =
        store.await(store.connection().getTable(table).getAll(gets), name);
    Map<Bytes, Bytes> values = new HashMap<>();
    for (int i = 0; i < results.size(); i++) {
      byte[] value = results.get(i).getValue(FAMILY, QUALIFIER);
      if (value != null && value.length > 0) {
        values.put(keys.get(i), Bytes.wrap(value));
      }
    }
    return values;
  }

  /** The most rows of a batch that go to HBase in one call. */
  /**
   * How long a client that changes a table's indexes lets writers of the old set and of the new one
   * pass before only the new one's may: twice the interval after which the other clients' next
   * statement reads the catalog again, so that a client writing on reads the change and switches
   * too rather than being refused (55000).
   */
  static final long SWITCH_MILLIS = 2 * HBaseKvStore.CATALOG_REFRESH_MILLIS;

  static final int RPC_ROWS = 5_000;

  /** How many calls of a large batch are in flight at once. */
  static final int WAVE_RPCS = 4;

  /**
   * A batch with conditions: each row's last mutation is written on the condition of the row's
   * first conditional mutation in the batch (HBase's check-and-mutate, atomic per row), all rows at
   * once: MUST_NOT_EXIST, and VALUE_IS of no row, hold when the row's cell is missing or a
   * tombstone (HBase takes an empty value for none); VALUE_IS of a value when the cell holds
   * exactly those bytes. HBase has no atomicity across rows: when a condition fails, the other rows
   * are written all the same, and the failure says so ({@link
   * ConditionFailedException#othersWritten}: some row other than the failing ones was written, by a
   * put without condition or one whose condition held) for the first failing mutation of the batch.
   */
  private void mutateRowByRow(
      AsyncTable<?> t,
      List<Mutation> batch,
      Map<Bytes, Mutation> last,
      org.apache.hadoop.hbase.client.Durability d,
      HBaseIndexes.Write write) {
    Map<Bytes, Integer> firstCondition = new HashMap<>();
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.get(i);
      if (m.condition().kind() != Mutation.Condition.Kind.NONE) {
        firstCondition.putIfAbsent(m.key(), i);
      }
    }
    List<CheckAndMutate> checks = new ArrayList<>();
    List<Integer> checked = new ArrayList<>();
    // a check that holds writes its row, but for MUST_NOT_EXIST and then a tombstone (no row)
    List<Boolean> checkedWrites = new ArrayList<>();
    List<Bytes> checkedKeys = new ArrayList<>();
    List<Row> plain = new ArrayList<>();
    java.util.Set<Bytes> written = new java.util.HashSet<>();
    for (Mutation m : last.values()) {
      Put row =
          fenced(m instanceof Mutation.Put p ? put(p, d, write) : tombstone(m.key(), d), write);
      Integer condition = firstCondition.get(m.key());
      if (condition == null) {
        plain.add(row);
        written.add(m.key());
        continue;
      }
      checkedKeys.add(m.key());
      Bytes expected = batch.get(condition).condition().expected();
      CheckAndMutate.Builder check = CheckAndMutate.newBuilder(m.key().peekArray());
      check =
          expected == null
              ? check.ifNotExists(FAMILY, QUALIFIER)
              : check.ifEquals(FAMILY, QUALIFIER, expected.peekArray());
      // a row inserted and then deleted in the batch: the check, then a tombstone (nothing seen)
      checks.add(check.build(row));
      checked.add(condition);
      checkedWrites.add(m instanceof Mutation.Put || expected != null);
    }
    inWaves(plain, t::batchAll);
    List<CheckAndMutateResult> results = new ArrayList<>(checks.size());
    inWaves(checks, t::checkAndMutateAll).forEach(results::addAll);
    int failed = -1;
    boolean othersWritten = !plain.isEmpty();
    List<Bytes> refused = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      if (results.get(i).isSuccess()) {
        othersWritten |= checkedWrites.get(i);
        written.add(checkedKeys.get(i));
      } else {
        refused.add(checkedKeys.get(i));
        if (failed < 0 || checked.get(i) < failed) {
          failed = checked.get(i);
        }
      }
    }
    if (write != null) {
      write.finish(written, refused);
    }
    if (failed >= 0) {
      Mutation m = batch.get(failed);
      ConditionFailedException e =
          new ConditionFailedException(0, failed, m.key(), m.condition().kind());
      throw othersWritten ? e.withOthersWritten(written) : e;
    }
  }

  /**
   * The HBase write of {@code p}, with the row's new token when the table has indexes, and the
   * indexes it keeps for the region servers' check ({@link
   * io.cairn.hbase.server.WireNames#INDEXES_ATTRIBUTE}).
   */
  private static Put put(
      Mutation.Put p, org.apache.hadoop.hbase.client.Durability d, HBaseIndexes.Write write) {
    Put put =
        new Put(p.key().peekArray())
            .addColumn(FAMILY, QUALIFIER, p.value().peekArray())
            .setDurability(d);
    return write == null ? put : write.token(p.key(), put);
  }

  /**
   * {@code row} with the ids of the indexes {@code write} keeps (none: null, no attribute), which
   * the region servers compare with the table's index fence ({@link
   * io.cairn.hbase.server.WireNames#INDEXES_ATTRIBUTE}).
   */
  private static Put fenced(Put row, HBaseIndexes.Write write) {
    return write == null
        ? row
        : (Put) row.setAttribute(io.cairn.hbase.server.WireNames.INDEXES_ATTRIBUTE, write.fence());
  }

  /**
   * A delete of a row: a tombstone, the row's cell with an empty value (a Cairn row value is never
   * empty), which every read skips and the region observer drops when a compaction rewrites all of
   * a store's files. Not an HBase delete marker: by HBase's default a marker hides every put of its
   * millisecond, even one made after it, and the new version behaviour that fixes that made every
   * scan 2.2x slower (docs/hbase.md); a later put of the row, even in the same millisecond, is
   * newer than the tombstone (HBase orders writes of one cell and timestamp by their sequence ids).
   */
  static Put tombstone(Bytes key, org.apache.hadoop.hbase.client.Durability d) {
    return new Put(key.peekArray()).addColumn(FAMILY, QUALIFIER, new byte[0]).setDurability(d);
  }

  /** HBase's durability for Cairn's (null: the table's default). */
  static org.apache.hadoop.hbase.client.Durability durability(Durability d) {
    if (d == null) {
      return org.apache.hadoop.hbase.client.Durability.USE_DEFAULT;
    }
    return switch (d) {
      case SKIP -> org.apache.hadoop.hbase.client.Durability.SKIP_WAL;
      case ASYNC -> org.apache.hadoop.hbase.client.Durability.ASYNC_WAL;
      case SYNC -> org.apache.hadoop.hbase.client.Durability.SYNC_WAL;
      case FSYNC -> org.apache.hadoop.hbase.client.Durability.FSYNC_WAL;
    };
  }

  /**
   * Runs the scan's program in the region servers when their results join by concatenation ({@link
   * PushedScan#pushable}), else in this JVM over the rows of its ranges read from HBase; latest
   * values only (no read points). A read of a local index runs in this JVM over the index's valid
   * entries or their rows ({@link IndexLookups}).
   */
  @Override
  public RowScanner scan(ScanRequest request) {
    checkUsable();
    if (request.readPoint() != ScanRequest.LATEST) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Table ["
              + name
              + "]: the HBase store reads the latest values only, found read point ["
              + request.readPoint()
              + "]");
    }
    if (request.index() != null) {
      HBaseIndexes read = indexes;
      if (read == null) {
        throw new CairnException(
            ErrorCode.INDEX_NOT_FOUND,
            "Table [" + name + "] has no local index of id [" + request.index().indexId() + "]");
      }
      return new ProgramScanner(
          read.read(request.ranges(), request.index()),
          request.program(),
          request.context(),
          AggregationMemory.DEFAULT_MAX_BYTES,
          request.memory(),
          request.index().grouped(),
          request.hashCaches());
    }
    // a probe goes along only when the rest of the program runs in the region servers
    boolean pushable = PushedScan.pushable(request);
    byte[] probeTable = pushable ? PushedScan.probeTable(request) : null;
    if (pushable && (request.program().probe().isEmpty() || probeTable != null)) {
      ScanRequest regions =
          new ScanRequest(
              request.ranges(),
              PushedScan.regionProgram(request.program()),
              request.context(),
              request.cacheBlocks(),
              request.readPoint(),
              request.memory(),
              request.index(),
              request.hashCaches());
      return new PushedScan(
          name,
          request,
          WireMessages.toProto(name, regions).toByteArray(),
          probeTable,
          scan -> store.connection().getTable(table).getScanner(scan));
    }
    HBaseRowCursor rows =
        new HBaseRowCursor(
            name, request.ranges(), scan -> store.connection().getTable(table).getScanner(scan));
    return new ProgramScanner(
        rows,
        request.program(),
        request.context(),
        AggregationMemory.DEFAULT_MAX_BYTES,
        request.memory(),
        false,
        request.hashCaches());
  }

  /** An increment of the table's counter in the namespace's id table (atomic in HBase). */
  @Override
  public long allocateIds(long count) {
    checkUsable();
    if (count <= 0) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT, "Id count: expected > 0, found [" + count + "]");
    }
    byte[] row = org.apache.hadoop.hbase.util.Bytes.toBytes(name);
    org.apache.hadoop.hbase.client.Result result =
        store.await(
            store
                .connection()
                .getTable(store.idsTable())
                .increment(new Increment(row).addColumn(FAMILY, QUALIFIER, count)),
            name);
    long after = org.apache.hadoop.hbase.util.Bytes.toLong(result.getValue(FAMILY, QUALIFIER));
    return after - count + 1;
  }

  /**
   * How long {@link #regions()} waits for the region servers' sizes of their regions: a server that
   * has not answered by then (crashed and not yet replaced in hbase:meta, restarting, unreachable:
   * HBase's client retries it for about two minutes) leaves its regions' sizes unknown (0), as for
   * a region not yet assigned.
   */
  static final long REGION_METRICS_WAIT_MILLIS = 2_000;

  /**
   * HBase's regions of the table, in key order, with their sizes as the region servers report (best
   * effort: 0 when a server does not answer within {@link #REGION_METRICS_WAIT_MILLIS}).
   */
  @Override
  public List<RegionInfo> regions() {
    checkUsable();
    List<HRegionLocation> locations =
        store.await(store.connection().getRegionLocator(table).getAllRegionLocations(), name);
    // one call per server, all at once; the sizes are estimates: a statement does not wait on them
    Map<ServerName, CompletableFuture<List<RegionMetrics>>> byServer = new HashMap<>();
    for (HRegionLocation location : locations) {
      if (location.getServerName() != null) {
        byServer.computeIfAbsent(
            location.getServerName(),
            server ->
                store
                    .connection()
                    .getAdmin()
                    .getRegionMetrics(server, table)
                    .exceptionally(e -> List.of())
                    .completeOnTimeout(
                        List.of(), REGION_METRICS_WAIT_MILLIS, TimeUnit.MILLISECONDS));
      }
    }
    List<RegionInfo> out = new ArrayList<>(locations.size());
    for (HRegionLocation location : locations) {
      org.apache.hadoop.hbase.client.RegionInfo region = location.getRegion();
      long fileBytes = 0;
      long memstoreBytes = 0;
      int files = 0;
      List<RegionMetrics> reported =
          location.getServerName() == null
              ? List.of() // not assigned yet (a daughter of a split): sizes unknown, 0
              : byServer.get(location.getServerName()).join();
      for (RegionMetrics metrics : reported) {
        if (java.util.Arrays.equals(metrics.getRegionName(), region.getRegionName())) {
          fileBytes = (long) metrics.getStoreFileSize().get(org.apache.hadoop.hbase.Size.Unit.BYTE);
          memstoreBytes =
              (long) metrics.getMemStoreSize().get(org.apache.hadoop.hbase.Size.Unit.BYTE);
          files = metrics.getStoreFileCount();
        }
      }
      out.add(
          new RegionInfo(
              HBaseNames.regionId(region),
              new KeyRange(Bytes.wrap(region.getStartKey()), Bytes.wrap(region.getEndKey())),
              fileBytes,
              memstoreBytes,
              files));
    }
    out.sort((a, b) -> a.range().start().compareTo(b.range().start()));
    return out;
  }

  /** The options the table was created or altered with, as kept in its HBase descriptor. */
  @Override
  public Map<String, String> options() {
    checkUsable();
    return HBaseTableOptions.of(
        store.await(store.connection().getAdmin().getDescriptor(table), name));
  }

  /**
   * Changes options (ALTER TABLE ... SET): validated as at creation, then HBase's table and family
   * settings changed in one modification (the regions reopen with them).
   */
  @Override
  public void alter(Map<String, String> changes) {
    checkUsable();
    Map<String, String> valid =
        HBaseTableOptions.validate(
            name, io.cairn.core.catalog.TableOptions.validateChanges(changes));
    org.apache.hadoop.hbase.client.TableDescriptor current =
        store.await(store.connection().getAdmin().getDescriptor(table), name);
    store.await(
        store.connection().getAdmin().modifyTable(HBaseTableOptions.apply(current, valid)), name);
  }

  @Override
  public void flush() {
    checkUsable();
    // each region by its own call to its region server: HBase 2.6's table flush is a master
    // procedure, which waited forever when a region server's flush met one already running
    // ("Unable to complete flush"; seen on the one-machine cluster after a load)
    var admin = store.connection().getAdmin();
    List<CompletableFuture<Void>> flushing = new ArrayList<>();
    for (TableName t : withIndexTables()) {
      for (org.apache.hadoop.hbase.client.RegionInfo r : store.await(admin.getRegions(t), name)) {
        flushing.add(admin.flushRegion(r.getRegionName()));
      }
    }
    store.await(CompletableFuture.allOf(flushing.toArray(CompletableFuture[]::new)), name);
  }

  /**
   * Asks HBase to compact the table and its indexes' tables and returns once it is done, as Cairn's
   * COMPACT TABLE does (HBase's admin call only queues the request): waits for the regions'
   * compactions to start (at most {@value #COMPACTION_START_MILLIS} ms: a minor compaction may find
   * nothing to do), then to end.
   */
  @Override
  public void compact(boolean major) {
    checkUsable();
    var admin = store.connection().getAdmin();
    List<TableName> tables = withIndexTables();
    for (TableName t : tables) {
      store.await(major ? admin.majorCompact(t) : admin.compact(t), name);
    }
    long startBy = System.nanoTime() + COMPACTION_START_MILLIS * 1_000_000L;
    boolean started = false;
    while (true) {
      boolean running = false;
      for (TableName t : tables) {
        running |= store.await(admin.getCompactionState(t), name) != CompactionState.NONE;
      }
      started |= running;
      if (!running && (started || System.nanoTime() - startBy > 0)) {
        return;
      }
      pause(COMPACTION_POLL_MILLIS);
    }
  }

  private static final long COMPACTION_START_MILLIS = 2_000;
  private static final long COMPACTION_POLL_MILLIS = 50;

  private void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CairnException(
          ErrorCode.QUERY_CANCELED, "Interrupted while waiting on HBase for table [" + name + "]");
    }
  }

  /**
   * Splits every region that holds at least two rows: at HBase's own split point (the middle of its
   * largest file), or, where HBase finds none (a region of one file block, whose middle key is its
   * first), at its middle row, read here.
   */
  @Override
  public void split() {
    checkUsable();
    var admin = store.connection().getAdmin();
    for (org.apache.hadoop.hbase.client.RegionInfo r : store.await(admin.getRegions(table), name)) {
      try {
        store.await(admin.splitRegion(r.getRegionName()), name);
      } catch (CairnException e) {
        if (!(e.getCause() instanceof org.apache.hadoop.hbase.DoNotRetryIOException)
            || !String.valueOf(e.getCause().getMessage()).contains("not splittable")) {
          throw e;
        }
        byte[] middle = middleRow(r);
        if (middle != null) {
          store.await(admin.splitRegion(r.getRegionName(), middle), name);
        }
      }
    }
  }

  /** The most rows a region HBase cannot split may have for {@link #middleRow} to read its keys. */
  private static final int MIDDLE_ROW_MAX_ROWS = 100_000;

  /** The middle row of region {@code r} (of fewer than a file block's rows), null for one row. */
  private byte[] middleRow(org.apache.hadoop.hbase.client.RegionInfo r) {
    org.apache.hadoop.hbase.client.Scan keys =
        new org.apache.hadoop.hbase.client.Scan()
            .withStartRow(r.getStartKey())
            .withStopRow(r.getEndKey())
            .addColumn(FAMILY, QUALIFIER)
            .setFilter(
                new org.apache.hadoop.hbase.filter.FilterList(
                    new org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter(),
                    new org.apache.hadoop.hbase.filter.KeyOnlyFilter()))
            .setLimit(MIDDLE_ROW_MAX_ROWS);
    List<org.apache.hadoop.hbase.client.Result> rows =
        store.await(store.connection().getTable(table).scanAll(keys), name);
    return rows.size() < 2 ? null : rows.get(rows.size() / 2).getRow();
  }

  /**
   * Keeps {@code specs} maintained by this table's writes from now on: each index gets its HBase
   * table (made when missing), the table a family for its rows' tokens ({@link HBaseIndexes}), and
   * the tables of indexes this table maintained until now and no longer does are dropped (DROP
   * INDEX; an index rebuilt gets a new id and table).
   */
  @Override
  public synchronized void defineIndexes(
      io.cairn.core.encoding.RowLayout layout, List<io.cairn.kv.IndexSpec> specs) {
    checkUsable();
    HBaseIndexes before = indexes;
    HBaseIndexes after = specs.isEmpty() ? null : new HBaseIndexes(this, layout, specs);
    // the catalog's indexes when it is read have their tables: made by the change that added them
    if (after != null && defined) {
      store.addFamily(table, HBaseIndexes.TOKEN_FAMILY, name);
      for (TableName index : after.tables().values()) {
        store.createIndexTable(index, name);
      }
    }
    String was = HBaseIndexes.fenceOf(before);
    String now = HBaseIndexes.fenceOf(after);
    if (!defined) {
      // a table this client just made (the catalog hands the others over with adoptIndexes,
      // which also repairs their fences): it has no fence yet
      defined = true;
      indexes = after;
    } else if (!was.equals(now)) {
      // writers of either set pass while this client switches and while the other clients read
      // the catalog again (each statement does when its copy is older than their refresh
      // interval: twice that), then only the new set's; once the region servers have all read the
      // fence, no write without the new indexes' entries is left
      store.writeFence(table, was + ";" + now);
      indexes = after;
      pause(SWITCH_MILLIS);
      store.writeFence(table, now);
      pause(io.cairn.hbase.server.WireNames.FENCE_SETTLE_MILLIS);
    } else {
      indexes = after;
    }
    if (before != null) {
      for (Map.Entry<Integer, TableName> e : before.tables().entrySet()) {
        if (after == null || !after.ids().contains(e.getKey())) {
          store.dropHBaseTable(e.getValue(), name);
          indexStatistics.drop(e.getKey());
        }
      }
    }
  }

  /**
   * Takes the indexes the catalog records, changed by another client (or as this client opens the
   * catalog): no switch, no table dropped. When the index fence says another set and no client is
   * switching it ("was;now"), it is set to this one, if it has not changed since it was read and
   * {@code catalogUnchanged} confirms the catalog still says this set (read after the fence): the
   * repair of a fence left behind by a client that died in a change, which never puts back an older
   * set over a newer change. False while an index's table is still being made by the client that
   * added it: the others are taken, and the catalog tries again at its next read.
   */
  @Override
  public synchronized boolean adoptIndexes(
      io.cairn.core.encoding.RowLayout layout,
      List<io.cairn.kv.IndexSpec> specs,
      java.util.function.BooleanSupplier catalogUnchanged) {
    checkUsable();
    HBaseIndexes after = specs.isEmpty() ? null : new HBaseIndexes(this, layout, specs);
    boolean complete = true;
    if (after != null) {
      // an index whose table its client is still making: not yet in the fence either (the client
      // makes the table before it switches), so writes may pass it by until the next read
      HBaseIndexes before = indexes;
      List<io.cairn.kv.IndexSpec> ready = new ArrayList<>(specs.size());
      for (io.cairn.kv.IndexSpec spec : specs) {
        boolean known = before != null && before.ids().contains(spec.indexId());
        if (known || store.exists(after.tables().get(spec.indexId()))) {
          ready.add(spec);
        }
      }
      if (ready.size() < specs.size()) {
        complete = false;
        after = ready.isEmpty() ? null : new HBaseIndexes(this, layout, ready);
      }
    }
    String now = HBaseIndexes.fenceOf(after);
    String fence = store.readFence(table);
    boolean agrees = fence == null ? now.isEmpty() : fence.equals(now);
    if (!agrees && (fence == null || fence.indexOf(';') < 0) && catalogUnchanged.getAsBoolean()) {
      store.replaceFence(table, fence, now); // false: another client changed it since
    }
    defined = true;
    indexes = after;
    return complete;
  }

  /**
   * The table's HBase table and its indexes' (FLUSH TABLE and COMPACT TABLE take both, as Cairn's
   * own store keeps the entries in the table's regions).
   */
  private List<TableName> withIndexTables() {
    List<TableName> tables = new ArrayList<>();
    tables.add(table);
    HBaseIndexes maintained = indexes;
    if (maintained != null) {
      tables.addAll(maintained.tables().values());
    }
    return tables;
  }

  /** HBase keeps each index apart from the table's regions ({@link HBaseIndexes}). */
  @Override
  public boolean indexesByRegion() {
    return false;
  }

  @Override
  public long buildIndex(int indexId, java.util.function.LongConsumer progress) {
    checkUsable();
    return maintained(indexId).build(indexId, progress);
  }

  @Override
  public io.cairn.kv.IndexCheck verifyIndex(int indexId) {
    checkUsable();
    return maintained(indexId).verify(indexId);
  }

  private HBaseIndexes maintained(int indexId) {
    HBaseIndexes m = indexes;
    if (m == null || !m.ids().contains(indexId)) {
      throw new CairnException(
          ErrorCode.INDEX_NOT_FOUND,
          "Table [" + name + "] has no local index of id [" + indexId + "]");
    }
    return m;
  }

  HBaseKvStore store() {
    return store;
  }

  TableName hbaseTable() {
    return table;
  }

  void markDropped() {
    dropped = true;
  }

  private void checkUsable() {
    store.checkOpen();
    if (dropped) {
      throw new CairnException(ErrorCode.TABLE_NOT_FOUND, "Table [" + name + "] was dropped");
    }
  }
}
