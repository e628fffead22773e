package io.cairn.server;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.SystemViews;
import io.cairn.core.catalog.TableOptions;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryPool;
import io.cairn.kv.Bytes;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.Durability;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableSpec;
import io.cairn.kv.TableStatistics;
import io.cairn.server.cell.CellCursor;
import io.cairn.server.cell.RowCursor;
import io.cairn.server.cell.RowCursors;
import io.cairn.server.coprocessor.ProgramScanner;
import io.cairn.server.file.BlockFileOptions;
import io.cairn.server.file.BlockFileReader;
import io.cairn.server.file.BlockFileWriter;
import io.cairn.server.file.CachePolicy;
import io.cairn.server.file.FileSeal;
import io.cairn.server.io.AtomicFiles;
import io.cairn.server.memstore.Memstore;
import io.cairn.server.region.Region;
import io.cairn.server.region.RegionState;
import io.cairn.server.region.StoreFile;
import io.cairn.server.scan.MergingCursor;
import io.cairn.server.wal.WalEdit;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table of the embedded store: its regions (sorted, covering all keys), its options and, when
 * durable, its directory and manifest. Orchestrates writes across regions (one sequence id and one
 * log record per batch), scans over snapshots, and the flushes, compactions and splits of its
 * regions.
 */
final class EmbeddedTable implements KvTable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedTable.class);
  private static final String FILE_SUFFIX = ".cbf";
  private static final long ID_BLOCK = 65_536;

  private final EmbeddedStore store;
  private final long tableId;
  private final String name;
  private final Path dir;

  /** Guards the manifest and the counters and options written in it. */
  private final Object manifestLock = new Object();

  private volatile Region[] regions;
  private volatile Map<String, String> options;
  private volatile Durability defaultDurability;
  private volatile BlockFileOptions fileOptions;

  /** The TTL option in milliseconds; 0 when rows never expire. */
  private volatile long ttlMillis;

  private long nextId;
  private long idLimit;
  private long nextFileId;
  private long nextRegionId;
  private volatile boolean dropped;

  /**
   * Each region's statistics by region id; none for a region never collected (a store written
   * before statistics existed, or whose statistics rows were lost).
   */
  private final Map<Long, RegionStatistics> statistics =
      new java.util.concurrent.ConcurrentHashMap<>();

  private EmbeddedTable(
      EmbeddedStore store,
      long tableId,
      String name,
      Path dir,
      Map<String, String> options,
      Region[] regions,
      long idLimit,
      long nextFileId,
      long nextRegionId) {
    this.store = store;
    this.tableId = tableId;
    this.name = requireNonNull(name, "name is null");
    this.dir = dir;
    this.regions = regions;
    this.nextId = idLimit;
    this.idLimit = idLimit;
    this.nextFileId = nextFileId;
    this.nextRegionId = nextRegionId;
    setOptions(options);
  }

  /** A new table; writes its first manifest when durable. */
  static EmbeddedTable create(
      EmbeddedStore store, long tableId, String name, Path dir, TableSpec spec) {
    Map<String, String> options = TableOptions.validate(spec.options());
    List<Bytes> points = spec.splitPoints();
    Region[] regions = new Region[points.size() + 1];
    for (int i = 0; i < regions.length; i++) {
      Bytes start = i == 0 ? Bytes.EMPTY : points.get(i - 1);
      Bytes stop = i == points.size() ? Bytes.EMPTY : points.get(i);
      regions[i] = new Region(i + 1, name, new KeyRange(start, stop));
    }
    EmbeddedTable t =
        new EmbeddedTable(store, tableId, name, dir, options, regions, 1, 1, regions.length + 1);
    long now = System.currentTimeMillis();
    for (Region r : regions) {
      t.installStatistics(
          r, RegionStatistics.empty(r.regionId(), r.range(), t.guidePostWidth(), now), 0, 0);
    }
    if (dir != null) {
      synchronized (t.manifestLock) {
        t.writeManifest();
      }
    }
    return t;
  }

  /** Opens a durable table from its manifest, deleting files no manifest lists. */
  static EmbeddedTable load(EmbeddedStore store, Path dir, TableManifest manifest) {
    Map<String, StoreFile> open = new HashMap<>();
    Set<String> listed = new HashSet<>();
    manifest.regions().forEach(r -> listed.addAll(r.files()));
    long maxFileId = 0;
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path p : entries.toList()) {
        String fileName = p.getFileName().toString();
        if (fileName.equals(TableManifest.FILE_NAME)) {
          continue;
        }
        if (!listed.contains(fileName)) {
          LOG.info("Removing {}: not listed in the table's manifest (an unfinished write)", p);
          Files.deleteIfExists(p);
          continue;
        }
        maxFileId = Math.max(maxFileId, fileId(fileName));
      }
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR, "Cannot list " + dir + ": " + AtomicFiles.describe(e), e);
    }
    Region[] regions = new Region[manifest.regions().size()];
    Set<String> setAside = new HashSet<>(); // by salvage: damaged, now under DIR/salvaged/
    try {
      for (int i = 0; i < regions.length; i++) {
        TableManifest.RegionEntry e = manifest.regions().get(i);
        List<StoreFile> files = new ArrayList<>();
        for (String f : e.files()) {
          if (setAside.contains(f)) {
            continue;
          }
          StoreFile sf = open.get(f);
          if (sf == null) {
            // exists, checksums of header, trailer and index, the file id its name says, and the
            // seal the manifest recorded
            BlockFileReader reader =
                store
                    .salvage()
                    .openListedFile(
                        dir.resolve(TableManifest.FILE_NAME),
                        dir.resolve(f),
                        manifest.seals().get(f),
                        store.readContext());
            if (reader == null) {
              setAside.add(f);
              continue;
            }
            sf = new StoreFile(reader);
            open.put(f, sf);
          } else {
            sf.retain(); // shared by the daughters of a split
          }
          files.add(sf);
        }
        regions[i] =
            new Region(
                e.regionId(), manifest.name(), e.range(), files, List.of(), e.flushedSequenceId());
      }
    } catch (RuntimeException e) {
      open.values().forEach(StoreFile::closeKeepingFile);
      throw e;
    }
    EmbeddedTable table =
        new EmbeddedTable(
            store,
            manifest.tableId(),
            manifest.name(),
            dir,
            manifest.options(),
            regions,
            manifest.idLimit(),
            Math.max(manifest.nextFileId(), maxFileId + 1),
            manifest.nextRegionId());
    if (!setAside.isEmpty()) {
      synchronized (table.manifestLock) {
        table.writeManifest(); // without the files set aside, so the next open does not miss them
      }
    }
    return table;
  }

  private static long fileId(String fileName) {
    try {
      return Long.parseLong(fileName.substring(0, fileName.indexOf('.')));
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private void setOptions(Map<String, String> options) {
    this.options = Collections.unmodifiableMap(new TreeMap<>(options));
    this.defaultDurability =
        Durability.valueOf(options.getOrDefault("DURABILITY", "SYNC").toUpperCase(Locale.ROOT));
    this.fileOptions = BlockFileOptions.fromTableOptions(options);
    String ttl = options.get("TTL");
    long seconds = ttl == null ? 0 : Long.parseLong(ttl);
    this.ttlMillis = seconds > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : seconds * 1000;
  }

  /**
   * The TTL cutoff now: cells with a sequence id at or below it are expired (invisible, and purged
   * by flushes and compactions); -1 when nothing is (no TTL). Cutoffs only grow with time.
   */
  long expiredAtOrBelow() {
    long ttl = ttlMillis;
    return ttl == 0 ? -1 : store.timeIndex.expiredAtOrBelow(ttl);
  }

  /** Caller holds {@link #manifestLock}. */
  private void writeManifest() {
    writeManifest(regions, null, null, 0);
  }

  /**
   * Writes the manifest of {@code rs}, with {@code changed}'s files and flushed sequence id
   * replaced by {@code files} and {@code flushed} (a change about to be published: the manifest is
   * durable before any reader or log trim sees the change). Caller holds {@link #manifestLock}.
   */
  private void writeManifest(Region[] rs, Region changed, List<StoreFile> files, long flushed) {
    if (dir == null || dropped) {
      return;
    }
    List<TableManifest.RegionEntry> entries = new ArrayList<>();
    Map<String, FileSeal> seals = new HashMap<>();
    for (Region r : rs) {
      boolean isChanged = r == changed;
      List<StoreFile> list = isChanged ? files : r.peekState().files();
      list.forEach(f -> seals.put(f.fileName(), f.seal()));
      entries.add(
          new TableManifest.RegionEntry(
              r.regionId(),
              r.range(),
              isChanged ? Math.max(flushed, r.flushedSequenceId()) : r.flushedSequenceId(),
              list.stream().map(StoreFile::fileName).toList()));
    }
    new TableManifest(tableId, name, options, idLimit, nextFileId, nextRegionId, entries, seals)
        .write(dir);
  }

  long tableId() {
    return tableId;
  }

  @Override
  public String name() {
    return name;
  }

  List<Region> regionList() {
    return Arrays.asList(regions);
  }

  @Override
  public Map<String, String> options() {
    return options;
  }

  // ---- writes ----

  @Override
  public void mutate(List<Mutation> batch, Durability durability) {
    if (!batch.isEmpty()) {
      store.commit(List.of(this), List.of(batch), durability);
    }
  }

  Durability defaultDurability() {
    return defaultDurability;
  }

  Region[] peekRegions() {
    return regions;
  }

  void addEdits(List<Mutation> batch, List<WalEdit> edits) {
    for (Mutation m : batch) {
      if (m instanceof Mutation.Put put) {
        edits.add(new WalEdit(tableId, put.key(), false, put.value()));
      } else {
        edits.add(new WalEdit(tableId, m.key(), true, Bytes.EMPTY));
      }
    }
  }

  /** Adds the batch's mutations to {@code byRegion}, each under the region holding its key. */
  static void groupByRegion(
      Region[] rs, List<Mutation> batch, Map<Region, List<Mutation>> byRegion) {
    if (rs.length == 1) {
      byRegion.computeIfAbsent(rs[0], r -> new ArrayList<>()).addAll(batch);
      return;
    }
    for (Mutation m : batch) {
      byRegion.computeIfAbsent(rs[regionIndex(rs, m.key())], r -> new ArrayList<>()).add(m);
    }
  }

  /** Index of the region holding {@code key}: the last whose start is at or below it. */
  private static int regionIndex(Region[] rs, Bytes key) {
    int lo = 0;
    int hi = rs.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (rs[mid].range().start().compareTo(key) <= 0) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * Checks the batch's conditions against the latest applied state (and the batch's own earlier
   * mutations), rows expired at {@code expiredAtOrBelow} (TTL, -1: none) counting as absent;
   * callers hold the write locks of the batch's regions.
   *
   * @throws ConditionFailedException naming {@code batchIndex} and the failing mutation
   * @throws CairnException SNAPSHOT_TOO_OLD for an UNCHANGED_SINCE condition whose read point the
   *     store no longer keeps versions for (a compaction may have merged the versions it compares)
   */
  static void checkConditions(
      Region[] rs, List<Mutation> batch, int batchIndex, Mvcc mvcc, long expiredAtOrBelow) {
    Map<Bytes, Boolean> pending = batch.size() > 1 ? new HashMap<>() : null;
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.get(i);
      Mutation.Condition c = m.condition();
      switch (c.kind()) {
        case NONE -> {}
        case MUST_NOT_EXIST -> {
          Boolean inBatch = pending == null ? null : pending.get(m.key());
          boolean exists =
              inBatch != null
                  ? inBatch
                  : rs[regionIndex(rs, m.key())].rowExists(m.key(), expiredAtOrBelow);
          if (exists) {
            throw new ConditionFailedException(batchIndex, i, m.key());
          }
        }
        case UNCHANGED_SINCE -> {
          mvcc.checkReadPoint(c.readPoint());
          // a key twice in one batch: its earlier mutation is this batch's, not a concurrent one
          if ((pending == null || !pending.containsKey(m.key()))
              && rs[regionIndex(rs, m.key())].latestSequenceId(m.key()) > c.readPoint()) {
            throw new ConditionFailedException(
                batchIndex, i, m.key(), Mutation.Condition.Kind.UNCHANGED_SINCE);
          }
        }
      }
      if (pending != null) {
        pending.put(m.key(), m instanceof Mutation.Put);
      }
    }
  }

  /** Applies one logged edit at open (single-threaded, before any other access). */
  void replay(WalEdit edit, long sequenceId) {
    Region r = regions[regionIndex(regions, edit.key())];
    if (sequenceId <= r.flushedSequenceId()) {
      return;
    }
    Mutation m =
        edit.delete()
            ? new Mutation.Delete(edit.key())
            : new Mutation.Put(edit.key(), edit.value());
    r.apply(List.of(m), sequenceId);
  }

  @Override
  public long allocateIds(long count) {
    if (count <= 0) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT, "Id count: expected > 0, found [" + count + "]");
    }
    synchronized (manifestLock) {
      long first = nextId;
      long end = first + count;
      if (dir != null && end > idLimit) {
        long previous = idLimit;
        idLimit = end + Math.max(ID_BLOCK, count);
        try {
          writeManifest(); // ids handed out before a crash are never handed out again
        } catch (RuntimeException e) {
          idLimit = previous;
          throw e;
        }
      }
      nextId = end;
      return first;
    }
  }

  // ---- reads ----

  /**
   * How a scan treats the block cache: NO_CACHE scans and tables with BLOCKCACHE=FALSE add no data
   * blocks; IN_MEMORY=TRUE tables add them at the in-memory priority.
   */
  private CachePolicy cachePolicy(ScanRequest request) {
    Map<String, String> o = options;
    return CachePolicy.of(
        request.cacheBlocks() && !"FALSE".equals(o.get("BLOCKCACHE")),
        "TRUE".equals(o.get("IN_MEMORY")));
  }

  /** Opens a block file of this table, reading through the store's pool and block cache. */
  private BlockFileReader openReader(Path path) {
    return BlockFileReader.open(path, store.readContext());
  }

  @Override
  public RowScanner scan(ScanRequest request) {
    store.checkOpen();
    // the read point first, the regions second: a write the read point covers is in a region
    // this scan reads (a split after the read point leaves it in the parent's state)
    long readPoint = store.mvcc.beginRead(request.readPoint());
    long expired = expiredAtOrBelow();
    List<KeyRange> ranges = request.ranges();
    List<Region> used = new ArrayList<>();
    List<RegionState> states = new ArrayList<>();
    List<int[]> steps = new ArrayList<>(); // {range index, index in used}
    try {
      while (!collectRegions(ranges, used, states, steps)) {
        states.forEach(RegionState::release);
        used.clear();
        states.clear();
        steps.clear();
      }
    } catch (RuntimeException e) {
      states.forEach(RegionState::release);
      store.mvcc.endRead(readPoint);
      throw e;
    }
    SnapshotRows rows =
        new SnapshotRows(ranges, used, states, steps, readPoint, expired, cachePolicy(request));
    MemoryPool memory = request.memory() != null ? request.memory() : store.queryMemory();
    return new ProgramScanner(
        rows, request.program(), request.context(), store.config().aggregateMaxBytes(), memory);
  }

  /**
   * Acquires the state of every region the ranges need; false when a region was split and its files
   * went meanwhile (the caller releases what was acquired and tries again).
   */
  private boolean collectRegions(
      List<KeyRange> ranges, List<Region> used, List<RegionState> states, List<int[]> steps) {
    Region[] rs = regions;
    for (Region r : rs) {
      r.checkOpen();
    }
    Map<Region, Integer> index = new HashMap<>();
    for (int i = 0; i < ranges.size(); i++) {
      KeyRange range = ranges.get(i);
      int from = range.start().isEmpty() ? 0 : regionIndex(rs, range.start());
      for (int j = from; j < rs.length; j++) {
        Region r = rs[j];
        if (!range.stop().isEmpty() && r.range().start().compareTo(range.stop()) >= 0) {
          break;
        }
        Integer k = index.get(r);
        if (k == null) {
          RegionState state = r.acquireState();
          if (state == null) {
            return false;
          }
          k = used.size();
          index.put(r, k);
          used.add(r);
          states.add(state);
        }
        steps.add(new int[] {i, k});
      }
    }
    return true;
  }

  /**
   * The rows of a scan's ranges across regions, from states held until closed. Closing from another
   * thread (a cancel) while a row is being read is the caller's to prevent: {@link ProgramScanner}
   * defers it to the scanning thread.
   */
  private final class SnapshotRows implements RowCursor {
    private final List<KeyRange> ranges;
    private final List<Region> regions;
    private final List<RegionState> states;
    private final List<int[]> steps;
    private final long readPoint;
    private final long expiredAtOrBelow;
    private final CachePolicy policy;
    private int step;
    private RowCursor current = RowCursors.EMPTY;
    private boolean closed;

    SnapshotRows(
        List<KeyRange> ranges,
        List<Region> regions,
        List<RegionState> states,
        List<int[]> steps,
        long readPoint,
        long expiredAtOrBelow,
        CachePolicy policy) {
      this.ranges = ranges;
      this.regions = regions;
      this.states = states;
      this.steps = steps;
      this.readPoint = readPoint;
      this.expiredAtOrBelow = expiredAtOrBelow;
      this.policy = policy;
    }

    @Override
    public boolean next() {
      while (!closed && !current.next()) {
        closeCurrent();
        if (step >= steps.size()) {
          close();
          return false;
        }
        int[] s = steps.get(step++);
        current =
            regions
                .get(s[1])
                .scan(states.get(s[1]), ranges.get(s[0]), readPoint, expiredAtOrBelow, policy);
      }
      return !closed;
    }

    @Override
    public byte[] keyArray() {
      return current.keyArray();
    }

    @Override
    public int keyOffset() {
      return current.keyOffset();
    }

    @Override
    public int keyLength() {
      return current.keyLength();
    }

    @Override
    public ByteBuffer valueBuffer() {
      return current.valueBuffer();
    }

    @Override
    public int valueOffset() {
      return current.valueOffset();
    }

    @Override
    public int valueLength() {
      return current.valueLength();
    }

    private void closeCurrent() {
      RowCursor c = current;
      current = RowCursors.EMPTY;
      try {
        c.close();
      } catch (RuntimeException e) {
        LOG.warn("Closing a region scanner failed", e);
      }
    }

    @Override
    public synchronized void close() {
      if (closed) {
        return;
      }
      closed = true;
      closeCurrent();
      states.forEach(RegionState::release);
      store.mvcc.endRead(readPoint);
    }
  }

  // ---- maintenance ----

  @Override
  public void alter(Map<String, String> changes) {
    Map<String, String> validated = TableOptions.validate(changes);
    synchronized (manifestLock) {
      Map<String, String> merged = new TreeMap<>(options);
      merged.putAll(validated);
      setOptions(merged);
      writeManifest();
    }
  }

  @Override
  public void flush() {
    store.checkOpen();
    flushAll();
  }

  void flushAll() {
    for (Region r : regions) {
      flushRegion(r);
    }
  }

  @Override
  public void compact(boolean major) {
    store.checkOpen();
    if (dir == null) {
      return;
    }
    // a background split may replace a region while this runs: its daughters are compacted too
    Set<Region> done = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    boolean progress = true;
    while (progress) {
      progress = false;
      for (Region r : regions) {
        if (done.add(r)) {
          compactRegion(r, major);
          progress = true;
        }
      }
    }
    for (Region r : regions) {
      maybeSplit(r);
    }
  }

  /** Writes the region's memstores to a new file without blocking writers. */
  void flushRegion(Region region) {
    if (dir == null || dropped) {
      return;
    }
    region.maintenanceLock().lock();
    try {
      if (region.isRetired()) {
        return;
      }
      region.freeze();
      List<Memstore> frozen = region.peekState().frozen();
      if (frozen.isEmpty()) {
        return;
      }
      long maxSequenceId = -1;
      long bytes = 0;
      for (Memstore m : frozen) {
        maxSequenceId = Math.max(maxSequenceId, m.maxSequenceId());
        bytes += m.heapSize();
      }
      // every write in the frozen memstores is complete (durable or rolled back) before it is
      // written to a file: a failed log append never reaches a file
      try {
        store.mvcc.awaitReadPoint(maxSequenceId);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CairnException(ErrorCode.QUERY_CANCELED, "Flush of " + region + " interrupted");
      }
      List<CellCursor> sources = new ArrayList<>();
      frozen.forEach(m -> sources.add(m.cursor()));
      StoreFile file;
      long width = guidePostWidth();
      StatisticsCollector collector =
          new StatisticsCollector(region.regionId(), region.range(), width);
      boolean hadFiles = !region.peekState().files().isEmpty();
      long flushedCells = 0;
      for (Memstore m : frozen) {
        flushedCells += m.cellCount();
      }
      try (CellCursor cursor = MergingCursor.of(sources)) {
        long smallestReadPoint = store.mvcc.smallestReadPoint();
        file =
            writeFile(
                region,
                cursor,
                smallestReadPoint,
                purgeAtOrBelow(smallestReadPoint),
                false,
                false,
                collector);
      }
      synchronized (manifestLock) {
        List<StoreFile> files = new ArrayList<>(region.peekState().files().size() + 1);
        if (file != null) {
          files.add(file);
        }
        files.addAll(region.peekState().files());
        try {
          writeManifest(regions, region, files, maxSequenceId);
        } catch (RuntimeException e) {
          discard(file); // the memstores stay frozen, their edits in the log; a later flush retries
          throw e;
        }
        region.completeFlush(frozen, file, maxSequenceId);
      }
      long now = System.currentTimeMillis();
      RegionStatistics delta = collector.finish(width, now);
      RegionStatistics before = statistics.get(region.regionId());
      if (!hadFiles) {
        installStatistics(region, delta, flushedCells, collector.bytes());
      } else if (before != null) {
        installStatistics(
            region,
            before.plus(delta, width, StatisticsCollector.MAX_CHUNKS_PER_REGION, now),
            flushedCells,
            collector.bytes());
      }
      store.memstoreShrank(bytes);
      store.trimLog();
      store.persistTimeIndex();
      LOG.debug("Flushed {} ({} bytes of memstore) to {}", region, bytes, file);
      // the compaction task also splits the region when its files grew past the split size
      if (region.peekState().files().size() >= store.config().compactionMinFiles()
          || region.fileBytes() > store.config().regionSplitBytes()) {
        store.requestCompaction(this, region);
      }
    } finally {
      region.maintenanceLock().unlock();
    }
  }

  /**
   * The sequence id at or below which a flush or compaction purges cells: expired under the TTL
   * (every older version of their rows is too) and at or below every read point in use; -1 when
   * nothing expires.
   */
  private long purgeAtOrBelow(long smallestReadPoint) {
    return Math.min(expiredAtOrBelow(), smallestReadPoint);
  }

  /**
   * Writes the cells of {@code cursor} within the region's range to a new file; returns it (one
   * reference, for the region) or null when no cell survives. {@code smallestReadPoint}: versions
   * shadowed by a newer version at or below it are dropped; with {@code major} tombstones at or
   * below it are dropped too. Cells at or below {@code purgeAtOrBelow} (expired, TTL) are dropped.
   * Sequence ids are kept as they are: the time index maps them to commit times (TTL), also for a
   * TTL set later by ALTER TABLE.
   */
  private StoreFile writeFile(
      Region region,
      CellCursor cursor,
      long smallestReadPoint,
      long purgeAtOrBelow,
      boolean major,
      boolean throttle,
      StatisticsCollector collector) {
    long fileId;
    BlockFileOptions opts;
    synchronized (manifestLock) {
      fileId = nextFileId++;
      opts = fileOptions;
    }
    Path path = dir.resolve(String.format(Locale.ROOT, "%012d%s", fileId, FILE_SUFFIX));
    BlockFileWriter writer = BlockFileWriter.create(path, fileId, opts);
    boolean finished = false;
    try {
      KeyRange range = region.range();
      long cells = 0;
      long throttleStart = System.nanoTime();
      boolean valid = cursor.seek(range.start());
      Bytes row = null;
      boolean rowDecided = false;
      while (valid) {
        Bytes r = cursor.row();
        if (!range.stop().isEmpty() && r.compareTo(range.stop()) >= 0) {
          break;
        }
        boolean newRow = !r.equals(row);
        if (newRow) {
          row = r;
          rowDecided = false;
        }
        long seq = cursor.sequenceId();
        if (seq <= purgeAtOrBelow) {
          rowDecided = true; // expired, and so is every older version of the row
        }
        if (!rowDecided) {
          if (seq <= smallestReadPoint) {
            rowDecided = true; // the newest version every reader sees; older ones are shadowed
            if (!(major && cursor.isDelete())) {
              writer.append(r, seq, cursor.isDelete(), cursor.value());
              collector.add(r, newRow, !cursor.isDelete(), r.length() + cursor.value().length());
              cells++;
            }
          } else {
            writer.append(r, seq, cursor.isDelete(), cursor.value());
            collector.add(r, newRow, !cursor.isDelete(), r.length() + cursor.value().length());
            cells++;
          }
        }
        valid = cursor.advance();
        if (throttle && (cells & 4095) == 0) {
          throttle(writer.bytesWritten(), throttleStart);
        }
      }
      if (cells == 0) {
        writer.abort();
        finished = true;
        return null;
      }
      writer.finish();
      finished = true;
      return new StoreFile(openReader(path));
    } finally {
      if (!finished) {
        writer.abort();
      }
    }
  }

  /** Closes and deletes a file that no manifest lists (a failed flush or compaction). */
  private static void discard(StoreFile file) {
    if (file != null) {
      file.release();
    }
  }

  private void throttle(long bytesWritten, long startNanos) {
    long rate = store.config().compactionBytesPerSecond();
    if (rate <= 0) {
      return;
    }
    long dueNanos = startNanos + (long) (bytesWritten * 1e9 / rate);
    long wait = dueNanos - System.nanoTime();
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Compacts the region's files: all of them when {@code major}, else those the size-ratio policy
   * picks (nothing when it picks none).
   */
  void compactRegion(Region region, boolean major) {
    if (dir == null || dropped) {
      return;
    }
    region.maintenanceLock().lock();
    try {
      if (region.isRetired()) {
        return;
      }
      List<StoreFile> files = region.peekState().files();
      List<StoreFile> selected =
          major
              ? files
              : CompactionPolicy.select(
                  files,
                  store.config().compactionMinFiles(),
                  store.config().compactionMaxFiles(),
                  store.config().compactionRatio());
      if (selected.isEmpty()) {
        return;
      }
      // a major compaction of all files drops tombstones and zeroes old sequence ids; a minor one
      // keeps tombstones (older files may hold the rows they delete)
      boolean dropDeletes = major || selected.size() == files.size();
      long bytesIn = 0;
      for (StoreFile f : selected) {
        bytesIn += f.sizeBytes();
      }
      try (CompactionLog.Running logged =
          store
              .compactionLog()
              .begin(name, region.regionId(), dropDeletes, selected.size(), bytesIn)) {
        long smallestReadPoint = store.mvcc.smallestReadPoint();
        List<CellCursor> sources = new ArrayList<>();
        selected.forEach(f -> sources.add(f.reader().cursor(CachePolicy.NO_CACHE)));
        StoreFile output;
        long width = guidePostWidth();
        StatisticsCollector collector =
            new StatisticsCollector(region.regionId(), region.range(), width);
        try (CellCursor cursor = MergingCursor.of(sources)) {
          output =
              writeFile(
                  region,
                  cursor,
                  smallestReadPoint,
                  purgeAtOrBelow(smallestReadPoint),
                  dropDeletes,
                  true,
                  collector);
        }
        long bytesOut = output == null ? 0 : output.sizeBytes();
        synchronized (manifestLock) {
          List<StoreFile> after = Region.replaced(region.peekState().files(), selected, output);
          try {
            writeManifest(regions, region, after, 0);
          } catch (RuntimeException e) {
            discard(output);
            throw e;
          }
          region.replaceFiles(selected, output);
        }
        if (dropDeletes) {
          // every file rewritten into one: its rows are the region's, bar the memstores'
          installStatistics(region, collector.finish(width, System.currentTimeMillis()), 0, 0);
        }
        selected.forEach(StoreFile::release); // after the manifest without them is durable
        logged.finish(bytesOut);
        LOG.debug("Compacted {}: {} files into {}", region, selected.size(), output);
      }
    } finally {
      region.maintenanceLock().unlock();
    }
  }

  @Override
  public void split() {
    store.checkOpen();
    if (dir == null) {
      return;
    }
    flushAll();
    for (Region region : regions.clone()) {
      region.maintenanceLock().lock();
      try {
        if (region.isRetired() || dropped) {
          continue;
        }
        Bytes mid = middleRow(region);
        if (mid != null) {
          split(region, mid);
        }
      } finally {
        region.maintenanceLock().unlock();
      }
    }
  }

  /** Splits the region in two at its middle row when its files passed the split size. */
  void maybeSplit(Region region) {
    if (dir == null || dropped || region.fileBytes() <= store.config().regionSplitBytes()) {
      return;
    }
    region.maintenanceLock().lock();
    try {
      if (region.isRetired() || dropped) {
        return;
      }
      Bytes mid = middleRow(region);
      if (mid == null) {
        return;
      }
      split(region, mid);
    } finally {
      region.maintenanceLock().unlock();
    }
  }

  /** A row strictly inside the region's range near its middle, from its largest file. */
  private static Bytes middleRow(Region region) {
    StoreFile largest = null;
    for (StoreFile f : region.peekState().files()) {
      if (largest == null || f.sizeBytes() > largest.sizeBytes()) {
        largest = f;
      }
    }
    if (largest == null) {
      return null;
    }
    KeyRange range = region.range();
    List<Bytes> inside =
        largest.info().guidePosts().stream()
            .filter(g -> g.compareTo(range.start()) > 0 && range.contains(g))
            .toList();
    if (!inside.isEmpty()) {
      return inside.get(inside.size() / 2);
    }
    // no guide posts: walk to the middle cell (splits are rare and run in the background)
    long target = largest.info().cellCount() / 2;
    try (CellCursor c = largest.reader().cursor(CachePolicy.NO_CACHE)) {
      boolean valid = c.seek(range.start());
      long n = 0;
      while (valid && range.contains(c.row())) {
        if (n++ >= target && c.row().compareTo(range.start()) > 0) {
          return c.row();
        }
        valid = c.advance();
      }
    }
    return null;
  }

  /**
   * Replaces {@code parent} by two daughters split at {@code mid}; caller holds its maintenance
   * lock.
   */
  void split(Region parent, Bytes mid) {
    synchronized (manifestLock) {
      parent.writeLock().lock();
      try {
        RegionState s = parent.peekState();
        List<Memstore> inherited = new ArrayList<>();
        if (!s.active().isEmpty()) {
          inherited.add(s.active());
        }
        inherited.addAll(s.frozen());
        for (int i = 0; i < 2; i++) {
          s.files().forEach(StoreFile::retain);
        }
        // both daughters flush their half of the inherited memstores and each accounts it as
        // shrinking by the whole memstore: count it twice so the store's total stays right
        long inheritedBytes = 0;
        for (Memstore m : inherited) {
          inheritedBytes += m.heapSize();
        }
        store.memstoreShared(inheritedBytes);
        Region low =
            new Region(
                nextRegionId++,
                name,
                new KeyRange(parent.range().start(), mid),
                s.files(),
                inherited,
                parent.flushedSequenceId());
        Region high =
            new Region(
                nextRegionId++,
                name,
                new KeyRange(mid, parent.range().stop()),
                s.files(),
                inherited,
                parent.flushedSequenceId());
        List<Region> list = new ArrayList<>(Arrays.asList(regions));
        int at = list.indexOf(parent);
        list.set(at, high);
        list.add(at, low);
        Region[] next = list.toArray(new Region[0]);
        try {
          writeManifest(next, null, null, 0);
        } catch (RuntimeException e) {
          nextRegionId -= 2;
          for (int i = 0; i < 2; i++) {
            s.files().forEach(StoreFile::release);
          }
          throw e;
        }
        regions = next;
        parent.retire();
        RegionStatistics parentStatistics = statistics.remove(parent.regionId());
        if (parentStatistics != null) {
          installStatistics(low, parentStatistics.clip(low.regionId(), low.range()), 0, 0);
          installStatistics(high, parentStatistics.clip(high.regionId(), high.range()), 0, 0);
          store.statisticsRemoved(this, List.of(parentStatistics));
        }
        LOG.info("Split {} at {} into {} and {}", parent, mid, low, high);
      } finally {
        parent.writeLock().unlock();
      }
    }
    parent.releaseFiles();
    for (Region r : regions) {
      if (r.range().start().equals(mid) || r.range().stop().equals(mid)) {
        store.requestFlush(this, r);
      }
    }
  }

  void drop() {
    dropped = true;
    store.statisticsRemoved(this, List.copyOf(statistics.values()));
    statistics.clear();
    Region[] rs;
    while (true) {
      rs = regions;
      for (Region r : rs) {
        r.drop();
      }
      // wait for flushes, compactions and splits under way: they see the drop and stop, but one
      // that already began finishes first (a split may have made new regions: drop them too)
      for (Region r : rs) {
        r.maintenanceLock().lock();
        r.maintenanceLock().unlock();
      }
      if (regions == rs) {
        break;
      }
    }
    if (dir != null) {
      synchronized (manifestLock) {
        try {
          Files.deleteIfExists(dir.resolve(TableManifest.FILE_NAME));
          AtomicFiles.forceDirectory(dir); // gone for good before its files go
        } catch (IOException e) {
          throw new CairnException(
              ErrorCode.IO_ERROR,
              "Cannot drop table [" + name + "]: " + AtomicFiles.describe(e),
              e);
        }
      }
      for (Region r : rs) {
        r.releaseFiles();
      }
      EmbeddedStore.deleteRecursively(dir);
    }
    long bytes = 0;
    for (Region r : rs) {
      bytes += r.memstoreBytes();
    }
    store.memstoreShrank(bytes);
  }

  void closeFiles() {
    Set<StoreFile> all = new HashSet<>();
    for (Region r : regions) {
      all.addAll(r.peekState().files());
    }
    all.forEach(StoreFile::closeKeepingFile);
  }

  // ---- statistics ----

  /** Changes past which a region's statistics are refreshed: this share of its rows or bytes... */
  static final int STALE_PERCENT = 10;

  /** ...but never fewer than this many mutations... */
  static final long STALE_MIN_ROWS = 1000;

  /** ...or this many raw bytes. */
  static final long STALE_MIN_BYTES = 4L << 20;

  /**
   * A background collection of a region waits this many times the previous one's duration after it:
   * collections read a region at most a tenth of the time.
   */
  static final long BACKGROUND_PAUSE_FACTOR = 9;

  /** The table's GUIDE_POSTS_WIDTH, read at each collection (ALTER TABLE applies to the next). */
  long guidePostWidth() {
    return fileOptions.guidePostWidth();
  }

  /**
   * Makes {@code stats} the region's statistics; they cover {@code coveredRows} and {@code
   * coveredBytes} of the changes the region counted (what the collection read or the flush wrote).
   * Persisted in the background.
   */
  private void installStatistics(
      Region region, RegionStatistics stats, long coveredRows, long coveredBytes) {
    if (dropped) {
      return;
    }
    RegionStatistics before = statistics.put(region.regionId(), stats);
    region.statisticsCollected(
        coveredRows,
        coveredBytes,
        Math.max(STALE_MIN_ROWS, stats.rows() * STALE_PERCENT / 100),
        Math.max(STALE_MIN_BYTES, stats.bytes() * STALE_PERCENT / 100));
    store.statisticsChanged(this, before, stats);
  }

  /**
   * At open: statistics read back from SYSTEM.STATS; false when the region is not (or no more)
   * here.
   */
  boolean restoreStatistics(RegionStatistics stats) {
    for (Region r : regions) {
      if (r.regionId() == stats.regionId() && r.range().equals(stats.range())) {
        statistics.put(r.regionId(), stats);
        r.statisticsCollected(
            0,
            0,
            Math.max(STALE_MIN_ROWS, stats.rows() * STALE_PERCENT / 100),
            Math.max(STALE_MIN_BYTES, stats.bytes() * STALE_PERCENT / 100));
        return true;
      }
    }
    return false;
  }

  /** The statistics of the regions that have some, in key order. */
  List<RegionStatistics> regionStatistics() {
    List<RegionStatistics> out = new ArrayList<>();
    for (Region r : regions) {
      RegionStatistics rs = statistics.get(r.regionId());
      if (rs != null) {
        out.add(rs);
      }
    }
    return out;
  }

  @Override
  public TableStatistics statistics() {
    List<TableStatistics.Chunk> chunks = new ArrayList<>();
    long collectedAt = Long.MAX_VALUE;
    for (Region r : regions) {
      RegionStatistics rs = statistics.get(r.regionId());
      if (rs == null) {
        chunks.add(
            new TableStatistics.Chunk(
                r.regionId(),
                r.range().start(),
                r.range().stop(),
                -1,
                r.fileBytes() + r.memstoreBytes()));
        collectedAt = 0;
      } else {
        rs.addTo(chunks);
        collectedAt = Math.min(collectedAt, rs.collectedAtMillis());
      }
    }
    return new TableStatistics(guidePostWidth(), chunks, collectedAt);
  }

  /**
   * Collects every region's statistics now, reading its visible rows (UPDATE STATISTICS), and
   * returns the table's.
   */
  @Override
  public TableStatistics updateStatistics() {
    store.checkOpen();
    Set<Region> done = Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    boolean progress = true;
    while (progress) { // a split meanwhile makes daughters: collect them too
      progress = false;
      for (Region r : regions) {
        if (done.add(r)) {
          collectRegion(r);
          progress = true;
        }
      }
    }
    return statistics();
  }

  /**
   * Reads the region's visible rows at a read point taken now and makes their counts its
   * statistics. Holds the region's maintenance lock: one collection (flush, compaction, split) of a
   * region at a time.
   */
  void collectRegion(Region region) {
    region.maintenanceLock().lock();
    try {
      if (region.isRetired() || dropped) {
        return;
      }
      long startNanos = System.nanoTime();
      long coveredRows = region.changedRows();
      long coveredBytes = region.changedBytes();
      long width = guidePostWidth();
      StatisticsCollector collector =
          new StatisticsCollector(region.regionId(), region.range(), width);
      long readPoint = store.mvcc.beginRead();
      try {
        RegionState state = region.acquireState();
        if (state == null) {
          return; // split meanwhile
        }
        try (RowCursor rows =
            region.scan(
                state, region.range(), readPoint, expiredAtOrBelow(), CachePolicy.NO_CACHE)) {
          while (rows.next()) {
            collector.addRow(
                rows.keyArray(),
                rows.keyOffset(),
                rows.keyLength(),
                (long) rows.keyLength() + rows.valueLength());
          }
        } finally {
          state.release();
        }
      } finally {
        store.mvcc.endRead(readPoint);
      }
      installStatistics(
          region, collector.finish(width, System.currentTimeMillis()), coveredRows, coveredBytes);
      long end = System.nanoTime();
      region.pauseStatisticsUntil(end + BACKGROUND_PAUSE_FACTOR * (end - startNanos));
    } finally {
      region.maintenanceLock().unlock();
    }
  }

  /** Adds this table's rows of the view SYSTEM.STATS (see {@link SystemViews#STATS}). */
  void addStatisticsRows(String schema, String tableName, List<Object[]> out) {
    for (Region r : regions) {
      RegionStatistics rs = statistics.get(r.regionId());
      if (rs == null) {
        out.add(
            new Object[] {
              schema,
              tableName,
              r.regionId(),
              r.range().start().toString(),
              r.range().stop().toString(),
              null,
              null,
              guidePostWidth(),
              null
            });
        continue;
      }
      LocalDateTime at =
          LocalDateTime.ofInstant(
              Instant.ofEpochMilli(rs.collectedAtMillis()), ZoneId.systemDefault());
      for (int i = 0; i < rs.chunks().size(); i++) {
        RegionStatistics.Bucket b = rs.chunks().get(i);
        out.add(
            new Object[] {
              schema,
              tableName,
              r.regionId(),
              b.start().toString(),
              rs.stop(i).toString(),
              b.rows(),
              b.bytes(),
              rs.width(),
              at
            });
      }
    }
  }

  /**
   * The rows the statistics counted plus the mutations applied since (updates and deletes count as
   * rows: an estimate); a region without statistics counts its cells, versions included.
   */
  @Override
  public long approximateRowCount() {
    // split daughters share their parent's files and memstores: count each one once
    Set<Object> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    long cells = 0;
    for (Region r : regions) {
      RegionStatistics rs = statistics.get(r.regionId());
      if (rs != null) {
        cells += rs.rows() + r.changedRows();
        continue;
      }
      RegionState s = r.peekState();
      cells += s.active().cellCount();
      for (Memstore m : s.frozen()) {
        if (seen.add(m)) {
          cells += m.cellCount();
        }
      }
      for (StoreFile f : s.files()) {
        if (seen.add(f)) {
          cells += f.info().cellCount();
        }
      }
    }
    return cells;
  }

  @Override
  public List<RegionInfo> regions() {
    List<RegionInfo> out = new ArrayList<>();
    for (Region r : regions) {
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
