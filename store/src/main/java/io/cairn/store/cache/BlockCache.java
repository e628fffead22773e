package io.cairn.store.cache;

import java.nio.ByteBuffer;

/**
 * A cache of file blocks by (file id, offset), shared by every reader of a store.
 *
 * <p>A reader of block (fileId, offset) calls {@link #getBlock}; on a miss it reads the block from
 * disk, verifies it and, if the read caches, calls {@link #cacheBlock}, which copies the bytes into
 * cache memory and returns the cached copy. Both hand over a reference: the caller releases the
 * block exactly once when done with it, and the cache never frees a block a reader holds. The file
 * id must be unique in the store and never reused for another file while its blocks may be cached.
 * Thread-safe.
 */
public interface BlockCache extends AutoCloseable {
  /**
   * The cached block retained for the caller (who releases it), or null; counts a hit or a miss
   * (unless {@code countStats} is false). A hit on a {@link BlockPriority#SINGLE} block promotes it
   * to {@link BlockPriority#MULTI}. A hit allocates nothing and takes no lock.
   */
  BlockBuffer getBlock(long fileId, long offset, BlockKind kind, boolean countStats);

  /**
   * Copies {@code payload}'s bytes {@code [position, limit)} into the cache (the payload's position
   * and limit are not changed; heap or direct) and returns the cached copy retained for the caller,
   * or null when it is not cached: larger than the largest bucket size ("served but not cached",
   * counted in {@link BlockCacheStats#notCachedTooLarge()}), no space that eviction can free (every
   * block in the way is held by a reader), or the cache is closed. If the key is already cached,
   * returns the cached block retained. {@code inMemory} gives the block {@link
   * BlockPriority#MEMORY} priority, else it starts as {@link BlockPriority#SINGLE}.
   */
  BlockBuffer cacheBlock(
      long fileId, long offset, BlockKind kind, ByteBuffer payload, boolean inMemory);

  /**
   * Evicts every block of a file (the file was deleted); blocks readers hold are freed at their
   * last release.
   *
   * @return the number of blocks evicted
   */
  int evictFile(long fileId);

  /** The counters now: of the one level, or the total of all levels. */
  BlockCacheStats stats();

  /**
   * Frees all memory not held by readers; later calls to {@link #getBlock} return null and {@link
   * #cacheBlock} returns null. Blocks readers still hold are reported as leaks ({@link
   * LeakDetector}) and freed at their last release. Idempotent.
   */
  @Override
  void close();

  /** A cache that caches nothing: every lookup misses (uncounted) and nothing is cached. */
  static BlockCache disabled() {
    return DisabledBlockCache.INSTANCE;
  }
}
