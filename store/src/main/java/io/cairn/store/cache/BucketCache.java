package io.cairn.store.cache;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The off-heap level (L2) of the block cache, for data blocks, in the style of HBase's bucket
 * cache: blocks are copied into slots of direct memory handed out by a {@code BucketAllocator},
 * which allocates its slabs only as they are needed, up to the capacity.
 *
 * <p>The cache holds one reference to each block it maps; eviction unmaps a block and drops that
 * reference, and the slot goes back to the allocator at the last release, so a block a scanner
 * holds is never freed under it (capacity eviction skips held blocks altogether). Besides the
 * watermark eviction shared with L1, an insert whose size class has no free slot evicts the least
 * valuable block of that class, or empties the bucket with the fewest blocks so that it can serve
 * the class.
 */
public final class BucketCache extends BlockCacheBase {
  private final BucketAllocator allocator;

  /**
   * A level of {@link BlockCacheConfig#l2Bytes()}, rounded down to whole buckets.
   *
   * @throws io.cairn.core.error.CairnException INVALID_ARGUMENT if it would not fit in the JVM's
   *     direct memory
   */
  public BucketCache(BlockCacheConfig config) {
    this(config, BufferPool.maxDirectMemory());
  }

  BucketCache(BlockCacheConfig config, long maxDirectMemory) {
    this(config, checked(config, maxDirectMemory));
  }

  private BucketCache(BlockCacheConfig config, BucketAllocator allocator) {
    super("L2", allocator.capacity(), allocator.maxItemSize(), config);
    this.allocator = allocator;
  }

  private static BucketAllocator checked(BlockCacheConfig config, long maxDirectMemory) {
    config.checkDirectMemory(0, maxDirectMemory);
    return new BucketAllocator(
        "L2 bucket allocator", config.l2Bytes(), config.bucketSizes(), config.bucketBytes());
  }

  /** The allocator; for tests. */
  BucketAllocator allocator() {
    return allocator;
  }

  @Override
  long allocate(int length) {
    return allocator.allocate(length);
  }

  @Override
  ByteBuffer copyIn(long address, int length, ByteBuffer payload) {
    ByteBuffer slot = allocator.slice(address, length);
    if (slot == null) {
      return null;
    }
    slot.put(0, payload, payload.position(), length);
    return slot.asReadOnlyBuffer();
  }

  @Override
  int charge(int length) {
    return allocator.itemSize(length);
  }

  @Override
  void freeMemory(long address, int charge) {
    allocator.free(address);
  }

  @Override
  long usedBytes() {
    return allocator.usedBytes();
  }

  @Override
  long allocatedBytes() {
    return allocator.allocatedBytes();
  }

  @Override
  void closeMemory() {
    allocator.close();
  }

  /**
   * Evicts the least valuable unheld block of the size class; if the class has none, empties the
   * bucket with the fewest blocks (all unheld) so that the class can take it.
   */
  @Override
  long evictForAllocation(int length) {
    int itemSize = allocator.itemSize(length);
    List<Candidate> unused = unusedBlocks();
    for (Candidate candidate : unused) {
      if (candidate.block.charge() == itemSize && evict(candidate.block)) {
        long address = allocate(length);
        if (address >= 0) {
          return address;
        }
      }
    }
    Map<Integer, List<CachedBlock>> byBucket = new HashMap<>();
    for (Candidate candidate : unused) {
      CachedBlock block = candidate.block;
      if (block.isUnused()) {
        byBucket
            .computeIfAbsent(allocator.bucketOf(block.address()), b -> new ArrayList<>())
            .add(block);
      }
    }
    List<Map.Entry<Integer, List<CachedBlock>>> buckets = new ArrayList<>();
    for (Map.Entry<Integer, List<CachedBlock>> bucket : byBucket.entrySet()) {
      if (bucket.getValue().size() == allocator.usedSlots(bucket.getKey())) {
        buckets.add(bucket);
      }
    }
    buckets.sort((a, b) -> Integer.compare(a.getValue().size(), b.getValue().size()));
    for (Map.Entry<Integer, List<CachedBlock>> bucket : buckets) {
      for (CachedBlock block : bucket.getValue()) {
        evict(block);
      }
      long address = allocate(length);
      if (address >= 0) {
        return address;
      }
    }
    return -1;
  }
}
