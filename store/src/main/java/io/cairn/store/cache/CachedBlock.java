package io.cairn.store.cache;

import static java.util.Objects.requireNonNull;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * A block held by a cache level: its bytes, key, eviction group and references.
 *
 * <p>The state counts references in one int: bit 0 is the cache's own reference, held while the
 * block is mapped, and the bits above count the readers' references. The block is freed (its memory
 * returned to the level) when the state reaches 0, so eviction never frees a block a reader holds,
 * and a reader's over-release is caught instead of silently dropping the cache's reference.
 * Capacity eviction takes only blocks no reader holds, atomically (state 1 to 0), so a lookup
 * racing with it either retains the block first or finds it freed (a miss).
 */
final class CachedBlock implements BlockBuffer {
  private static final int CACHED = 1;
  private static final int READER = 2;

  private static final VarHandle STATE;
  private static final VarHandle LAST_ACCESS;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      STATE = lookup.findVarHandle(CachedBlock.class, "state", int.class);
      LAST_ACCESS = lookup.findVarHandle(CachedBlock.class, "lastAccess", long.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final BlockCacheBase cache;
  private final long fileId;
  private final long offset;
  private final int length;
  private final int charge;
  private final long address;
  private final ByteBuffer view;
  private final LeakDetector.Tracker tracker;

  @SuppressWarnings("unused") // accessed through STATE
  private volatile int state = CACHED | READER;

  @SuppressWarnings("unused") // accessed through LAST_ACCESS
  private long lastAccess;

  private volatile BlockPriority priority;

  /**
   * A new block, mapped by nobody yet, with the cache's reference and one for the caller.
   *
   * @param charge the bytes it takes from the level's capacity
   * @param address where the level keeps it (a bucket slot), or -1
   * @param view the block's bytes: position 0, limit {@code length}
   */
  CachedBlock(
      BlockCacheBase cache,
      long fileId,
      long offset,
      int length,
      int charge,
      long address,
      ByteBuffer view,
      BlockPriority priority,
      long now) {
    this.cache = requireNonNull(cache, "cache is null");
    this.fileId = fileId;
    this.offset = offset;
    this.length = length;
    this.charge = charge;
    this.address = address;
    this.view = requireNonNull(view, "view is null");
    this.priority = requireNonNull(priority, "priority is null");
    LAST_ACCESS.setOpaque(this, now);
    this.tracker = LeakDetector.track(this, toString(), cache, cache.name());
  }

  long fileId() {
    return fileId;
  }

  long offset() {
    return offset;
  }

  int charge() {
    return charge;
  }

  long address() {
    return address;
  }

  BlockPriority priority() {
    return priority;
  }

  long lastAccess() {
    return (long) LAST_ACCESS.getOpaque(this);
  }

  /** Records a hit: moves the access time on and promotes a {@link BlockPriority#SINGLE} block. */
  void touch(long now) {
    LAST_ACCESS.setOpaque(this, now);
    if (priority == BlockPriority.SINGLE) {
      priority = BlockPriority.MULTI;
    }
  }

  @Override
  public ByteBuffer buffer() {
    if ((int) STATE.getVolatile(this) == 0) {
      throw new IllegalStateException("use of freed block " + this);
    }
    return view;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public CachedBlock retain() {
    if (!tryRetain()) {
      throw new IllegalStateException("retain of freed block " + this);
    }
    return this;
  }

  /** Adds a reader's reference unless the block was freed; allocates nothing. */
  boolean tryRetain() {
    while (true) {
      int current = (int) STATE.getVolatile(this);
      if (current == 0) {
        return false;
      }
      if (current > Integer.MAX_VALUE - READER) {
        throw new IllegalStateException("reference count overflow of block " + this);
      }
      if (STATE.compareAndSet(this, current, current + READER)) {
        if (tracker != null) {
          tracker.retained();
        }
        return true;
      }
    }
  }

  @Override
  public boolean release() {
    while (true) {
      int current = (int) STATE.getVolatile(this);
      if (current < READER) {
        throw new IllegalStateException(
            "release of block "
                + this
                + (current == 0
                    ? " that was already freed"
                    : " that no reader holds (the cache's own reference is not the caller's)"));
      }
      int next = current - READER;
      if (STATE.compareAndSet(this, current, next)) {
        return next == 0 && free(current);
      }
    }
  }

  /**
   * Drops the cache's reference (the block was unmapped); frees the block unless a reader holds it.
   *
   * @return whether the cache still held its reference
   */
  boolean dropCacheReference() {
    while (true) {
      int current = (int) STATE.getVolatile(this);
      if ((current & CACHED) == 0) {
        return false;
      }
      int next = current & ~CACHED;
      if (STATE.compareAndSet(this, current, next)) {
        if (next == 0) {
          free(current);
        }
        return true;
      }
    }
  }

  /**
   * Frees the block if only the cache holds it, atomically, so that no reader can retain it
   * meanwhile; the caller then unmaps it.
   */
  boolean evictIfUnused() {
    return STATE.compareAndSet(this, CACHED, 0) && free(CACHED);
  }

  /** Whether only the cache holds the block. */
  boolean isUnused() {
    return (int) STATE.getVolatile(this) == CACHED;
  }

  /** Whether the cache still holds its reference (the block is mapped, or about to be). */
  boolean isCached() {
    return ((int) STATE.getVolatile(this) & CACHED) != 0;
  }

  boolean isFreed() {
    return (int) STATE.getVolatile(this) == 0;
  }

  /** The number of readers' references, for tests and diagnostics. */
  int readers() {
    return (int) STATE.getVolatile(this) >>> 1;
  }

  /** Returns the memory to the level; if that fails the state is restored, so that it can retry. */
  private boolean free(int previous) {
    try {
      cache.free(this);
    } catch (RuntimeException | Error e) {
      // Nobody can retain a block at 0, so restoring the state cannot race with a retain.
      STATE.setVolatile(this, previous);
      throw e;
    }
    if (tracker != null) {
      tracker.close();
    }
    return true;
  }

  @Override
  public String toString() {
    return "CachedBlock[file "
        + fileId
        + ", offset "
        + offset
        + ", length "
        + length
        + ", "
        + cache.name()
        + "]";
  }
}
