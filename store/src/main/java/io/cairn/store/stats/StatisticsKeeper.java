package io.cairn.store.stats;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.ColumnStatistics;
import io.cairn.kv.TableStatistics;
import io.cairn.store.cell.RowCursor;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.memstore.Memstore;
import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.region.RegionState;
import io.cairn.store.region.StoreFile;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A table's statistics, one {@link RegionStatistics} per region id: installed by flushes,
 * compactions, splits and collections, restored from SYSTEM.STATS at open, and read as the table's
 * {@link TableStatistics}, its SYSTEM.STATS rows and its row count estimate. Each change goes to a
 * {@link Listener} (the store persists it in the background). Methods that read take the table's
 * regions now, in key order.
 *
 * <p>Locks: callers hold none, except that {@link #split} runs under the table's manifest lock with
 * the parent's write lock (a split); {@link #collect} takes the region's maintenance lock itself.
 * The map of statistics is concurrent: readers see each region's latest.
 */
public final class StatisticsKeeper {
  /** Changes past which a region's statistics are refreshed: this share of its rows or bytes... */
  public static final int STALE_PERCENT = 10;

  /** ...but never fewer than this many mutations... */
  public static final long STALE_MIN_ROWS = 1000;

  /** ...or this many raw bytes. */
  public static final long STALE_MIN_BYTES = 4L << 20;

  /**
   * A background collection of a region waits this many times the previous one's duration after it:
   * collections read a region at most a tenth of the time.
   */
  public static final long BACKGROUND_PAUSE_FACTOR = 9;

  /** Rows a collection reads between two checks for its thread's interrupt (a closing store). */
  public static final int STOP_CHECK_ROWS = 4096;

  /** Told each change of a region's statistics. */
  public interface Listener {
    /** {@code after} replaced {@code before} (null: none). */
    void changed(RegionStatistics before, RegionStatistics after);

    /** Regions went (a split's parent, a dropped table). */
    void removed(List<RegionStatistics> removed);

    /** A region's column statistics are now {@code after}. */
    default void columnsChanged(RegionColumnStatistics after) {}

    /** The column statistics of these regions went. */
    default void columnsRemoved(List<Long> regionIds) {}

    /** At open: the column statistics of the region read back (persisted), or null. */
    default RegionColumnStatistics restoredColumns(long regionId) {
      return null;
    }
  }

  /**
   * Each region's statistics by region id; none for a region never collected (a store written
   * before statistics existed, or whose statistics rows were lost).
   */
  private final Map<Long, RegionStatistics> statistics = new ConcurrentHashMap<>();

  /** Each region's column statistics by region id (collected only once a layout is defined). */
  private final Map<Long, RegionColumnStatistics> columns = new ConcurrentHashMap<>();

  /** Counts the changes of {@link #columns}: the merged statistics are kept until the next. */
  private final java.util.concurrent.atomic.AtomicLong columnsVersion =
      new java.util.concurrent.atomic.AtomicLong();

  /** The table's column statistics as last merged, with the version and regions merged. */
  private record MergedColumns(long version, Region[] regions, List<ColumnStatistics> columns) {}

  private volatile MergedColumns merged;

  /** The layout of the table's rows, for the column statistics; null until defined. */
  private volatile RowLayout layout;

  private final BooleanSupplier dropped;
  private final Listener listener;

  /** Statistics of a table; none are installed once {@code dropped} says so. */
  public StatisticsKeeper(BooleanSupplier dropped, Listener listener) {
    this.dropped = dropped;
    this.listener = listener;
  }

  /**
   * The layout of the table's rows: from now on collections count each column's values (the
   * statistics of a region collected with an older layout are dropped when its version differs).
   */
  public void defineLayout(RowLayout newLayout) {
    RowLayout before = layout;
    layout = newLayout;
    if (before != null && !before.equals(newLayout)) {
      columns.clear();
    } else if (before == null) { // restored ones of another layout go
      columns
          .values()
          .removeIf(
              c ->
                  c.layoutVersion() != newLayout.schemaVersion()
                      || c.columns().size() != newLayout.columnCount());
    }
    columnsVersion.incrementAndGet();
  }

  /** The region's column statistics; null when it has none. */
  public RegionColumnStatistics columns(long regionId) {
    return columns.get(regionId);
  }

  /**
   * Makes {@code stats} the region's column statistics (they were collected with the current
   * layout); a restore at open or a test.
   */
  public void installColumns(RegionColumnStatistics stats) {
    if (!dropped.getAsBoolean()) {
      columns.put(stats.regionId(), stats);
      columnsVersion.incrementAndGet();
      listener.columnsChanged(stats);
    }
  }

  /**
   * The table's column statistics over {@code regions}; empty when a region has none (never
   * collected since the layout was defined) or no layout is defined.
   */
  public List<ColumnStatistics> columnStatistics(Region[] regions) {
    if (layout == null) {
      return List.of();
    }
    long version = columnsVersion.get();
    MergedColumns last = merged;
    if (last != null && last.version() == version && last.regions() == regions) {
      return last.columns();
    }
    List<ColumnStatistics> out = mergeColumns(regions);
    merged = new MergedColumns(version, regions, out);
    return out;
  }

  private List<ColumnStatistics> mergeColumns(Region[] regions) {
    List<RegionColumnStatistics> found = new ArrayList<>(regions.length);
    for (Region r : regions) {
      RegionColumnStatistics c = columns.get(r.regionId());
      if (c == null) {
        return List.of();
      }
      found.add(c);
    }
    return RegionColumnStatistics.merge(found);
  }

  /** The region's statistics; null when it has none. */
  public RegionStatistics get(long regionId) {
    return statistics.get(regionId);
  }

  /**
   * Makes {@code stats} the region's statistics; they cover {@code coveredRows} and {@code
   * coveredBytes} of the changes the region counted (what the collection read or the flush wrote).
   * Persisted in the background.
   */
  public void install(Region region, RegionStatistics stats, long coveredRows, long coveredBytes) {
    if (dropped.getAsBoolean()) {
      return;
    }
    RegionStatistics before = statistics.put(region.regionId(), stats);
    if (columnsBehind(region.regionId(), stats)) {
      // a flush's counts: the columns' are only collected, so the next write asks for a collection
      // (and the table asks for one at once, see EmbeddedTable.installStatistics)
      region.statisticsCollected(0, 0, 0, 0);
    } else {
      region.statisticsCollected(
          coveredRows,
          coveredBytes,
          Math.max(STALE_MIN_ROWS, stats.rows() * STALE_PERCENT / 100),
          Math.max(STALE_MIN_BYTES, stats.bytes() * STALE_PERCENT / 100));
    }
    listener.changed(before, stats);
  }

  /**
   * Whether the region has statistics while its column statistics are missing or counted fewer than
   * half its rows (see {@link #columnsBehind(long, RegionStatistics)}): a collection is wanted even
   * if nothing is written to it again (a table loaded by a process that ended before its background
   * collections ran, then opened).
   */
  public boolean columnsBehind(Region region) {
    RegionStatistics stats = statistics.get(region.regionId());
    return stats != null && columnsBehind(region.regionId(), stats);
  }

  /**
   * Whether the region's column statistics are missing or counted fewer than half its rows now
   * (with {@value #STALE_MIN_ROWS} rows of slack), while a layout is defined.
   */
  private boolean columnsBehind(long regionId, RegionStatistics stats) {
    if (layout == null) {
      return false;
    }
    RegionColumnStatistics c = columns.get(regionId);
    long counted = c == null || c.columns().isEmpty() ? -1 : c.columns().get(0).rows();
    return counted < 0 ? stats.rows() > 0 : stats.rows() > 2 * counted + STALE_MIN_ROWS;
  }

  /**
   * Reads the region's visible rows at a read point taken now from {@code mvcc}, rows at or below
   * the TTL cutoff {@code expiredAtOrBelow} gives being invisible, and makes their counts its
   * statistics, cut at guide posts {@code width} apart. Holds the region's maintenance lock: one
   * collection (flush, compaction, split) of a region at a time.
   */
  public void collect(Region region, Mvcc mvcc, LongSupplier expiredAtOrBelow, long width) {
    region.maintenanceLock().lock();
    try {
      if (region.isRetired() || dropped.getAsBoolean()) {
        return;
      }
      long startNanos = System.nanoTime();
      long coveredRows = region.changedRows();
      long coveredBytes = region.changedBytes();
      StatisticsCollector collector =
          new StatisticsCollector(region.regionId(), region.range(), width);
      RowLayout rowLayout = layout;
      RegionColumnStatistics.Collector columnCollector =
          rowLayout == null ? null : new RegionColumnStatistics.Collector(rowLayout);
      long readPoint = mvcc.beginRead();
      try {
        RegionState state = region.acquireState();
        if (state == null) {
          return; // split meanwhile
        }
        try (RowCursor rows =
            region.scan(
                state,
                region.range(),
                readPoint,
                expiredAtOrBelow.getAsLong(),
                CachePolicy.NO_CACHE)) {
          int sinceCheck = 0;
          while (rows.next()) {
            if (++sinceCheck == STOP_CHECK_ROWS) {
              sinceCheck = 0;
              if (Thread.currentThread().isInterrupted()) {
                // the store closes (BackgroundWork.stopStatistics): nothing counted is installed
                throw new CairnException(
                    ErrorCode.OBJECT_CLOSED,
                    "Statistics collection of region [" + region.regionId() + "] interrupted");
              }
            }
            collector.addRow(
                rows.keyArray(),
                rows.keyOffset(),
                rows.keyLength(),
                (long) rows.keyLength() + rows.valueLength());
            if (columnCollector != null) {
              columnCollector.addRow(
                  rows.keyArray(),
                  rows.keyOffset(),
                  rows.keyLength(),
                  rows.valueBuffer(),
                  rows.valueOffset(),
                  rows.valueLength());
            }
          }
        } finally {
          state.release();
        }
      } finally {
        mvcc.endRead(readPoint);
      }
      long now = System.currentTimeMillis();
      if (columnCollector != null && layout == rowLayout && !dropped.getAsBoolean()) {
        RegionColumnStatistics counted = columnCollector.finish(region.regionId(), now);
        if (counted == null) {
          columns.remove(region.regionId());
          listener.columnsRemoved(List.of(region.regionId()));
        } else {
          columns.put(region.regionId(), counted);
          listener.columnsChanged(counted);
        }
        columnsVersion.incrementAndGet();
      }
      install(region, collector.finish(width, now), coveredRows, coveredBytes);
      long end = System.nanoTime();
      region.pauseStatisticsUntil(end + BACKGROUND_PAUSE_FACTOR * (end - startNanos));
    } finally {
      region.maintenanceLock().unlock();
    }
  }

  /**
   * {@code parent} is about to be split into {@code low} and {@code high}: they get its statistics,
   * clipped, before they are published, and the parent keeps its own until {@link #retired}. So a
   * reader of the regions sees either the parent or both daughters with statistics, never a
   * daughter without any (which would count the whole of the files it shares with its sister).
   */
  public void split(Region parent, Region low, Region high) {
    RegionColumnStatistics parentColumns = columns.get(parent.regionId());
    if (parentColumns != null) {
      for (Region daughter : new Region[] {low, high}) {
        RegionColumnStatistics half = parentColumns.half(daughter.regionId());
        columns.put(daughter.regionId(), half);
        listener.columnsChanged(half);
      }
      columnsVersion.incrementAndGet();
    }
    RegionStatistics parentStatistics = statistics.get(parent.regionId());
    if (parentStatistics != null) {
      install(low, parentStatistics.clip(low.regionId(), low.range()), 0, 0);
      install(high, parentStatistics.clip(high.regionId(), high.range()), 0, 0);
    }
  }

  /**
   * {@code parent} was split and is retired (its daughters are published): its statistics go.
   * Readers that still hold the regions from before see it retired and read the regions again.
   */
  public void retired(Region parent) {
    if (columns.remove(parent.regionId()) != null) {
      columnsVersion.incrementAndGet();
      listener.columnsRemoved(List.of(parent.regionId()));
    }
    RegionStatistics parentStatistics = statistics.remove(parent.regionId());
    if (parentStatistics != null) {
      listener.removed(List.of(parentStatistics));
    }
  }

  /** The table was dropped: every region's statistics go. */
  public void drop() {
    listener.removed(List.copyOf(statistics.values()));
    statistics.clear();
    listener.columnsRemoved(List.copyOf(columns.keySet()));
    columns.clear();
    columnsVersion.incrementAndGet();
  }

  /**
   * At open: statistics read back from SYSTEM.STATS; false when the region is not (or no more)
   * among {@code regions}.
   */
  public boolean restore(Region[] regions, RegionStatistics stats) {
    for (Region r : regions) {
      if (r.regionId() == stats.regionId() && r.range().equals(stats.range())) {
        statistics.put(r.regionId(), stats);
        RegionColumnStatistics restored = listener.restoredColumns(r.regionId());
        if (restored != null) {
          columns.put(r.regionId(), restored);
          columnsVersion.incrementAndGet();
        }
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
  public List<RegionStatistics> regionStatistics(Region[] regions) {
    List<RegionStatistics> out = new ArrayList<>();
    for (Region r : regions) {
      RegionStatistics rs = statistics.get(r.regionId());
      if (rs != null) {
        out.add(rs);
      }
    }
    return out;
  }

  /**
   * The table's statistics, from the regions {@code regions} gives now (read again when a split
   * retired one of them meanwhile); a region without any counts its size and no rows (-1).
   */
  public TableStatistics tableStatistics(Supplier<Region[]> regions, long guidePostWidth) {
    while (true) {
      Region[] rs = regions.get();
      TableStatistics t = tableStatistics(rs, guidePostWidth);
      if (!anyRetired(rs)) {
        return t;
      }
    }
  }

  private TableStatistics tableStatistics(Region[] regions, long guidePostWidth) {
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
    return new TableStatistics(guidePostWidth, chunks, collectedAt, columnStatistics(regions));
  }

  /** Adds the table's rows of the view SYSTEM.STATS, named {@code schema}.{@code tableName}. */
  public void addRows(
      Region[] regions, long guidePostWidth, String schema, String tableName, List<Object[]> out) {
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
              guidePostWidth,
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
   * rows: an estimate), over the regions {@code regions} gives now (read again when a split retired
   * one of them meanwhile: its statistics may be gone); a region without statistics counts its
   * cells, versions included.
   */
  public long approximateRowCount(Supplier<Region[]> regions) {
    while (true) {
      Region[] rs = regions.get();
      long count = approximateRowCount(rs);
      // checked after reading the statistics: a parent's go only after it is retired
      if (!anyRetired(rs)) {
        return count;
      }
    }
  }

  /**
   * Whether a region is retired: a split published new regions, or the table was dropped (then its
   * regions stay retired: the caller's snapshot is as good as any).
   */
  private boolean anyRetired(Region[] regions) {
    if (dropped.getAsBoolean()) {
      return false;
    }
    for (Region r : regions) {
      if (r.isRetired()) {
        return true;
      }
    }
    return false;
  }

  private long approximateRowCount(Region[] regions) {
    // the common case (asked by every execution of a cached plan): every region has statistics
    long counted = 0;
    for (Region r : regions) {
      RegionStatistics rs = statistics.get(r.regionId());
      if (rs == null) {
        return approximateRowCountByFiles(regions);
      }
      counted += rs.rows() + r.changedRows();
    }
    return counted;
  }

  /** {@link #approximateRowCount(Region[])} when a region has no statistics yet. */
  private long approximateRowCountByFiles(Region[] regions) {
    // split daughters share their parent's files and memstores: count each one once; a daughter
    // whose statistics are not collected yet counts the shared files whole, so the daughters it
    // shares them with count by their files too (not by their statistics' half of them)
    Set<Region> byFiles = Collections.newSetFromMap(new IdentityHashMap<>());
    Map<StoreFile, List<Region>> users = new IdentityHashMap<>();
    for (Region r : regions) {
      if (statistics.get(r.regionId()) == null) {
        byFiles.add(r);
      }
      for (StoreFile f : r.peekState().files()) {
        users.computeIfAbsent(f, k -> new ArrayList<>()).add(r);
      }
    }
    boolean changed = !byFiles.isEmpty();
    while (changed) {
      changed = false;
      for (List<Region> sharing : users.values()) {
        if (sharing.size() > 1
            && sharing.stream().anyMatch(byFiles::contains)
            && !byFiles.containsAll(sharing)) {
          byFiles.addAll(sharing);
          changed = true;
        }
      }
    }
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    long cells = 0;
    for (Region r : regions) {
      RegionStatistics rs = statistics.get(r.regionId());
      if (rs != null && !byFiles.contains(r)) {
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
}
