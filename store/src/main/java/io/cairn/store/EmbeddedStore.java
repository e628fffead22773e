package io.cairn.store;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.SystemViews;
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
import io.cairn.store.stats.RegionStatistics;
import io.cairn.store.stats.StatisticsTable;
import io.cairn.store.table.CompactionLog;
import io.cairn.store.table.RegionMap;
import io.cairn.store.table.TableManifest;
import io.cairn.store.wal.WalEdit;
import io.cairn.store.wal.WalRecord;
import io.cairn.store.wal.WalReplay;
import io.cairn.store.wal.WriteAheadLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cairn's embedded store behind the KV SPI: in memory ({@code jdbc:cairn:mem:NAME}), or durable in
 * a directory ({@code jdbc:cairn:file:DIR}) with a write-ahead log, block files, background flushes
 * and compactions, and regions that split as they grow. Thread-safe.
 *
 * <p>Directory layout (see docs/format-store.md): {@code store.manifest} (format version, store id,
 * table id counter), {@code LOCK} (held while open), {@code wal/} (log segments) and {@code
 * tables/<id>/} (a {@code table.manifest} and the table's block files).
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

  private final WriteAheadLog wal;
  private final String storeId;
  private final ConcurrentMap<String, EmbeddedTable> tables = new ConcurrentHashMap<>();
  private final ConcurrentMap<Long, EmbeddedTable> tablesById = new ConcurrentHashMap<>();
  private final ReadContext readContext;
  private final StoreMetrics metrics;
  private final Map<String, KvTable> systemViews = systemViews();
  private final ExecutorService flusher;
  private final ExecutorService compactor;
  private final Set<Region> flushQueued = ConcurrentHashMap.newKeySet();
  private final Set<Region> compactionQueued = ConcurrentHashMap.newKeySet();

  /**
   * One thread (when there is work) for statistics: refreshing stale regions and writing {@value
   * StatisticsTable#NAME}, in the order asked.
   */
  private final java.util.concurrent.ScheduledThreadPoolExecutor statisticsWorker =
      statisticsWorker();

  private final Set<Region> statisticsQueued = ConcurrentHashMap.newKeySet();

  /** The durable store's persisted statistics; null in memory. */
  private volatile StatisticsTable statisticsTable;

  private final AtomicLong memstoreBytes = new AtomicLong();
  private final CompactionLog compactionLog = new CompactionLog();
  private final Object memoryPressure = new Object();
  final Mvcc mvcc;

  /** Commit times of sequence ids, for TTL. */
  final TimeIndex timeIndex;

  private long nextTableId;
  private volatile boolean closed;

  /** The checks at open and what salvage set aside; the opening thread only, until it returns. */
  private final StoreSalvage salvage;

  private final SalvageReport salvageReport;

  /**
   * Whether anything was written (a commit, DDL, a flush or a compaction) since the store opened.
   */
  private volatile boolean written;

  private final java.util.concurrent.atomic.AtomicInteger activeCommits =
      new java.util.concurrent.atomic.AtomicInteger();

  /** A new, empty in-memory store. */
  public EmbeddedStore(String name) {
    this.name = requireNonNull(name, "name is null");
    this.directory = StoreDirectory.inMemory(name);
    this.config = StoreConfig.defaults();
    this.queryMemory = config.newQueryMemory(name);
    this.wal = directory.openLog(config);
    StoreManifest manifest = directory.openOrCreateManifest();
    this.storeId = manifest.storeId();
    this.flusher = null;
    this.compactor = null;
    this.mvcc = new Mvcc(manifest.lastSequenceId(), config.snapshotMaxAgeMillis());
    this.timeIndex = directory.openTimeIndex(mvcc.lastSequenceId());
    this.nextTableId = manifest.nextTableId();
    this.readContext = directory.newReadContext(config);
    this.metrics = directory.newMetrics(readContext);
    this.salvage = directory.newSalvage(config);
    this.salvageReport = SalvageReport.NONE;
  }

  private EmbeddedStore(Path dir, StoreConfig config, StoreDirectory directory) {
    this.name = dir.toString();
    this.directory = directory;
    this.config = config;
    this.queryMemory = config.newQueryMemory(name);
    this.readContext = directory.newReadContext(config);
    StoreManifest manifest = directory.openOrCreateManifest();
    this.storeId = manifest.storeId();
    this.nextTableId = manifest.nextTableId();
    this.salvage = directory.newSalvage(config);
    long lastSequenceId = Math.max(manifest.lastSequenceId(), loadTables());
    this.wal = directory.openLog(config);
    WalReplay replay;
    try {
      replay = wal.replay(this::replay, manifest.walMarker(), salvage.enabled());
    } catch (CairnException e) {
      throw StoreSalvage.withHint(e);
    }
    salvage.walDamaged(replay.damages());
    long replayed = replay.highestSequenceId();
    this.mvcc = new Mvcc(Math.max(lastSequenceId, replayed), config.snapshotMaxAgeMillis());
    this.timeIndex = directory.openTimeIndex(mvcc.lastSequenceId());
    this.flusher = Executors.newSingleThreadExecutor(daemon("cairn-flush"));
    this.compactor = Executors.newSingleThreadExecutor(daemon("cairn-compaction"));
    for (EmbeddedTable t : tables.values()) {
      for (Region r : t.regionList()) {
        memstoreBytes.addAndGet(r.memstoreBytes());
      }
    }
    if (!replay.damages().isEmpty()) {
      // salvage: what replay read around the damage is only in memstores; into files with it, then
      // the log is emptied (before anything is appended), so that the next open neither misses
      // the lost segments again nor replays what is in files now
      written = true;
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
        requestCompaction(t, r);
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

  /**
   * What the open with {@code cairn.open.salvage=true} found damaged and set aside; {@link
   * SalvageReport#NONE} when nothing was (always so without salvage: damage fails the open).
   */
  public SalvageReport salvageReport() {
    return salvageReport;
  }

  /** The checks at open (and salvage); null in memory. */
  StoreSalvage salvage() {
    return salvage;
  }

  private void writeManifest() {
    directory.writeManifest(
        new StoreManifest(storeId, nextTableId, mvcc.readPoint(), wal != null && wal.hasMarker()));
  }

  /** Opens every table with a manifest; returns the highest flushed sequence id. */
  private long loadTables() {
    long maxSequenceId = 0;
    for (Path tableDir : directory.tableDirectories()) {
      EmbeddedTable t = EmbeddedTable.load(this, tableDir, TableManifest.read(tableDir));
      tables.put(t.name(), t);
      tablesById.put(t.tableId(), t);
      nextTableId = Math.max(nextTableId, t.tableId() + 1);
      for (Region r : t.regionList()) {
        maxSequenceId = Math.max(maxSequenceId, r.flushedSequenceId());
      }
    }
    return maxSequenceId;
  }

  private void replay(WalRecord record) {
    for (WalEdit edit : record.edits()) {
      EmbeddedTable t = tablesById.get(edit.tableId());
      if (t != null) {
        t.replay(edit, record.sequenceId());
      }
    }
  }

  public String name() {
    return name;
  }

  /** The buffer pool and block cache the store's files read through. */
  ReadContext readContext() {
    return readContext;
  }

  private List<Object[]> blockCacheRows() {
    if (!(readContext.cache() instanceof CombinedBlockCache cache)) {
      return List.of();
    }
    List<Object[]> rows = new ArrayList<>();
    for (BlockCacheStats s : cache.levels()) {
      rows.add(
          new Object[] {
            s.level(),
            s.level().equals("L1") ? "heap" : "off-heap",
            s.cachedBlocks(),
            s.cachedBytes(),
            s.usedBytes(),
            s.capacityBytes(),
            s.allocatedBytes(),
            s.hits(),
            s.misses(),
            s.hitRatio(),
            s.evictions(),
            s.evictedBytes(),
            s.notCachedTooLarge(),
            s.notCachedNoSpace()
          });
    }
    return rows;
  }

  // ---- monitoring (the server's status page) ----

  /** The settings the store was opened with (the defaults in memory). */
  /** The pool of this JVM's scans of the store: those whose request names no pool. */
  public MemoryPool queryMemory() {
    return queryMemory;
  }

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
    return memstoreBytes.get();
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

  /** The log, null in memory. */
  WriteAheadLog wal() {
    return wal;
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
      Path tableDir = directory.createTableDirectory(id);
      EmbeddedTable table = EmbeddedTable.create(this, id, tableName, tableDir, spec);
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
    KvTable view = systemViews.get(tableName);
    if (view != null) {
      return Optional.of(view);
    }
    return Optional.ofNullable(tables.get(tableName));
  }

  private Map<String, KvTable> systemViews() {
    return Map.of(
        SystemViews.BUFFER_POOL.kvTableName(),
        new SystemViewTable(SystemViews.BUFFER_POOL, this::bufferPoolRows),
        SystemViews.BLOCK_CACHE.kvTableName(),
        new SystemViewTable(SystemViews.BLOCK_CACHE, this::blockCacheRows),
        SystemViews.STATS.kvTableName(),
        new SystemViewTable(SystemViews.STATS, this::statisticsRows));
  }

  private List<Object[]> bufferPoolRows() {
    if (!directory.isDurable()) {
      return List.of(); // an in-memory store reads no files
    }
    BufferPoolStats s = readContext.pool().stats();
    return List.<Object[]>of(
        new Object[] {
          "reads",
          (long) readContext.pool().config().bufferSize(),
          (long) s.usedBuffers(),
          (long) s.totalBuffers(),
          (long) s.maxBuffers(),
          s.poolAllocationBytes(),
          s.heapAllocationBytes(),
          s.heapAllocationRatio()
        });
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
      owners.add(t);
      parts.add(b.mutations());
    }
    commit(owners, parts, durability);
  }

  /**
   * Applies the tables' batches atomically: their regions' write locks (in table and key order),
   * every condition checked, one sequence id, one log record, visible at once when complete.
   */
  void commit(List<EmbeddedTable> owners, List<List<Mutation>> batches, Durability durability) {
    activeCommits.incrementAndGet(); // close() waits for commits under way
    try {
      checkOpen();
      written = true;
      commitOpen(owners, batches, durability);
    } finally {
      activeCommits.decrementAndGet();
    }
  }

  private void commitOpen(
      List<EmbeddedTable> owners, List<List<Mutation>> batches, Durability durability) {
    Durability d = Durability.SKIP;
    if (wal != null) {
      if (durability != null) {
        d = durability;
      } else {
        for (EmbeddedTable t : owners) {
          d = d.max(t.defaultDurability());
        }
      }
    }
    while (true) {
      Region[][] snapshot = new Region[owners.size()][];
      Map<Region, List<Mutation>> byRegion = new java.util.LinkedHashMap<>();
      Map<Region, EmbeddedTable> ownerOf = new java.util.IdentityHashMap<>();
      for (int i = 0; i < owners.size(); i++) {
        snapshot[i] = owners.get(i).peekRegions();
        RegionMap.groupByRegion(snapshot[i], batches.get(i), byRegion);
        for (Region r : byRegion.keySet()) {
          ownerOf.putIfAbsent(r, owners.get(i));
        }
      }
      // lock in (table id, start key) order, the same for every commit: no deadlock
      List<Region> locked = new ArrayList<>(byRegion.keySet());
      locked.sort(
          java.util.Comparator.<Region>comparingLong(r -> ownerOf.get(r).tableId())
              .thenComparing((a, b) -> a.range().start().compareTo(b.range().start())));
      for (Region r : locked) {
        r.writeLock().lock();
      }
      Mvcc.WriteEntry entry = null;
      long ticket = -1;
      long added = 0;
      try {
        if (anyRetired(locked)) {
          locked.forEach(Region::checkOpen);
          continue; // split while we waited: route again
        }
        for (int i = 0; i < owners.size(); i++) {
          EmbeddedTable.checkConditions(
              snapshot[i], batches.get(i), i, mvcc, owners.get(i).expiredAtOrBelow());
        }
        entry = mvcc.begin();
        for (Map.Entry<Region, List<Mutation>> e : byRegion.entrySet()) {
          long before = e.getKey().activeMemstoreBytes();
          e.getKey().apply(e.getValue(), entry.sequenceId);
          added += e.getKey().activeMemstoreBytes() - before;
        }
        if (d != Durability.SKIP) {
          List<WalEdit> edits = new ArrayList<>();
          for (int i = 0; i < owners.size(); i++) {
            owners.get(i).addEdits(batches.get(i), edits);
          }
          ticket = wal.enqueue(new WalRecord(entry.sequenceId, edits));
        }
      } catch (RuntimeException e) {
        if (entry != null) {
          rollback(byRegion, entry);
        }
        throw e;
      } finally {
        for (Region r : locked) {
          r.writeLock().unlock();
        }
      }
      try {
        if (ticket >= 0) {
          wal.await(ticket, d);
        }
      } catch (RuntimeException e) {
        rollback(byRegion, entry);
        throw e;
      }
      mvcc.completeAndWait(entry);
      timeIndex.committed(entry.sequenceId);
      memstoreGrew(added);
      for (Map.Entry<Region, EmbeddedTable> e : ownerOf.entrySet()) {
        if (e.getKey().activeMemstoreBytes() > config.memstoreFlushBytes()) {
          requestFlush(e.getValue(), e.getKey());
        }
        if (e.getKey().statisticsStale()) {
          requestStatistics(e.getValue(), e.getKey());
        }
      }
      return;
    }
  }

  private static boolean anyRetired(List<Region> regions) {
    for (Region r : regions) {
      if (r.isRetired()) {
        return true;
      }
    }
    return false;
  }

  private void rollback(Map<Region, List<Mutation>> byRegion, Mvcc.WriteEntry entry) {
    for (Map.Entry<Region, List<Mutation>> e : byRegion.entrySet()) {
      e.getKey().rollback(e.getValue(), entry.sequenceId);
    }
    mvcc.completeAndWait(entry);
  }

  // ---- background work ----

  void requestFlush(EmbeddedTable table, Region region) {
    if (flusher == null || closed || !flushQueued.add(region)) {
      return;
    }
    try {
      flusher.execute(
          () -> {
            flushQueued.remove(region);
            try {
              table.flushRegion(region);
            } catch (RuntimeException e) {
              LOG.error("Flush of {} failed; its data stays in the log", region, e);
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      flushQueued.remove(region); // closing
    }
  }

  void requestCompaction(EmbeddedTable table, Region region) {
    if (compactor == null || closed || !compactionQueued.add(region)) {
      return;
    }
    try {
      compactor.execute(
          () -> {
            compactionQueued.remove(region);
            try {
              table.compactRegion(region, false);
              table.maybeSplit(region);
            } catch (RuntimeException e) {
              LOG.error("Compaction of {} failed", region, e);
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      compactionQueued.remove(region);
    }
  }

  // ---- statistics ----

  private static java.util.concurrent.ScheduledThreadPoolExecutor statisticsWorker() {
    java.util.concurrent.ScheduledThreadPoolExecutor worker =
        new java.util.concurrent.ScheduledThreadPoolExecutor(1, daemon("cairn-statistics"));
    worker.setKeepAliveTime(10, TimeUnit.SECONDS);
    worker.allowCoreThreadTimeOut(true); // an idle store holds no thread
    worker.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // close drops waiting ones
    return worker;
  }

  /**
   * Collects the region's statistics again in the background (enough was written since the last
   * collection); at most one queued per region, one running at a time for the whole store, and a
   * region's collections take at most a tenth of the time (each waits nine times the previous one's
   * duration after it), so a table growing fast is not read over and over.
   */
  void requestStatistics(EmbeddedTable table, Region region) {
    if (closed || !statisticsQueued.add(region)) {
      return;
    }
    long delay = Math.max(0, region.statisticsPausedUntilNanos() - System.nanoTime());
    try {
      statisticsWorker.schedule(
          () -> {
            statisticsQueued.remove(region);
            if (closed) {
              return;
            }
            try {
              table.collectRegion(region);
            } catch (RuntimeException e) {
              LOG.warn("Statistics of {} failed", region, e);
            }
          },
          delay,
          TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      statisticsQueued.remove(region);
    }
  }

  /** Creates or reads back SYSTEM.STATS (a durable store's) and hands each table its statistics. */
  private void openStatistics() {
    EmbeddedTable kv = tables.get(StatisticsTable.NAME);
    if (kv == null) {
      kv = (EmbeddedTable) createTable(StatisticsTable.NAME, new TableSpec(Map.of(), List.of()));
    }
    StatisticsTable st = new StatisticsTable(kv);
    List<Mutation> garbage = new ArrayList<>();
    long restored = 0;
    for (Map.Entry<String, List<RegionStatistics>> e : st.readAll().entrySet()) {
      EmbeddedTable t = tables.get(e.getKey());
      List<RegionStatistics> stale = new ArrayList<>();
      for (RegionStatistics rs : e.getValue()) {
        if (t != null && t.restoreStatistics(rs)) {
          restored++;
        } else {
          stale.add(rs); // a dropped table's, or a region split before its rows were rewritten
        }
      }
      garbage.addAll(st.replace(e.getKey(), stale, List.of()));
    }
    if (!garbage.isEmpty()) {
      commitStatistics(kv, garbage);
    }
    statisticsTable = st;
    LOG.debug("Restored the statistics of {} regions", restored);
  }

  /** A region's statistics changed: rewrites its rows of SYSTEM.STATS in the background. */
  void statisticsChanged(EmbeddedTable table, RegionStatistics before, RegionStatistics after) {
    persistStatistics(table, before == null ? List.of() : List.of(before), List.of(after));
  }

  /** Regions went (a split's parent, a dropped table): deletes their rows in the background. */
  void statisticsRemoved(EmbeddedTable table, List<RegionStatistics> removed) {
    persistStatistics(table, removed, List.of());
  }

  private void persistStatistics(
      EmbeddedTable table, List<RegionStatistics> before, List<RegionStatistics> after) {
    StatisticsTable st = statisticsTable;
    if (st == null || !StatisticsTable.persists(table.name())) {
      return;
    }
    List<Mutation> batch = st.replace(table.name(), before, after);
    if (batch.isEmpty()) {
      return;
    }
    try {
      statisticsWorker.execute(
          () -> {
            try {
              commitStatistics((EmbeddedTable) st.kvTable(), batch);
            } catch (RuntimeException e) {
              LOG.warn("Cannot write the statistics of {} to {}", table.name(), st.kvTable(), e);
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.debug("Statistics of {} not written: the store is closed", table.name());
    }
  }

  /** Writes SYSTEM.STATS rows, also while the store closes (its worker drains before the log). */
  private void commitStatistics(EmbeddedTable kv, List<Mutation> batch) {
    activeCommits.incrementAndGet();
    try {
      written = true;
      commitOpen(List.of(kv), List.of(batch), Durability.SYNC);
    } finally {
      activeCommits.decrementAndGet();
    }
  }

  /** The rows of the view SYSTEM.STATS: every table's chunks, under their SQL names. */
  private List<Object[]> statisticsRows() {
    Map<String, String[]> sqlNames = new java.util.HashMap<>();
    EmbeddedTable catalog = tables.get(io.cairn.core.catalog.Catalog.CATALOG_TABLE);
    if (catalog != null) {
      for (io.cairn.core.catalog.TableDescriptor d :
          io.cairn.core.catalog.StoreCatalog.readDescriptors(catalog)) {
        sqlNames.put(d.kvTableName(), new String[] {d.schemaName(), d.tableName()});
      }
    }
    List<Object[]> rows = new ArrayList<>();
    for (EmbeddedTable t : tables.values()) {
      String[] sqlName = sqlNames.get(t.name());
      if (sqlName == null) {
        int dot = t.name().indexOf('.');
        if (dot < 0) {
          continue; // a KV table without a SQL table (tests of the KV SPI)
        }
        sqlName = new String[] {t.name().substring(0, dot), t.name().substring(dot + 1)};
      }
      t.addStatisticsRows(sqlName[0], sqlName[1], rows);
    }
    return rows;
  }

  /**
   * Accounts memstore growth; flushes the largest region, and stalls writers far past the limit.
   */
  void memstoreGrew(long bytes) {
    long total = memstoreBytes.addAndGet(bytes);
    if (flusher == null || total <= config.globalMemstoreBytes()) {
      return;
    }
    flushLargest();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    synchronized (memoryPressure) {
      while (memstoreBytes.get() > 2 * config.globalMemstoreBytes()
          && !closed
          && System.nanoTime() < deadline) {
        try {
          memoryPressure.wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** Accounts memstores that two regions now share (a split) without stalling anyone. */
  void memstoreShared(long bytes) {
    memstoreBytes.addAndGet(bytes);
  }

  void memstoreShrank(long bytes) {
    memstoreBytes.addAndGet(-bytes);
    synchronized (memoryPressure) {
      memoryPressure.notifyAll();
    }
  }

  private void flushLargest() {
    EmbeddedTable bestTable = null;
    Region best = null;
    for (EmbeddedTable t : tables.values()) {
      for (Region r : t.regionList()) {
        if (best == null || r.activeMemstoreBytes() > best.activeMemstoreBytes()) {
          best = r;
          bestTable = t;
        }
      }
    }
    if (best != null) {
      requestFlush(bestTable, best);
    }
  }

  /** Writes the time index when it changed; a failure costs only TTL precision (logged). */
  void persistTimeIndex() {
    directory.persistTimeIndex(timeIndex);
  }

  /** Deletes log segments whose edits are all in files; true when every edit is. */
  boolean trimLog() {
    if (wal == null) {
      return false;
    }
    long floor = mvcc.readPoint() + 1;
    for (EmbeddedTable t : tables.values()) {
      for (Region r : t.regionList()) {
        floor = Math.min(floor, r.oldestUnflushedSequenceId());
      }
    }
    wal.markFlushedBelow(floor);
    return floor > mvcc.lastSequenceId();
  }

  void checkOpen() {
    if (closed) {
      throw new CairnException(ErrorCode.OBJECT_CLOSED, "Store [" + name + "] is closed");
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    if (!directory.isDurable()) {
      statisticsWorker.shutdownNow();
      for (String tableName : List.copyOf(tables.keySet())) {
        dropTable(tableName);
      }
      return;
    }
    RuntimeException failure = null;
    boolean allFlushed = false;
    try {
      awaitCommits();
      shutdown(flusher);
      shutdown(compactor);
      // a store that took no write since it opened is left as it was: what the log replayed
      // stays in the log (it is durable there), so opening and closing never rewrites files
      if (written) {
        // the tables first, then SYSTEM.STATS once the statistics of their flushes are in it
        EmbeddedTable statistics = tables.get(StatisticsTable.NAME);
        for (EmbeddedTable t : tables.values()) {
          if (t != statistics) {
            failure = flushAtClose(t, failure);
          }
        }
        shutdown(statisticsWorker);
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
      statisticsWorker.shutdownNow();
      try {
        wal.close();
        if (allFlushed) {
          deleteLogSegments(); // every edit is in files the manifests list
        }
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
    flusher.shutdownNow();
    compactor.shutdownNow();
    statisticsWorker.shutdownNow();
    try {
      flusher.awaitTermination(1, TimeUnit.MINUTES);
      compactor.awaitTermination(1, TimeUnit.MINUTES);
      statisticsWorker.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    wal.close();
    closeFilesAndUnlock();
  }

  /** Waits (up to a minute) for commits that began before the store was marked closed. */
  private void awaitCommits() {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (activeCommits.get() > 0 && System.nanoTime() < deadline) {
      try {
        TimeUnit.MILLISECONDS.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void deleteLogSegments() {
    try {
      wal.deleteAllSegments(); // and the marker says so
    } catch (RuntimeException e) {
      LOG.warn("Cannot delete the log segments of {}; the next open replays them", directory, e);
    }
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

  private static void shutdown(ExecutorService executor) {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(10, TimeUnit.MINUTES)) {
        LOG.warn("Background work did not finish within 10 minutes at close");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /** Deletes {@code path} and all below it (a dropped table's directory); logs failures. */
  static void deleteRecursively(Path path) {
    StoreDirectory.deleteRecursively(path);
  }
}
