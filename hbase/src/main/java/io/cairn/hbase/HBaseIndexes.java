package io.cairn.hbase;

import static io.cairn.hbase.HBaseKvStore.FAMILY;
import static io.cairn.hbase.HBaseKvStore.QUALIFIER;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.hbase.server.RemoteErrors;
import io.cairn.hbase.server.WireNames;
import io.cairn.kv.IndexCheck;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexRead;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.protocol.wire.WirePrograms;
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
 * row, even for a covered query: in the index table's region server ({@link IndexLookups}), in
 * process when the row's region is on the same server.
 */
final class HBaseIndexes {
  /** The family of a row's token (apart from the row's cell: scans of rows never read it). */
  static final byte[] TOKEN_FAMILY = io.cairn.hbase.server.WireNames.TOKEN_FAMILY;

  static final byte[] TOKEN_QUALIFIER = io.cairn.hbase.server.WireNames.TOKEN_QUALIFIER;

  /** Bytes of a token. */
  static final int TOKEN_BYTES = 8;

  /**
   * The qualifier of an entry of a row that has no token (written before the table had indexes).
   */
  static final byte[] NO_TOKEN = new byte[0];

  /** How an index table's name ends before the index's id ({@link #tableOf}). */
  static final String TABLE_SUFFIX = io.cairn.hbase.server.WireNames.INDEX_TABLE_SUFFIX;

  private final HBaseKvTable owner;
  private final IndexMaintainer maintainer;

  /**
   * The indexes' ids, in the order of the maintainer's entries ({@link IndexMaintainer#entriesOf}).
   */
  private final List<Integer> ids;

  private final Map<Integer, TableName> tables;

  /** Each index's wire definition ({@link #definition}), made on first use. */
  private final Map<Integer, byte[]> definitions = new java.util.concurrent.ConcurrentHashMap<>();

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
        data.getNamespaceAsString(),
        io.cairn.hbase.server.WireNames.indexTable(data.getQualifierAsString(), indexId));
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
                + "] was dropped since this client read the catalog: the driver has read it again;"
                + " run the statement again",
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
        owner.name(),
        definition(read.indexId()));
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

  /**
   * Parts of a build that run at once per region server holding the table ({@link #buildParts}):
   * each part keeps one of its cores busy.
   */
  static final int BUILD_THREADS_PER_SERVER = 2;

  /**
   * Parts a build may have at most for its files to be kept out of the index table's minor
   * compactions ({@link WireNames#BUILD_KEEP_ATTRIBUTE}): so few sorted files read almost as fast
   * as one, and rewriting them at once would take a core from the index's first reads for seconds
   * (a build of more parts leaves its files to HBase's compactions; under HBase's 16 files that
   * block a region's flushes either way).
   */
  static final int MAX_KEPT_PARTS = 8;

  /** Parts of a build that run at once at most, however many region servers hold the table. */
  static final int MAX_BUILD_THREADS = 32;

  /**
   * Writes an entry of index {@code indexId} for every row of the table, under the row's token (the
   * empty qualifier for a row without one); writes made meanwhile maintain the index themselves,
   * and an entry this writes for a row they replaced is not valid.
   *
   * <p>The region servers make the entries: each region's part is a scan that asks the region
   * server holding it to read the rows, make and sort their entries, write them as HBase files and
   * bulk-load them into the index's table ({@link WireNames#BUILD_ATTRIBUTE}); the regions are cut
   * into parts at guide posts ({@link #buildParts}), {@value #BUILD_THREADS_PER_SERVER} parts at a
   * time per region server holding the table (at most {@value #MAX_BUILD_THREADS}). No row comes to
   * the client and no entry goes through a memstore or the write-ahead log: once a region's part
   * answers, its entries are in the index's files.
   */
  /**
   * The wire {@code IndexDefinition} of index {@code indexId} (the table's layout and the index),
   * which a region server needs to make the index's entries from rows (builds, lookups).
   */
  byte[] definition(int indexId) {
    return definitions.computeIfAbsent(
        indexId,
        id ->
            WirePrograms.toProto(
                    maintainer.layout(),
                    maintainer.specs().stream()
                        .filter(s -> s.indexId() == id)
                        .findFirst()
                        .orElseThrow())
                .toByteArray());
  }

  long build(int indexId, LongConsumer progress) {
    table(indexId);
    byte[] definition = definition(indexId);
    java.util.concurrent.atomic.AtomicLong read = new java.util.concurrent.atomic.AtomicLong();
    LongConsumer added =
        n -> {
          long after = read.addAndGet(n);
          if ((after - n) / BUILD_REPORT_ROWS != after / BUILD_REPORT_ROWS) {
            progress.accept(after / BUILD_REPORT_ROWS * BUILD_REPORT_ROWS);
          }
        };
    int threads = Math.min(MAX_BUILD_THREADS, BUILD_THREADS_PER_SERVER * serversOfTable());
    List<KeyRange> parts = buildParts(owner.statistics().chunks(), 2 * threads);
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(
            Math.max(1, Math.min(threads, parts.size())),
            r -> {
              Thread t = new Thread(r, "cairn-hbase-index-build");
              t.setDaemon(true);
              return t;
            });
    try {
      List<java.util.concurrent.Future<?>> running = new ArrayList<>();
      boolean keep = parts.size() <= MAX_KEPT_PARTS;
      for (KeyRange part : parts) {
        running.add(pool.submit(() -> buildRegion(definition, part, keep, added)));
      }
      for (java.util.concurrent.Future<?> part : running) {
        awaitPart(part); // as long as the part takes: each of its calls is bounded by HBase's
      }
    } finally {
      pool.shutdownNow();
    }
    progress.accept(read.get());
    return read.get();
  }

  /**
   * The parts of a build of a table cut into {@code chunks}: runs of a region's chunks of about a
   * {@code share}-th of the table's bytes each (never across regions: a part is one region's scan),
   * the largest first, so that the build's threads finish about together however unequal the
   * regions are. Each part makes its own files of the index.
   */
  static List<KeyRange> buildParts(List<io.cairn.kv.TableStatistics.Chunk> chunks, int share) {
    long total = 0;
    for (io.cairn.kv.TableStatistics.Chunk c : chunks) {
      total += Math.max(1, c.bytes());
    }
    long target = Math.max(1, (total + share - 1) / share);
    record Part(KeyRange range, long bytes) {}
    List<Part> parts = new ArrayList<>();
    io.cairn.kv.TableStatistics.Chunk first = null;
    io.cairn.kv.TableStatistics.Chunk last = null;
    long bytes = 0;
    for (io.cairn.kv.TableStatistics.Chunk c : chunks) {
      long weight = Math.max(1, c.bytes());
      if (first != null && (c.regionId() != first.regionId() || bytes + weight > target)) {
        parts.add(new Part(new KeyRange(first.start(), last.stop()), bytes));
        first = null;
        bytes = 0;
      }
      if (first == null) {
        first = c;
      }
      last = c;
      bytes += weight;
    }
    if (first != null) {
      parts.add(new Part(new KeyRange(first.start(), last.stop()), bytes));
    }
    parts.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
    return parts.stream().map(Part::range).toList();
  }

  /** How many region servers hold the table's regions now (at least 1). */
  private int serversOfTable() {
    Set<org.apache.hadoop.hbase.ServerName> servers = new java.util.HashSet<>();
    for (org.apache.hadoop.hbase.HRegionLocation l :
        owner
            .store()
            .await(
                owner
                    .store()
                    .connection()
                    .getRegionLocator(owner.hbaseTable())
                    .getAllRegionLocations(),
                owner.name())) {
      if (l.getServerName() != null) {
        servers.add(l.getServerName());
      }
    }
    return Math.max(1, servers.size());
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

  /**
   * Builds the entries of the rows of {@code range} in the region servers holding them ({@link
   * #build}), reporting the rows they read to {@code added}; {@code keep}: see {@link
   * WireNames#BUILD_KEEP_ATTRIBUTE}.
   */
  private void buildRegion(byte[] definition, KeyRange range, boolean keep, LongConsumer added) {
    for (int attempt = 1; ; attempt++) {
      long[] partRows = {0};
      try {
        buildPart(
            definition,
            range,
            keep,
            n -> {
              partRows[0] += n;
              added.accept(n);
            });
        return;
      } catch (PartCutOff e) {
        added.accept(-partRows[0]); // read again by the next attempt
        if (attempt >= PART_ATTEMPTS) {
          throw new CairnException(
              ErrorCode.IO_ERROR,
              "Building an index of table ["
                  + owner.name()
                  + "]: a part was cut off by regions moving "
                  + attempt
                  + " times; run ALTER INDEX ... REBUILD ("
                  + e.getCause()
                  + ")",
              e.getCause());
        }
        PARTS_RESTARTED.incrementAndGet();
      }
    }
  }

  /**
   * How many times a build's part runs at most when regions moving cut it off: HBase's client
   * resumes a scan past the last row it returned, which a region server refuses for a build (the
   * rows before it would get no entry), so the whole part runs again. Entries a first attempt
   * loaded are written again alike (same key, same token): harmless.
   */
  static final int PART_ATTEMPTS = 3;

  private static final java.util.concurrent.atomic.AtomicLong PARTS_RESTARTED =
      new java.util.concurrent.atomic.AtomicLong();

  /** How many parts of builds this JVM's clients started again (tests). */
  static long partsRestarted() {
    return PARTS_RESTARTED.get();
  }

  /** Tests: run after each answer of a build's part (a fault injected mid-build). */
  static volatile Runnable afterBuildAnswer;

  /** A part cut off by a region's move or split: started again ({@link #buildRegion}). */
  private static final class PartCutOff extends RuntimeException {
    PartCutOff(Throwable cause) {
      super(cause);
    }
  }

  private static boolean resumeRefused(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (String.valueOf(t.getMessage()).contains(WireNames.BUILD_RESUME_REFUSED)) {
        return true;
      }
    }
    return false;
  }

  private void buildPart(byte[] definition, KeyRange range, boolean keep, LongConsumer added) {
    // one answer per call, and no call ahead of the answers taken: the part's region server builds
    // while this client takes its answers, not into a buffer the client has not read
    Scan scan = rowScan().setCaching(1).setMaxResultSize(1).setCacheBlocks(false);
    scan.withStartRow(range.start().peekArray());
    if (!range.stop().isEmpty()) {
      scan.withStopRow(range.stop().peekArray());
    }
    scan.setAttribute(WireNames.BUILD_ATTRIBUTE, definition);
    scan.setAttribute(WireNames.BUILD_START_ATTRIBUTE, range.start().peekArray());
    if (keep) {
      scan.setAttribute(WireNames.BUILD_KEEP_ATTRIBUTE, new byte[] {1});
    }
    long regionRows = 0; // what the HBase region answering now read so far
    boolean regionDone = true;
    try (ResultScanner answers =
        owner.store().connection().getTable(owner.hbaseTable()).getScanner(scan)) {
      for (Result r = answers.next(); r != null; r = answers.next()) {
        byte[] answer = r.getValue(FAMILY, WireNames.BUILD_QUALIFIER);
        if (answer == null || answer.length != Long.BYTES + 1) {
          throw new CairnException(
              ErrorCode.IO_ERROR,
              "Building an index of table ["
                  + owner.name()
                  + "]: its region server answered rows, not a build's progress: its Cairn"
                  + " coprocessor is older than this client (install the same"
                  + " cairn-hbase-server jar on every region server, docs/hbase.md)");
        }
        long rows = org.apache.hadoop.hbase.util.Bytes.toLong(answer, 0);
        regionDone = answer[Long.BYTES] == 1;
        added.accept(rows - regionRows);
        regionRows = regionDone ? 0 : rows; // the next answer is the next HBase region's
        Runnable hook = afterBuildAnswer;
        if (hook != null) {
          hook.run();
        }
      }
    } catch (java.io.IOException e) {
      if (resumeRefused(e)) {
        throw new PartCutOff(e);
      }
      CairnException raised = RemoteErrors.find(e);
      throw raised != null
          ? raised
          : new CairnException(
              ErrorCode.IO_ERROR,
              "Building an index of table [" + owner.name() + "] on HBase failed: " + e,
              e);
    }
    if (!regionDone) {
      throw new CairnException(
          ErrorCode.IO_ERROR,
          "Building an index of table ["
              + owner.name()
              + "]: a region's part ended without its entries loaded");
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
