package io.cairn.store.cache;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * A snapshot of a block cache level's counters, or of their total: one row of a system view.
 *
 * @param level {@code L1}, {@code L2}, or {@code total}
 * @param hits lookups that found the block, ever
 * @param misses lookups that did not, ever
 * @param evictions blocks evicted to make room, ever (not counting blocks of deleted files)
 * @param evictedBytes bytes of those blocks (their slots in L2)
 * @param notCachedTooLarge blocks not cached because they are larger than the largest bucket size
 * @param notCachedNoSpace blocks not cached because eviction could not make room (every block in
 *     the way was held by a reader) or the cache was closed
 * @param cachedBlocks blocks in the cache now
 * @param cachedBytes their bytes
 * @param usedBytes memory taken now: slot sizes in L2, block sizes in L1, including blocks evicted
 *     or unmapped but still held by a reader
 * @param capacityBytes the most memory the level takes
 * @param allocatedBytes memory allocated so far: L2's slabs, allocated as needed; L1's used bytes
 */
public record BlockCacheStats(
    String level,
    long hits,
    long misses,
    long evictions,
    long evictedBytes,
    long notCachedTooLarge,
    long notCachedNoSpace,
    long cachedBlocks,
    long cachedBytes,
    long usedBytes,
    long capacityBytes,
    long allocatedBytes) {
  public BlockCacheStats {
    requireNonNull(level, "level is null");
  }

  /** All zero: a level that does not exist or a disabled cache. */
  public static BlockCacheStats empty(String level) {
    return new BlockCacheStats(level, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  /** The sum of the levels' counters. */
  public static BlockCacheStats total(String level, List<BlockCacheStats> levels) {
    BlockCacheStats t = empty(level);
    for (BlockCacheStats s : levels) {
      t =
          new BlockCacheStats(
              level,
              t.hits + s.hits,
              t.misses + s.misses,
              t.evictions + s.evictions,
              t.evictedBytes + s.evictedBytes,
              t.notCachedTooLarge + s.notCachedTooLarge,
              t.notCachedNoSpace + s.notCachedNoSpace,
              t.cachedBlocks + s.cachedBlocks,
              t.cachedBytes + s.cachedBytes,
              t.usedBytes + s.usedBytes,
              t.capacityBytes + s.capacityBytes,
              t.allocatedBytes + s.allocatedBytes);
    }
    return t;
  }

  /** Hits over lookups; 0 before the first lookup. */
  public double hitRatio() {
    long requests = hits + misses;
    return requests == 0 ? 0 : (double) hits / requests;
  }
}
