package io.cairn.store.cache;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The block cache of a store: data blocks in the off-heap {@link BucketCache} (L2), index and bloom
 * blocks in the on-heap {@link LruBlockCache} (L1). Without an L2 (capacity 0) data blocks go to
 * L1, without an L1 index and bloom blocks go to L2, and without either it caches nothing, like
 * {@link BlockCache#disabled()}.
 */
public final class CombinedBlockCache implements BlockCache {
  private final LruBlockCache l1;
  private final BucketCache l2;
  private final BlockCache data;
  private final BlockCache meta;

  /**
   * @param bufferPoolBytes direct memory of the readers' buffer pool, which shares the JVM's direct
   *     memory with L2 ({@link BufferPoolConfig#poolBytes()})
   * @throws io.cairn.core.error.CairnException INVALID_ARGUMENT if L2 and the buffer pool together
   *     would not fit in the JVM's direct memory ({@code -XX:MaxDirectMemorySize})
   */
  public CombinedBlockCache(BlockCacheConfig config, long bufferPoolBytes) {
    this(config, bufferPoolBytes, BufferPool.maxDirectMemory());
  }

  CombinedBlockCache(BlockCacheConfig config, long bufferPoolBytes, long maxDirectMemory) {
    requireNonNull(config, "config is null");
    config.checkDirectMemory(bufferPoolBytes, maxDirectMemory);
    this.l1 = config.l1Bytes() > 0 ? new LruBlockCache(config) : null;
    this.l2 = config.l2Bytes() > 0 ? new BucketCache(config, maxDirectMemory) : null;
    BlockCache none = BlockCache.disabled();
    this.data = l2 != null ? l2 : l1 != null ? l1 : none;
    this.meta = l1 != null ? l1 : l2 != null ? l2 : none;
  }

  @Override
  public BlockBuffer getBlock(long fileId, long offset, BlockKind kind, boolean countStats) {
    return level(kind).getBlock(fileId, offset, kind, countStats);
  }

  @Override
  public BlockBuffer cacheBlock(
      long fileId, long offset, BlockKind kind, ByteBuffer payload, boolean inMemory) {
    return level(kind).cacheBlock(fileId, offset, kind, payload, inMemory);
  }

  @Override
  public int evictFile(long fileId) {
    return (l1 == null ? 0 : l1.evictFile(fileId)) + (l2 == null ? 0 : l2.evictFile(fileId));
  }

  /** The totals of {@link #levels()}, as level {@code total}. */
  @Override
  public BlockCacheStats stats() {
    return BlockCacheStats.total("total", levels());
  }

  /** One row per level that exists: {@code L1}, then {@code L2}. */
  public List<BlockCacheStats> levels() {
    List<BlockCacheStats> levels = new ArrayList<>(2);
    if (l1 != null) {
      levels.add(l1.stats());
    }
    if (l2 != null) {
      levels.add(l2.stats());
    }
    return List.copyOf(levels);
  }

  /** Closes both levels; an exception of the first is thrown with the second's suppressed. */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (BlockCache level : new BlockCache[] {l1, l2}) {
      if (level == null) {
        continue;
      }
      try {
        level.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** The level that caches blocks of {@code kind}. */
  BlockCache level(BlockKind kind) {
    return kind == BlockKind.DATA ? data : meta;
  }

  @Override
  public String toString() {
    return "CombinedBlockCache" + levels();
  }
}
