package io.cairn.store.stats;

import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexStatistics;
import io.cairn.kv.KeyRange;
import io.cairn.kv.TableStatistics;
import io.cairn.store.cell.RowCursor;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.region.RegionState;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.IntPredicate;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The statistics of a table's local indexes, one {@link IndexRegionStatistics} per (region, index):
 * collected with the region's own (UPDATE STATISTICS, background refreshes, after an index build),
 * restored from SYSTEM.STATS at open, halved between the daughters of a split, dropped with their
 * index. Read as an index's {@link IndexStatistics} and its rows of SYSTEM.INDEX_STATS. Each change
 * goes to a {@link Listener} (the store persists it in the background).
 *
 * <p>A collection reads the entries a region owns (those of its own rows) of each index at one read
 * point, cuts them at guide posts with a {@link StatisticsCollector} and counts the changes of the
 * first key part's encoded value (key-part encodings are prefix-free, so an entry that starts with
 * the previous value's bytes has the same value): exact per region.
 *
 * <p>Locks: as {@link StatisticsKeeper}: {@link #collect} takes the region's maintenance lock; the
 * map is concurrent.
 */
public final class IndexStatisticsKeeper {
  /** Told each change of an index's statistics in a region. */
  public interface Listener {
    /** {@code after} replaced {@code before} (null: none). */
    void changed(IndexRegionStatistics before, IndexRegionStatistics after);

    /** They went (a dropped index or table, a split's parent). */
    void removed(List<IndexRegionStatistics> removed);
  }

  /** An index to collect: its id, and its first key part's type and order. */
  public record Target(int indexId, DataType firstPartType, SortOrder firstPartOrder) {}

  /** By region id, then index id. */
  private final Map<Long, Map<Integer, IndexRegionStatistics>> statistics =
      new ConcurrentHashMap<>();

  private final BooleanSupplier dropped;
  private final IntPredicate live;
  private final Listener listener;

  /**
   * Index statistics of a table; none are installed once {@code dropped} says so, nor for an index
   * {@code live} no longer holds (dropped meanwhile).
   */
  public IndexStatisticsKeeper(BooleanSupplier dropped, IntPredicate live, Listener listener) {
    this.dropped = dropped;
    this.live = live;
    this.listener = listener;
  }

  /** The statistics of index {@code indexId} in the region; null when it has none. */
  public IndexRegionStatistics get(long regionId, int indexId) {
    Map<Integer, IndexRegionStatistics> m = statistics.get(regionId);
    return m == null ? null : m.get(indexId);
  }

  private void install(IndexRegionStatistics s) {
    if (dropped.getAsBoolean() || !live.test(s.indexId())) {
      return;
    }
    IndexRegionStatistics before =
        statistics
            .computeIfAbsent(s.regionId(), k -> new ConcurrentHashMap<>())
            .put(s.indexId(), s);
    listener.changed(before, s);
  }

  /**
   * Reads the entries of each of {@code targets} that the region owns, at a read point taken now,
   * entries at or below the TTL cutoff being invisible, and makes their counts the region's
   * statistics of each index, cut at guide posts {@code width} apart. Holds the region's
   * maintenance lock.
   */
  public void collect(
      Region region, Mvcc mvcc, LongSupplier expiredAtOrBelow, long width, List<Target> targets) {
    if (targets.isEmpty()) {
      return;
    }
    region.maintenanceLock().lock();
    try {
      if (region.isRetired() || dropped.getAsBoolean()) {
        return;
      }
      List<IndexRegionStatistics> collected = new ArrayList<>(targets.size());
      long readPoint = mvcc.beginRead();
      try {
        RegionState state = region.acquireState();
        if (state == null) {
          return; // split meanwhile
        }
        try {
          long expired = expiredAtOrBelow.getAsLong();
          for (Target t : targets) {
            collected.add(collect(region, state, readPoint, expired, width, t));
          }
        } finally {
          state.release();
        }
      } finally {
        mvcc.endRead(readPoint);
      }
      collected.forEach(this::install);
    } finally {
      region.maintenanceLock().unlock();
    }
  }

  private static IndexRegionStatistics collect(
      Region region, RegionState state, long readPoint, long expired, long width, Target target) {
    KeyRange range = IndexKeys.range(target.indexId());
    StatisticsCollector collector = new StatisticsCollector(region.regionId(), range, width);
    FirstPartCounter distinct =
        new FirstPartCounter(target.firstPartType(), target.firstPartOrder());
    try (RowCursor entries =
        region.scanEntries(state, range, readPoint, expired, CachePolicy.NO_CACHE)) {
      while (entries.next()) {
        byte[] key = entries.keyArray();
        int offset = entries.keyOffset();
        int length = entries.keyLength();
        collector.addRow(key, offset, length, (long) length + entries.valueLength());
        distinct.add(key, offset, length);
      }
    }
    return new IndexRegionStatistics(
        target.indexId(), collector.finish(width, System.currentTimeMillis()), distinct.count());
  }

  /** Keeps the statistics of the indexes {@code live} holds, dropping the others'. */
  public void retain(IntPredicate keep) {
    List<IndexRegionStatistics> removed = new ArrayList<>();
    for (Map<Integer, IndexRegionStatistics> m : statistics.values()) {
      m.values()
          .removeIf(
              s -> {
                if (keep.test(s.indexId())) {
                  return false;
                }
                removed.add(s);
                return true;
              });
    }
    if (!removed.isEmpty()) {
      listener.removed(removed);
    }
  }

  /**
   * {@code parent} is about to be split into {@code low} and {@code high}: each gets half its
   * counts of each index (a daughter owns about half the parent's rows, hence its entries).
   */
  public void split(Region parent, Region low, Region high) {
    Map<Integer, IndexRegionStatistics> m = statistics.get(parent.regionId());
    if (m == null) {
      return;
    }
    for (IndexRegionStatistics s : List.copyOf(m.values())) {
      install(s.half(low.regionId()));
      install(s.half(high.regionId()));
    }
  }

  /** {@code parent} was split and is retired: its statistics go. */
  public void retired(Region parent) {
    Map<Integer, IndexRegionStatistics> m = statistics.remove(parent.regionId());
    if (m != null && !m.isEmpty()) {
      listener.removed(List.copyOf(m.values()));
    }
  }

  /** The table was dropped: every statistics goes. */
  public void drop() {
    List<IndexRegionStatistics> all = new ArrayList<>();
    statistics.values().forEach(m -> all.addAll(m.values()));
    statistics.clear();
    listener.removed(all);
  }

  /**
   * At open: statistics read back from SYSTEM.STATS; false when their region is not (or no more)
   * among {@code regions}.
   */
  public boolean restore(Region[] regions, IndexRegionStatistics s) {
    for (Region r : regions) {
      if (r.regionId() == s.regionId()) {
        statistics
            .computeIfAbsent(r.regionId(), k -> new ConcurrentHashMap<>())
            .put(s.indexId(), s);
        return true;
      }
    }
    return false;
  }

  /**
   * The statistics of index {@code indexId} over the regions {@code regions} gives now (read again
   * when a split retired one meanwhile); a region without any gives one chunk of unknown counts
   * (-1). Empty when no region has any.
   */
  public Optional<IndexStatistics> indexStatistics(
      Supplier<Region[]> regions, int indexId, long guidePostWidth) {
    while (true) {
      Region[] rs = regions.get();
      Optional<IndexStatistics> s = indexStatistics(rs, indexId, guidePostWidth);
      boolean retired = false;
      for (Region r : rs) {
        retired |= r.isRetired();
      }
      if (!retired || dropped.getAsBoolean()) {
        return s;
      }
    }
  }

  private Optional<IndexStatistics> indexStatistics(
      Region[] regions, int indexId, long guidePostWidth) {
    KeyRange range = IndexKeys.range(indexId);
    List<TableStatistics.Chunk> chunks = new ArrayList<>();
    boolean any = false;
    long minDistinct = 0;
    long maxDistinct = 0;
    long collectedAt = Long.MAX_VALUE;
    for (Region r : regions) {
      IndexRegionStatistics s = get(r.regionId(), indexId);
      if (s == null) {
        chunks.add(new TableStatistics.Chunk(r.regionId(), range.start(), range.stop(), -1, -1));
        minDistinct = -1;
        maxDistinct = -1;
        collectedAt = 0;
        continue;
      }
      any = true;
      s.statistics().addTo(chunks);
      collectedAt = Math.min(collectedAt, s.statistics().collectedAtMillis());
      if (s.distinctFirstParts() < 0 || maxDistinct < 0) {
        minDistinct = -1;
        maxDistinct = -1;
      } else {
        minDistinct = Math.max(minDistinct, s.distinctFirstParts());
        maxDistinct += s.distinctFirstParts();
      }
    }
    if (!any) {
      return Optional.empty();
    }
    return Optional.of(
        new IndexStatistics(
            indexId, guidePostWidth, chunks, minDistinct, maxDistinct, collectedAt));
  }

  /**
   * Adds the rows of the view SYSTEM.INDEX_STATS of index {@code indexName} ({@code indexId}) of
   * table {@code schema}.{@code tableName}: one per chunk of each region, or one of null counts for
   * a region never collected.
   */
  public void addRows(
      Region[] regions,
      long guidePostWidth,
      String schema,
      String tableName,
      String indexName,
      int indexId,
      List<Object[]> out) {
    KeyRange range = IndexKeys.range(indexId);
    for (Region r : regions) {
      IndexRegionStatistics s = get(r.regionId(), indexId);
      if (s == null) {
        out.add(
            new Object[] {
              schema,
              tableName,
              indexName,
              r.regionId(),
              range.start().toString(),
              range.stop().toString(),
              null,
              null,
              null,
              guidePostWidth,
              null
            });
        continue;
      }
      RegionStatistics rs = s.statistics();
      LocalDateTime at =
          LocalDateTime.ofInstant(
              Instant.ofEpochMilli(rs.collectedAtMillis()), ZoneId.systemDefault());
      for (int i = 0; i < rs.chunks().size(); i++) {
        RegionStatistics.Bucket b = rs.chunks().get(i);
        out.add(
            new Object[] {
              schema,
              tableName,
              indexName,
              r.regionId(),
              b.start().toString(),
              rs.stop(i).toString(),
              b.rows(),
              b.bytes(),
              s.distinctFirstParts() < 0 ? null : s.distinctFirstParts(),
              rs.width(),
              at
            });
      }
    }
  }
}
