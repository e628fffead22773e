package io.cairn.server.cache;

import java.nio.ByteBuffer;

/** Placeholder until the cache branch lands. */
public interface BlockCache extends AutoCloseable {
  BlockBuffer getBlock(long fileId, long offset, BlockKind kind, boolean countStats);

  BlockBuffer cacheBlock(
      long fileId, long offset, BlockKind kind, ByteBuffer payload, boolean inMemory);

  int evictFile(long fileId);

  @Override
  void close();

  static BlockCache disabled() {
    return new BlockCache() {
      @Override
      public BlockBuffer getBlock(long fileId, long offset, BlockKind kind, boolean countStats) {
        return null;
      }

      @Override
      public BlockBuffer cacheBlock(
          long fileId, long offset, BlockKind kind, ByteBuffer payload, boolean inMemory) {
        return null;
      }

      @Override
      public int evictFile(long fileId) {
        return 0;
      }

      @Override
      public void close() {}
    };
  }
}
