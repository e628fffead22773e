package io.cairn.store.cache;

import static io.cairn.store.cache.TestingBlockCaches.config;
import static io.cairn.store.cache.TestingBlockCaches.firstMismatch;
import static io.cairn.store.cache.TestingBlockCaches.heapPayload;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestCombinedBlockCache {
  private static final long LIMIT = 1L << 30;

  private LeakDetector.Mode previousMode;

  @BeforeEach
  void paranoid() {
    LeakDetector.takeLeaks();
    previousMode = LeakDetector.setMode(LeakDetector.Mode.PARANOID);
  }

  @AfterEach
  void noLeaks() {
    try {
      LeakDetector.assertNoLeaks();
    } finally {
      LeakDetector.setMode(previousMode);
    }
  }

  private static void cache(BlockCache cache, long fileId, BlockKind kind, int length) {
    BlockBuffer block = cache.cacheBlock(fileId, 0, kind, heapPayload(fileId, 0, length, 0), false);
    assertThat(block).isNotNull();
    block.release();
  }

  private static boolean isCached(BlockCache cache, long fileId, BlockKind kind) {
    BlockBuffer block = cache.getBlock(fileId, 0, kind, true);
    if (block == null) {
      return false;
    }
    assertThat(firstMismatch(block, fileId, 0, block.length())).isEqualTo(-1);
    block.release();
    return true;
  }

  @Test
  void dataGoesOffHeapAndIndexAndBloomBlocksOnHeap() {
    try (CombinedBlockCache cache =
        new CombinedBlockCache(config(64 * 1024, 256 * 1024), 1 << 20, LIMIT)) {
      cache(cache, 1, BlockKind.DATA, 1000);
      cache(cache, 2, BlockKind.INDEX, 200);
      cache(cache, 3, BlockKind.BLOOM, 300);
      try (BlockBuffer data = cache.getBlock(1, 0, BlockKind.DATA, true);
          BlockBuffer index = cache.getBlock(2, 0, BlockKind.INDEX, true)) {
        assertThat(data.buffer().isDirect()).isTrue();
        assertThat(index.buffer().isDirect()).isFalse();
      }
      assertThat(isCached(cache, 3, BlockKind.BLOOM)).isTrue();
      assertThat(isCached(cache, 3, BlockKind.DATA)).as("looked up in L2").isFalse();

      List<BlockCacheStats> levels = cache.levels();
      assertThat(levels).extracting(BlockCacheStats::level).containsExactly("L1", "L2");
      BlockCacheStats l1 = levels.get(0);
      BlockCacheStats l2 = levels.get(1);
      assertThat(l1.cachedBlocks()).isEqualTo(2);
      assertThat(l1.cachedBytes()).isEqualTo(500);
      assertThat(l1.capacityBytes()).isEqualTo(64 * 1024);
      assertThat(l1.hits()).isEqualTo(2);
      assertThat(l2.cachedBlocks()).isEqualTo(1);
      assertThat(l2.capacityBytes()).isEqualTo(256 * 1024);
      assertThat(l2.hits()).isEqualTo(1);
      assertThat(l2.misses()).isEqualTo(1);

      BlockCacheStats total = cache.stats();
      assertThat(total.level()).isEqualTo("total");
      assertThat(total.hits()).isEqualTo(3);
      assertThat(total.misses()).isEqualTo(1);
      assertThat(total.hitRatio()).isEqualTo(0.75);
      assertThat(total.cachedBlocks()).isEqualTo(3);
      assertThat(total.capacityBytes()).isEqualTo(320 * 1024);
      assertThat(total.usedBytes()).isEqualTo(l1.usedBytes() + l2.usedBytes());

      assertThat(cache.evictFile(1) + cache.evictFile(2) + cache.evictFile(3)).isEqualTo(3);
      assertThat(cache.stats().cachedBlocks()).isZero();
    }
  }

  @Test
  void withoutL2DataBlocksGoOnHeap() {
    try (CombinedBlockCache cache = new CombinedBlockCache(config(64 * 1024, 0), 0, LIMIT)) {
      cache(cache, 1, BlockKind.DATA, 1000);
      cache(cache, 2, BlockKind.INDEX, 200);
      assertThat(cache.levels()).extracting(BlockCacheStats::level).containsExactly("L1");
      assertThat(cache.stats().cachedBlocks()).isEqualTo(2);
      try (BlockBuffer data = cache.getBlock(1, 0, BlockKind.DATA, true)) {
        assertThat(data.buffer().isDirect()).isFalse();
      }
    }
  }

  @Test
  void withoutL1IndexBlocksGoOffHeap() {
    try (CombinedBlockCache cache = new CombinedBlockCache(config(0, 256 * 1024), 0, LIMIT)) {
      cache(cache, 2, BlockKind.INDEX, 200);
      assertThat(cache.levels()).extracting(BlockCacheStats::level).containsExactly("L2");
      try (BlockBuffer index = cache.getBlock(2, 0, BlockKind.INDEX, true)) {
        assertThat(index.buffer().isDirect()).isTrue();
      }
    }
  }

  @Test
  void withoutEitherLevelNothingIsCached() {
    for (BlockCache cache :
        List.of(new CombinedBlockCache(config(0, 0), 0, LIMIT), BlockCache.disabled())) {
      try (cache) {
        for (BlockKind kind : BlockKind.values()) {
          assertThat(cache.cacheBlock(1, 0, kind, heapPayload(1, 0, 100, 0), true)).isNull();
          assertThat(cache.getBlock(1, 0, kind, true)).isNull();
        }
        assertThat(cache.evictFile(1)).isZero();
        assertThat(cache.stats()).isEqualTo(BlockCacheStats.empty("total"));
      }
    }
  }

  @Test
  void closeClosesBothLevels() {
    CombinedBlockCache cache = new CombinedBlockCache(config(64 * 1024, 256 * 1024), 0, LIMIT);
    cache(cache, 1, BlockKind.DATA, 1000);
    cache(cache, 2, BlockKind.INDEX, 200);
    cache.close();
    assertThat(cache.getBlock(1, 0, BlockKind.DATA, true)).isNull();
    assertThat(cache.getBlock(2, 0, BlockKind.INDEX, true)).isNull();
    assertThat(cache.cacheBlock(3, 0, BlockKind.DATA, heapPayload(3, 0, 10, 0), false)).isNull();
    BlockCacheStats stats = cache.stats();
    assertThat(stats.cachedBlocks()).isZero();
    assertThat(stats.usedBytes()).isZero();
    assertThat(stats.allocatedBytes()).isZero();
  }
}
