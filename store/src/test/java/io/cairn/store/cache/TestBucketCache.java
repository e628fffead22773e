package io.cairn.store.cache;

import static io.cairn.store.cache.TestingBlockCaches.BUCKET;
import static io.cairn.store.cache.TestingBlockCaches.config;
import static io.cairn.store.cache.TestingBlockCaches.firstMismatch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import org.junit.jupiter.api.Test;

class TestBucketCache extends BaseBlockCacheTest {
  private static final long SLAB = (long) BucketAllocator.SLAB_BUCKETS * BUCKET;

  @Override
  BlockCacheBase newCache(long capacity) {
    return new BucketCache(config(0, capacity));
  }

  @Override
  String level() {
    return "L2";
  }

  private BucketAllocator allocator() {
    return ((BucketCache) cache).allocator();
  }

  @Override
  void checkMemory() {
    allocator().checkConsistency();
    assertThat(allocator().usedSlots()).isEqualTo(cache.stats().cachedBlocks());
  }

  @Test
  void allocatesSlabsLazily() {
    assertThat(cache.stats().allocatedBytes()).isZero();
    cache(1, 0, 1000);
    BlockCacheStats stats = cache.stats();
    assertThat(stats.allocatedBytes()).isEqualTo(SLAB);
    assertThat(stats.usedBytes()).as("a 1 KiB slot").isEqualTo(1024);
    assertThat(stats.capacityBytes()).isEqualTo(CAPACITY);
    for (int i = 1; i < 200; i++) {
      cache(1, i * 4096L, 1000);
    }
    assertThat(cache.stats().allocatedBytes()).isEqualTo(CAPACITY);
    cache.close();
    assertThat(cache.stats().allocatedBytes()).isZero();
  }

  @Test
  void blocksAreReadOnlyViewsOfDirectMemory() {
    try (BlockBuffer block = put(1, 0, 1000, false)) {
      assertThat(block.buffer().isDirect()).isTrue();
      assertThat(block.buffer().isReadOnly()).isTrue();
      assertThat(block.buffer().capacity()).isEqualTo(1000);
    }
  }

  @Test
  void heldSlotIsReusedOnlyAfterTheLastRelease() {
    BlockBuffer held = put(1, 0, 1000, false);
    long address = cache.peek(1, 0).address();
    cache.evictFile(1);
    cache(2, 0, 1000);
    assertThat(cache.peek(2, 0).address()).isNotEqualTo(address);
    assertThat(firstMismatch(held, 1, 0, 1000)).isEqualTo(-1);

    assertThat(held.release()).isTrue();
    cache(3, 0, 900);
    assertThat(cache.peek(3, 0).address()).as("the freed slot").isEqualTo(address);
    assertThat(cache.usedBytes()).isEqualTo(2048);
    allocator().checkConsistency();
  }

  @Test
  void aFullBucketOfAnotherClassIsEmptiedForAClassWithoutRoom() {
    cache.close();
    cache = new BucketCache(config(0, 2 * BUCKET));
    for (int i = 0; i < 10; i++) {
      cache(1, i * 4096L, 1000); // bucket 0: the 1 KiB class
    }
    cache(2, 0, 2000); // bucket 1: the 2 KiB class
    assertThat(cache.usedBytes()).as("far below the watermarks").isLessThan(BUCKET);

    cache(3, 0, 4000); // no bucket can take the 4 KiB class: the one with fewer blocks is emptied
    assertThat(isCached(3, 0)).isTrue();
    assertThat(isCached(2, 0)).isFalse();
    for (int i = 0; i < 10; i++) {
      assertThat(isCached(1, i * 4096L)).isTrue();
    }
    assertThat(cache.stats().evictions()).isEqualTo(1);
    allocator().checkConsistency();
  }

  @Test
  void aClassWithoutRoomEvictsItsOwnLeastValuableBlock() {
    cache.close();
    cache = new BucketCache(config(0, 2 * BUCKET));
    for (int i = 0; i < 4; i++) {
      cache(1, i * 4096L, 4000); // bucket 0: full of 4 KiB slots
    }
    for (int i = 0; i < 3; i++) {
      cache(2, i * 4096L, 1000); // bucket 1
      assertThat(isCached(2, i * 4096L)).isTrue(); // MULTI
    }
    assertThat(isCached(1, 4096)).isTrue(); // MULTI: block 0 is now the least valuable
    cache(1, 4 * 4096L, 4000);
    assertThat(isCached(1, 0)).isFalse();
    assertThat(isCached(1, 4096)).isTrue();
    assertThat(isCached(1, 4 * 4096L)).isTrue();
    assertThat(cache.stats().evictions()).isEqualTo(1);
  }

  @Test
  void capacityIsRoundedDownToWholeBuckets() {
    cache.close();
    cache = new BucketCache(config(0, 3 * BUCKET + 100));
    assertThat(cache.stats().capacityBytes()).isEqualTo(3L * BUCKET);
  }

  @Test
  void cacheLargerThanTheDirectMemoryIsRejected() {
    BlockCacheConfig config = config(0, 4 * BUCKET);
    assertThatThrownBy(() -> new BucketCache(config, 4 * BUCKET - 1))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("[65536] bytes")
        .hasMessageContaining("[65535] bytes the JVM allows")
        .hasMessageContaining("-XX:MaxDirectMemorySize")
        .extracting(e -> ((CairnException) e).errorCode())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
    new BucketCache(config, 4 * BUCKET).close();
  }
}
