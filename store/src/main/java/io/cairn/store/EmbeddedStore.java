package io.cairn.store;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryPool;
import io.cairn.kv.Durability;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.TableSpec;
import io.cairn.store.cache.BlockCacheStats;
import io.cairn.store.cache.BufferPoolStats;
import io.cairn.store.cache.CombinedBlockCache;
import io.cairn.store.file.ReadContext;
import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.stats.StatisticsPersistence;
import io.cairn.store.stats.StatisticsTable;
import io.cairn.store.table.CompactionLog;
import io.cairn.store.table.RegionMap;
import io.cairn.store.table.TableManifest;
import io.cairn.store.table.WriteRouter;
import io.cairn.store.wal.WalEdit;
import io.cairn.store.wal.WalRecord;
import io.cairn.store.wal.WalReplay;
import io.cairn.store.wal.WriteAheadLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cairn's embedded store behind the KV SPI: in memory ({@code jdbc:cairn:mem:NAME}), or durable in
 * a directory ({@code jdbc:cairn:file:DIR}) with a write-ahead log, block files, background flushes
 * and compactions, and regions that split as they grow. Thread-safe.
 *
 * <p>This class holds the store's tables and its life (open, DDL, close) and hands each job to its
 * part: {@link StoreDirectory} (the files and their names, see it for the layout), {@link Commits}
 * (atomic batches across regions), {@link MemstoreBudget} (the memstores' bytes against the limit),
 * {@link BackgroundWork} (flushes, compactions, statistics), {@link StoreSystemViews} and {@link
 * StatisticsPersistence} (SYSTEM.STATS). In memory the parts are their in-memory kinds. Its tables
 * get the parts in one {@link TableServices}, built once the log is replayed (a durable store reads
 * the tables' regions back, replays the log into them, then builds the tables), not the store.
 *
 * <p>Locks: its monitor serialises DDL (create, drop) and the start of the close; the tables'
 * regions have their own locks (see {@code io.cairn.store.region}).
 */
public final class EmbeddedStore implements KvStore {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedStore.class);

  /** The store manifest's file name ({@link StoreDirectory} owns the names). */
  public static final String STORE_MANIFEST = StoreDirectory.STORE_MANIFEST;

  static final String LOCK_FILE = StoreDirectory.LOCK_FILE;

  private final String name;
  private final StoreDirectory directory;
  private final StoreConfig config;

  /** What this JVM's scans of the store may hold (a network server's scans bring their own). */
  private final MemoryPool queryMemory;

  private final String storeId;
  private final ConcurrentMap<String, EmbeddedTable> tables = new ConcurrentHashMap<>();
  private final ConcurrentMap<Long, EmbeddedTable> tablesById = new ConcurrentHashMap<>();
  private final ReadContext readContext;
  private final StoreMetrics metrics;
  private final StoreSystemViews systemViews;
  private final BackgroundWork background;
  private final MemstoreBudget memstoreBudget;
  private final StatisticsPersistence statisticsPersistence;
  private final Commits commits;
  private final CompactionLog compactionLog = new CompactionLog();
  private final Mvcc mvcc;

  /** Commit times of sequence ids, for TTL. */
  private final TimeIndex timeIndex;

  /** What the tables use of the store (its parts), handed to each; built once mvcc is. */
  private final TableServices services;

  private long nextTableId;
  private volatile boolean closed;

  /** The checks at open and what salvage set aside; the opening thread only, until it returns. */
  private final StoreSalvage salvage;

  private final SalvageReport salvageReport;

  /** A new, empty in-memory store. */
  public EmbeddedStore(String name) {
    this.name = requireNonNull(name, "name is null");
    this.directory = StoreDirectory.inMemory(name);
    this.config = StoreConfig.defaults();
    this.queryMemory = config.newQueryMemory(name);
    this.background = BackgroundWork.inMemory(() -> closed);
    this.memstoreBudget = new MemstoreBudget(config, background, tableList(), () -> closed);
    this.statisticsPersistence =
        new StatisticsPersistence(background::writeStatistics, this::commitStatistics);
    this.readContext = directory.newReadContext(config);
    this.systemViews = new StoreSystemViews(readContext, false, tableList());
    StoreManifest manifest = directory.openOrCreateManifest();
    this.storeId = manifest.storeId();
    this.nextTableId = manifest.nextTableId();
    this.mvcc = new Mvcc(manifest.lastSequenceId(), config.snapshotMaxAgeMillis());
    this.timeIndex = directory.openTimeIndex(mvcc.lastSequenceId());
    this.commits =
        new Commits(mvcc, timeIndex, Commits.Log.NONE, config, memstoreBudget, background);
    this.services = newTableServices();
    this.metrics = directory.newMetrics(readContext);
    this.salvage = directory.newSalvage(config);
    this.salvageReport = SalvageReport.NONE;
  }

  private EmbeddedStore(Path dir, StoreConfig config, StoreDirectory directory) {
    this.name = dir.toString();
    this.directory = directory;
    this.config = config;
    this.queryMemory = config.newQueryMemory(name);
    this.background = BackgroundWork.durable(() -> closed);
    this.memstoreBudget = new MemstoreBudget(config, background, tableList(), () -> closed);
    this.statisticsPersistence =
        new StatisticsPersistence(background::writeStatistics, this::commitStatistics);
    this.readContext = directory.newReadContext(config);
    this.systemViews = new StoreSystemViews(readContext, true, tableList());
    StoreManifest manifest = directory.openOrCreateManifest();
    this.storeId = manifest.storeId();
    this.nextTableId = manifest.nextTableId();
    this.salvage = directory.newSalvage(config);
    // the tables' regions first, then the log replayed into them: only then are the sequence ids
    // known, and with them the parts the tables are built with
    Map<Long, RegionMap> loaded = loadRegionMaps();
    long lastSequenceId = manifest.lastSequenceId();
    for (RegionMap m : loaded.values()) {
      nextTableId = Math.max(nextTableId, m.tableId() + 1);
      for (Region r : m.regions()) {
        lastSequenceId = Math.max(lastSequenceId, r.flushedSequenceId());
      }
    }
    WriteAheadLog wal = directory.openLog(config);
    WalReplay replay;
    try {
      replay = wal.replay(r -> replay(loaded, r), manifest.walMarker(), salvage.enabled());
    } catch (CairnException e) {
      throw StoreSalvage.withHint(e);
    }
    salvage.walDamaged(replay.damages());
    long replayed = replay.highestSequenceId();
    this.mvcc = new Mvcc(Math.max(lastSequenceId, replayed), config.snapshotMaxAgeMillis());
    this.timeIndex = directory.openTimeIndex(mvcc.lastSequenceId());
    this.commits =
        new Commits(mvcc, timeIndex, Commits.Log.of(wal), config, memstoreBudget, background);
    this.services = newTableServices();
    for (RegionMap m : loaded.values()) {
      EmbeddedTable t = new EmbeddedTable(services, m);
      tables.put(t.name(), t);
      tablesById.put(t.tableId(), t);
    }
    for (EmbeddedTable t : tables.values()) {
      for (Region r : t.regionList()) {
        memstoreBudget.shared(r.memstoreBytes());
      }
    }
    if (!replay.damages().isEmpty()) {
      // salvage: what replay read around the damage is only in memstores; into files with it, then
      // the log is emptied (before anything is appended), so that the next open neither misses
      // the lost segments again nor replays what is in files now
      commits.markWritten();
      for (EmbeddedTable t : tables.values()) {
        t.flushAll();
      }
      wal.deleteAllSegments();
    }
    openStatistics();
    // the time index is written with the next flush or the close after a write, not here: an open
    // changes no file (a failed one, e.g. SYSTEM.CATALOG unreadable, leaves the store as it was);
    // until then a crash makes the next open count the same rows from its own time (later expiry)
    for (EmbeddedTable t : tables.values()) {
      for (Region r : t.regionList()) {
        background.requestCompaction(t, r);
      }
    }
    this.salvageReport = salvage.report();
    this.metrics = directory.newMetrics(readContext);
    LOG.info(
        "Opened store {} ({} tables, replayed the log up to sequence id {})",
        directory,
        tables.size(),
        replayed);
  }

  /**
   * Opens (creating when missing or empty) the durable store in {@code dir}, locking it until
   * {@link #close()}.
   */
  public static EmbeddedStore open(Path dir, StoreConfig config) {
    requireNonNull(dir, "dir is null");
    requireNonNull(config, "config is null");
    StoreDirectory directory = StoreDirectory.lock(dir);
    try {
      return new EmbeddedStore(dir, config, directory);
    } catch (RuntimeException e) {
      directory.close();
      throw e;
    }
  }

  /** The store's tables, as its parts read them (live). */
  private Supplier<Collection<EmbeddedTable>> tableList() {
    return tables::values;
  }

  /**
   * What the open with {@code cairn.open.salvage=true} found damaged and set aside; {@link
   * SalvageReport#NONE} when nothing was (always so without salvage: damage fails the open).
   */
  public SalvageReport salvageReport() {
    return salvageReport;
  }

  /** The parts of the store its tables use; the callbacks read the store's state when run. */
  private TableServices newTableServices() {
    return new TableServices(
        config,
        readContext,
        queryMemory,
        mvcc,
        timeIndex,
        compactionLog,
        memstoreBudget,
        background,
        statisticsPersistence,
        commits,
        this::checkOpen,
        this::trimLog,
        this::persistTimeIndex);
  }

  private void writeManifest() {
    directory.writeManifest(storeId, nextTableId, mvcc.readPoint());
  }

  /**
   * Reads back the regions of every table with a manifest, by table id, deleting files no manifest
   * lists (salvage checks the files listed).
   */
  private Map<Long, RegionMap> loadRegionMaps() {
    Map<Long, RegionMap> loaded = new LinkedHashMap<>();
    for (Path tableDir : directory.tableDirectories()) {
      RegionMap m =
          RegionMap.load(
              tableDir,
              TableManifest.read(tableDir),
              (manifestFile, file, seal) ->
                  salvage.openListedFile(manifestFile, file, seal, readContext));
      loaded.put(m.tableId(), m);
    }
    return loaded;
  }

  /** Applies one logged record at open (single-threaded, before the tables are built). */
  private static void replay(Map<Long, RegionMap> loaded, WalRecord record) {
    for (WalEdit edit : record.edits()) {
      RegionMap m = loaded.get(edit.tableId());
      if (m != null) {
        WriteRouter.replay(m.regions(), edit, record.sequenceId());
      }
    }
  }

  public String name() {
    return name;
  }

  // ---- monitoring (the server's status page) ----

  /** The pool of this JVM's scans of the store: those whose request names no pool. */
  public MemoryPool queryMemory() {
    return queryMemory;
  }

  /** The settings the store was opened with (the defaults in memory). */
  public StoreConfig config() {
    return config;
  }

  /** Whether the store keeps its data in a directory; false in memory. */
  public boolean isDurable() {
    return directory.isDurable();
  }

  /** The store's tables, sorted by name (system views not included). */
  public List<KvTable> tables() {
    List<KvTable> out = new ArrayList<>(tables.values());
    out.sort(Comparator.comparing(KvTable::name));
    return out;
  }

  /**
   * Bytes in all memstores as the store accounts them against {@link
   * StoreConfig#globalMemstoreBytes()} (memstores that split daughters share count once for each).
   */
  public long memstoreBytes() {
    return memstoreBudget.bytes();
  }

  /** The block cache's levels (L1, L2: those it has), as SYSTEM.BLOCK_CACHE shows them. */
  public List<BlockCacheStats> blockCacheLevels() {
    return readContext.cache() instanceof CombinedBlockCache cache ? cache.levels() : List.of();
  }

  /** The counters of the buffers that reads from disk use; empty in memory. */
  public Optional<BufferPoolStats> bufferPoolStats() {
    return directory.isDurable() ? Optional.of(readContext.pool().stats()) : Optional.empty();
  }

  /** The compactions running and the last ones that ended. */
  public CompactionLog compactionLog() {
    return compactionLog;
  }

  /**
   * Names the store's KV tables in SQL, for the view SYSTEM.STATS: {@code sqlTables} gives the
   * catalog's tables (read at each scan of the view). Called by whoever owns the SQL catalog kept
   * in this store (an embedded database, the network server); the store itself does not read the
   * catalog. Without it a KV table shows under its name split at the first dot.
   */
  public void useSqlNames(Supplier<? extends Collection<TableDescriptor>> sqlTables) {
    systemViews.useSqlNames(requireNonNull(sqlTables, "sqlTables is null"));
  }

  @Override
  public KvTable createTable(String tableName, TableSpec spec) {
    requireNonNull(tableName, "tableName is null");
    requireNonNull(spec, "spec is null");
    synchronized (this) {
      checkOpen();
      if (tables.containsKey(tableName)) {
        throw new CairnException(
            ErrorCode.TABLE_ALREADY_EXISTS,
            "Table [" + tableName + "] already exists in store [" + name + "]");
      }
      long id = nextTableId++;
      writeManifest();
      EmbeddedTable table =
          EmbeddedTable.create(services, id, tableName, directory.createTableFiles(id), spec);
      tables.put(tableName, table);
      tablesById.put(id, table);
      return table;
    }
  }

  @Override
  public KvSnapshot openSnapshot() {
    checkOpen();
    Mvcc.Pin pin = mvcc.pin();
    return new KvSnapshot() {
      @Override
      public long readPoint() {
        return pin.readPoint;
      }

      @Override
      public void close() {
        pin.close();
      }

      @Override
      public String toString() {
        return "snapshot at read point " + pin.readPoint;
      }
    };
  }

  /** Snapshots open (not closed, not past the maximum age): for tests and the status page. */
  public int openSnapshots() {
    return mvcc.openPins();
  }

  @Override
  public Optional<KvTable> table(String tableName) {
    // a view first: SYSTEM.STATS is both a view and the KV table behind it, which is the store's
    Optional<KvTable> view = systemViews.view(tableName);
    if (view.isPresent()) {
      return view;
    }
    return Optional.ofNullable(tables.get(tableName));
  }

  @Override
  public void dropTable(String tableName) {
    EmbeddedTable table;
    synchronized (this) {
      table = tables.remove(tableName);
      if (table == null) {
        return;
      }
      tablesById.remove(table.tableId());
    }
    table.drop();
  }

  // ---- writes ----

  @Override
  public void mutate(List<TableBatch> batches, Durability durability) {
    List<EmbeddedTable> owners = new ArrayList<>(batches.size());
    List<List<Mutation>> parts = new ArrayList<>(batches.size());
    for (TableBatch b : batches) {
      if (b.table() instanceof SystemViewTable view) {
        view.mutate(b.mutations(), durability); // refused, naming the view
      }
      if (!(b.table() instanceof EmbeddedTable t) || tables.get(t.name()) != t) {
        throw new CairnException(
            ErrorCode.TABLE_NOT_FOUND,
            "Table [" + b.table().name() + "] is not a table of store [" + name + "]");
      }
      t.checkNoEntries(b.mutations());
      owners.add(t);
      parts.add(b.mutations());
    }
    // atomically: the regions' write locks (in table and key order), every condition checked,
    // one sequence id, one log record, visible at once when complete
    commits.commit(owners, parts, durability, this::checkOpen);
  }

  // ---- statistics ----

  /** Creates or reads back SYSTEM.STATS (a durable store's) and hands each table its statistics. */
  private void openStatistics() {
    EmbeddedTable kv = tables.get(StatisticsTable.NAME);
    if (kv == null) {
      kv = (EmbeddedTable) createTable(StatisticsTable.NAME, new TableSpec(Map.of(), List.of()));
    }
    long restored =
        statisticsPersistence.open(
            kv,
            (tableName, rs) -> {
              EmbeddedTable t = tables.get(tableName);
              return t != null && t.restoreStatistics(rs);
            },
            (tableName, is) -> {
              EmbeddedTable t = tables.get(tableName);
              return t != null && t.indexStatistics().restore(is);
            });
    LOG.debug("Restored the statistics of {} regions", restored);
  }

  /** Writes SYSTEM.STATS rows, also while the store closes (its worker drains before the log). */
  private void commitStatistics(KvTable kv, List<Mutation> batch) {
    commits.commit(List.of((EmbeddedTable) kv), List.of(batch), Durability.SYNC, () -> {});
  }

  // ---- the log and the time index ----

  /** Writes the time index when it changed; a failure costs only TTL precision (logged). */
  private void persistTimeIndex() {
    directory.persistTimeIndex(timeIndex);
  }

  /** Deletes log segments whose edits are all in files; true when every edit is. */
  private boolean trimLog() {
    long floor = mvcc.readPoint() + 1;
    for (EmbeddedTable t : tables.values()) {
      for (Region r : t.regionList()) {
        floor = Math.min(floor, r.oldestUnflushedSequenceId());
      }
    }
    return directory.trimLog(floor) && floor > mvcc.lastSequenceId();
  }

  private void checkOpen() {
    if (closed) {
      throw new CairnException(ErrorCode.OBJECT_CLOSED, "Store [" + name + "] is closed");
    }
  }

  // ---- close ----

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    if (!directory.isDurable()) {
      background.stopStatistics();
      for (String tableName : List.copyOf(tables.keySet())) {
        dropTable(tableName);
      }
      return;
    }
    RuntimeException failure = null;
    boolean allFlushed = false;
    try {
      commits.awaitCommits();
      background.finishFlushesAndCompactions();
      // a store that took no write since it opened is left as it was: what the log replayed
      // stays in the log (it is durable there), so opening and closing never rewrites files
      if (commits.written()) {
        // the tables first, then SYSTEM.STATS once the statistics of their flushes are in it
        EmbeddedTable statistics = tables.get(StatisticsTable.NAME);
        for (EmbeddedTable t : tables.values()) {
          if (t != statistics) {
            failure = flushAtClose(t, failure);
          }
        }
        background.finishStatistics();
        if (statistics != null) {
          failure = flushAtClose(statistics, failure);
        }
        allFlushed = failure == null && trimLog();
        writeManifest();
        persistTimeIndex();
      }
    } catch (RuntimeException e) {
      failure = e;
    } finally {
      background.stopStatistics();
      try {
        directory.closeLog(allFlushed); // deletes the segments when every edit is in files
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
      closeFilesAndUnlock();
    }
    LOG.info("Closed store {}", directory);
    if (failure != null) {
      throw failure;
    }
  }

  private static RuntimeException flushAtClose(EmbeddedTable t, RuntimeException failure) {
    try {
      t.flushAll();
      return failure;
    } catch (RuntimeException e) {
      LOG.error("Flush of table {} at close failed; its data stays in the log", t.name(), e);
      return e;
    }
  }

  /**
   * Drops the store as a killed process would: background work stops, nothing is flushed, no
   * manifest is written; the log and files are closed and the lock released so that the directory
   * can be opened again. For tests of recovery.
   */
  public void abandonForTesting() {
    closed = true;
    if (!directory.isDurable()) {
      return;
    }
    background.abandon();
    directory.closeLog(false);
    closeFilesAndUnlock();
  }

  private void closeFilesAndUnlock() {
    for (EmbeddedTable t : tables.values()) {
      t.closeFiles();
    }
    metrics.close();
    readContext.cache().close();
    readContext.pool().close();
    directory.close();
  }

  /**
   * Has the statistics thread collect {@code region} of {@code table} next, for tests; done when
   * the collection ended.
   */
  Future<?> collectInBackground(EmbeddedTable table, Region region) {
    return background.collectNext(table, region);
  }

  /** What the store's files are read with (their pool and caches), for tests. */
  ReadContext readContext() {
    return readContext;
  }
}
