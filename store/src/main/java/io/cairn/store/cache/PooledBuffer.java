package io.cairn.store.cache;

import static java.util.Objects.requireNonNull;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * A reference-counted buffer from a {@link BufferPool}: a pooled direct buffer, or a heap buffer
 * when the pool could not serve the request.
 *
 * <p>The count starts at 1. {@link #retain()} adds a reference for another holder; each holder
 * calls {@link #release()} (or {@link #close()}) once. The release that brings the count to 0
 * returns the memory to the pool, where another caller gets it: after that, {@link #buffer()} and
 * {@link #retain()} throw, and a view taken earlier must not be used any more. The memory is not
 * cleared between uses; readers fill it before they read it.
 *
 * <p>As a {@link BlockBuffer}, the buffer is writable by whoever fills it (a reader loading a block
 * from disk) and read-only by convention once it is shared.
 */
public final class PooledBuffer implements BlockBuffer {
  /** Returns a buffer's memory to where it came from; called once, when the count reaches 0. */
  interface Recycler {
    void recycle(PooledBuffer buffer);
  }

  private static final VarHandle REF_COUNT;

  static {
    try {
      REF_COUNT = MethodHandles.lookup().findVarHandle(PooledBuffer.class, "refCount", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ByteBuffer memory;
  private final ByteBuffer view;
  private final int size;
  private final int slot;
  private final Recycler recycler;
  private final LeakDetector.Tracker tracker;

  @SuppressWarnings("unused") // accessed through REF_COUNT
  private volatile int refCount = 1;

  /**
   * @param memory the whole buffer, at least {@code size} bytes
   * @param size the bytes the caller asked for; {@link #buffer()} is bounded to them
   * @param slot the pool's index of a pooled buffer, -1 for a heap buffer
   * @param recycler called when the count reaches 0
   * @param poolName for leak reports
   */
  PooledBuffer(ByteBuffer memory, int size, int slot, Recycler recycler, String poolName) {
    this.memory = requireNonNull(memory, "memory is null");
    if (size < 0 || size > memory.capacity()) {
      throw new IllegalArgumentException(
          "size must be in [0, " + memory.capacity() + "], found [" + size + "]");
    }
    this.size = size;
    this.view = memory.slice(0, size);
    this.slot = slot;
    this.recycler = requireNonNull(recycler, "recycler is null");
    this.tracker = LeakDetector.track(this, recycler, poolName);
  }

  /** The bytes asked for at allocation. */
  public int size() {
    return size;
  }

  /** Same as {@link #size()}. */
  @Override
  public int length() {
    return size;
  }

  /** Whether the memory is a pooled direct buffer rather than a heap fallback. */
  public boolean isPooled() {
    return slot >= 0;
  }

  /** The current reference count, 0 once released; for tests and diagnostics. */
  public int refCount() {
    return (int) REF_COUNT.getVolatile(this);
  }

  /**
   * The view of this buffer's {@link #size()} bytes: position 0, limit and capacity {@code size},
   * created once with the buffer and shared by every holder, so that using it allocates nothing.
   * Use absolute gets and puts only and never change its position or limit; a caller that needs a
   * position of its own (a channel read filling the buffer) takes a {@link ByteBuffer#duplicate()}.
   * Valid only while the caller holds a reference.
   *
   * @throws IllegalStateException if the buffer was released
   */
  @Override
  public ByteBuffer buffer() {
    checkLive("use");
    return view;
  }

  /**
   * Adds a reference; the new holder must release it.
   *
   * @return this buffer
   * @throws IllegalStateException if the buffer was released
   */
  @Override
  public PooledBuffer retain() {
    while (true) {
      int count = (int) REF_COUNT.getVolatile(this);
      if (count <= 0) {
        throw new IllegalStateException("retain of released buffer " + this);
      }
      if (count == Integer.MAX_VALUE) {
        throw new IllegalStateException("reference count overflow of buffer " + this);
      }
      if (REF_COUNT.compareAndSet(this, count, count + 1)) {
        return this;
      }
    }
  }

  /**
   * Drops one reference; the last one returns the memory to the pool.
   *
   * @return whether this call freed the buffer
   * @throws IllegalStateException if the buffer was already released (more releases than
   *     references)
   * @throws RuntimeException if returning the memory failed; the reference is then restored, so
   *     that the caller can release again
   */
  @Override
  public boolean release() {
    while (true) {
      int count = (int) REF_COUNT.getVolatile(this);
      if (count <= 0) {
        throw new IllegalStateException(
            "release of buffer " + this + " that was already released (reference count 0)");
      }
      if (REF_COUNT.compareAndSet(this, count, count - 1)) {
        if (count > 1) {
          return false;
        }
        break;
      }
    }
    try {
      recycler.recycle(this);
    } catch (RuntimeException | Error e) {
      // Nobody else may hold a reference at 0, so restoring it cannot race with a retain.
      REF_COUNT.setVolatile(this, 1);
      throw e;
    }
    if (tracker != null) {
      tracker.close();
    }
    return true;
  }

  /** Same as {@link #release()}, for try-with-resources. */
  @Override
  public void close() {
    release();
  }

  /** The pool's index of a pooled buffer, -1 for a heap buffer. */
  int slot() {
    return slot;
  }

  /** The whole underlying memory, for the pool to reuse. */
  ByteBuffer memory() {
    return memory;
  }

  private void checkLive(String action) {
    if ((int) REF_COUNT.getVolatile(this) <= 0) {
      throw new IllegalStateException(action + " of released buffer " + this);
    }
  }

  @Override
  public String toString() {
    return "PooledBuffer@"
        + Integer.toHexString(System.identityHashCode(this))
        + "["
        + (slot >= 0 ? "pooled slot " + slot : "heap")
        + ", size "
        + size
        + "]";
  }
}
