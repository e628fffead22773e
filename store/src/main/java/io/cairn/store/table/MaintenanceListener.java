package io.cairn.store.table;

import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.stats.RegionStatistics;

/**
 * What a table's flushes, compactions and splits ask of the table and store around them: the TTL
 * cutoff, the regions' statistics, memstore accounting and the scheduling of follow-up work. Called
 * with the region's maintenance lock held, never with {@link RegionMap#lock()} held except {@link
 * #memstoreShared}, {@link #regionSplit} and {@link #regionRetired}.
 */
public interface MaintenanceListener {
  /** The store's versions: read points in use and commits under way. */
  Mvcc mvcc();

  /**
   * The TTL cutoff now: cells with a sequence id at or below it are expired; -1 when nothing is.
   */
  long expiredAtOrBelow();

  /** The region's statistics; null when it has none. */
  RegionStatistics statistics(long regionId);

  /**
   * Makes {@code stats} the region's statistics, covering {@code coveredRows} and {@code
   * coveredBytes} of the changes the region counted.
   */
  void installStatistics(
      Region region, RegionStatistics stats, long coveredRows, long coveredBytes);

  /**
   * {@code parent} is being split into {@code low} and {@code high}, listed in the manifest but not
   * yet published: they get its statistics, which it keeps until {@link #regionRetired}.
   */
  void regionSplit(Region parent, Region low, Region high);

  /** The daughters of a split are published and {@code parent} is retired: its statistics go. */
  void regionRetired(Region parent);

  /** A flush wrote {@code memstoreBytes} of the region's memstores to a file. */
  void flushed(Region region, long memstoreBytes);

  /** Memstores two regions now share (a split): counted twice, each daughter frees them once. */
  void memstoreShared(long bytes);

  /** Flushes the region in the background. */
  void requestFlush(Region region);

  /** Compacts (and maybe splits) the region in the background. */
  void requestCompaction(Region region);
}
