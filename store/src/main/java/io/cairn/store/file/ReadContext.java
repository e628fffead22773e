package io.cairn.store.file;

import static java.util.Objects.requireNonNull;

import io.cairn.store.cache.BlockCache;
import io.cairn.store.cache.BufferPool;
import io.cairn.store.cache.BufferPoolConfig;

/**
 * What block file readers read with: the pool that disk reads borrow buffers from, the block cache
 * they read through and the cache of data blocks as column vectors that scans read instead of rows.
 * A store has one for all its files.
 */
public record ReadContext(BufferPool pool, BlockCache cache, VectorCache vectors) {
  private static final ReadContext UNCACHED =
      new ReadContext(
          new BufferPool("uncached-reads", new BufferPoolConfig(1, 0, 0)), BlockCache.disabled());

  public ReadContext {
    requireNonNull(pool, "pool is null");
    requireNonNull(cache, "cache is null");
    requireNonNull(vectors, "vectors is null");
  }

  /** Reads through {@code pool} and {@code cache}, without vectors of blocks. */
  public ReadContext(BufferPool pool, BlockCache cache) {
    this(pool, cache, VectorCache.DISABLED);
  }

  /** Reads into heap buffers, without a cache: for tools and tests. */
  public static ReadContext uncached() {
    return UNCACHED;
  }
}
