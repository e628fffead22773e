package io.cairn.store.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.expr.NumberVector;
import org.junit.jupiter.api.Test;

/** The vector cache's accounting, eviction and admission once full. */
class TestVectorCache {
  /** A block of {@code rows} rows with one vector of longs under key {@code key}. */
  private static BlockVectors block(int rows, long key) {
    NumberVector v = new NumberVector(null, new long[rows], null, 0, 0);
    return new BlockVectors(
        rows, true, 1, 1, new byte[] {1}, new byte[] {2}, new long[] {key}, new NumberVector[] {v});
  }

  @Test
  void keepsBlocksWithinItsBytesEvictingTheLeastRecentlyUsed() {
    long one = block(100, 1).bytes();
    VectorCache cache = new VectorCache(3 * one);
    cache.put(1, 0, block(100, 1));
    cache.put(1, 100, block(100, 1));
    cache.put(1, 200, block(100, 1));
    assertThat(cache.bytes()).isEqualTo(3 * one);
    assertThat(cache.get(1, 0)).isNotNull(); // now the most recently used
    cache.put(1, 300, block(100, 1));
    assertThat(cache.blockCount()).isEqualTo(3);
    assertThat(cache.get(1, 100)).as("the least recently used").isNull();
    assertThat(cache.get(1, 0)).isNotNull();
    assertThat(cache.evictions()).isEqualTo(1);
    assertThat(cache.bytes()).isLessThanOrEqualTo(3 * one);
  }

  @Test
  void columnsAddedToABlockKeptAreCountedAndFound() {
    VectorCache cache = new VectorCache(1 << 20);
    BlockVectors kept = cache.put(7, 0, block(10, 1));
    long before = cache.bytes();
    BlockVectors same = cache.put(7, 0, block(10, 2));
    assertThat(same).isSameAs(kept);
    assertThat(kept.find(1)).isNotNull();
    assertThat(kept.find(2)).isNotNull();
    assertThat(kept.find(3)).isNull();
    assertThat(cache.bytes()).isEqualTo(kept.bytes()).isGreaterThan(before);
  }

  @Test
  void aClosedFilesBlocksGo() {
    VectorCache cache = new VectorCache(1 << 20);
    cache.put(1, 0, block(10, 1));
    cache.put(2, 0, block(10, 1));
    cache.evictFile(1);
    assertThat(cache.get(1, 0)).isNull();
    assertThat(cache.get(2, 0)).isNotNull();
    assertThat(cache.bytes()).isEqualTo(block(10, 1).bytes());
  }

  @Test
  void onceFullItAdmitsOneMissInEight() {
    long one = block(100, 1).bytes();
    VectorCache cache = new VectorCache(2 * one);
    assertThat(cache.admits()).isTrue();
    cache.put(1, 0, block(100, 1));
    cache.put(1, 100, block(100, 1));
    int admitted = 0;
    for (int i = 0; i < 80; i++) {
      admitted += cache.admits() ? 1 : 0;
    }
    assertThat(admitted).isEqualTo(80 / VectorCache.FULL_ADMISSION);
    assertThat(VectorCache.DISABLED.admits()).isFalse();
  }
}
