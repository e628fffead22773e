package io.cairn.store.cache;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.store.io.Settings;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Options of the block cache ({@link CombinedBlockCache}).
 *
 * @param l1Bytes capacity of the on-heap level ({@link LruBlockCache}) for index and bloom blocks;
 *     0 for none. Default: a tenth of the heap, at most 256 MiB
 * @param l2Bytes capacity of the off-heap level ({@link BucketCache}) for data blocks, rounded down
 *     to whole buckets; 0 for none (data blocks then go to L1). Allocated lazily, so this is a
 *     ceiling, not a reservation. Default: a quarter of the JVM's direct memory limit
 * @param bucketSizes L2's slot sizes (size classes), ascending; a block larger than the last is not
 *     cached in either level. Default: 5, 9, 17, 33, 41, 49, 57, 65, 97 and 129 KiB, so that a 64
 *     KiB block and its slack fit the 65 KiB class
 * @param bucketBytes the size of an L2 bucket, which serves one slot size at a time. Default: 520
 *     KiB, eight 65 KiB or four 129 KiB slots with nothing left over
 * @param acceptableFactor a level evicts when its used bytes pass this fraction of its capacity
 *     (0.95)
 * @param minFactor and evicts down to this fraction (0.85)
 * @param singleFactor the share of the capacity (below {@code minFactor}) of blocks read once
 *     (0.25)
 * @param multiFactor the share of blocks read more than once (0.50)
 * @param memoryFactor the share of blocks of in-memory tables (0.25)
 */
public record BlockCacheConfig(
    long l1Bytes,
    long l2Bytes,
    List<Integer> bucketSizes,
    int bucketBytes,
    double acceptableFactor,
    double minFactor,
    double singleFactor,
    double multiFactor,
    double memoryFactor) {

  /** L2 capacity: a size such as {@code 512m} or {@code 2g}; 0 disables it. */
  public static final String SIZE = "cairn.block-cache.size";

  /** L1 capacity: a size such as {@code 64m}; 0 disables it. */
  public static final String L1_SIZE = "cairn.block-cache.l1-size";

  private static final String PREFIX = "cairn.block-cache.";
  private static final Set<String> KEYS = Set.of(SIZE, L1_SIZE);

  public static final List<Integer> DEFAULT_BUCKET_SIZES =
      List.of(
          5 << 10, 9 << 10, 17 << 10, 33 << 10, 41 << 10, 49 << 10, 57 << 10, 65 << 10, 97 << 10,
          129 << 10);
  public static final int DEFAULT_BUCKET_BYTES = 520 << 10;
  public static final long DEFAULT_MAX_L1_BYTES = 256L << 20;

  /** The largest bucket: slabs hold {@link BucketAllocator#SLAB_BUCKETS} of them in one buffer. */
  private static final int MAX_BUCKET_BYTES = 64 << 20;

  public BlockCacheConfig {
    requireNonNull(bucketSizes, "bucketSizes is null");
    bucketSizes = List.copyOf(bucketSizes);
    if (l1Bytes < 0 || l2Bytes < 0) {
      throw new IllegalArgumentException(
          "l1Bytes and l2Bytes must not be negative, found [" + l1Bytes + "], [" + l2Bytes + "]");
    }
    if (bucketSizes.isEmpty()) {
      throw new IllegalArgumentException("bucketSizes must not be empty");
    }
    int previous = 0;
    for (int size : bucketSizes) {
      if (size <= previous) {
        throw new IllegalArgumentException(
            "bucketSizes must be positive and ascending, found " + bucketSizes);
      }
      previous = size;
    }
    if (bucketBytes < previous || bucketBytes > MAX_BUCKET_BYTES) {
      throw new IllegalArgumentException(
          "bucketBytes must be in ["
              + previous
              + ", "
              + MAX_BUCKET_BYTES
              + "] (at least the"
              + " largest bucket size), found ["
              + bucketBytes
              + "]");
    }
    if (l2Bytes > 0 && l2Bytes < bucketBytes) {
      throw new IllegalArgumentException(
          "l2Bytes must be 0 or at least one bucket of ["
              + bucketBytes
              + "] bytes, found ["
              + l2Bytes
              + "]");
    }
    if (!(minFactor > 0 && minFactor < acceptableFactor && acceptableFactor <= 1)) {
      throw new IllegalArgumentException(
          "factors must satisfy 0 < minFactor < acceptableFactor <= 1, found ["
              + minFactor
              + "], ["
              + acceptableFactor
              + "]");
    }
    double shares = singleFactor + multiFactor + memoryFactor;
    if (singleFactor < 0 || multiFactor < 0 || memoryFactor < 0 || Math.abs(shares - 1) > 1e-6) {
      throw new IllegalArgumentException(
          "singleFactor, multiFactor and memoryFactor must be non-negative and add up to 1, found ["
              + singleFactor
              + "], ["
              + multiFactor
              + "], ["
              + memoryFactor
              + "]");
    }
  }

  /**
   * The defaults for a JVM with the given heap and direct memory limits.
   *
   * @param maxHeap {@code Runtime.maxMemory()}
   * @param maxDirect the direct memory limit ({@link BufferPool#maxDirectMemory()})
   */
  public static BlockCacheConfig defaults(long maxHeap, long maxDirect) {
    long l1 = Math.min(maxHeap / 10, DEFAULT_MAX_L1_BYTES);
    long l2 = maxDirect / 4;
    return new BlockCacheConfig(
        Math.max(0, l1),
        l2 < DEFAULT_BUCKET_BYTES ? 0 : l2,
        DEFAULT_BUCKET_SIZES,
        DEFAULT_BUCKET_BYTES,
        0.95,
        0.85,
        0.25,
        0.50,
        0.25);
  }

  /** The defaults for this JVM. */
  public static BlockCacheConfig defaults() {
    return defaults(Runtime.getRuntime().maxMemory(), BufferPool.maxDirectMemory());
  }

  /**
   * This JVM's defaults overridden by the {@code cairn.block-cache.*} keys of {@code settings};
   * other keys are left to their own subsystems.
   *
   * @throws CairnException INVALID_ARGUMENT naming an unknown {@code cairn.block-cache.*} key or a
   *     bad value
   */
  public static BlockCacheConfig from(Map<String, String> settings) {
    return from(settings, defaults());
  }

  /** {@code defaults} overridden by the {@code cairn.block-cache.*} keys of {@code settings}. */
  public static BlockCacheConfig from(Map<String, String> settings, BlockCacheConfig defaults) {
    for (String key : settings.keySet()) {
      if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
        throw new CairnException(
            ErrorCode.INVALID_ARGUMENT,
            "Unknown store setting [" + key + "]: expected one of " + new TreeSet<>(KEYS));
      }
    }
    long l2 = size(settings, SIZE, defaults.l2Bytes);
    if (l2 > 0 && l2 < defaults.bucketBytes) {
      throw invalid(
          SIZE,
          "0 (no off-heap cache) or at least one bucket of [" + defaults.bucketBytes + "] bytes",
          settings.get(SIZE));
    }
    return defaults.withL1Bytes(size(settings, L1_SIZE, defaults.l1Bytes)).withL2Bytes(l2);
  }

  /** The same options with another L1 capacity. */
  public BlockCacheConfig withL1Bytes(long bytes) {
    return new BlockCacheConfig(
        bytes,
        l2Bytes,
        bucketSizes,
        bucketBytes,
        acceptableFactor,
        minFactor,
        singleFactor,
        multiFactor,
        memoryFactor);
  }

  /** The same options with another L2 capacity. */
  public BlockCacheConfig withL2Bytes(long bytes) {
    return new BlockCacheConfig(
        l1Bytes,
        bytes,
        bucketSizes,
        bucketBytes,
        acceptableFactor,
        minFactor,
        singleFactor,
        multiFactor,
        memoryFactor);
  }

  /** The same options with other L2 slot sizes and bucket size. */
  public BlockCacheConfig withBuckets(List<Integer> sizes, int bytes) {
    return new BlockCacheConfig(
        l1Bytes,
        l2Bytes,
        sizes,
        bytes,
        acceptableFactor,
        minFactor,
        singleFactor,
        multiFactor,
        memoryFactor);
  }

  /** The largest block either level caches: the largest bucket size. */
  public int maxBlockBytes() {
    return bucketSizes.get(bucketSizes.size() - 1);
  }

  /**
   * Checks that L2, once fully allocated, fits in the direct memory with the buffer pool.
   *
   * @param bufferPoolBytes direct memory of the reader's buffer pool ({@link
   *     BufferPoolConfig#poolBytes()})
   * @param maxDirectMemory the JVM's limit ({@link BufferPool#maxDirectMemory()})
   * @throws CairnException INVALID_ARGUMENT naming both sizes and the limit
   */
  public void checkDirectMemory(long bufferPoolBytes, long maxDirectMemory) {
    if (l2Bytes + bufferPoolBytes > maxDirectMemory) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "Block cache of ["
              + l2Bytes
              + "] bytes ("
              + SIZE
              + ") and buffer pool of ["
              + bufferPoolBytes
              + "] bytes need ["
              + (l2Bytes + bufferPoolBytes)
              + "] bytes of direct memory, more than the ["
              + maxDirectMemory
              + "] bytes the JVM allows: lower "
              + SIZE
              + " or raise -XX:MaxDirectMemorySize");
    }
  }

  private static long size(Map<String, String> settings, String key, long fallback) {
    return Settings.size(settings, key, fallback, 0);
  }

  private static CairnException invalid(String key, String expected, String found) {
    return Settings.invalid(key, expected, found);
  }
}
