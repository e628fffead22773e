package io.cairn.store.file;

/** How a read treats the block cache for data blocks it misses. */
public enum CachePolicy {
  /** Read missed data blocks into pooled buffers and release them after use (NO_CACHE). */
  NO_CACHE,
  /** Add missed data blocks to the cache at normal priority. */
  CACHE,
  /** Add missed data blocks at the in-memory priority (tables with IN_MEMORY=TRUE). */
  CACHE_IN_MEMORY;

  /** The policy for a scan that may cache ({@code cacheBlocks}) of a table in memory or not. */
  public static CachePolicy of(boolean cacheBlocks, boolean inMemory) {
    if (!cacheBlocks) {
      return NO_CACHE;
    }
    return inMemory ? CACHE_IN_MEMORY : CACHE;
  }
}
