package io.cairn.store.cache;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;

/** {@link BlockCache#disabled()}: misses everything, caches nothing, counts nothing. */
final class DisabledBlockCache implements BlockCache {
  static final DisabledBlockCache INSTANCE = new DisabledBlockCache();

  private DisabledBlockCache() {}

  @Override
  public BlockBuffer getBlock(long fileId, long offset, BlockKind kind, boolean countStats) {
    return null;
  }

  @Override
  public BlockBuffer cacheBlock(
      long fileId, long offset, BlockKind kind, ByteBuffer payload, boolean inMemory) {
    requireNonNull(payload, "payload is null");
    return null;
  }

  @Override
  public int evictFile(long fileId) {
    return 0;
  }

  @Override
  public BlockCacheStats stats() {
    return BlockCacheStats.empty("total");
  }

  @Override
  public void close() {}

  @Override
  public String toString() {
    return "BlockCache[disabled]";
  }
}
