package io.cairn.store.cache;

import static java.util.Objects.requireNonNull;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.cairn.core.SuppressForbidden;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pool of fixed-size direct buffers, handed out as reference-counted {@link PooledBuffer}s.
 *
 * <p>Buffers are created lazily, up to {@link BufferPoolConfig#maxBuffers()}, and reused: a
 * released buffer goes back on a lock-free stack (last in, first out, so the warmest memory is
 * reused first; a stack of slot indexes needs no node per release, unlike a linked queue). A
 * request gets a heap buffer instead when it is smaller than {@link
 * BufferPoolConfig#minPooledSize()} (not worth a pooled buffer), larger than {@link
 * BufferPoolConfig#bufferSize()}, or when every pooled buffer is out; {@link #stats()} counts those
 * bytes so that an undersized pool shows.
 *
 * <p>Allocation and release take no lock; beyond the {@link PooledBuffer} itself they allocate
 * nothing unless leak detection is on ({@link LeakDetector}).
 */
public final class BufferPool implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BufferPool.class);

  private static final long EMPTY = 0;

  private final String name;
  private final BufferPoolConfig config;
  private final PooledBuffer.Recycler recycler = this::recycle;

  /** Pooled buffers by slot; a slot is filled when its buffer is first created. */
  private final AtomicReferenceArray<ByteBuffer> buffers;

  /** For each free slot, the next free slot below it on the stack, or -1. */
  private final AtomicIntegerArray nextFree;

  /** The free stack's top: a version in the high 32 bits (against ABA), slot + 1 in the low. */
  private final AtomicLong freeTop = new AtomicLong(EMPTY);

  private final AtomicInteger created = new AtomicInteger();
  private final AtomicInteger used = new AtomicInteger();
  private final LongAdder poolBytes = new LongAdder();
  private final LongAdder heapBytes = new LongAdder();
  private volatile boolean closed;

  /**
   * @param name names the pool in leak reports and errors
   * @throws IllegalArgumentException if the pool's buffers, all created, would not fit in the JVM's
   *     direct memory
   */
  public BufferPool(String name, BufferPoolConfig config) {
    this(name, config, maxDirectMemory());
  }

  BufferPool(String name, BufferPoolConfig config, long maxDirectMemory) {
    this.name = requireNonNull(name, "name is null");
    this.config = requireNonNull(config, "config is null");
    if (config.poolBytes() > maxDirectMemory) {
      throw new IllegalArgumentException(
          "Buffer pool ["
              + name
              + "] of ["
              + config.maxBuffers()
              + "] buffers of ["
              + config.bufferSize()
              + "] bytes needs ["
              + config.poolBytes()
              + "] bytes of direct memory, more than the ["
              + maxDirectMemory
              + "] bytes the JVM allows (-XX:MaxDirectMemorySize)");
    }
    this.buffers = new AtomicReferenceArray<>(config.maxBuffers());
    this.nextFree = new AtomicIntegerArray(config.maxBuffers());
  }

  /**
   * The JVM's direct memory limit: the {@code MaxDirectMemorySize} option, or the maximum heap size
   * when it is 0 (the default), as the JDK does.
   */
  @SuppressForbidden(
      reason =
          "HotSpotDiagnosticMXBean (jdk.management) is the supported way to read a VM option;"
              + " without it the heap size is assumed, as the JDK does")
  static long maxDirectMemory() {
    long heap = Runtime.getRuntime().maxMemory();
    try {
      HotSpotDiagnosticMXBean bean =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      long value =
          bean == null ? 0 : Long.parseLong(bean.getVMOption("MaxDirectMemorySize").getValue());
      return value > 0 ? value : heap;
    } catch (RuntimeException | LinkageError e) {
      log.warn("Cannot read -XX:MaxDirectMemorySize, assuming the maximum heap size", e);
      return heap;
    }
  }

  /** The pool's name. */
  public String name() {
    return name;
  }

  /** The pool's options. */
  public BufferPoolConfig config() {
    return config;
  }

  /**
   * A buffer of {@code size} bytes, with a reference count of 1 that the caller must release:
   * pooled when the size fits and a pooled buffer is free or can be created, else on the heap.
   *
   * @throws IllegalStateException if the pool is closed
   */
  public PooledBuffer allocate(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("size must not be negative, found [" + size + "]");
    }
    if (closed) {
      throw new IllegalStateException("Buffer pool [" + name + "] is closed");
    }
    if (size >= config.minPooledSize() && size <= config.bufferSize()) {
      int slot = takeSlot();
      if (slot >= 0) {
        used.incrementAndGet();
        poolBytes.add(size);
        return new PooledBuffer(buffers.get(slot), size, slot, recycler, name);
      }
    }
    heapBytes.add(size);
    return new PooledBuffer(ByteBuffer.allocate(size), size, -1, recycler, name);
  }

  /** The pool's counters now. */
  public BufferPoolStats stats() {
    long pool = poolBytes.sum();
    long heap = heapBytes.sum();
    double ratio = pool + heap == 0 ? 0 : (double) heap / (pool + heap);
    return new BufferPoolStats(pool, heap, ratio, used.get(), created.get(), config.maxBuffers());
  }

  /**
   * Reports the buffers of this pool that are still out: with leak detection on, each with its
   * allocation stack (logged, and kept for {@link LeakDetector#assertNoLeaks()}); with it off, only
   * the number of pooled buffers still out is logged.
   *
   * @return the leaks found with detection on; empty with it off
   */
  public List<BufferLeak> checkLeaks() {
    List<BufferLeak> found = LeakDetector.reportOutstanding(recycler);
    int out = used.get();
    if (found.isEmpty() && out > 0) {
      log.error(
          "Buffer pool [{}] has [{}] pooled buffer(s) still out; run with -D{}=paranoid to see"
              + " where they were allocated",
          name,
          out,
          LeakDetector.PROPERTY);
    }
    return found;
  }

  /**
   * Closes the pool: reports buffers still out ({@link #checkLeaks()}) and drops the free ones.
   * Buffers released later are dropped too. Call it once every user of the pool is done.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    checkLeaks();
    while (popFree() >= 0) {
      // drop the free buffers: the garbage collector frees their memory
    }
    for (int slot = 0; slot < buffers.length(); slot++) {
      buffers.set(slot, null);
    }
  }

  private void recycle(PooledBuffer buffer) {
    int slot = buffer.slot();
    if (slot < 0) {
      return;
    }
    used.decrementAndGet();
    if (!closed) {
      pushFree(slot);
    }
  }

  /** A free slot, a newly created one, or -1 when every pooled buffer is out. */
  private int takeSlot() {
    int slot = popFree();
    if (slot >= 0) {
      return slot;
    }
    while (true) {
      int count = created.get();
      if (count >= config.maxBuffers()) {
        return -1;
      }
      if (created.compareAndSet(count, count + 1)) {
        try {
          buffers.set(count, ByteBuffer.allocateDirect(config.bufferSize()));
        } catch (OutOfMemoryError e) {
          // Direct memory is shared with other users; serve from the heap and retry later.
          created.decrementAndGet();
          log.warn(
              "Buffer pool [{}] cannot create buffer [{}] of [{}] bytes, serving from the heap",
              name,
              count,
              config.bufferSize(),
              e);
          return -1;
        }
        return count;
      }
    }
  }

  private int popFree() {
    while (true) {
      long top = freeTop.get();
      int slot = (int) top - 1;
      if (slot < 0) {
        return -1;
      }
      int next = nextFree.get(slot);
      if (freeTop.compareAndSet(top, pack(top, next))) {
        return slot;
      }
    }
  }

  private void pushFree(int slot) {
    while (true) {
      long top = freeTop.get();
      nextFree.set(slot, (int) top - 1);
      if (freeTop.compareAndSet(top, pack(top, slot))) {
        return;
      }
    }
  }

  /** The next top after {@code top}: the version moves on, so a stale compare-and-set fails. */
  private static long pack(long top, int slot) {
    long version = (top >>> 32) + 1;
    return (version << 32) | ((slot + 1) & 0xFFFF_FFFFL);
  }

  @Override
  public String toString() {
    return "BufferPool[" + name + ", " + stats() + "]";
  }
}
