package io.cairn.store.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestBlockCacheConfig {
  private static final long GIB = 1L << 30;
  private static final BlockCacheConfig DEFAULTS = BlockCacheConfig.defaults(4 * GIB, 8 * GIB);

  @Test
  void defaults() {
    assertThat(DEFAULTS.l1Bytes()).as("capped at 256 MiB").isEqualTo(256L << 20);
    assertThat(DEFAULTS.l2Bytes()).as("a quarter of direct memory").isEqualTo(2 * GIB);
    assertThat(DEFAULTS.bucketSizes())
        .containsExactly(
            5 << 10, 9 << 10, 17 << 10, 33 << 10, 41 << 10, 49 << 10, 57 << 10, 65 << 10, 97 << 10,
            129 << 10);
    assertThat(DEFAULTS.bucketBytes()).isEqualTo(520 << 10);
    assertThat(DEFAULTS.maxBlockBytes()).isEqualTo(129 << 10);
    assertThat(DEFAULTS.acceptableFactor()).isEqualTo(0.95);
    assertThat(DEFAULTS.minFactor()).isEqualTo(0.85);
    assertThat(DEFAULTS.singleFactor()).isEqualTo(0.25);
    assertThat(DEFAULTS.multiFactor()).isEqualTo(0.50);
    assertThat(DEFAULTS.memoryFactor()).isEqualTo(0.25);

    BlockCacheConfig small = BlockCacheConfig.defaults(512L << 20, 1L << 20);
    assertThat(small.l1Bytes()).as("a tenth of the heap").isEqualTo((512L << 20) / 10);
    assertThat(small.l2Bytes()).as("less than one bucket: none").isZero();
  }

  @Test
  void aDataBlockAndItsSlackFitThe65KiBClass() {
    int block = 64 * 1024 + 64;
    assertThat(
            new BucketAllocator(
                    "x", DEFAULTS.bucketBytes(), DEFAULTS.bucketSizes(), DEFAULTS.bucketBytes())
                .itemSize(block))
        .isEqualTo(65 << 10);
    assertThat(DEFAULTS.bucketBytes() % (65 << 10)).as("no waste in the data block class").isZero();
  }

  @Test
  void mapsTheSettings() {
    BlockCacheConfig config =
        BlockCacheConfig.from(
            Map.of(
                "cairn.block-cache.size", "512m",
                "cairn.block-cache.l1-size", "64K",
                "cairn.memstore.flush-size", "not ours"),
            DEFAULTS);
    assertThat(config).isEqualTo(DEFAULTS.withL2Bytes(512L << 20).withL1Bytes(64L << 10));
    assertThat(BlockCacheConfig.from(Map.of("cairn.block-cache.size", " 2g "), DEFAULTS).l2Bytes())
        .isEqualTo(2 * GIB);
    assertThat(BlockCacheConfig.from(Map.of("cairn.block-cache.size", "0"), DEFAULTS).l2Bytes())
        .isZero();
    assertThat(
            BlockCacheConfig.from(Map.of("cairn.block-cache.size", "1048576"), DEFAULTS).l2Bytes())
        .isEqualTo(1L << 20);
    assertThat(BlockCacheConfig.from(Map.of(), DEFAULTS)).isEqualTo(DEFAULTS);
  }

  @Test
  void badSettingsAreInvalidArguments() {
    assertInvalid(
        Map.of("cairn.block-cache.size", "lots"),
        "Invalid store setting cairn.block-cache.size: expected a whole number, optionally with k,"
            + " m or g, found [lots]");
    assertInvalid(
        Map.of("cairn.block-cache.l1-size", "-1m"),
        "Invalid store setting cairn.block-cache.l1-size: expected a value >= 0, found [-1m]");
    assertInvalid(
        Map.of("cairn.block-cache.size", "99999999999g"),
        "Invalid store setting cairn.block-cache.size: expected a whole number, optionally with k,"
            + " m or g, found [99999999999g]");
    assertInvalid(
        Map.of("cairn.block-cache.size", "100k"),
        "Invalid store setting cairn.block-cache.size: expected 0 (no off-heap cache) or at least"
            + " one bucket of [532480] bytes, found [100k]");
    assertInvalid(
        Map.of("cairn.block-cache.sise", "1g"),
        "Unknown store setting [cairn.block-cache.sise]: expected one of"
            + " [cairn.block-cache.l1-size, cairn.block-cache.size]");
  }

  private static void assertInvalid(Map<String, String> settings, String message) {
    assertThatThrownBy(() -> BlockCacheConfig.from(settings, DEFAULTS))
        .isInstanceOf(CairnException.class)
        .hasMessage(message)
        .extracting(e -> ((CairnException) e).errorCode())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void cacheAndBufferPoolLargerThanTheDirectMemoryAreRejectedNamingBothSizes() {
    BlockCacheConfig config = DEFAULTS.withL2Bytes(GIB);
    config.checkDirectMemory(GIB / 2, GIB + GIB / 2);
    assertThatThrownBy(() -> config.checkDirectMemory(GIB / 2, GIB + GIB / 2 - 1))
        .isInstanceOf(CairnException.class)
        .hasMessage(
            "Block cache of [1073741824] bytes (cairn.block-cache.size) and buffer pool of"
                + " [536870912] bytes need [1610612736] bytes of direct memory, more than the"
                + " [1610612735] bytes the JVM allows: lower cairn.block-cache.size or raise"
                + " -XX:MaxDirectMemorySize");
    assertThatThrownBy(() -> new CombinedBlockCache(config, GIB / 2, GIB))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("[1073741824] bytes (cairn.block-cache.size)")
        .hasMessageContaining("buffer pool of [536870912] bytes")
        .hasMessageContaining("MaxDirectMemorySize");
  }

  @Test
  void theJvmsOwnLimitRejectsAHugeCache() {
    long max = BufferPool.maxDirectMemory();
    BlockCacheConfig config = DEFAULTS.withL2Bytes(max + 1);
    assertThatThrownBy(() -> new CombinedBlockCache(config, 0))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("[" + max + "] bytes the JVM allows");
  }

  @Test
  void badOptionsAreRejected() {
    List<Integer> sizes = List.of(1024, 2048);
    assertThatThrownBy(() -> new BlockCacheConfig(-1, 0, sizes, 4096, 0.95, 0.85, 0.25, 0.5, 0.25))
        .hasMessageContaining("must not be negative");
    assertThatThrownBy(
            () -> new BlockCacheConfig(0, 0, List.of(), 4096, 0.95, 0.85, 0.25, 0.5, 0.25))
        .hasMessage("bucketSizes must not be empty");
    assertThatThrownBy(
            () ->
                new BlockCacheConfig(0, 0, List.of(2048, 1024), 4096, 0.95, 0.85, 0.25, 0.5, 0.25))
        .hasMessage("bucketSizes must be positive and ascending, found [2048, 1024]");
    assertThatThrownBy(() -> new BlockCacheConfig(0, 0, sizes, 2047, 0.95, 0.85, 0.25, 0.5, 0.25))
        .hasMessageContaining("bucketBytes must be in [2048, ");
    assertThatThrownBy(
            () -> new BlockCacheConfig(0, 4095, sizes, 4096, 0.95, 0.85, 0.25, 0.5, 0.25))
        .hasMessageContaining("l2Bytes must be 0 or at least one bucket of [4096] bytes");
    assertThatThrownBy(() -> new BlockCacheConfig(0, 0, sizes, 4096, 0.85, 0.95, 0.25, 0.5, 0.25))
        .hasMessageContaining("0 < minFactor < acceptableFactor <= 1");
    assertThatThrownBy(() -> new BlockCacheConfig(0, 0, sizes, 4096, 0.95, 0.85, 0.25, 0.5, 0.5))
        .hasMessageContaining("add up to 1");
  }
}
