package io.cairn.store;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.SystemViews;
import io.cairn.core.catalog.TableOptions;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryPool;
import io.cairn.kv.ColumnStatistics;
import io.cairn.kv.Durability;
import io.cairn.kv.IndexCheck;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableSpec;
import io.cairn.kv.TableStatistics;
import io.cairn.store.coprocessor.ProgramScanner;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.index.IndexBuilder;
import io.cairn.store.index.IndexChecker;
import io.cairn.store.index.IndexMaintainer;
import io.cairn.store.index.IndexReads;
import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.stats.RegionStatistics;
import io.cairn.store.stats.StatisticsKeeper;
import io.cairn.store.table.Compactor;
import io.cairn.store.table.Flusher;
import io.cairn.store.table.MaintenanceListener;
import io.cairn.store.table.MaintenanceSettings;
import io.cairn.store.table.RegionMap;
import io.cairn.store.table.RegionSplitter;
import io.cairn.store.table.RegionsSnapshot;
import io.cairn.store.table.StoreFileWriter;
import io.cairn.store.table.TableFiles;
import io.cairn.store.table.WriteRouter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * A table of the embedded store, its {@link KvTable} face: it wires a table's parts together and
 * hands each call to the one that owns it. The regions, options and manifest are the {@link
 * RegionMap}'s; writes are routed by {@link WriteRouter} inside the store's commit (one sequence id
 * and one log record per batch); a scan reads a {@link RegionsSnapshot}; the {@link Flusher},
 * {@link Compactor} and {@link RegionSplitter} change the regions and report back through {@code
 * Maintenance}; the {@link StatisticsKeeper} holds and collects the regions' statistics.
 *
 * <p>Of the store it knows only its {@link TableServices} (the store's parts and a few callbacks),
 * not the {@link EmbeddedStore}.
 *
 * <p>Locks: callers hold none; the parts take the region and map locks they need (see {@code
 * io.cairn.store.table}).
 */
final class EmbeddedTable extends ChangeCountedTable {
  private final TableServices services;
  private final long tableId;
  private final String name;

  /** The regions, options, counters and manifest, published together. */
  private final RegionMap map;

  private final Flusher flusher;
  private final Compactor compactor;
  private final RegionSplitter splitter;
  private final StoreFileWriter files;

  /** The local indexes its writes maintain; null when none. */
  private volatile IndexMaintainer indexes;

  /** Each region's statistics (persisted by the store in SYSTEM.STATS). */
  private final StatisticsKeeper statistics;

  /** Each region's statistics of each local index (persisted in SYSTEM.STATS too). */
  private final TableIndexStatistics indexStatistics;

  /**
   * A table over {@code map}'s regions: a new one ({@link #create}) or one read back from its
   * manifest at open ({@link RegionMap#load}).
   */
  EmbeddedTable(TableServices services, RegionMap map) {
    super(map::ttlMillis, services.mvcc().lastSequenceId());
    this.services = services;
    this.map = map;
    this.tableId = map.tableId();
    this.name = map.name();
    this.statistics =
        new StatisticsKeeper(map::isDropped, TableIndexStatistics.persisting(services, name));
    this.indexStatistics = new TableIndexStatistics(services, name, map, this::expiredAtOrBelow);
    StoreConfig c = services.config();
    MaintenanceSettings settings =
        new MaintenanceSettings(
            c.regionSplitBytes(),
            c.compactionMinFiles(),
            c.compactionMaxFiles(),
            c.compactionRatio(),
            c.compactionBytesPerSecond());
    StoreFileWriter files =
        new StoreFileWriter(map, services.readContext(), c.compactionBytesPerSecond());
    this.files = files;
    Maintenance listener = new Maintenance();
    this.flusher = new Flusher(map, files, settings, listener);
    this.compactor = new Compactor(map, files, services.compactionLog(), settings, listener);
    this.splitter = new RegionSplitter(map, settings, listener);
  }

  /** A new table keeping its files in {@code files}; writes its first manifest (none in memory). */
  static EmbeddedTable create(
      TableServices services, long tableId, String name, TableFiles files, TableSpec spec) {
    Map<String, String> options = TableOptions.validate(spec.options());
    List<Bytes> points = spec.splitPoints();
    Region[] regions = new Region[points.size() + 1];
    for (int i = 0; i < regions.length; i++) {
      Bytes start = i == 0 ? Bytes.EMPTY : points.get(i - 1);
      Bytes stop = i == points.size() ? Bytes.EMPTY : points.get(i);
      regions[i] = new Region(i + 1, name, new KeyRange(start, stop));
    }
    EmbeddedTable t =
        new EmbeddedTable(
            services,
            RegionMap.of(tableId, name, files, options, regions, 1, 1, regions.length + 1));
    long now = System.currentTimeMillis();
    for (Region r : regions) {
      t.statistics.install(
          r, RegionStatistics.empty(r.regionId(), r.range(), t.guidePostWidth(), now), 0, 0);
    }
    synchronized (t.map.lock()) {
      t.map.writeManifest();
    }
    return t;
  }

  /**
   * The TTL cutoff now: cells with a sequence id at or below it are expired (invisible, and purged
   * by flushes and compactions); -1 when nothing is (no TTL). Cutoffs only grow with time.
   */
  long expiredAtOrBelow() {
    long ttl = map.ttlMillis();
    return ttl == 0 ? -1 : services.timeIndex().expiredAtOrBelow(ttl);
  }

  long tableId() {
    return tableId;
  }

  @Override
  public String name() {
    return name;
  }

  List<Region> regionList() {
    return Arrays.asList(map.regions());
  }

  @Override
  public Map<String, String> options() {
    Map<String, String> o = map.options();
    if (!o.containsKey(RegionMap.INDEX_SPACE_OPTION)) {
      return o;
    }
    Map<String, String> visible = new java.util.TreeMap<>(o);
    visible.remove(RegionMap.INDEX_SPACE_OPTION);
    return java.util.Collections.unmodifiableMap(visible);
  }

  // ---- writes ----

  @Override
  public void mutate(List<Mutation> batch, Durability durability) {
    checkNoEntries(batch);
    if (!batch.isEmpty()) {
      services.commits().commit(List.of(this), List.of(batch), durability, services.checkOpen());
    }
  }

  /** Refuses keys in the index key space of a table with local indexes: only commits write them. */
  void checkNoEntries(List<Mutation> batch) {
    if (!map.indexSpace()) {
      return;
    }
    for (Mutation m : batch) {
      if (IndexKeys.isEntry(m.key())) {
        throw new CairnException(
            ErrorCode.INVALID_ARGUMENT,
            "Table ["
                + name
                + "] has local indexes: expected row keys, found a key in the index key space ["
                + m.key()
                + "]");
      }
    }
  }

  /**
   * The local index entry changes of {@code rows}, the batch's part for {@code region}; the caller
   * (a commit) holds the region's write lock. Empty when the table has no indexes.
   */
  List<Mutation> indexChanges(Region region, List<Mutation> rows) {
    IndexMaintainer m = indexes;
    return m == null ? List.of() : m.entryChanges(region, rows);
  }

  // ---- local indexes ----

  @Override
  public void defineIndexes(RowLayout layout, List<IndexSpec> specs) {
    services.checkOpen().run();
    statistics.defineLayout(layout);
    Arrays.stream(map.regions()).forEach(this::requestColumnStatisticsIfBehind);
    if (!specs.isEmpty()) {
      if (layout.hiddenRowId()) {
        throw new CairnException(
            ErrorCode.NOT_SUPPORTED,
            "Table [" + name + "]: local indexes need a primary key, found a hidden row id");
      }
      map.enableIndexSpace();
    }
    map.setLiveIndexes(
        java.util.Set.copyOf(specs.stream().map(IndexSpec::indexId).toList())::contains);
    indexes = specs.isEmpty() ? null : new IndexMaintainer(layout, specs);
    indexStatistics.define(specs);
  }

  /** Collects a region whose column statistics are behind: no write may follow (a load's end). */
  private void requestColumnStatisticsIfBehind(Region region) {
    if (statistics.columnsBehind(region)) {
      services.background().requestStatistics(this, region);
    }
  }

  @Override
  public long buildIndex(int indexId, LongConsumer progress) {
    services.checkOpen().run();
    long entries = indexBuilder().build(maintainer(indexId), indexId, progress);
    indexStatistics.requestCollection(this);
    return entries;
  }

  @Override
  public IndexCheck verifyIndex(int indexId) {
    services.checkOpen().run();
    return new IndexChecker(map, services.mvcc(), this::expiredAtOrBelow, indexBuilder())
        .check(maintainer(indexId), indexId);
  }

  private IndexBuilder indexBuilder() {
    int threads = Runtime.getRuntime().availableProcessors();
    return new IndexBuilder(map, services.mvcc(), files, this::expiredAtOrBelow, threads);
  }

  private IndexMaintainer maintainer(int indexId) {
    IndexMaintainer m = indexes;
    if (m == null || !m.has(indexId)) {
      throw new CairnException(
          ErrorCode.INDEX_NOT_FOUND,
          "Table [" + name + "] has no local index of id [" + indexId + "]");
    }
    return m;
  }

  Durability defaultDurability() {
    return map.defaultDurability();
  }

  Region[] peekRegions() {
    return map.regions();
  }

  @Override
  public long allocateIds(long count) {
    if (count <= 0) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT, "Id count: expected > 0, found [" + count + "]");
    }
    return map.allocateIds(count);
  }

  // ---- reads ----

  /**
   * How a scan treats the block cache: NO_CACHE scans and tables with BLOCKCACHE=FALSE add no data
   * blocks; IN_MEMORY=TRUE tables add them at the in-memory priority.
   */
  private CachePolicy cachePolicy(ScanRequest request) {
    Map<String, String> o = map.options();
    return CachePolicy.of(
        request.cacheBlocks() && !"FALSE".equals(o.get("BLOCKCACHE")),
        "TRUE".equals(o.get("IN_MEMORY")));
  }

  @Override
  public RowScanner scan(ScanRequest request) {
    services.checkOpen().run();
    RegionsSnapshot.RegionReader reader = RegionsSnapshot.RegionReader.ROWS;
    if (request.index() != null) {
      checkIndexRanges(request);
      reader = IndexReads.of(request.index());
    }
    RegionsSnapshot rows =
        RegionsSnapshot.open(
            map,
            services.mvcc(),
            request.ranges(),
            request.readPoint(),
            this::expiredAtOrBelow,
            cachePolicy(request),
            reader);
    MemoryPool memory = request.memory() != null ? request.memory() : services.queryMemory();
    return new ProgramScanner(
            rows,
            request.program(),
            request.context(),
            services.config().aggregateMaxBytes(),
            memory,
            request.index() != null && request.index().grouped(),
            request.hashCaches())
        .spillSortsTo(services.config().spillDirectory());
  }

  /** An index scan names a maintained index and stays inside its key space. */
  private void checkIndexRanges(ScanRequest request) {
    int id = request.index().indexId();
    maintainer(id);
    KeyRange space = IndexKeys.range(id);
    for (KeyRange r : request.ranges()) {
      if (r.start().compareTo(space.start()) < 0
          || r.stop().isEmpty()
          || r.stop().compareTo(space.stop()) > 0) {
        throw new CairnException(
            ErrorCode.INVALID_ARGUMENT,
            "A scan of index ["
                + id
                + "] of table ["
                + name
                + "]: expected ranges inside ["
                + space.start()
                + ", "
                + space.stop()
                + "), found ["
                + r.start()
                + ", "
                + r.stop()
                + ")");
      }
    }
  }

  // ---- maintenance ----

  @Override
  public void alter(Map<String, String> changes) {
    Map<String, String> validated = TableOptions.validate(changes);
    map.alter(validated);
  }

  @Override
  public void flush() {
    services.checkOpen().run();
    flushAll();
  }

  /** Flushes every region, the daughters of a region split in the background meanwhile too. */
  void flushAll() {
    map.forEachRegionOnce(this::flushRegion);
  }

  @Override
  public void compact(boolean major) {
    services.checkOpen().run();
    if (!map.files().exist()) {
      return; // in memory: no files to compact
    }
    // a background split may replace a region while this runs: its daughters are compacted too
    map.forEachRegionOnce(r -> compactRegion(r, major));
    for (Region r : map.regions()) {
      maybeSplit(r);
    }
  }

  /** Writes the region's memstores to a new file without blocking writers. */
  void flushRegion(Region region) {
    flusher.flush(region);
  }

  /**
   * Compacts the region's files: all of them when {@code major}, else those the size-ratio policy
   * picks (nothing when it picks none).
   */
  void compactRegion(Region region, boolean major) {
    compactor.compact(region, major);
  }

  @Override
  public void split() {
    services.checkOpen().run();
    if (!map.files().exist()) {
      return; // in memory: no files to split
    }
    flushAll();
    for (Region region : map.regions().clone()) {
      splitter.splitAtMiddle(region);
    }
  }

  /** Splits the region in two at its middle row when its files passed the split size. */
  void maybeSplit(Region region) {
    splitter.maybeSplit(region);
  }

  /** What the flusher, compactor and splitter of this table ask of it and of the store. */
  private final class Maintenance implements MaintenanceListener {
    @Override
    public Mvcc mvcc() {
      return services.mvcc();
    }

    @Override
    public long expiredAtOrBelow() {
      return EmbeddedTable.this.expiredAtOrBelow();
    }

    @Override
    public RegionStatistics statistics(long regionId) {
      return statistics.get(regionId);
    }

    @Override
    public void installStatistics(
        Region region, RegionStatistics stats, long coveredRows, long coveredBytes) {
      statistics.install(region, stats, coveredRows, coveredBytes);
      requestColumnStatisticsIfBehind(region);
    }

    @Override
    public void regionSplit(Region parent, Region low, Region high) {
      statistics.split(parent, low, high);
      indexStatistics.split(parent, low, high);
    }

    @Override
    public void regionRetired(Region parent) {
      statistics.retired(parent);
      indexStatistics.retired(parent);
    }

    @Override
    public void flushed(Region region, long memstoreBytes) {
      services.memstoreBudget().shrank(memstoreBytes);
      services.trimLog().run();
      services.persistTimeIndex().run();
    }

    @Override
    public void memstoreShared(long bytes) {
      services.memstoreBudget().shared(bytes);
    }

    @Override
    public void requestFlush(Region region) {
      services.background().requestFlush(EmbeddedTable.this, region);
    }

    @Override
    public void requestCompaction(Region region) {
      services.background().requestCompaction(EmbeddedTable.this, region);
    }
  }

  void drop() {
    map.markDropped();
    statistics.drop();
    indexStatistics.drop();
    Region[] rs;
    while (true) {
      rs = map.regions();
      for (Region r : rs) {
        r.drop();
      }
      // wait for flushes, compactions and splits under way: they see the drop and stop, but one
      // that already began finishes first (a split may have made new regions: drop them too)
      for (Region r : rs) {
        r.maintenanceLock().lock();
        r.maintenanceLock().unlock();
      }
      if (map.regions() == rs) {
        break;
      }
    }
    map.deleteManifest(); // these three do nothing in memory
    for (Region r : rs) {
      r.releaseFiles();
    }
    map.files().deleteAll();
    long bytes = 0;
    for (Region r : rs) {
      bytes += r.memstoreBytes();
    }
    services.memstoreBudget().shrank(bytes);
  }

  void closeFiles() {
    map.closeFiles();
  }

  // ---- statistics ----

  /** The table's GUIDE_POSTS_WIDTH, read at each collection (ALTER TABLE applies to the next). */
  long guidePostWidth() {
    return map.guidePostWidth();
  }

  /** At open: statistics read back from SYSTEM.STATS; false when their region is not here. */
  boolean restoreStatistics(RegionStatistics stats) {
    return statistics.restore(map.regions(), stats);
  }

  /** Its local indexes' statistics. */
  TableIndexStatistics indexStatistics() {
    return indexStatistics;
  }

  /** The statistics of the regions that have some, in key order. */
  List<RegionStatistics> regionStatistics() {
    return statistics.regionStatistics(map.regions());
  }

  @Override
  public TableStatistics statistics() {
    return statistics.tableStatistics(map::regions, guidePostWidth());
  }

  @Override // without the chunks: a planner checks them at every execution of a cached plan
  public List<ColumnStatistics> columnStatistics() {
    return statistics.columnStatistics(map.regions());
  }

  @Override
  public java.util.Optional<io.cairn.kv.IndexStatistics> indexStatistics(int indexId) {
    return indexStatistics.statistics(indexId);
  }

  /**
   * Collects every region's statistics now, reading its visible rows and its local indexes' entries
   * (UPDATE STATISTICS), and returns the table's.
   */
  @Override
  public TableStatistics updateStatistics() {
    services.checkOpen().run();
    map.forEachRegionOnce(this::collectRegion); // daughters of a split meanwhile too
    return statistics();
  }

  /**
   * Collects the region's statistics now (see {@link StatisticsKeeper#collect}); takes its
   * maintenance lock.
   */
  void collectRegion(Region region) {
    statistics.collect(region, services.mvcc(), this::expiredAtOrBelow, guidePostWidth());
    indexStatistics.collect(region);
  }

  /** Adds this table's rows of the view SYSTEM.STATS (see {@link SystemViews#STATS}). */
  void addStatisticsRows(String schema, String tableName, List<Object[]> out) {
    statistics.addRows(map.regions(), guidePostWidth(), schema, tableName, out);
  }

  /**
   * The rows the statistics counted plus the mutations applied since (updates and deletes count as
   * rows: an estimate); a region without statistics counts its cells, versions included.
   */
  @Override
  public long approximateRowCount() {
    return statistics.approximateRowCount(map::regions);
  }

  @Override
  public List<RegionInfo> regions() {
    List<RegionInfo> out = new ArrayList<>();
    for (Region r : map.regions()) {
      out.add(
          new RegionInfo(
              r.regionId(),
              r.range(),
              r.fileBytes(),
              r.memstoreBytes(),
              r.peekState().files().size()));
    }
    return out;
  }
}
