package io.cairn.store.stats;

import static java.util.Objects.requireNonNull;

import io.cairn.kv.IndexKeys;

/**
 * The statistics of one local index's entries in one region (those of the region's own rows): the
 * index's key range ({@link IndexKeys#range(int)}) cut at guide posts into chunks with their
 * entries and bytes, and how many distinct values of the index's first key part the region's
 * entries held (-1: unknown). Immutable; a collection or a split replaces it.
 */
public record IndexRegionStatistics(
    int indexId, RegionStatistics statistics, long distinctFirstParts) {
  public IndexRegionStatistics {
    requireNonNull(statistics, "statistics is null");
    if (!statistics.range().equals(IndexKeys.range(indexId))) {
      throw new IllegalArgumentException(
          "Statistics of index ["
              + indexId
              + "]: expected its key range, found ["
              + statistics.range().start()
              + ", "
              + statistics.range().stop()
              + ")");
    }
  }

  public long regionId() {
    return statistics.regionId();
  }

  /**
   * A split daughter's share ({@code regionId}): its parent's chunks with half their counts each
   * (each daughter holds about half the parent's rows; the next collection counts them).
   */
  public IndexRegionStatistics half(long regionId) {
    java.util.List<RegionStatistics.Bucket> halves = new java.util.ArrayList<>();
    for (RegionStatistics.Bucket b : statistics.chunks()) {
      halves.add(new RegionStatistics.Bucket(b.start(), (b.rows() + 1) / 2, (b.bytes() + 1) / 2));
    }
    return new IndexRegionStatistics(
        indexId,
        new RegionStatistics(
            regionId,
            statistics.range(),
            statistics.width(),
            halves,
            statistics.collectedAtMillis()),
        distinctFirstParts);
  }
}
