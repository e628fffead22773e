package io.cairn.store.stats;

import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps {@value StatisticsTable#NAME} in step with the regions' statistics in a durable store: at
 * open, reads the rows back and hands each region its statistics ({@link #open}), deleting the rows
 * no region takes; afterwards, rewrites a region's rows when its statistics change and deletes them
 * when regions go, in the background and in the order asked (on the {@code worker} the store hands
 * in). Before {@link #open} (and so always in memory) it writes nothing.
 *
 * <p>Locks: none of its own. Callers may hold a region's maintenance lock (the changes only queue a
 * write); the writes commit through the store ({@code commit}), which takes the locks of {@value
 * StatisticsTable#NAME}'s regions.
 */
public final class StatisticsPersistence {
  private static final Logger LOG = LoggerFactory.getLogger(StatisticsPersistence.class);

  private final Executor worker;
  private final BiConsumer<KvTable, List<Mutation>> commit;

  /** The durable store's persisted statistics; null until opened (always in memory). */
  private volatile StatisticsTable statisticsTable;

  /**
   * While {@link #open} restores: the column statistics read back, by KV table name and region id,
   * until a region takes them ({@link #restoredColumns}).
   */
  private final Map<String, Map<Long, RegionColumnStatistics>> restoring =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * @param worker runs the writes in order; throws {@link RejectedExecutionException} once closed
   * @param commit commits a batch of rows to the KV table (also while the store closes)
   */
  public StatisticsPersistence(Executor worker, BiConsumer<KvTable, List<Mutation>> commit) {
    this.worker = worker;
    this.commit = commit;
  }

  /**
   * Reads back the rows of {@code kvTable} (the store's {@value StatisticsTable#NAME}), offering
   * each region's statistics to {@code restore} (KV table name, statistics: true when a region took
   * them), deletes the rows none took (a dropped table's, or a region split before its rows were
   * rewritten), and persists from now on.
   *
   * @return how many regions' statistics were restored
   */
  public long open(KvTable kvTable, BiPredicate<String, RegionStatistics> restore) {
    return open(kvTable, restore, (name, s) -> false);
  }

  /**
   * As {@link #open(KvTable, BiPredicate)}, also offering each local index's statistics in a region
   * to {@code restoreIndex} (KV table name, statistics), deleting the rows none took.
   *
   * @return how many regions' statistics of tables and indexes were restored
   */
  public long open(
      KvTable kvTable,
      BiPredicate<String, RegionStatistics> restore,
      BiPredicate<String, IndexRegionStatistics> restoreIndex) {
    StatisticsTable st = new StatisticsTable(kvTable);
    List<Mutation> garbage = new ArrayList<>();
    long restored = 0;
    for (Map.Entry<String, List<RegionColumnStatistics>> e : st.readAllColumns().entrySet()) {
      Map<Long, RegionColumnStatistics> byRegion = new java.util.concurrent.ConcurrentHashMap<>();
      e.getValue().forEach(c -> byRegion.put(c.regionId(), c));
      restoring.put(e.getKey(), byRegion);
    }
    for (Map.Entry<String, List<RegionStatistics>> e : st.readAll().entrySet()) {
      List<RegionStatistics> stale = new ArrayList<>();
      for (RegionStatistics rs : e.getValue()) {
        if (restore.test(e.getKey(), rs)) {
          restored++;
        } else {
          stale.add(rs);
        }
      }
      garbage.addAll(st.replace(e.getKey(), stale, List.of()));
    }
    for (Map.Entry<String, List<IndexRegionStatistics>> e : st.readAllIndexes().entrySet()) {
      List<IndexRegionStatistics> stale = new ArrayList<>();
      for (IndexRegionStatistics s : e.getValue()) {
        if (restoreIndex.test(e.getKey(), s)) {
          restored++;
        } else {
          stale.add(s);
        }
      }
      garbage.addAll(st.replaceIndexes(e.getKey(), stale, List.of()));
    }
    for (Map.Entry<String, Map<Long, RegionColumnStatistics>> e : restoring.entrySet()) {
      garbage.addAll(st.deleteColumns(e.getKey(), List.copyOf(e.getValue().keySet())));
    }
    restoring.clear();
    if (!garbage.isEmpty()) {
      commit.accept(kvTable, garbage);
    }
    statisticsTable = st;
    return restored;
  }

  /**
   * While {@link #open} restores a region's statistics: its column statistics read back (taken: the
   * rows no region takes are deleted), or null.
   */
  public RegionColumnStatistics restoredColumns(String kvTableName, long regionId) {
    Map<Long, RegionColumnStatistics> byRegion = restoring.get(kvTableName);
    return byRegion == null ? null : byRegion.remove(regionId);
  }

  /** A region's column statistics changed: rewrites its row in the background. */
  public void columnsChanged(String kvTableName, RegionColumnStatistics after) {
    StatisticsTable st = statisticsTable;
    if (st != null && StatisticsTable.persists(kvTableName)) {
      write(kvTableName, st, List.of(st.putColumns(kvTableName, after)));
    }
  }

  /** Regions' column statistics went: deletes their rows in the background. */
  public void columnsRemoved(String kvTableName, List<Long> regionIds) {
    StatisticsTable st = statisticsTable;
    if (st != null && StatisticsTable.persists(kvTableName) && !regionIds.isEmpty()) {
      write(kvTableName, st, st.deleteColumns(kvTableName, regionIds));
    }
  }

  /** A region's statistics changed: rewrites its rows in the background. */
  public void changed(String kvTableName, RegionStatistics before, RegionStatistics after) {
    persist(kvTableName, before == null ? List.of() : List.of(before), List.of(after));
  }

  /** Regions went (a split's parent, a dropped table): deletes their rows in the background. */
  public void removed(String kvTableName, List<RegionStatistics> removed) {
    persist(kvTableName, removed, List.of());
  }

  /** An index's statistics in a region changed: rewrites their rows in the background. */
  public void indexChanged(
      String kvTableName, IndexRegionStatistics before, IndexRegionStatistics after) {
    StatisticsTable st = statisticsTable;
    if (st != null && StatisticsTable.persists(kvTableName)) {
      write(
          kvTableName,
          st,
          st.replaceIndexes(
              kvTableName, before == null ? List.of() : List.of(before), List.of(after)));
    }
  }

  /** Indexes' statistics went: deletes their rows in the background. */
  public void indexesRemoved(String kvTableName, List<IndexRegionStatistics> removed) {
    StatisticsTable st = statisticsTable;
    if (st != null && StatisticsTable.persists(kvTableName) && !removed.isEmpty()) {
      write(kvTableName, st, st.replaceIndexes(kvTableName, removed, List.of()));
    }
  }

  private void persist(
      String kvTableName, List<RegionStatistics> before, List<RegionStatistics> after) {
    StatisticsTable st = statisticsTable;
    if (st == null || !StatisticsTable.persists(kvTableName)) {
      return;
    }
    write(kvTableName, st, st.replace(kvTableName, before, after));
  }

  private void write(String kvTableName, StatisticsTable st, List<Mutation> batch) {
    if (batch.isEmpty()) {
      return;
    }
    try {
      worker.execute(
          () -> {
            try {
              commit.accept(st.kvTable(), batch);
            } catch (RuntimeException e) {
              LOG.warn("Cannot write the statistics of {} to {}", kvTableName, st.kvTable(), e);
            }
          });
    } catch (RejectedExecutionException e) {
      LOG.debug("Statistics of {} not written: the store is closed", kvTableName);
    }
  }
}
