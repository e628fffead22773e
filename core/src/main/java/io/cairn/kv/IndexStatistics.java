package io.cairn.kv;

import java.util.List;

/**
 * Statistics of one local index ({@link IndexSpec}) of a KV table: each region's entries (those of
 * its own rows) cut at guide posts, in index key order, with the entries and bytes each chunk held
 * when collected, and how many distinct values the first key part had.
 *
 * <p>Unlike a table's, the chunks of different regions overlap: every region's chunks together
 * cover the whole index key range ({@link IndexKeys#range(int)}), each region's in key order, the
 * regions in the table's order. Counts are estimates: entries written since a region's collection
 * are not in them.
 *
 * @param guidePostWidth the guide post width the chunks were cut at
 * @param chunks every collected region's chunks (a region never collected has none)
 * @param minDistinctFirstParts the most distinct first-part values one region held (a lower bound
 *     of the index's), -1 when unknown
 * @param maxDistinctFirstParts the regions' distinct first-part values added up (an upper bound of
 *     the index's: a value in several regions counts in each), -1 when unknown
 * @param collectedAtMillis the oldest region's collection (epoch millis)
 */
public record IndexStatistics(
    int indexId,
    long guidePostWidth,
    List<TableStatistics.Chunk> chunks,
    long minDistinctFirstParts,
    long maxDistinctFirstParts,
    long collectedAtMillis) {
  public IndexStatistics {
    chunks = List.copyOf(chunks);
    if (indexId < 0) {
      throw new IllegalArgumentException("An index id: expected >= 0, found [" + indexId + "]");
    }
  }

  /** The estimated entries of the index (its table's rows), -1 when a chunk's count is unknown. */
  public long rows() {
    long total = 0;
    for (TableStatistics.Chunk c : chunks) {
      if (c.rows() < 0) {
        return -1;
      }
      total += c.rows();
    }
    return total;
  }

  /** The estimated raw bytes (key + value) of the index's entries, -1 when unknown. */
  public long bytes() {
    long total = 0;
    for (TableStatistics.Chunk c : chunks) {
      if (c.bytes() < 0) {
        return -1;
      }
      total += c.bytes();
    }
    return total;
  }
}
