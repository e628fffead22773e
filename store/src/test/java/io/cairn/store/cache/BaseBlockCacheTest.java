package io.cairn.store.cache;

import static io.cairn.store.cache.TestingBlockCaches.directPayload;
import static io.cairn.store.cache.TestingBlockCaches.firstMismatch;
import static io.cairn.store.cache.TestingBlockCaches.heapPayload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of a block cache level, run for each level. Every test runs with paranoid leak
 * detection and ends with the cache closed, no leak, and no memory in use.
 */
abstract class BaseBlockCacheTest {
  static final long CAPACITY = 256 * 1024;

  private static final BlockKind KIND = BlockKind.DATA;

  private LeakDetector.Mode previousMode;
  BlockCacheBase cache;

  /** A new level of {@code capacity} bytes with the sizes of {@link TestingBlockCaches}. */
  abstract BlockCacheBase newCache(long capacity);

  /** The level's name in stats and leak reports. */
  abstract String level();

  @BeforeEach
  void setUp() {
    LeakDetector.takeLeaks();
    previousMode = LeakDetector.setMode(LeakDetector.Mode.PARANOID);
    cache = newCache(CAPACITY);
  }

  @AfterEach
  void tearDown() {
    try {
      cache.close();
      LeakDetector.assertNoLeaks();
      assertThat(cache.usedBytes()).as("memory in use after close").isZero();
      assertThat(cache.liveBlocks()).isZero();
      assertThat(LeakDetector.openCount()).isZero();
    } finally {
      LeakDetector.setMode(previousMode);
    }
  }

  /** Caches a block of the key's content; returns the cache's answer (retained, or null). */
  final BlockBuffer put(long fileId, long offset, int length, boolean inMemory) {
    return cache.cacheBlock(fileId, offset, KIND, heapPayload(fileId, offset, length, 0), inMemory);
  }

  /** Caches a block of the key's content and releases it. */
  final void cache(long fileId, long offset, int length) {
    put(fileId, offset, length, false).release();
  }

  final boolean isCached(long fileId, long offset) {
    BlockBuffer block = cache.getBlock(fileId, offset, KIND, false);
    if (block != null) {
      block.release();
    }
    return block != null;
  }

  @Test
  void missHitAndPromotion() {
    assertThat(cache.getBlock(1, 0, KIND, true)).isNull();
    cache(1, 0, 1000);
    assertThat(cache.peek(1, 0).priority()).isEqualTo(BlockPriority.SINGLE);

    try (BlockBuffer hit = cache.getBlock(1, 0, KIND, true)) {
      assertThat(firstMismatch(hit, 1, 0, 1000)).isEqualTo(-1);
    }
    assertThat(cache.peek(1, 0).priority()).as("promoted by a hit").isEqualTo(BlockPriority.MULTI);
    assertThat(cache.getBlock(1, 4096, KIND, false)).isNull();

    BlockCacheStats stats = cache.stats();
    assertThat(stats.hits()).isEqualTo(1);
    assertThat(stats.misses()).as("the uncounted miss is not counted").isEqualTo(1);
    assertThat(stats.hitRatio()).isEqualTo(0.5);

    put(2, 0, 500, true).release();
    assertThat(cache.peek(2, 0).priority()).isEqualTo(BlockPriority.MEMORY);
    assertThat(isCached(2, 0)).isTrue();
    assertThat(cache.peek(2, 0).priority()).as("not demoted").isEqualTo(BlockPriority.MEMORY);
  }

  @Test
  void copiesHeapAndDirectPayloadsWithoutMovingThem() {
    for (boolean direct : new boolean[] {false, true}) {
      long offset = direct ? 8192 : 0;
      ByteBuffer payload =
          direct ? directPayload(3, offset, 3000, 7) : heapPayload(3, offset, 3000, 7);
      try (BlockBuffer cached = cache.cacheBlock(3, offset, KIND, payload, false)) {
        assertThat(payload.position()).isEqualTo(7);
        assertThat(payload.limit()).isEqualTo(3007);
        assertThat(cached.length()).isEqualTo(3000);
        assertThat(cached.buffer().isReadOnly()).isTrue();
        assertThat(cached.buffer()).as("one shared view").isSameAs(cached.buffer());
        assertThat(firstMismatch(cached, 3, offset, 3000)).isEqualTo(-1);
      }
      for (int i = 0; i < 3007; i++) {
        payload.put(i, (byte) 0); // the cache holds a copy
      }
      try (BlockBuffer hit = cache.getBlock(3, offset, KIND, true)) {
        assertThat(firstMismatch(hit, 3, offset, 3000)).isEqualTo(-1);
      }
    }
  }

  @Test
  void cachingACachedKeyReturnsTheCachedBlock() {
    BlockBuffer first = put(1, 0, 1000, false);
    BlockBuffer second = cache.cacheBlock(1, 0, KIND, heapPayload(9, 9, 1200, 0), true);
    assertThat(second).isSameAs(first);
    assertThat(firstMismatch(second, 1, 0, 1000)).isEqualTo(-1);
    assertThat(cache.peek(1, 0).readers()).isEqualTo(2);
    assertThat(cache.stats().cachedBlocks()).isEqualTo(1);
    first.release();
    second.release();
  }

  @Test
  void blockLargerThanTheLargestBucketIsServedButNotCached() {
    assertThat(put(1, 0, 4097, false)).isNull();
    assertThat(cache.stats().notCachedTooLarge()).isEqualTo(1);
    assertThat(cache.stats().cachedBlocks()).isZero();
    cache(1, 0, 4096);
    assertThat(isCached(1, 0)).isTrue();
  }

  @Test
  void evictsTheLeastRecentlyUsedDownToTheLowWatermark() {
    int charge = cache.charge(1000);
    int inserted = 0;
    while (cache.stats().evictions() == 0) {
      assertThat(cache.usedBytes()).isLessThanOrEqualTo((long) (CAPACITY * 0.95));
      cache(1, inserted * 4096L, 1000);
      inserted++;
    }
    BlockCacheStats stats = cache.stats();
    assertThat(inserted).isEqualTo((int) (CAPACITY * 0.95) / charge + 1);
    assertThat(stats.usedBytes())
        .isLessThanOrEqualTo((long) (CAPACITY * 0.85))
        .isGreaterThan((long) (CAPACITY * 0.85) - charge);
    assertThat(stats.evictedBytes()).isEqualTo(stats.evictions() * charge);
    assertThat(stats.cachedBlocks()).isEqualTo(inserted - stats.evictions());
    for (int i = 0; i < inserted; i++) {
      assertThat(isCached(1, i * 4096L)).as("block %s", i).isEqualTo(i >= stats.evictions());
    }
  }

  @Test
  void multiAndMemoryBlocksSurviveAFloodOfSingleBlocks() {
    for (int i = 0; i < 100; i++) {
      cache(2, i * 4096L, 1000);
      assertThat(isCached(2, i * 4096L)).isTrue(); // promotes
    }
    for (int i = 0; i < 20; i++) {
      put(3, i * 4096L, 1000, true).release();
    }
    for (int i = 0; i < 1000; i++) {
      cache(1, i * 4096L, 1000);
    }
    assertThat(cache.stats().evictions()).isGreaterThan(700);
    for (int i = 0; i < 100; i++) {
      assertThat(cache.peek(2, i * 4096L)).as("multi block %s", i).isNotNull();
    }
    for (int i = 0; i < 20; i++) {
      assertThat(cache.peek(3, i * 4096L)).as("memory block %s", i).isNotNull();
    }
    assertThat(isCached(1, 999 * 4096L)).isTrue();
  }

  @Test
  void singleBlocksWithinTheirShareSurviveAFloodOfMultiBlocks() {
    for (int i = 0; i < 30; i++) {
      cache(1, i * 4096L, 1000);
    }
    for (int i = 0; i < 1000; i++) {
      cache(2, i * 4096L, 1000);
      assertThat(isCached(2, i * 4096L)).isTrue();
    }
    assertThat(cache.stats().evictions()).isGreaterThan(700);
    for (int i = 0; i < 30; i++) {
      assertThat(cache.peek(1, i * 4096L)).as("single block %s", i).isNotNull();
    }
  }

  @Test
  void evictionSkipsBlocksHeldByReaders() {
    BlockBuffer held = put(1, 0, 1000, false); // the least recently used
    for (int i = 0; i < 1000; i++) {
      cache(2, i * 4096L, 1000);
    }
    assertThat(cache.stats().evictions()).isGreaterThan(700);
    assertThat(cache.peek(1, 0)).isSameAs(held);
    assertThat(firstMismatch(held, 1, 0, 1000)).isEqualTo(-1);
    held.release();
  }

  @Test
  void evictFileUnmapsHeldBlocksAndFreesThemAtTheirLastRelease() {
    int charge = cache.charge(1000);
    for (int i = 0; i < 3; i++) {
      cache(1, i * 4096L, 1000);
    }
    cache(2, 0, 1000);
    BlockBuffer held = cache.getBlock(1, 4096, KIND, true);

    assertThat(cache.evictFile(1)).isEqualTo(3);
    for (int i = 0; i < 3; i++) {
      assertThat(isCached(1, i * 4096L)).isFalse();
    }
    assertThat(isCached(2, 0)).isTrue();
    assertThat(cache.stats().cachedBlocks()).isEqualTo(1);
    assertThat(cache.usedBytes()).as("the held block's memory").isEqualTo(2L * charge);
    assertThat(cache.stats().evictions()).as("deleted files are not evictions").isZero();

    assertThat(firstMismatch(held, 1, 4096, 1000)).isEqualTo(-1);
    assertThat(held.retain().release()).isFalse();
    assertThat(held.release()).isTrue();
    assertThat(cache.usedBytes()).isEqualTo(charge);
    assertThatThrownBy(held::retain)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("retain of freed block CachedBlock[file 1, offset 4096");
    assertThatThrownBy(held::buffer)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("use of freed block");
    assertThatThrownBy(held::release)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already freed");
    assertThat(cache.evictFile(1)).isZero();
  }

  @Test
  void overReleaseThrowsAndKeepsTheCachesReference() {
    BlockBuffer block = put(1, 0, 100, false);
    assertThat(block.release()).isFalse();
    assertThatThrownBy(block::release)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("that no reader holds");
    try (BlockBuffer again = cache.getBlock(1, 0, KIND, true)) {
      assertThat(again).isSameAs(block);
      assertThat(firstMismatch(again, 1, 0, 100)).isEqualTo(-1);
    }
  }

  @Test
  void nothingIsCachedWhenEveryBlockInTheWayIsHeld() {
    List<BlockBuffer> held = new ArrayList<>();
    for (BlockBuffer block; (block = put(1, held.size() * 4096L, 1000, false)) != null; ) {
      held.add(block);
    }
    assertThat(held).hasSize((int) (CAPACITY / cache.charge(1000)));
    BlockCacheStats stats = cache.stats();
    assertThat(stats.notCachedNoSpace()).isEqualTo(1);
    assertThat(stats.evictions()).isZero();
    for (BlockBuffer block : held) {
      assertThat(firstMismatch(block, 1, held.indexOf(block) * 4096L, 1000)).isEqualTo(-1);
    }

    held.remove(0).release();
    BlockBuffer next = put(2, 0, 1000, false);
    assertThat(next).as("the released block made room").isNotNull();
    assertThat(isCached(1, 0)).isFalse();
    next.release();
    held.forEach(BlockBuffer::release);
  }

  @Test
  void closeFreesEverythingNotHeld() {
    for (int i = 0; i < 10; i++) {
      cache(1, i * 4096L, 1000);
    }
    BlockBuffer held = cache.getBlock(1, 0, KIND, true);
    cache.close();
    cache.close(); // idempotent

    assertThat(cache.getBlock(1, 4096, KIND, true)).isNull();
    assertThat(put(1, 20 * 4096L, 1000, false)).isNull();
    BlockCacheStats stats = cache.stats();
    assertThat(stats.cachedBlocks()).isZero();
    assertThat(stats.usedBytes()).isEqualTo(cache.charge(1000));
    assertThat(stats.misses()).as("lookups after close are not counted").isZero();
    assertThat(cache.liveBlocks()).isEqualTo(1);
    assertThat(firstMismatch(held, 1, 0, 1000)).isEqualTo(-1);
    assertThat(LeakDetector.takeLeaks()).as("a block still held at close").hasSize(1);

    assertThat(held.release()).isTrue();
    assertThat(cache.usedBytes()).isZero();
  }

  @Test
  void blockHeldAtCloseIsReportedWithTheStackOfItsLastRetain() {
    cache(1, 0, 100);
    BlockBuffer leaked = readerThatForgetsToRelease();
    cache.close();

    List<BufferLeak> leaks = LeakDetector.takeLeaks();
    assertThat(leaks).hasSize(1);
    BufferLeak leak = leaks.get(0);
    assertThat(leak.buffer())
        .isEqualTo("CachedBlock[file 1, offset 0, length 100, " + level() + "]");
    assertThat(leak.pool()).isEqualTo(level());
    assertThat(leak.unreachable()).isFalse();
    assertThat(leak.toString())
        .contains("is still out without release; last taken at")
        .contains("readerThatForgetsToRelease");
    assertThat(leak.allocatedAt()).hasMessageContaining("last retained by thread");
    assertThat(leaked.release()).isTrue();
  }

  private BlockBuffer readerThatForgetsToRelease() {
    return cache.getBlock(1, 0, KIND, true);
  }

  @Test
  void assertNoLeaksFailsOnABlockHeldAtClose() {
    BlockBuffer held = put(1, 0, 100, false);
    cache.close();
    assertThatThrownBy(LeakDetector::assertNoLeaks)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("1 buffer(s) leaked")
        .hasMessageContaining("CachedBlock[file 1, offset 0, length 100, " + level() + "]");
    held.release();
  }

  @Test
  void unreachableUnreleasedBlockIsReported() throws InterruptedException {
    cache(1, 0, 100);
    dropWithoutRelease();
    assertThat(cache.evictFile(1)).isEqualTo(1);
    List<BufferLeak> leaks = new ArrayList<>();
    for (int attempt = 0; attempt < 100 && leaks.isEmpty(); attempt++) {
      System.gc();
      Thread.sleep(10);
      leaks.addAll(LeakDetector.takeLeaks());
    }
    assertThat(leaks).hasSize(1);
    assertThat(leaks.get(0).unreachable()).isTrue();
    assertThat(leaks.get(0).toString()).contains("dropWithoutRelease");
    // Its memory is lost to the cache, as a leaked buffer is lost to its pool.
    assertThat(cache.usedBytes()).isEqualTo(cache.charge(100));
    cache.close();
    cache = newCache(CAPACITY); // for the teardown's checks
  }

  private void dropWithoutRelease() {
    cache.getBlock(1, 0, KIND, true).buffer().get(0);
  }

  @Test
  void countsEverything() {
    BlockCacheStats empty = cache.stats();
    assertThat(empty.level()).isEqualTo(level());
    assertThat(empty.capacityBytes()).isEqualTo(CAPACITY);
    assertThat(empty.hitRatio()).isZero();
    assertThat(empty.cachedBlocks() + empty.cachedBytes() + empty.usedBytes()).isZero();

    cache(1, 0, 1000);
    cache(1, 4096, 2000);
    cache(1, 8192, 3000);
    assertThat(put(1, 12288, 5000, false)).isNull();
    cache.getBlock(1, 0, KIND, true).release();
    cache.getBlock(1, 4096, KIND, true).release();
    assertThat(cache.getBlock(1, 16384, KIND, true)).isNull();

    BlockCacheStats stats = cache.stats();
    assertThat(stats.hits()).isEqualTo(2);
    assertThat(stats.misses()).isEqualTo(1);
    assertThat(stats.hitRatio()).isEqualTo(2.0 / 3);
    assertThat(stats.notCachedTooLarge()).isEqualTo(1);
    assertThat(stats.notCachedNoSpace()).isZero();
    assertThat(stats.cachedBlocks()).isEqualTo(3);
    assertThat(stats.cachedBytes()).isEqualTo(6000);
    assertThat(stats.usedBytes())
        .isEqualTo(cache.charge(1000) + cache.charge(2000) + cache.charge(3000));
    assertThat(stats.evictions()).isZero();
  }

  /**
   * Several threads look up, cache, hold and release random blocks and evict files while the small
   * cache evicts all the time; every byte read must be the key's, and at the end every slot must be
   * accounted for and freed.
   */
  @Test
  void concurrentReadersNeverSeeAnotherBlocksBytes() throws Exception {
    int threads = 4;
    byte[][] contents = new byte[FILES * OFFSETS][];
    for (int f = 0; f < FILES; f++) {
      for (int o = 0; o < OFFSETS; o++) {
        contents[f * OFFSETS + o] = content(f, o * 4096L, length(f, o * 4096L));
      }
    }
    long seed = new Random().nextLong();
    ExecutorService executor = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Long>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Random random = new Random(seed + t);
        Callable<Long> worker = () -> stress(random, contents, 5_000);
        results.add(executor.submit(worker));
      }
      long verified = 0;
      for (Future<Long> result : results) {
        verified += result.get(60, TimeUnit.SECONDS);
      }
      assertThat(verified).as("seed %s", seed).isPositive();
    } finally {
      executor.shutdownNow();
    }

    BlockCacheStats stats = cache.stats();
    assertThat(stats.hits()).as("seed %s", seed).isPositive();
    assertThat(stats.evictions()).as("seed %s", seed).isPositive();
    assertThat(cache.liveBlocks()).as("nothing held").isEqualTo(stats.cachedBlocks());
    long charges = 0;
    long bytes = 0;
    byte[] scratch = new byte[4096];
    for (int f = 0; f < FILES; f++) {
      for (int o = 0; o < OFFSETS; o++) {
        CachedBlock block = cache.peek(f, o * 4096L);
        if (block != null) {
          assertThat(block.readers()).isZero();
          charges += block.charge();
          bytes += block.length();
          check(block, f, o * 4096L, contents[f * OFFSETS + o], scratch);
        }
      }
    }
    assertThat(stats.usedBytes()).as("seed %s", seed).isEqualTo(charges);
    assertThat(stats.cachedBytes()).as("seed %s", seed).isEqualTo(bytes);
    assertThat(stats.usedBytes()).isLessThanOrEqualTo(CAPACITY);
    checkMemory();
  }

  private static final int FILES = 8;
  private static final int OFFSETS = 64;

  /** Checks the level's own accounting of its memory after the stress test. */
  void checkMemory() {}

  /** A block length from 1 byte to 4 KiB (all size classes), fixed for each key. */
  static int length(long fileId, long offset) {
    return 1 + Math.floorMod(BlockMap.hash(fileId, offset), 4096);
  }

  private static byte[] content(long fileId, long offset, int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = TestingBlockCaches.expectedByte(fileId, offset, i);
    }
    return bytes;
  }

  private long stress(Random random, byte[][] contents, int operations) {
    ByteBuffer heap = ByteBuffer.allocate(4096 + 16);
    ByteBuffer direct = ByteBuffer.allocateDirect(4096 + 16);
    byte[] scratch = new byte[4096];
    List<BlockBuffer> held = new ArrayList<>();
    List<long[]> heldKeys = new ArrayList<>();
    long verified = 0;
    for (int i = 0; i < operations; i++) {
      long fileId = random.nextInt(FILES);
      long offset = random.nextInt(OFFSETS) * 4096L;
      if (random.nextInt(200) == 0) {
        cache.evictFile(fileId);
        continue;
      }
      byte[] expected = contents[(int) (fileId * OFFSETS + offset / 4096)];
      BlockBuffer block = cache.getBlock(fileId, offset, KIND, true);
      if (block == null) {
        ByteBuffer payload = random.nextBoolean() ? heap : direct;
        int skip = random.nextInt(16);
        payload.put(skip, expected, 0, expected.length);
        payload.limit(skip + expected.length).position(skip);
        block = cache.cacheBlock(fileId, offset, KIND, payload, random.nextInt(10) == 0);
        payload.clear();
      }
      if (block != null) {
        check(block, fileId, offset, expected, scratch);
        verified++;
        if (held.size() < 4 && random.nextBoolean()) {
          held.add(block);
          heldKeys.add(new long[] {fileId, offset});
        } else {
          block.release();
        }
      }
      if (!held.isEmpty() && (held.size() == 4 || random.nextInt(3) == 0)) {
        int k = random.nextInt(held.size());
        long[] key = heldKeys.remove(k);
        BlockBuffer old = held.remove(k);
        check(old, key[0], key[1], contents[(int) (key[0] * OFFSETS + key[1] / 4096)], scratch);
        old.release();
      }
    }
    for (int k = 0; k < held.size(); k++) {
      long[] key = heldKeys.get(k);
      check(
          held.get(k), key[0], key[1], contents[(int) (key[0] * OFFSETS + key[1] / 4096)], scratch);
      held.get(k).release();
    }
    return verified;
  }

  /** Compares the block's bytes, read with absolute gets only, with the key's content. */
  private static void check(
      BlockBuffer block, long fileId, long offset, byte[] expected, byte[] scratch) {
    ByteBuffer view = block.buffer();
    int length = expected.length;
    int mismatch = -1;
    if (block.length() != length || view.position() != 0 || view.limit() != length) {
      mismatch = Integer.MAX_VALUE;
    } else {
      view.get(0, scratch, 0, length);
      mismatch = Arrays.mismatch(scratch, 0, length, expected, 0, length);
    }
    if (mismatch != -1) {
      throw new AssertionError(
          block + " of file " + fileId + " offset " + offset + " differs at byte " + mismatch);
    }
  }
}
