package io.cairn.store.file;

import static java.util.Objects.requireNonNull;

import io.cairn.store.cache.BlockBuffer;
import io.cairn.store.cache.BlockCache;
import io.cairn.store.cache.BlockKind;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A {@link BlockSource} reading through the block cache: data, index and bloom blocks are looked up
 * by (file, offset) first, and a hit hands out the cached memory itself, retained for the caller. A
 * miss reads from the file (into a pooled buffer, checked), then copies the block into the cache
 * and hands out the cached copy; a block the cache does not take (too large, no room) is handed out
 * as read. Index and bloom blocks are always cached; data blocks only when the read asks for it.
 * Blocks read once at open (root index, bloom index, file info) bypass the cache: the reader keeps
 * them.
 */
final class CachingBlockSource implements BlockSource {
  private final FileBlockSource file;
  private final BlockCache cache;
  private final long cacheId;

  /**
   * @param cacheId the file's key in the cache, unique among the files the cache ever sees
   */
  CachingBlockSource(FileBlockSource file, BlockCache cache, long cacheId) {
    this.file = requireNonNull(file, "file is null");
    this.cache = requireNonNull(cache, "cache is null");
    this.cacheId = cacheId;
  }

  @Override
  public Block readBlock(long offset, int onDiskSize, BlockType expectedType, CachePolicy policy) {
    BlockKind kind = kindOf(expectedType);
    if (kind == null) {
      return file.readBlock(offset, onDiskSize, expectedType, CachePolicy.NO_CACHE);
    }
    BlockBuffer hit = cache.getBlock(cacheId, offset, kind, true);
    if (hit != null) {
      return cached(expectedType, offset, onDiskSize, hit);
    }
    Block read = file.readBlock(offset, onDiskSize, expectedType, CachePolicy.NO_CACHE);
    if (policy == CachePolicy.NO_CACHE && kind == BlockKind.DATA) {
      return read;
    }
    BlockBuffer copy;
    try {
      ByteBuffer payload =
          read.buffer().duplicate().limit(read.start() + read.length()).position(read.start());
      copy =
          cache.cacheBlock(cacheId, offset, kind, payload, policy == CachePolicy.CACHE_IN_MEMORY);
    } catch (RuntimeException | Error e) {
      read.release();
      throw e;
    }
    if (copy == null) {
      return read;
    }
    read.release();
    return cached(expectedType, offset, onDiskSize, copy);
  }

  private static Block cached(BlockType type, long offset, int onDiskSize, BlockBuffer memory) {
    try {
      return new Block(type, offset, onDiskSize, memory.buffer(), 0, memory.length(), memory);
    } catch (RuntimeException | Error e) {
      memory.release();
      throw e;
    }
  }

  /** The cache's kind for blocks of {@code type}; null for the blocks a reader reads once. */
  private static BlockKind kindOf(BlockType type) {
    return switch (type) {
      case DATA -> BlockKind.DATA;
      case LEAF_INDEX, INTERMEDIATE_INDEX -> BlockKind.INDEX;
      case BLOOM_CHUNK -> BlockKind.BLOOM;
      default -> null;
    };
  }

  /** The file's key in the cache. */
  long cacheId() {
    return cacheId;
  }

  /** Drops the file's blocks from the cache (they stay valid for readers holding them). */
  void evict() {
    cache.evictFile(cacheId);
  }

  @Override
  public Path path() {
    return file.path();
  }

  @Override
  public void close() {
    file.close();
  }
}
