package io.cairn.store.cache;

import static io.cairn.store.cache.TestingBlockCaches.config;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TestLruBlockCache extends BaseBlockCacheTest {
  @Override
  BlockCacheBase newCache(long capacity) {
    return new LruBlockCache(config(capacity, 0));
  }

  @Override
  String level() {
    return "L1";
  }

  @Test
  void blocksAreReadOnlyHeapCopiesChargedByTheirLength() {
    try (BlockBuffer block = put(1, 0, 1000, false)) {
      assertThat(block.buffer().isDirect()).isFalse();
      assertThat(block.buffer().isReadOnly()).isTrue();
    }
    BlockCacheStats stats = cache.stats();
    assertThat(stats.usedBytes()).isEqualTo(1000);
    assertThat(stats.allocatedBytes()).isEqualTo(1000);
  }

  @Test
  void blockLargerThanTheCapacityIsNotCached() {
    cache.close();
    cache = new LruBlockCache(config(2000, 0));
    assertThat(put(1, 0, 2001, false)).isNull();
    assertThat(cache.stats().notCachedTooLarge()).isEqualTo(1);
    cache(1, 0, 2000);
    cache(1, 4096, 1500);
    assertThat(isCached(1, 0)).as("evicted to make room").isFalse();
    assertThat(isCached(1, 4096)).isTrue();
  }
}
