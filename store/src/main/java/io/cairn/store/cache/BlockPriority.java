package io.cairn.store.cache;

/**
 * A cached block's eviction group: each group gets a share of the cache and gives up its excess
 * first when the cache evicts (see the package documentation).
 */
public enum BlockPriority {
  /** Cached and not read since: a scan's blocks, first to go when the cache is full. */
  SINGLE,
  /** Read again after it was cached: promoted from {@link #SINGLE} on its first hit. */
  MULTI,
  /**
   * Cached with {@code inMemory} (a table declared to stay in memory); never promoted or demoted.
   */
  MEMORY
}
