package io.cairn.store.file;

import static java.util.Objects.requireNonNull;

import io.cairn.store.cache.BlockCache;
import io.cairn.store.cache.BufferPool;
import io.cairn.store.cache.BufferPoolConfig;

/**
 * What block file readers read with: the pool that disk reads borrow buffers from and the block
 * cache they read through. A store has one for all its files.
 */
public record ReadContext(BufferPool pool, BlockCache cache) {
  private static final ReadContext UNCACHED =
      new ReadContext(
          new BufferPool("uncached-reads", new BufferPoolConfig(1, 0, 0)), BlockCache.disabled());

  public ReadContext {
    requireNonNull(pool, "pool is null");
    requireNonNull(cache, "cache is null");
  }

  /** Reads into heap buffers, without a cache: for tools and tests. */
  public static ReadContext uncached() {
    return UNCACHED;
  }
}
