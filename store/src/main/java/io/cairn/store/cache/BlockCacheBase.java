package io.cairn.store.cache;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One level of the block cache: the map of blocks, their references, priorities and eviction, and
 * the counters. Subclasses provide the memory ({@link LruBlockCache} on the heap, {@link
 * BucketCache} off-heap).
 *
 * <p>A hit is a lookup in a {@link BlockMap}, a compare-and-set on the block's reference count and
 * two plain counter updates: no lock, no allocation. Inserts copy the block, then evict on the
 * inserting thread when the used bytes pass {@code acceptableFactor} of the capacity or the memory
 * cannot be allocated; one thread evicts at a time (the eviction lock), and a thread that finds
 * another one evicting after its insert leaves it to that one.
 */
abstract class BlockCacheBase implements BlockCache {
  private static final Logger log = LoggerFactory.getLogger(BlockCacheBase.class);

  private final String name;
  private final long capacity;
  private final int maxBlockBytes;
  private final long acceptableBytes;
  private final long minBytes;
  private final double singleFactor;
  private final double multiFactor;
  private final double memoryFactor;

  private final BlockMap map = new BlockMap();
  private final AtomicLong clock = new AtomicLong();
  private final ReentrantLock evictionLock = new ReentrantLock();
  private volatile boolean closed;

  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder evictions = new LongAdder();
  private final LongAdder evictedBytes = new LongAdder();
  private final LongAdder notCachedTooLarge = new LongAdder();
  private final LongAdder notCachedNoSpace = new LongAdder();
  private final AtomicLong cachedBlocks = new AtomicLong();
  private final AtomicLong cachedBytes = new AtomicLong();

  /** Blocks created and not yet freed: mapped, or held by readers. */
  private final AtomicInteger liveBlocks = new AtomicInteger();

  BlockCacheBase(String name, long capacity, int maxItemBytes, BlockCacheConfig config) {
    this.name = requireNonNull(name, "name is null");
    this.capacity = capacity;
    this.maxBlockBytes = (int) Math.min(Math.min(config.maxBlockBytes(), maxItemBytes), capacity);
    this.acceptableBytes = (long) (capacity * config.acceptableFactor());
    this.minBytes = (long) (capacity * config.minFactor());
    this.singleFactor = config.singleFactor();
    this.multiFactor = config.multiFactor();
    this.memoryFactor = config.memoryFactor();
  }

  /** {@code L1} or {@code L2}: names the level in stats, leak reports and logs. */
  final String name() {
    return name;
  }

  /** The most bytes the level takes. */
  final long capacity() {
    return capacity;
  }

  /**
   * Memory for {@code length} bytes: an address the level understands, or -1 when there is no room
   * without evicting.
   */
  abstract long allocate(int length);

  /**
   * Copies {@code length} bytes of {@code payload} from its position into the memory at {@code
   * address}; returns the read-only view of them, or null when the level was closed meanwhile.
   */
  abstract ByteBuffer copyIn(long address, int length, ByteBuffer payload);

  /** The bytes a block of {@code length} bytes takes from the capacity. */
  abstract int charge(int length);

  /** Returns the memory of a block, or of an allocation that became no block. */
  abstract void freeMemory(long address, int charge);

  /** Bytes taken now, by mapped blocks and by blocks readers still hold. */
  abstract long usedBytes();

  /** Bytes of memory allocated now. */
  abstract long allocatedBytes();

  /** Drops the level's memory once every block was unmapped at {@link #close()}. */
  void closeMemory() {}

  @Override
  public final BlockBuffer getBlock(long fileId, long offset, BlockKind kind, boolean countStats) {
    if (!closed) {
      CachedBlock block = map.get(fileId, offset);
      if (block != null && block.tryRetain()) {
        block.touch(clock.incrementAndGet());
        if (countStats) {
          hits.increment();
        }
        return block;
      }
    }
    if (countStats && !closed) {
      misses.increment();
    }
    return null;
  }

  @Override
  public final BlockBuffer cacheBlock(
      long fileId, long offset, BlockKind kind, ByteBuffer payload, boolean inMemory) {
    requireNonNull(payload, "payload is null");
    if (closed) {
      return null;
    }
    CachedBlock existing = map.get(fileId, offset);
    if (existing != null && existing.tryRetain()) {
      return existing;
    }
    int length = payload.remaining();
    if (length > maxBlockBytes) {
      notCachedTooLarge.increment();
      return null;
    }
    long address = allocate(length);
    if (address < 0) {
      address = allocateEvicting(length);
      if (address < 0) {
        if (!closed) {
          notCachedNoSpace.increment();
        }
        return null;
      }
    }
    CachedBlock block = newBlock(fileId, offset, length, address, payload, inMemory);
    if (block == null) {
      return null;
    }
    cachedBlocks.incrementAndGet();
    cachedBytes.addAndGet(length);
    while (true) {
      CachedBlock other = map.putIfAbsent(block);
      if (other == null) {
        break;
      }
      if (other.tryRetain()) {
        // Another thread cached the block first: keep its copy.
        cachedBlocks.decrementAndGet();
        cachedBytes.addAndGet(-length);
        block.dropCacheReference();
        block.release();
        return other;
      }
      unmap(other); // freed by an eviction that has not unmapped it yet: take its place
    }
    if (closed) {
      // close() may have swept the map before this block was added.
      if (unmap(block)) {
        block.dropCacheReference();
      }
      block.release();
      return null;
    }
    if (usedBytes() > acceptableBytes && evictionLock.tryLock()) {
      try {
        if (!closed) {
          freeSpace();
        }
      } finally {
        evictionLock.unlock();
      }
    }
    return block;
  }

  private CachedBlock newBlock(
      long fileId, long offset, int length, long address, ByteBuffer payload, boolean inMemory) {
    int charge = charge(length);
    CachedBlock block;
    try {
      ByteBuffer view = copyIn(address, length, payload);
      if (view == null) {
        freeMemory(address, charge);
        return null;
      }
      BlockPriority priority = inMemory ? BlockPriority.MEMORY : BlockPriority.SINGLE;
      block =
          new CachedBlock(
              this,
              fileId,
              offset,
              length,
              charge,
              address,
              view,
              priority,
              clock.incrementAndGet());
    } catch (RuntimeException | Error e) {
      freeMemory(address, charge);
      throw e;
    }
    liveBlocks.incrementAndGet();
    return block;
  }

  @Override
  public final int evictFile(long fileId) {
    int[] evicted = {0};
    map.forEach(
        block -> {
          if (block.fileId() == fileId && unmap(block)) {
            block.dropCacheReference();
            evicted[0]++;
          }
        });
    return evicted[0];
  }

  @Override
  public final BlockCacheStats stats() {
    return new BlockCacheStats(
        name,
        hits.sum(),
        misses.sum(),
        evictions.sum(),
        evictedBytes.sum(),
        notCachedTooLarge.sum(),
        notCachedNoSpace.sum(),
        cachedBlocks.get(),
        cachedBytes.get(),
        usedBytes(),
        capacity,
        allocatedBytes());
  }

  /**
   * Unmaps every block and drops the level's memory; blocks readers still hold stay valid until
   * their last release, and are reported as leaks: with their stacks in paranoid mode ({@link
   * LeakDetector}), else as a count in the log.
   */
  @Override
  public final void close() {
    evictionLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      map.forEach(
          block -> {
            if (unmap(block)) {
              block.dropCacheReference();
            }
          });
      closeMemory();
    } finally {
      evictionLock.unlock();
    }
    List<BufferLeak> leaks = LeakDetector.reportOutstanding(this);
    int held = liveBlocks.get();
    if (leaks.isEmpty() && held > 0) {
      log.error(
          "Block cache [{}] closed with [{}] block(s) still held by readers; run with -D{}=paranoid"
              + " to see where they were taken",
          name,
          held,
          LeakDetector.PROPERTY);
    }
  }

  /** Called by a block at its last release (or eviction): returns its memory. */
  final void free(CachedBlock block) {
    freeMemory(block.address(), block.charge());
    liveBlocks.decrementAndGet();
  }

  /** Blocks not yet freed, mapped or held; for tests. */
  final int liveBlocks() {
    return liveBlocks.get();
  }

  /** The mapped block of a key without retaining it, or null; for tests. */
  final CachedBlock peek(long fileId, long offset) {
    return map.get(fileId, offset);
  }

  /** Whether {@link #close()} was called. */
  final boolean isClosed() {
    return closed;
  }

  /** Removes a block from the map (if it is still there) and from the counters. */
  private boolean unmap(CachedBlock block) {
    if (map.remove(block)) {
      cachedBlocks.decrementAndGet();
      cachedBytes.addAndGet(-block.length());
      return true;
    }
    return false;
  }

  /** Evicts {@code block} if no reader holds it; returns whether it did. */
  final boolean evict(CachedBlock block) {
    if (!block.evictIfUnused()) {
      return false;
    }
    unmap(block);
    evictions.increment();
    evictedBytes.add(block.charge());
    return true;
  }

  /** An allocation after evicting: under the eviction lock, so that one thread evicts at a time. */
  private long allocateEvicting(int length) {
    evictionLock.lock();
    try {
      if (closed) {
        return -1;
      }
      long address = allocate(length); // another thread may have evicted meanwhile
      if (address >= 0) {
        return address;
      }
      freeSpace();
      address = allocate(length);
      return address >= 0 ? address : evictForAllocation(length);
    } finally {
      evictionLock.unlock();
    }
  }

  /**
   * Evicts until {@code length} bytes can be allocated, after {@link #freeSpace()} did not make
   * room for them; returns the allocation, or -1 when every block in the way is held by a reader.
   * Runs under the eviction lock. This one evicts the least valuable blocks first: {@link
   * BlockPriority#SINGLE} before {@link BlockPriority#MULTI} before {@link BlockPriority#MEMORY},
   * least recently used first within a priority.
   */
  long evictForAllocation(int length) {
    for (Candidate candidate : unusedBlocks()) {
      if (evict(candidate.block)) {
        long address = allocate(length);
        if (address >= 0) {
          return address;
        }
      }
    }
    return -1;
  }

  /** Mapped blocks no reader holds, least valuable first (see {@link #evictForAllocation}). */
  final List<Candidate> unusedBlocks() {
    List<Candidate> candidates = new ArrayList<>();
    map.forEach(
        block -> {
          if (block.isUnused()) {
            candidates.add(new Candidate(block));
          }
        });
    candidates.sort(null);
    return candidates;
  }

  /**
   * A block to evict, ordered by its priority and access time as they were when it was chosen (they
   * change under concurrent hits, and a sort needs values that hold still).
   */
  static final class Candidate implements Comparable<Candidate> {
    final CachedBlock block;
    private final int rank;
    private final long lastAccess;

    Candidate(CachedBlock block) {
      this.block = block;
      this.rank = rank(block.priority());
      this.lastAccess = block.lastAccess();
    }

    @Override
    public int compareTo(Candidate other) {
      int c = Integer.compare(rank, other.rank);
      return c != 0 ? c : Long.compare(lastAccess, other.lastAccess);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Candidate other && compareTo(other) == 0 && block == other.block;
    }

    @Override
    public int hashCode() {
      return block.hashCode();
    }
  }

  /**
   * Frees down to {@code minFactor} of the capacity, as HBase's block caches do: each priority
   * group has a share of that ({@code singleFactor}, {@code multiFactor}, {@code memoryFactor});
   * groups over their share give up their excess first, the group with the smallest excess first
   * and each at most an even split of what is still to free, so that the largest excess pays the
   * rest. If that is not enough (blocks held by readers cannot go), the rest is split the same way
   * over all groups. Within a group the least recently used blocks go first. Runs under the
   * eviction lock.
   */
  private void freeSpace() {
    long bytesToFree = usedBytes() - minBytes;
    if (bytesToFree <= 0) {
      return;
    }
    Group[] byRank = {
      new Group((long) (minBytes * singleFactor)),
      new Group((long) (minBytes * multiFactor)),
      new Group((long) (minBytes * memoryFactor))
    };
    map.forEach(
        block -> {
          if (block.isCached()) {
            Candidate candidate = new Candidate(block);
            byRank[candidate.rank].add(candidate);
          }
        });
    Group[] groups = byRank.clone();
    Arrays.sort(groups, Comparator.comparingLong(Group::overflow));
    long freed = 0;
    int remaining = groups.length;
    for (Group group : groups) {
      long overflow = group.overflow();
      if (overflow > 0) {
        freed += group.free(Math.min(overflow, (bytesToFree - freed) / remaining));
      }
      remaining--;
    }
    remaining = groups.length;
    for (Group group : groups) {
      if (freed >= bytesToFree) {
        break;
      }
      freed += group.free((bytesToFree - freed + remaining - 1) / remaining);
      remaining--;
    }
  }

  private static int rank(BlockPriority priority) {
    return switch (priority) {
      case SINGLE -> 0;
      case MULTI -> 1;
      case MEMORY -> 2;
    };
  }

  /** The blocks of one priority, with their share of the capacity. */
  private final class Group {
    private final long share;
    private final List<Candidate> candidates = new ArrayList<>();
    private long total;
    private int next;
    private boolean sorted;

    Group(long share) {
      this.share = share;
    }

    void add(Candidate candidate) {
      total += candidate.block.charge();
      if (candidate.block.isUnused()) {
        candidates.add(candidate);
      }
    }

    long overflow() {
      return total - share;
    }

    /** Evicts the least recently used blocks no reader holds until {@code bytes} are freed. */
    long free(long bytes) {
      if (!sorted) {
        candidates.sort(null);
        sorted = true;
      }
      long freed = 0;
      while (freed < bytes && next < candidates.size()) {
        CachedBlock block = candidates.get(next++).block;
        if (evict(block)) {
          freed += block.charge();
        }
      }
      total -= freed;
      return freed;
    }
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + stats() + "]";
  }
}
