package io.cairn.store;

import io.cairn.kv.IndexSpec;
import io.cairn.kv.IndexStatistics;
import io.cairn.store.region.Region;
import io.cairn.store.stats.IndexRegionStatistics;
import io.cairn.store.stats.IndexStatisticsKeeper;
import io.cairn.store.stats.RegionColumnStatistics;
import io.cairn.store.stats.RegionStatistics;
import io.cairn.store.stats.StatisticsKeeper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * The statistics of an {@link EmbeddedTable}'s local indexes: its {@link IndexStatisticsKeeper}
 * wired to the table's regions, its defined indexes and the store's persistence of SYSTEM.STATS
 * (kept apart from the table, which hands each call here). Also makes the persisting listener of
 * the table's own {@link StatisticsKeeper}.
 *
 * <p>Locks: none of its own (see {@link IndexStatisticsKeeper}).
 */
final class TableIndexStatistics {
  private final TableServices services;
  private final String name;
  private final io.cairn.store.table.RegionMap map;
  private final LongSupplier expiredAtOrBelow;
  private final IndexStatisticsKeeper keeper;

  /** The local indexes defined (the table's maintained set), by id; empty when none. */
  private volatile Map<Integer, IndexSpec> specs = Map.of();

  TableIndexStatistics(
      TableServices services,
      String name,
      io.cairn.store.table.RegionMap map,
      LongSupplier expiredAtOrBelow) {
    this.services = services;
    this.name = name;
    this.map = map;
    this.expiredAtOrBelow = expiredAtOrBelow;
    this.keeper =
        new IndexStatisticsKeeper(
            map::isDropped,
            id -> specs.containsKey(id),
            new IndexStatisticsKeeper.Listener() {
              @Override
              public void changed(IndexRegionStatistics before, IndexRegionStatistics after) {
                services.statistics().indexChanged(name, before, after);
              }

              @Override
              public void removed(List<IndexRegionStatistics> removed) {
                services.statistics().indexesRemoved(name, removed);
              }
            });
  }

  /** The listener of table {@code name}'s own statistics: the store persists each change. */
  static StatisticsKeeper.Listener persisting(TableServices services, String name) {
    return new StatisticsKeeper.Listener() {
      @Override
      public void changed(RegionStatistics before, RegionStatistics after) {
        services.statistics().changed(name, before, after);
      }

      @Override
      public void removed(List<RegionStatistics> removed) {
        services.statistics().removed(name, removed);
      }

      @Override
      public void columnsChanged(RegionColumnStatistics after) {
        services.statistics().columnsChanged(name, after);
      }

      @Override
      public void columnsRemoved(List<Long> regionIds) {
        services.statistics().columnsRemoved(name, regionIds);
      }

      @Override
      public RegionColumnStatistics restoredColumns(long regionId) {
        return services.statistics().restoredColumns(name, regionId);
      }
    };
  }

  /** The table's indexes are now {@code indexes}: a dropped one's statistics go with it. */
  void define(List<IndexSpec> indexes) {
    Map<Integer, IndexSpec> byId = new TreeMap<>();
    indexes.forEach(s -> byId.put(s.indexId(), s));
    specs = Collections.unmodifiableMap(byId);
    keeper.retain(byId::containsKey);
  }

  /**
   * Collects the region's statistics of every defined index now (after its own, in {@code
   * EmbeddedTable.collectRegion}); takes its maintenance lock.
   */
  void collect(Region region) {
    List<IndexStatisticsKeeper.Target> targets = new ArrayList<>();
    for (IndexSpec spec : specs.values()) {
      targets.add(
          new IndexStatisticsKeeper.Target(
              spec.indexId(), spec.parts().get(0).type(), spec.orders().get(0)));
    }
    keeper.collect(region, services.mvcc(), expiredAtOrBelow, map.guidePostWidth(), targets);
  }

  /**
   * An index was built: every region's statistics (its new index's with them) are collected again
   * in the background, so that the build's time is not lengthened by a second read.
   */
  void requestCollection(EmbeddedTable table) {
    for (Region r : map.regions()) {
      services.background().requestStatistics(table, r);
    }
  }

  void split(Region parent, Region low, Region high) {
    keeper.split(parent, low, high);
  }

  void retired(Region parent) {
    keeper.retired(parent);
  }

  void drop() {
    keeper.drop();
  }

  /**
   * At open: an index's statistics in a region read back from SYSTEM.STATS; false when the region
   * is not (or no more) here, or the table has no index key space. (The catalog defines the indexes
   * after; {@link #define} drops those of indexes gone.)
   */
  boolean restore(IndexRegionStatistics stats) {
    return map.indexSpace() && keeper.restore(map.regions(), stats);
  }

  /** See {@link io.cairn.kv.KvTable#indexStatistics}. */
  Optional<IndexStatistics> statistics(int indexId) {
    return keeper.indexStatistics(map::regions, indexId, map.guidePostWidth());
  }

  /**
   * Adds the rows of the view SYSTEM.INDEX_STATS of local index {@code indexName} ({@code indexId})
   * of the table, named {@code schema}.{@code tableName}.
   */
  void addRows(String schema, String tableName, String indexName, int indexId, List<Object[]> out) {
    keeper.addRows(map.regions(), map.guidePostWidth(), schema, tableName, indexName, indexId, out);
  }
}
