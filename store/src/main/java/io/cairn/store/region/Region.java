package io.cairn.store.region;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.store.cell.CellCursor;
import io.cairn.store.cell.RowCursor;
import io.cairn.store.cell.RowCursors;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.memstore.Memstore;
import io.cairn.store.scan.MergingCursor;
import io.cairn.store.scan.VisibleRows;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A key range of a table and the cells in it: an active memstore, frozen memstores being flushed
 * and block files, published together as an immutable {@link RegionState}. Writers hold the
 * region's write lock while they check conditions and add cells; readers take a state without
 * locking and never block writers. Sequence ids and read points come from the store (one MVCC for
 * all regions), so the region only stores cells; the table orchestrates flushes, compactions and
 * splits and makes them durable in its manifest.
 */
public final class Region {
  private final long regionId;
  private final String tableName;
  private final KeyRange range;
  private final ReentrantLock writeLock = new ReentrantLock();

  /** Serialises flushes and compactions of this region's files (one state change at a time). */
  private final ReentrantLock maintenanceLock = new ReentrantLock();

  private volatile RegionState state;

  /** Every edit with a sequence id at or below this one is in the region's files. */
  private volatile long flushedSequenceId;

  /** Set when the region is split or its table dropped: writers must look the region up again. */
  private volatile boolean retired;

  private volatile boolean dropped;

  /**
   * Whether keys starting with {@link IndexKeys#SPACE_MARKER} are local index entries (the table
   * has or had indexes): they belong to the region holding their row, and data scans leave them
   * out. Set by the table's map for every region it publishes.
   */
  private volatile boolean indexSpace;

  private final java.util.concurrent.atomic.AtomicBoolean filesReleased =
      new java.util.concurrent.atomic.AtomicBoolean();

  /**
   * Mutations and their raw bytes (key + value) applied since the region's statistics were last
   * collected; written under the write lock, read without it (estimates).
   */
  private volatile long changedRows;

  private volatile long changedBytes;

  /** Changes past which the region's statistics are stale ({@link #statisticsStale()}). */
  private volatile long staleRows = Long.MAX_VALUE;

  private volatile long staleBytes = Long.MAX_VALUE;

  /** Background collections of this region wait until then (System.nanoTime()). */
  private volatile long statisticsPausedUntilNanos = System.nanoTime();

  public Region(
      long regionId,
      String tableName,
      KeyRange range,
      List<StoreFile> files,
      List<Memstore> frozen,
      long flushedSequenceId) {
    this.regionId = regionId;
    this.tableName = requireNonNull(tableName, "tableName is null");
    this.range = requireNonNull(range, "range is null");
    this.state = new RegionState(new Memstore(), frozen, files);
    this.flushedSequenceId = flushedSequenceId;
  }

  /** An empty in-memory region. */
  public Region(long regionId, String tableName, KeyRange range) {
    this(regionId, tableName, range, List.of(), List.of(), 0);
  }

  public long regionId() {
    return regionId;
  }

  public KeyRange range() {
    return range;
  }

  public boolean indexSpace() {
    return indexSpace;
  }

  /** Marks the region's table as having local index entries (see {@link #indexSpace}). */
  public void setIndexSpace(boolean indexSpace) {
    this.indexSpace = indexSpace;
  }

  /**
   * Whether the cell key {@code key[offset, offset + length)} belongs to this region: a data key in
   * its range, or an index entry whose row key is.
   */
  public boolean owns(byte[] key, int offset, int length) {
    if (indexSpace && IndexKeys.isEntry(key, offset, length)) {
      int n = IndexKeys.rowKeyLength(key, offset, length);
      int rowStart = offset + length - IndexKeys.SUFFIX_LENGTH - n;
      return range.contains(key, rowStart, rowStart + n);
    }
    return range.contains(key, offset, offset + length);
  }

  public RegionState peekState() {
    return state;
  }

  public long flushedSequenceId() {
    return flushedSequenceId;
  }

  public ReentrantLock writeLock() {
    return writeLock;
  }

  public ReentrantLock maintenanceLock() {
    return maintenanceLock;
  }

  public boolean isRetired() {
    return retired;
  }

  /** Marks the region replaced (split) or gone (dropped); writers then look regions up anew. */
  public void retire() {
    retired = true;
  }

  /** The region's table was dropped: writes and new scans fail; open scans keep their snapshot. */
  public void drop() {
    dropped = true;
    retired = true;
  }

  /** Throws TABLE_NOT_FOUND when the table was dropped. */
  public void checkOpen() {
    if (dropped) {
      throw new CairnException(ErrorCode.TABLE_NOT_FOUND, "Table [" + tableName + "] was dropped");
    }
  }

  /** Throws when {@code key} is outside the region (a caller bug). */
  public void checkContains(Bytes key) {
    if (!range.contains(key)) {
      throw CairnException.internal(
          "Key outside region: expected a key in ["
              + range.start()
              + ", "
              + range.stop()
              + "), found ["
              + key
              + "]");
    }
  }

  // ---- writes (the caller holds the write lock) ----

  /**
   * Whether {@code key} has a row in the latest applied state (applied but not yet visible writes
   * included): the newest cell over memstores and files decides. Caller holds the write lock.
   */
  public boolean rowExists(Bytes key) {
    RegionState s = state;
    Boolean b = s.active().latest(key, Long.MAX_VALUE);
    if (b != null) {
      return b;
    }
    for (Memstore m : s.frozen()) {
      b = m.latest(key, Long.MAX_VALUE);
      if (b != null) {
        return b;
      }
    }
    long newest = -1;
    boolean exists = false;
    for (StoreFile f : s.files()) {
      if (!f.reader().mightContainRow(key)) {
        continue;
      }
      try (CellCursor c = f.reader().cursor()) {
        if (c.seek(key) && c.row().equals(key) && c.sequenceId() > newest) {
          newest = c.sequenceId();
          exists = !c.isDelete();
        }
      }
    }
    return exists;
  }

  /**
   * The sequence id of the newest cell (put or tombstone) of {@code key}, or -1 when it has none; 0
   * for a cell of a file an earlier release compacted. Caller holds the write lock.
   */
  public long latestSequenceId(Bytes key) {
    RegionState s = state;
    long seq = s.active().latestSequenceId(key);
    if (seq >= 0) {
      return seq;
    }
    for (Memstore m : s.frozen()) {
      seq = m.latestSequenceId(key);
      if (seq >= 0) {
        return seq;
      }
    }
    long newest = -1;
    for (StoreFile f : s.files()) {
      if (!f.reader().mightContainRow(key)) {
        continue;
      }
      try (CellCursor c = f.reader().cursor()) {
        if (c.seek(key) && c.row().equals(key)) {
          newest = Math.max(newest, c.sequenceId());
        }
      }
    }
    return newest;
  }

  /**
   * As {@link #rowExists(Bytes)}, a row whose newest cell has a sequence id at or below {@code
   * expiredAtOrBelow} (expired under the table's TTL) counting as absent. Caller holds the write
   * lock.
   */
  public boolean rowExists(Bytes key, long expiredAtOrBelow) {
    if (expiredAtOrBelow < 0) {
      return rowExists(key);
    }
    try (RowCursor rows =
        scan(state, KeyRange.point(key), Long.MAX_VALUE, expiredAtOrBelow, CachePolicy.CACHE)) {
      return rows.next();
    }
  }

  /** Adds the batch's cells at {@code sequenceId}. Caller holds the write lock. */
  public void apply(List<Mutation> mutations, long sequenceId) {
    state.active().apply(mutations, sequenceId);
    long bytes = 0;
    long rows = 0;
    for (Mutation m : mutations) {
      if (!indexSpace || !IndexKeys.isEntry(m.key())) {
        rows++; // an index entry is not a row
      }
      bytes += m.key().length() + (m instanceof Mutation.Put put ? put.value().length() : 0);
    }
    // one writer at a time: the caller holds the write lock
    changedRows += rows;
    changedBytes += bytes;
  }

  // ---- statistics bookkeeping ----

  /** Mutations applied since the statistics were collected (updates and deletes included). */
  public long changedRows() {
    return changedRows;
  }

  /** Raw bytes (key + value) of the mutations applied since the statistics were collected. */
  public long changedBytes() {
    return changedBytes;
  }

  /**
   * Records that statistics covering {@code rows} and {@code bytes} of the changes counted so far
   * were installed (all of them for a collection that read the region, the flushed part for a
   * flush), and when the remaining changes make them stale.
   */
  public void statisticsCollected(long rows, long bytes, long staleRows, long staleBytes) {
    writeLock.lock();
    try {
      changedRows = Math.max(0, changedRows - rows);
      changedBytes = Math.max(0, changedBytes - bytes);
      this.staleRows = staleRows;
      this.staleBytes = staleBytes;
    } finally {
      writeLock.unlock();
    }
  }

  public long statisticsPausedUntilNanos() {
    return statisticsPausedUntilNanos;
  }

  /** Background collections of this region wait until {@code nanos} (System.nanoTime()). */
  public void pauseStatisticsUntil(long nanos) {
    statisticsPausedUntilNanos = nanos;
  }

  /** Whether enough was written since the last collection to collect the statistics again. */
  public boolean statisticsStale() {
    return changedRows > staleRows || changedBytes > staleBytes;
  }

  /**
   * Removes the cells {@link #apply} added (a write whose log append failed). The cells may have
   * moved to a frozen memstore since; they are removed wherever they are.
   */
  public void rollback(List<Mutation> mutations, long sequenceId) {
    RegionState s = state;
    for (Mutation m : mutations) {
      s.active().remove(m.key(), sequenceId);
      for (Memstore f : s.frozen()) {
        f.remove(m.key(), sequenceId);
      }
    }
  }

  public long memstoreBytes() {
    RegionState s = state;
    long n = s.active().heapSize();
    for (Memstore m : s.frozen()) {
      n += m.heapSize();
    }
    return n;
  }

  public long activeMemstoreBytes() {
    return state.active().heapSize();
  }

  public long fileBytes() {
    long n = 0;
    for (StoreFile f : state.files()) {
      n += f.sizeBytes();
    }
    return n;
  }

  /** Sequence id of the oldest edit not yet in a file, or Long.MAX_VALUE when none. */
  public long oldestUnflushedSequenceId() {
    RegionState s = state;
    long min = s.active().minSequenceId();
    for (Memstore m : s.frozen()) {
      min = Math.min(min, m.minSequenceId());
    }
    return min;
  }

  // ---- state changes (the table calls these holding the maintenance lock) ----

  /**
   * Freezes the active memstore for a flush and starts a new one; returns the frozen memstore, or
   * null when the active one is empty.
   */
  public Memstore freeze() {
    writeLock.lock();
    try {
      RegionState s = state;
      if (s.active().isEmpty()) {
        return null;
      }
      List<Memstore> frozen = new ArrayList<>(s.frozen().size() + 1);
      frozen.add(s.active());
      frozen.addAll(s.frozen());
      state = new RegionState(new Memstore(), frozen, s.files());
      return s.active();
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Replaces flushed memstores by the file written from them (null when they held nothing in this
   * region's range), and records that every edit up to {@code flushedUpTo} is in files. The file
   * reference passes to the region.
   */
  public void completeFlush(List<Memstore> flushed, StoreFile file, long flushedUpTo) {
    writeLock.lock();
    try {
      RegionState s = state;
      List<Memstore> frozen = new ArrayList<>(s.frozen());
      frozen.removeAll(flushed);
      List<StoreFile> files = new ArrayList<>(s.files().size() + 1);
      if (file != null) {
        files.add(file);
      }
      files.addAll(s.files());
      state = new RegionState(s.active(), frozen, files);
      flushedSequenceId = Math.max(flushedSequenceId, flushedUpTo);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Replaces compacted files by their output (null when nothing survived) at the position of the
   * oldest input. The caller releases the region's references to the inputs once the manifest
   * without them is durable.
   */
  public void replaceFiles(List<StoreFile> inputs, StoreFile output) {
    writeLock.lock();
    try {
      RegionState s = state;
      state = new RegionState(s.active(), s.frozen(), replaced(s.files(), inputs, output));
    } finally {
      writeLock.unlock();
    }
  }

  /** {@code files} with {@code inputs} replaced by {@code output} at the oldest input's place. */
  public static List<StoreFile> replaced(
      List<StoreFile> files, List<StoreFile> inputs, StoreFile output) {
    List<StoreFile> result = new ArrayList<>(files.size());
    int insertAt = -1;
    for (StoreFile f : files) {
      if (inputs.contains(f)) {
        insertAt = result.size();
      } else {
        result.add(f);
      }
    }
    if (output != null) {
      result.add(insertAt < 0 ? result.size() : insertAt, output);
    }
    return result;
  }

  /**
   * Releases the region's file references when its table is dropped or the region split; only the
   * first call releases.
   */
  public void releaseFiles() {
    if (filesReleased.compareAndSet(false, true)) {
      state.files().forEach(StoreFile::release);
    }
  }

  // ---- reads ----

  /**
   * The current state with a reference on each of its files, for a scan; release it with {@link
   * RegionState#release()}. Null when the region was split and its files are gone (the caller looks
   * the regions up again).
   *
   * @throws CairnException TABLE_NOT_FOUND when the table was dropped
   */
  public RegionState acquireState() {
    while (true) {
      RegionState s = state;
      List<StoreFile> retained = new ArrayList<>(s.files().size());
      boolean ok = true;
      for (StoreFile f : s.files()) {
        if (f.tryRetain()) {
          retained.add(f);
        } else {
          ok = false;
          break;
        }
      }
      if (ok) {
        return s;
      }
      retained.forEach(StoreFile::release);
      if (state == s) {
        // only a retired region keeps a state whose files are released
        checkOpen();
        return null;
      }
      // else a compaction published a new state: take it
    }
  }

  /**
   * The visible rows of {@code scanRange} clipped to this region, at {@code readPoint}, read from
   * {@code s} (a state the caller acquired and keeps until the rows are consumed), treating data
   * blocks missing from the block cache by {@code policy}.
   */
  public RowCursor scan(RegionState s, KeyRange scanRange, long readPoint, CachePolicy policy) {
    return scan(s, scanRange, readPoint, -1, policy);
  }

  /**
   * As {@link #scan(RegionState, KeyRange, long, CachePolicy)}, leaving out rows whose newest
   * visible cell has a sequence id at or below {@code expiredAtOrBelow} (TTL; -1: none).
   */
  public RowCursor scan(
      RegionState s,
      KeyRange scanRange,
      long readPoint,
      long expiredAtOrBelow,
      CachePolicy policy) {
    KeyRange clipped = intersect(scanRange, range);
    if (clipped == null) {
      return RowCursors.EMPTY;
    }
    if (indexSpace && intersect(clipped, IndexKeys.SPACE) != null) {
      // the rows around the index entries: before the space, then after it
      List<RowCursor> pieces = new ArrayList<>(2);
      KeyRange before = intersect(clipped, new KeyRange(Bytes.EMPTY, IndexKeys.SPACE.start()));
      KeyRange after = intersect(clipped, new KeyRange(IndexKeys.SPACE.stop(), Bytes.EMPTY));
      for (KeyRange piece : new KeyRange[] {before, after}) {
        if (piece != null) {
          pieces.add(rows(s, piece, readPoint, expiredAtOrBelow, policy));
        }
      }
      return RowCursors.concat(pieces);
    }
    return rows(s, clipped, readPoint, expiredAtOrBelow, policy);
  }

  /**
   * The visible index entries of {@code entryRange} (inside {@link IndexKeys#SPACE}) that belong to
   * this region (whose row key is in its range), at {@code readPoint}, read from {@code s}.
   */
  public RowCursor scanEntries(
      RegionState s,
      KeyRange entryRange,
      long readPoint,
      long expiredAtOrBelow,
      CachePolicy policy) {
    if (intersect(entryRange, IndexKeys.SPACE) == null) {
      throw CairnException.internal(
          "An index scan's range: expected one inside the index key space, found ["
              + entryRange.start()
              + ", "
              + entryRange.stop()
              + ")");
    }
    RowCursor rows = rows(s, entryRange, readPoint, expiredAtOrBelow, policy);
    return RowCursors.filter(rows, this::owns);
  }

  private RowCursor rows(
      RegionState s, KeyRange clipped, long readPoint, long expiredAtOrBelow, CachePolicy policy) {
    List<CellCursor> sources = new ArrayList<>(1 + s.frozen().size() + s.files().size());
    if (!s.active().isEmpty()) {
      sources.add(s.active().cursor());
    }
    for (Memstore m : s.frozen()) {
      sources.add(m.cursor());
    }
    boolean point = clipped.isPoint();
    for (StoreFile f : s.files()) {
      if (overlaps(f, clipped) && (!point || f.reader().mightContainRow(clipped.start()))) {
        sources.add(f.reader().cursor(policy));
      }
    }
    if (sources.isEmpty()) {
      return RowCursors.EMPTY;
    }
    return new VisibleRows(MergingCursor.of(sources), clipped, readPoint, expiredAtOrBelow);
  }

  private static boolean overlaps(StoreFile f, KeyRange r) {
    Bytes first = f.info().firstRow();
    Bytes last = f.info().lastRow();
    return (r.stop().isEmpty() || first.compareTo(r.stop()) < 0) && last.compareTo(r.start()) >= 0;
  }

  /** The overlap of two ranges, or null when they do not overlap. */
  public static KeyRange intersect(KeyRange a, KeyRange b) {
    Bytes start = a.start().compareTo(b.start()) >= 0 ? a.start() : b.start();
    Bytes stop;
    if (a.stop().isEmpty()) {
      stop = b.stop();
    } else if (b.stop().isEmpty()) {
      stop = a.stop();
    } else {
      stop = a.stop().compareTo(b.stop()) <= 0 ? a.stop() : b.stop();
    }
    KeyRange result = new KeyRange(start, stop);
    return result.isEmptyRange() ? null : result;
  }

  @Override
  public String toString() {
    return tableName + "/" + regionId + "[" + range.start() + ", " + range.stop() + ")";
  }
}
