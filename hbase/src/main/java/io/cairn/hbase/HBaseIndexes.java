package io.cairn.hbase;

import static io.cairn.hbase.HBaseKvStore.FAMILY;
import static io.cairn.hbase.HBaseKvStore.QUALIFIER;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.IndexCheck;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexRead;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.store.index.IndexMaintainer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongConsumer;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Scan;

/**
 * A Cairn table's local indexes on HBase (immutable: a change of indexes makes a new one). HBase
 * cannot keep an entry in the region of its row (a region is a range of one table's keys), so each
 * index is an HBase table of its own ({@link #tableOf}), keyed as Cairn's indexes are ({@link
 * IndexKeys}), and HBase gives no atomicity across the two: the entries are written before the row
 * and removed after it, and every read checks each entry against its row.
 *
 * <p>The protocol. Every write of a row of an indexed table gives it a fresh random <i>token</i> (a
 * cell of family {@code t} beside the row's cell, in the same atomic row write), and an entry is an
 * HBase row keyed by its entry key with one cell per token: qualifier the token of the row version
 * it was made from, no value. A write (1) reads the rows' current values and tokens, (2) writes the
 * new versions' entries under their new tokens, (3) writes the rows with their tokens, (4) removes
 * the old versions' entries by their old tokens (and a conditional write that did not hold removes
 * its new entries). An entry is <i>valid</i> when its row exists, holds its token and makes exactly
 * that entry key; reads return valid entries only ({@link IndexLookups}). So:
 *
 * <ul>
 *   <li>no row is missed: a row version's entry is written before the version and removed only by
 *       the write that replaced the version (its token never comes back: a token names one write);
 *   <li>no row is read twice or stale: an entry left by a write that failed, crashed between its
 *       steps or raced another write of the row has a token its row no longer holds, and is skipped
 *       (and counted as extra by CHECK INDEX);
 *   <li>a row written before its table had indexes has no token: its entries (made by the build)
 *       have the empty qualifier, valid while the row has no token.
 * </ul>
 *
 * <p>What it costs: a write of an indexed table reads its rows first (one multi-get per batch) and
 * makes two more calls (entries, then old entries' removal); a read of an index reads each entry's
 * row (one multi-get per batch of entries), even for a covered query.
 */
final class HBaseIndexes {
  /** The family of a row's token (apart from the row's cell: scans of rows never read it). */
  static final byte[] TOKEN_FAMILY = {'t'};

  static final byte[] TOKEN_QUALIFIER = {'t'};

  /** Bytes of a token. */
  static final int TOKEN_BYTES = 8;

  /**
   * The qualifier of an entry of a row that has no token (written before the table had indexes).
   */
  static final byte[] NO_TOKEN = new byte[0];

  /** How an index table's name ends: '_' is never followed by a letter in an encoded name. */
  static final String TABLE_SUFFIX = "_idx";

  private final HBaseKvTable owner;
  private final IndexMaintainer maintainer;

  /**
   * The indexes' ids, in the order of the maintainer's entries ({@link IndexMaintainer#entriesOf}).
   */
  private final List<Integer> ids;

  private final Map<Integer, TableName> tables;

  /** {@link #fenceOf} this, as every write carries it. */
  private final byte[] fence;

  HBaseIndexes(HBaseKvTable owner, RowLayout layout, List<IndexSpec> specs) {
    this.owner = owner;
    this.maintainer = new IndexMaintainer(layout, specs);
    this.ids = maintainer.specs().stream().map(IndexSpec::indexId).toList();
    Map<Integer, TableName> byId = new HashMap<>();
    for (int id : ids) {
      byId.put(id, tableOf(owner.hbaseTable(), id));
    }
    this.tables = Map.copyOf(byId);
    this.fence = fenceOf(this).getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The HBase table of index {@code indexId} of the table kept in {@code data}. */
  static TableName tableOf(TableName data, int indexId) {
    return TableName.valueOf(
        data.getNamespaceAsString(), data.getQualifierAsString() + TABLE_SUFFIX + indexId);
  }

  /**
   * Whether {@code candidate} is the table of one of the indexes of the table kept in {@code data}.
   */
  static boolean isIndexTableOf(TableName data, TableName candidate) {
    String prefix = data.getQualifierAsString() + TABLE_SUFFIX;
    String q = candidate.getQualifierAsString();
    return candidate.getNamespaceAsString().equals(data.getNamespaceAsString())
        && q.startsWith(prefix)
        && q.length() > prefix.length()
        && q.substring(prefix.length()).chars().allMatch(Character::isDigit);
  }

  /**
   * The fence of {@code indexes} (null: none): their ids, ascending, separated by ',' ({@link
   * io.cairn.hbase.server.WireNames#INDEXES_ATTRIBUTE}).
   */
  static String fenceOf(HBaseIndexes indexes) {
    return indexes == null
        ? ""
        : String.join(",", indexes.ids.stream().sorted().map(String::valueOf).toList());
  }

  Set<Integer> ids() {
    return tables.keySet();
  }

  Map<Integer, TableName> tables() {
    return tables;
  }

  private TableName table(int indexId) {
    TableName t = tables.get(indexId);
    if (t == null) {
      throw new CairnException(
          ErrorCode.INDEX_NOT_FOUND,
          "Table [" + owner.name() + "] has no local index of id [" + indexId + "]");
    }
    return t;
  }

  // ---------------------------------------------------------------------------------------------
  // writes

  /** A row as stored: its value (null: no row) and token (empty: none). */
  record Stored(Bytes value, byte[] token) {}

  /**
   * Steps (1) and (2) of a write of {@code rows} (each row's last mutation of a batch): reads the
   * rows' stored values, gives each put a token and writes its entries. The returned write gives
   * the tokens to the rows' puts ({@link Write#token}) and, once they are written, removes the
   * entries they replaced ({@link Write#finish}).
   */
  Write prepare(Collection<Mutation> rows, org.apache.hadoop.hbase.client.Durability d) {
    List<Bytes> read = new ArrayList<>();
    for (Mutation m : rows) {
      // an INSERT writes only when there is no row: nothing to replace
      if (m.condition().kind() != Mutation.Condition.Kind.MUST_NOT_EXIST) {
        read.add(m.key());
      }
    }
    Map<Bytes, Stored> before = stored(read);
    Map<Bytes, byte[]> tokens = new HashMap<>();
    Map<Bytes, Bytes> values = new HashMap<>();
    Map<Integer, List<Row>> entries = new HashMap<>();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (Mutation m : rows) {
      if (m instanceof Mutation.Put put) {
        byte[] token = new byte[TOKEN_BYTES];
        random.nextBytes(token);
        tokens.put(m.key(), token);
        values.put(m.key(), put.value());
        List<IndexMaintainer.Entry> made = maintainer.entriesOf(m.key(), put.value());
        for (int i = 0; i < ids.size(); i++) {
          entries
              .computeIfAbsent(ids.get(i), id -> new ArrayList<>())
              .add(
                  new Put(made.get(i).key().peekArray())
                      .addColumn(FAMILY, token, new byte[0])
                      .setDurability(d));
        }
      }
    }
    writeEntries(entries);
    return new Write(before, tokens, values, d);
  }

  /** The stored values and tokens of the rows of {@code keys} (those without a row left out). */
  Map<Bytes, Stored> stored(List<Bytes> keys) {
    List<Get> gets = new ArrayList<>(keys.size());
    for (Bytes key : keys) {
      gets.add(
          new Get(key.peekArray())
              .addColumn(FAMILY, QUALIFIER)
              .addColumn(TOKEN_FAMILY, TOKEN_QUALIFIER));
    }
    AsyncTable<?> t = owner.store().connection().getTable(owner.hbaseTable());
    Map<Bytes, Stored> found = new HashMap<>();
    int at = 0;
    for (List<Result> results : owner.inWaves(gets, t::getAll)) {
      for (Result r : results) {
        Bytes key = keys.get(at++);
        byte[] value = r.getValue(FAMILY, QUALIFIER);
        if (value != null && value.length > 0) {
          byte[] token = r.getValue(TOKEN_FAMILY, TOKEN_QUALIFIER);
          found.put(key, new Stored(Bytes.wrap(value), token == null ? NO_TOKEN : token));
        }
      }
    }
    return found;
  }

  /**
   * Writes entries, by index id.
   *
   * @throws CairnException CATALOG_OUT_OF_DATE when an index's table is gone: another client
   *     dropped the index since this one read the catalog
   */
  private void writeEntries(Map<Integer, List<Row>> entries) {
    for (Map.Entry<Integer, List<Row>> e : entries.entrySet()) {
      AsyncTable<?> t = owner.store().connection().getTable(table(e.getKey()));
      try {
        owner.inWaves(e.getValue(), t::batchAll);
      } catch (CairnException failed) {
        if (!tableMissing(failed)) {
          throw failed;
        }
        throw new CairnException(
            ErrorCode.CATALOG_OUT_OF_DATE,
            "Table ["
                + owner.name()
                + "]: its local index of id ["
                + e.getKey()
                + "] was dropped since this client read the catalog: reconnect to read it again",
            failed);
      }
    }
  }

  /** Whether {@code failure} is, or was caused by, a missing HBase table. */
  static boolean tableMissing(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof org.apache.hadoop.hbase.TableNotFoundException
          || String.valueOf(t.getMessage()).contains("TableNotFoundException")) {
        return true;
      }
    }
    return false;
  }

  /** A write of indexed rows between its steps. */
  final class Write {
    private final Map<Bytes, Stored> before;
    private final Map<Bytes, byte[]> tokens;
    private final Map<Bytes, Bytes> values;
    private final org.apache.hadoop.hbase.client.Durability durability;

    Write(
        Map<Bytes, Stored> before,
        Map<Bytes, byte[]> tokens,
        Map<Bytes, Bytes> values,
        org.apache.hadoop.hbase.client.Durability durability) {
      this.before = before;
      this.tokens = tokens;
      this.values = values;
      this.durability = durability;
    }

    /** The indexes this write keeps, as the region servers check them against the table's. */
    byte[] fence() {
      return fence;
    }

    /** Adds the row's new token to {@code put}, the write of a put of the row {@code key}. */
    Put token(Bytes key, Put put) {
      byte[] token = tokens.get(key);
      return token == null ? put : put.addColumn(TOKEN_FAMILY, TOKEN_QUALIFIER, token);
    }

    /**
     * Step (4): the rows of {@code written} were written: removes the entries of what they held
     * before; those of {@code refused} were not (their condition failed): removes their new
     * entries. A row in neither (its write failed and may or may not have happened) keeps both.
     */
    void finish(Iterable<Bytes> written, Iterable<Bytes> refused) {
      Map<Integer, List<Row>> removals = new HashMap<>();
      for (Bytes key : written) {
        Stored old = before.get(key);
        if (old != null) {
          remove(key, old.value(), old.token(), removals);
        }
      }
      for (Bytes key : refused) {
        byte[] token = tokens.get(key);
        if (token != null) {
          remove(key, values.get(key), token, removals);
        }
      }
      writeEntries(removals);
    }

    /** Adds to {@code removals} the removal of the entries of row {@code key} = {@code value}. */
    private void remove(Bytes key, Bytes value, byte[] token, Map<Integer, List<Row>> removals) {
      List<IndexMaintainer.Entry> made = maintainer.entriesOf(key, value);
      for (int i = 0; i < ids.size(); i++) {
        removals
            .computeIfAbsent(ids.get(i), id -> new ArrayList<>())
            .add(
                new Delete(made.get(i).key().peekArray())
                    .addColumns(FAMILY, token)
                    .setDurability(durability));
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // reads

  /** The rows (or entries) of an index read, checked against the rows: see {@link IndexLookups}. */
  IndexLookups read(List<KeyRange> ranges, IndexRead read) {
    TableName index = table(read.indexId());
    return new IndexLookups(
        this,
        read,
        ranges,
        scan -> owner.store().connection().getTable(index).getScanner(scan),
        scan ->
            owner
                .store()
                .await(owner.store().connection().getTable(index).scanAll(scan), owner.name()),
        owner.name());
  }

  /**
   * The entries of {@code candidates} (entry key and qualifier, of index {@code indexId}) that are
   * valid, in order, each with the row it was checked against: the rows are read in one multi-get.
   */
  List<Checked> check(int indexId, List<Candidate> candidates) {
    List<Bytes> keys = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      keys.add(IndexKeys.rowKey(c.entryKey()));
    }
    Map<Bytes, Stored> rows = stored(distinct(keys));
    List<Checked> valid = new ArrayList<>(candidates.size());
    for (int i = 0; i < candidates.size(); i++) {
      Candidate c = candidates.get(i);
      Stored row = rows.get(keys.get(i));
      if (row == null || !java.util.Arrays.equals(row.token(), c.token())) {
        continue;
      }
      IndexMaintainer.Entry entry = maintainer.entryOf(indexId, keys.get(i), row.value());
      if (entry.key().equals(c.entryKey())) {
        valid.add(new Checked(keys.get(i), row.value(), entry));
      }
    }
    return valid;
  }

  private static List<Bytes> distinct(List<Bytes> keys) {
    return new ArrayList<>(new java.util.LinkedHashSet<>(keys));
  }

  /** An entry as read from an index table: its key and one of its tokens. */
  record Candidate(Bytes entryKey, byte[] token) {}

  /** A valid entry: its row's key and value, and the entry made from them. */
  record Checked(Bytes rowKey, Bytes rowValue, IndexMaintainer.Entry entry) {}

  /** The candidates of an index table row (one per token). */
  static void candidates(Result r, List<Candidate> out) {
    Bytes key = Bytes.wrap(r.getRow());
    for (Cell cell : r.rawCells()) {
      if (CellUtil.matchingFamily(cell, FAMILY)) {
        out.add(new Candidate(key, CellUtil.cloneQualifier(cell)));
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // build and check

  /** Rows read, entries written or checked, per call to HBase. */
  static final int BATCH = 2_000;

  /** How often a build reports progress: every so many rows (as Cairn's own store). */
  static final int BUILD_REPORT_ROWS = 65_536;

  /** Regions a build reads at once. */
  static final int BUILD_THREADS = 2;

  /** Calls of entries a build's reader of a region has in flight at most. */
  static final int BUILD_CALLS_IN_FLIGHT = 4;

  /**
   * Writes an entry of index {@code indexId} for every row of the table, under the row's token (the
   * empty qualifier for a row without one); writes made meanwhile maintain the index themselves,
   * and an entry this writes for a row they replaced is not valid.
   *
   * <p>The table's regions are read {@value #BUILD_THREADS} at a time, each region's entries sent
   * while it is read, without HBase's write-ahead log (as a bulk load writes files): the index's
   * regions are flushed before the build returns, and a region server that hosted them and died
   * meanwhile (its memstore lost) fails the build, which ALTER INDEX ... REBUILD runs again.
   */
  long build(int indexId, LongConsumer progress) {
    TableName index = table(indexId);
    var admin = owner.store().connection().getAdmin();
    Set<org.apache.hadoop.hbase.ServerName> hosts = hostsOf(index);
    java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
    LongConsumer added =
        n -> {
          long after = written.addAndGet(n);
          if ((after - n) / BUILD_REPORT_ROWS != after / BUILD_REPORT_ROWS) {
            progress.accept(after / BUILD_REPORT_ROWS * BUILD_REPORT_ROWS);
          }
        };
    List<io.cairn.kv.RegionInfo> regions = owner.regions();
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(
            Math.max(1, Math.min(BUILD_THREADS, regions.size())),
            r -> {
              Thread t = new Thread(r, "cairn-hbase-index-build");
              t.setDaemon(true);
              return t;
            });
    try {
      List<java.util.concurrent.Future<?>> parts = new ArrayList<>();
      for (io.cairn.kv.RegionInfo region : regions) {
        parts.add(pool.submit(() -> buildRegion(indexId, index, region.range(), added)));
      }
      for (java.util.concurrent.Future<?> part : parts) {
        awaitPart(part); // as long as the region takes: each of its calls is bounded by HBase's
      }
    } finally {
      pool.shutdownNow();
    }
    List<java.util.concurrent.CompletableFuture<Void>> flushing = new ArrayList<>();
    for (org.apache.hadoop.hbase.client.RegionInfo r :
        owner.store().await(admin.getRegions(index), owner.name())) {
      flushing.add(admin.flushRegion(r.getRegionName()));
    }
    owner
        .store()
        .await(
            java.util.concurrent.CompletableFuture.allOf(
                flushing.toArray(java.util.concurrent.CompletableFuture[]::new)),
            owner.name());
    hosts.addAll(hostsOf(index));
    Set<org.apache.hadoop.hbase.ServerName> live =
        owner
            .store()
            .await(
                admin.getClusterMetrics(
                    java.util.EnumSet.of(
                        org.apache.hadoop.hbase.ClusterMetrics.Option.LIVE_SERVERS)),
                owner.name())
            .getLiveServerMetrics()
            .keySet();
    if (!live.containsAll(hosts)) {
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Building an index of table ["
              + owner.name()
              + "]: a region server of the index's regions stopped during the build ("
              + hosts.stream().filter(h -> !live.contains(h)).toList()
              + "), and entries written without HBase's log may be lost: run ALTER INDEX ..."
              + " REBUILD");
    }
    progress.accept(written.get());
    return written.get();
  }

  /** Waits for a build's part and throws what it threw. */
  private void awaitPart(java.util.concurrent.Future<?> part) {
    try {
      part.get();
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failed) {
        throw failed;
      }
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Building an index of table [" + owner.name() + "] failed: " + e.getCause(),
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CairnException(
          ErrorCode.QUERY_CANCELED,
          "Interrupted while building an index of table [" + owner.name() + "]");
    }
  }

  /** The region servers hosting the regions of {@code table} now. */
  private Set<org.apache.hadoop.hbase.ServerName> hostsOf(TableName table) {
    Set<org.apache.hadoop.hbase.ServerName> hosts = new java.util.HashSet<>();
    for (org.apache.hadoop.hbase.HRegionLocation l :
        owner
            .store()
            .await(
                owner.store().connection().getRegionLocator(table).getAllRegionLocations(),
                owner.name())) {
      if (l.getServerName() != null) {
        hosts.add(l.getServerName());
      }
    }
    return hosts;
  }

  /** Writes the entries of index {@code indexId} for the rows of {@code range}. */
  private void buildRegion(int indexId, TableName index, KeyRange range, LongConsumer added) {
    AsyncTable<?> entries = owner.store().connection().getTable(index);
    java.util.ArrayDeque<java.util.concurrent.CompletableFuture<?>> inFlight =
        new java.util.ArrayDeque<>();
    java.util.ArrayDeque<Integer> sizes = new java.util.ArrayDeque<>();
    List<Row> batch = new ArrayList<>();
    Scan scan = rowScan();
    scan.withStartRow(range.start().peekArray());
    if (!range.stop().isEmpty()) {
      scan.withStopRow(range.stop().peekArray());
    }
    try (ResultScanner rows =
        owner.store().connection().getTable(owner.hbaseTable()).getScanner(scan)) {
      for (Result r = next(rows); ; r = next(rows)) {
        if (r != null) {
          byte[] value = r.getValue(FAMILY, QUALIFIER);
          if (value == null || value.length == 0) {
            continue;
          }
          byte[] token = r.getValue(TOKEN_FAMILY, TOKEN_QUALIFIER);
          Bytes entry =
              maintainer.entryOf(indexId, Bytes.wrap(r.getRow()), Bytes.wrap(value)).key();
          batch.add(
              new Put(entry.peekArray())
                  .addColumn(FAMILY, token == null ? NO_TOKEN : token, new byte[0])
                  .setDurability(org.apache.hadoop.hbase.client.Durability.SKIP_WAL));
        }
        if (batch.size() >= HBaseKvTable.RPC_ROWS || (r == null && !batch.isEmpty())) {
          inFlight.add(entries.batchAll(batch));
          sizes.add(batch.size());
          batch = new ArrayList<>();
        }
        while (!inFlight.isEmpty() && (inFlight.size() > BUILD_CALLS_IN_FLIGHT || r == null)) {
          owner.store().await(inFlight.poll(), owner.name());
          added.accept(sizes.poll());
        }
        if (r == null) {
          return;
        }
      }
    }
  }

  /**
   * Compares index {@code indexId} with the table's rows: each row must have its valid entry
   * ({@code missing} otherwise), and every entry be valid ({@code extra} otherwise: left by a write
   * that failed or raced another; harmless to queries, which skip it).
   */
  IndexCheck verify(int indexId) {
    AsyncTable<?> index = owner.store().connection().getTable(table(indexId));
    List<String> samples = new ArrayList<>();
    long rows = 0;
    long missing = 0;
    List<Get> expected = new ArrayList<>();
    List<Bytes> expectedKeys = new ArrayList<>();
    try (ResultScanner scanner = rowScanner()) {
      for (Result r = next(scanner); ; r = next(scanner)) {
        if (r != null) {
          byte[] value = r.getValue(FAMILY, QUALIFIER);
          if (value == null || value.length == 0) {
            continue;
          }
          rows++;
          byte[] token = r.getValue(TOKEN_FAMILY, TOKEN_QUALIFIER);
          Bytes entry =
              maintainer.entryOf(indexId, Bytes.wrap(r.getRow()), Bytes.wrap(value)).key();
          expected.add(
              new Get(entry.peekArray()).addColumn(FAMILY, token == null ? NO_TOKEN : token));
          expectedKeys.add(entry);
        }
        if (expected.size() >= BATCH || (r == null && !expected.isEmpty())) {
          List<Result> found = owner.store().await(index.getAll(expected), owner.name());
          for (int i = 0; i < found.size(); i++) {
            if (found.get(i).isEmpty()) {
              missing++;
              sample(samples, "missing", expectedKeys.get(i));
            }
          }
          expected.clear();
          expectedKeys.clear();
        }
        if (r == null) {
          break;
        }
      }
    }
    long entries = 0;
    long extra = 0;
    List<Candidate> batch = new ArrayList<>();
    try (ResultScanner scanner =
        owner
            .store()
            .connection()
            .getTable(table(indexId))
            .getScanner(new Scan().addFamily(FAMILY).setCaching(BATCH))) {
      for (Result r = next(scanner); ; r = next(scanner)) {
        if (r != null) {
          candidates(r, batch);
        }
        if (batch.size() >= BATCH || (r == null && !batch.isEmpty())) {
          entries += batch.size();
          List<Checked> valid = check(indexId, batch);
          extra += batch.size() - valid.size();
          if (valid.size() < batch.size()) {
            Set<Bytes> ok = new java.util.HashSet<>();
            valid.forEach(v -> ok.add(v.entry().key()));
            for (Candidate c : batch) {
              if (!ok.contains(c.entryKey())) {
                sample(samples, "extra", c.entryKey());
              }
            }
          }
          batch.clear();
        }
        if (r == null) {
          break;
        }
      }
    }
    return new IndexCheck(rows, entries, missing, extra, samples);
  }

  private static void sample(List<String> samples, String kind, Bytes entryKey) {
    if (samples.size() < io.cairn.store.index.IndexChecker.MAX_SAMPLES) {
      samples.add(kind + " entry " + entryKey);
    }
  }

  /** A scanner of the table's rows with their tokens. */
  private ResultScanner rowScanner() {
    return owner.store().connection().getTable(owner.hbaseTable()).getScanner(rowScan());
  }

  /** A scan of the table's rows with their tokens. */
  private static Scan rowScan() {
    return new Scan()
        .addColumn(FAMILY, QUALIFIER)
        .addColumn(TOKEN_FAMILY, TOKEN_QUALIFIER)
        .setCaching(BATCH);
  }

  private Result next(ResultScanner scanner) {
    try {
      return scanner.next();
    } catch (java.io.IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR, "Reading table [" + owner.name() + "] on HBase failed: " + e, e);
    }
  }
}
