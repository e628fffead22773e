package io.cairn.store.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.store.cache.BlockCacheConfig;
import io.cairn.store.cache.BlockCacheStats;
import io.cairn.store.cache.BufferPool;
import io.cairn.store.cache.BufferPoolConfig;
import io.cairn.store.cache.CombinedBlockCache;
import io.cairn.store.cell.CellCursor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads through the block cache: hits hand out cached memory, NO_CACHE reads do not fill it, a
 * block that fails its checks is never cached, eviction never frees a block a cursor holds, and
 * every pooled buffer and cached block is released.
 */
class TestBlockFileCaching {
  @TempDir Path directory;
  private BufferPool pool;
  private CombinedBlockCache cache;
  private ReadContext context;

  @BeforeEach
  void open() {
    pool = new BufferPool("caching test reads", new BufferPoolConfig(70 * 1024, 0, 8));
    // two 520 KiB buckets of L2: a few dozen small blocks, so big files evict
    BlockCacheConfig config =
        BlockCacheConfig.defaults().withL1Bytes(256 << 10).withL2Bytes(2 * (520L << 10));
    cache = new CombinedBlockCache(config, pool.config().poolBytes());
    context = new ReadContext(pool, cache);
  }

  @AfterEach
  void everythingIsReleased() {
    BlockCacheStats l2 = level("L2");
    assertThat(l2.usedBytes())
        .as("L2 memory held by readers")
        .isLessThanOrEqualTo(l2.capacityBytes());
    cache.close();
    assertThat(pool.stats().usedBuffers()).as("pooled buffers still out").isZero();
    assertThat(pool.checkLeaks()).isEmpty();
    pool.close();
  }

  private BlockCacheStats level(String name) {
    return cache.levels().stream().filter(s -> s.level().equals(name)).findFirst().orElseThrow();
  }

  private static List<TestingCell> cells(int count) {
    List<TestingCell> cells = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      cells.add(
          TestingCell.put(
              String.format(Locale.ROOT, "row%06d", i),
              1,
              "value-" + i + "-" + "x".repeat(i % 50)));
    }
    return cells;
  }

  private Path write(List<TestingCell> cells, int blockSize) {
    Path path = directory.resolve("f" + System.nanoTime() + ".blk");
    TestingCell.write(
        path,
        new BlockFileOptions(DataBlockEncoding.FAST_DIFF, Compression.LZ4, blockSize, true, 100),
        cells);
    return path;
  }

  private static List<TestingCell> scan(BlockFileReader reader, CachePolicy policy) {
    try (CellCursor cursor = reader.cursor(policy)) {
      return TestingCell.drain(cursor, cursor.seek(Bytes.EMPTY));
    }
  }

  @Test
  void aSecondScanIsServedFromTheCache() {
    List<TestingCell> cells = cells(300);
    try (BlockFileReader reader = BlockFileReader.open(write(cells, 1024), context)) {
      assertThat(scan(reader, CachePolicy.CACHE)).isEqualTo(cells);
      BlockCacheStats first = level("L2");
      assertThat(first.cachedBlocks()).isPositive();
      assertThat(first.misses()).isEqualTo(first.cachedBlocks());
      assertThat(scan(reader, CachePolicy.CACHE)).isEqualTo(cells);
      BlockCacheStats second = level("L2");
      assertThat(second.misses()).isEqualTo(first.misses());
      assertThat(second.hits() - first.hits()).isEqualTo(first.cachedBlocks());
    }
    assertThat(level("L2").cachedBlocks()).as("closing the reader evicts its blocks").isZero();
  }

  @Test
  void noCacheReadsUseTheCacheButDoNotFillIt() {
    List<TestingCell> cells = cells(300);
    try (BlockFileReader reader = BlockFileReader.open(write(cells, 1024), context)) {
      assertThat(scan(reader, CachePolicy.NO_CACHE)).isEqualTo(cells);
      assertThat(level("L2").cachedBlocks()).isZero();
      assertThat(pool.stats().usedBuffers()).isZero();
      assertThat(scan(reader, CachePolicy.CACHE)).isEqualTo(cells);
      long cached = level("L2").cachedBlocks();
      long hits = level("L2").hits();
      assertThat(scan(reader, CachePolicy.NO_CACHE)).isEqualTo(cells);
      assertThat(level("L2").hits() - hits).isEqualTo(cached);
    }
  }

  @Test
  void inMemoryPriorityIsServedLikeAnyOther() {
    List<TestingCell> cells = cells(100);
    try (BlockFileReader reader = BlockFileReader.open(write(cells, 1024), context)) {
      assertThat(scan(reader, CachePolicy.CACHE_IN_MEMORY)).isEqualTo(cells);
      assertThat(scan(reader, CachePolicy.CACHE)).isEqualTo(cells);
      assertThat(level("L2").hits()).isPositive();
    }
  }

  @Test
  void aBlockThatFailsItsChecksIsNeverCached() throws IOException {
    List<TestingCell> cells = cells(300);
    Path path = write(cells, 1024);
    byte[] bytes = Files.readAllBytes(path);
    // a byte inside the third data block: blocks start after the 64-byte file header
    int damaged;
    try (BlockFileReader reader = BlockFileReader.open(path, context)) {
      damaged = (int) (reader.info().fileBytes() / 2);
    }
    bytes[damaged] ^= 0x40;
    Files.write(path, bytes);
    try (BlockFileReader reader = BlockFileReader.open(path, context)) {
      for (int attempt = 0; attempt < 2; attempt++) {
        long cachedBefore = level("L2").cachedBlocks();
        assertThatThrownBy(() -> scan(reader, CachePolicy.CACHE))
            .isInstanceOf(CairnException.class)
            .satisfies(
                e ->
                    assertThat(((CairnException) e).errorCode())
                        .isEqualTo(ErrorCode.DATA_CORRUPTED));
        if (attempt == 1) {
          assertThat(level("L2").cachedBlocks())
              .as("the second attempt reads the damaged block from disk again")
              .isEqualTo(cachedBefore);
        }
      }
    }
  }

  @Test
  void evictionNeverFreesABlockACursorHolds() {
    List<TestingCell> small = cells(2000);
    try (BlockFileReader held = BlockFileReader.open(write(small, 8 * 1024), context);
        BlockFileReader flood = BlockFileReader.open(write(cells(60000), 8 * 1024), context);
        CellCursor paused = held.cursor(CachePolicy.CACHE)) {
      assertThat(paused.seek(small.get(10).row())).isTrue();
      // a scan of a file much larger than L2 evicts everything it can
      assertThat(scan(flood, CachePolicy.CACHE)).hasSize(60000);
      assertThat(level("L2").evictions()).isPositive();
      List<TestingCell> rest = TestingCell.drain(paused, true);
      assertThat(rest).isEqualTo(small.subList(10, small.size()));
    }
  }

  @Test
  void concurrentScansThroughASmallCacheReadTheRightBytes() throws Exception {
    List<TestingCell> cells = cells(6000);
    try (BlockFileReader reader = BlockFileReader.open(write(cells, 4 * 1024), context)) {
      List<Thread> threads = new ArrayList<>();
      List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
      for (int t = 0; t < 4; t++) {
        CachePolicy policy = t % 2 == 0 ? CachePolicy.CACHE : CachePolicy.NO_CACHE;
        Thread thread =
            new Thread(
                () -> {
                  try {
                    for (int i = 0; i < 5; i++) {
                      assertThat(scan(reader, policy)).isEqualTo(cells);
                    }
                  } catch (Throwable e) {
                    failures.add(e);
                  }
                });
        threads.add(thread);
        thread.start();
      }
      for (Thread thread : threads) {
        thread.join();
      }
      assertThat(failures).isEmpty();
    }
  }
}
