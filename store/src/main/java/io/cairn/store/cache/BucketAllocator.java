package io.cairn.store.cache;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out slots of off-heap memory for {@link BucketCache}, in the style of HBase's bucket
 * allocator.
 *
 * <p>The capacity is cut into buckets of {@link #bucketBytes()} each; a bucket serves one item size
 * (size class) at a time and holds {@code bucketBytes / itemSize} slots. A request takes a slot of
 * the smallest class that fits it: from a bucket of that class with a free slot, else from a
 * completely free bucket (which then switches to that class), else from a new bucket. Buckets live
 * in slabs of {@link #SLAB_BUCKETS} buckets, direct buffers allocated only when a new bucket needs
 * one, so that the memory grows with use up to the capacity. A slot's address is {@code bucket *
 * bucketBytes + item * itemSize}. All methods are synchronized: they run on inserts and final
 * releases, never on a cache hit.
 */
final class BucketAllocator {
  private static final Logger log = LoggerFactory.getLogger(BucketAllocator.class);

  /** Buckets per slab: about 4 MiB with the default 520 KiB buckets. */
  static final int SLAB_BUCKETS = 8;

  private final String name;
  private final int[] itemSizes;
  private final int bucketBytes;
  private final int bucketCount;
  private final ByteBuffer[] slabs;

  /** Per bucket: its class index, or -1 when free (or not created yet). */
  private final int[] bucketClass;

  /** Per bucket: slots in use. */
  private final int[] bucketUsed;

  /** Per bucket: which slots are in use, created with the bucket. */
  private final BitSet[] bucketItems;

  /** Per class: buckets of that class with a free slot. */
  private final BitSet[] withRoom;

  /** Created buckets that are completely free. */
  private final BitSet freeBuckets = new BitSet();

  private int bucketsCreated;
  private int slabsAllocated;
  private long allocatedBytes;
  private long usedBytes;
  private long usedSlots;
  private boolean closed;

  /**
   * @param capacity bytes of memory at most; rounded down to whole buckets
   * @param itemSizes the size classes, ascending
   * @param bucketBytes the size of a bucket, at least the largest class
   */
  BucketAllocator(String name, long capacity, List<Integer> itemSizes, int bucketBytes) {
    this.name = name;
    this.itemSizes = itemSizes.stream().mapToInt(Integer::intValue).toArray();
    this.bucketBytes = bucketBytes;
    if (itemSizes.isEmpty() || this.itemSizes[this.itemSizes.length - 1] > bucketBytes) {
      throw new IllegalArgumentException(
          "bucketBytes must hold the largest item size "
              + itemSizes
              + ", found ["
              + bucketBytes
              + "]");
    }
    long buckets = capacity / bucketBytes;
    if (buckets > Integer.MAX_VALUE - SLAB_BUCKETS) {
      throw new IllegalArgumentException("capacity too large, found [" + capacity + "]");
    }
    this.bucketCount = (int) buckets;
    this.slabs = new ByteBuffer[(bucketCount + SLAB_BUCKETS - 1) / SLAB_BUCKETS];
    this.bucketClass = new int[bucketCount];
    Arrays.fill(bucketClass, -1);
    this.bucketUsed = new int[bucketCount];
    this.bucketItems = new BitSet[bucketCount];
    this.withRoom = new BitSet[this.itemSizes.length];
    for (int c = 0; c < withRoom.length; c++) {
      withRoom[c] = new BitSet();
    }
  }

  /** The size of a bucket. */
  int bucketBytes() {
    return bucketBytes;
  }

  /** The usable capacity: whole buckets. */
  long capacity() {
    return (long) bucketCount * bucketBytes;
  }

  /** The largest request served. */
  int maxItemSize() {
    return itemSizes[itemSizes.length - 1];
  }

  /** The slot size that serves {@code length} bytes, or -1 when it is larger than every class. */
  int itemSize(int length) {
    int c = classOf(length);
    return c < 0 ? -1 : itemSizes[c];
  }

  /**
   * A slot for {@code length} bytes, or -1 when no bucket has room for its class and no bucket is
   * free or can be created (or the allocator is closed).
   *
   * @throws IllegalArgumentException if {@code length} is larger than every class
   */
  synchronized long allocate(int length) {
    int c = classOf(length);
    if (c < 0) {
      throw new IllegalArgumentException(
          "length ["
              + length
              + "] is larger than the largest item size ["
              + maxItemSize()
              + "] of "
              + name);
    }
    if (closed) {
      return -1;
    }
    int bucket = withRoom[c].nextSetBit(0);
    if (bucket < 0) {
      bucket = freeBuckets.nextSetBit(0);
      if (bucket >= 0) {
        freeBuckets.clear(bucket);
      } else {
        bucket = createBucket();
        if (bucket < 0) {
          return -1;
        }
      }
      bucketClass[bucket] = c;
      withRoom[c].set(bucket);
    }
    int itemSize = itemSizes[c];
    BitSet items = bucketItems[bucket];
    int item = items.nextClearBit(0);
    items.set(item);
    if (++bucketUsed[bucket] == bucketBytes / itemSize) {
      withRoom[c].clear(bucket);
    }
    usedBytes += itemSize;
    usedSlots++;
    return (long) bucket * bucketBytes + (long) item * itemSize;
  }

  /**
   * Returns a slot; a bucket left empty becomes free for any class.
   *
   * @throws IllegalStateException if the slot is not in use (a double free)
   */
  synchronized void free(long address) {
    int bucket = bucketOf(address);
    int c = bucket < bucketsCreated ? bucketClass[bucket] : -1;
    int within = (int) (address - (long) bucket * bucketBytes);
    if (c < 0 || within % itemSizes[c] != 0 || !bucketItems[bucket].get(within / itemSizes[c])) {
      throw new IllegalStateException(
          "free of slot [" + address + "] of " + name + " that is not in use (double free)");
    }
    int itemSize = itemSizes[c];
    bucketItems[bucket].clear(within / itemSize);
    usedBytes -= itemSize;
    usedSlots--;
    if (--bucketUsed[bucket] == 0) {
      bucketClass[bucket] = -1;
      withRoom[c].clear(bucket);
      freeBuckets.set(bucket);
    } else {
      withRoom[c].set(bucket);
    }
  }

  /**
   * A writable view of {@code length} bytes of the slot at {@code address}, or null when the
   * allocator was closed since the slot was allocated.
   */
  synchronized ByteBuffer slice(long address, int length) {
    if (closed) {
      return null;
    }
    int bucket = bucketOf(address);
    ByteBuffer slab = slabs[bucket / SLAB_BUCKETS];
    int within = (int) (address - (long) (bucket - bucket % SLAB_BUCKETS) * bucketBytes);
    return slab.slice(within, length);
  }

  /** The bucket of a slot. */
  int bucketOf(long address) {
    if (address < 0 || address >= capacity()) {
      throw new IllegalArgumentException("address [" + address + "] is outside " + name);
    }
    return (int) (address / bucketBytes);
  }

  /** Slots in use in a bucket. */
  synchronized int usedSlots(int bucket) {
    return bucketUsed[bucket];
  }

  /** Bytes of the slots in use. */
  synchronized long usedBytes() {
    return usedBytes;
  }

  /** Slots in use. */
  synchronized long usedSlots() {
    return usedSlots;
  }

  /** Bytes of the slabs allocated and not yet dropped by {@link #close()}. */
  synchronized long allocatedBytes() {
    return allocatedBytes;
  }

  /**
   * Drops the slabs: their memory goes back when the last view of a slot in them (a block a reader
   * still holds) is unreachable. Allocations fail from now on; frees are still counted.
   */
  synchronized void close() {
    closed = true;
    Arrays.fill(slabs, null);
    allocatedBytes = 0;
  }

  /**
   * Recounts the slots in use from every bucket and compares with the counters; for tests.
   *
   * @throws IllegalStateException naming the first difference
   */
  synchronized void checkConsistency() {
    long bytes = 0;
    long slots = 0;
    int free = 0;
    for (int b = 0; b < bucketsCreated; b++) {
      int c = bucketClass[b];
      int used = bucketItems[b].cardinality();
      if (used != bucketUsed[b]) {
        throw new IllegalStateException(
            "bucket [" + b + "] counts [" + bucketUsed[b] + "] slots in use, found [" + used + "]");
      }
      if (c < 0) {
        if (used != 0 || !freeBuckets.get(b)) {
          throw new IllegalStateException("free bucket [" + b + "] is not free");
        }
        free++;
        continue;
      }
      if (used == 0) {
        throw new IllegalStateException("empty bucket [" + b + "] is still of a class");
      }
      boolean room = used < bucketBytes / itemSizes[c];
      if (withRoom[c].get(b) != room) {
        throw new IllegalStateException("bucket [" + b + "] has room [" + room + "]");
      }
      bytes += (long) used * itemSizes[c];
      slots += used;
    }
    if (bytes != usedBytes || slots != usedSlots || free != freeBuckets.cardinality()) {
      throw new IllegalStateException(
          "counted ["
              + usedBytes
              + "] bytes in ["
              + usedSlots
              + "] slots, found ["
              + bytes
              + "] bytes in ["
              + slots
              + "] slots");
    }
  }

  /** The smallest class that holds {@code length} bytes, or -1. */
  private int classOf(int length) {
    for (int c = 0; c < itemSizes.length; c++) {
      if (itemSizes[c] >= length) {
        return c;
      }
    }
    return -1;
  }

  /** A new bucket (its slab allocated when it is the slab's first), or -1 when none is left. */
  private int createBucket() {
    if (bucketsCreated == bucketCount) {
      return -1;
    }
    int bucket = bucketsCreated;
    int slab = bucket / SLAB_BUCKETS;
    if (slabs[slab] == null) {
      int buckets = Math.min(SLAB_BUCKETS, bucketCount - slab * SLAB_BUCKETS);
      try {
        slabs[slab] = ByteBuffer.allocateDirect(buckets * bucketBytes);
      } catch (OutOfMemoryError e) {
        // Direct memory is shared with other users: evict instead, and retry on a later insert.
        log.warn("{} cannot allocate a slab of [{}] bytes", name, buckets * bucketBytes, e);
        return -1;
      }
      slabsAllocated++;
      allocatedBytes += (long) buckets * bucketBytes;
    }
    bucketItems[bucket] = new BitSet(bucketBytes / itemSizes[0]);
    bucketsCreated++;
    return bucket;
  }

  @Override
  public synchronized String toString() {
    return name
        + "[buckets "
        + bucketsCreated
        + "/"
        + bucketCount
        + " of "
        + bucketBytes
        + " bytes, slabs "
        + slabsAllocated
        + ", used "
        + usedBytes
        + " bytes in "
        + usedSlots
        + " slots]";
  }
}
