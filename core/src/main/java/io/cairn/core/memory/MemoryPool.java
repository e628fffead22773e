package io.cairn.core.memory;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A memory budget for query state (aggregation groups, sorts, hash tables, pages held for a
 * client), one node of a tree: a server's pool, a database's, a connection's, a query's. Bytes
 * reserved in a pool count against it and every pool above it, so the budgets add up: six queries
 * each within their own limit cannot together pass their connection's, their database's or the
 * server's.
 *
 * <p>A reservation that does not fit fails with MEMORY_LIMIT_EXCEEDED (53200) naming the pool that
 * is full, its limit and the setting that raises it. A pool shared by several holders may be given
 * a wait: a reservation that does not fit there waits up to that long for others to release before
 * it fails (a query's own limit is never waited on: nobody else frees it).
 *
 * <p>Operators do not reserve row by row: they hold a {@link MemoryReservation}, which takes bytes
 * from its pool in quanta and gives them all back when closed. Thread-safe.
 */
public final class MemoryPool {
  private final String name;
  private final long limit;
  private final String setting;
  private final MemoryPool parent;
  private final long waitNanos;
  private final AtomicLong used = new AtomicLong();

  private MemoryPool(String name, long limit, String setting, MemoryPool parent, Duration wait) {
    this.name = requireNonNull(name, "name is null");
    this.setting = requireNonNull(setting, "setting is null");
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive: [" + limit + "]");
    }
    this.limit = limit;
    this.parent = parent;
    this.waitNanos = requireNonNull(wait, "wait is null").toNanos();
    if (waitNanos < 0) {
      throw new IllegalArgumentException("wait must not be negative: [" + wait + "]");
    }
  }

  /**
   * A pool at the top of a tree.
   *
   * @param name what it bounds, for messages (e.g. "the server")
   * @param limit its bytes
   * @param setting the setting that raises the limit, for messages
   * @param wait how long a reservation that does not fit waits for others to release
   */
  public static MemoryPool root(String name, long limit, String setting, Duration wait) {
    return new MemoryPool(name, limit, setting, null, wait);
  }

  /** A pool with no ceiling of its own (its children's limits still apply). */
  public static MemoryPool unbounded(String name) {
    return new MemoryPool(name, Long.MAX_VALUE, "(none)", null, Duration.ZERO);
  }

  /** A pool under this one that does not wait (e.g. a query's). */
  public MemoryPool child(String name, long limit, String setting) {
    return child(name, limit, setting, Duration.ZERO);
  }

  /** A pool under this one whose reservations count here too; see {@link #root}. */
  public MemoryPool child(String name, long limit, String setting, Duration wait) {
    return new MemoryPool(name, limit, setting, this, wait);
  }

  /** A reservation of this pool for one operator; {@code what} names it in messages. */
  public MemoryReservation reservation(String what) {
    return new MemoryReservation(this, what);
  }

  /**
   * Takes {@code bytes} from this pool and every pool above it, waiting up to a full pool's wait
   * for others to release.
   *
   * @param what what needs the memory, for the message
   * @throws CairnException MEMORY_LIMIT_EXCEEDED naming the full pool, or QUERY_CANCELED when
   *     interrupted while waiting
   */
  public void reserve(long bytes, String what) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: [" + bytes + "]");
    }
    if (bytes == 0) {
      return;
    }
    long deadline = 0;
    boolean waiting = false;
    while (true) {
      MemoryPool full = reserveOrFind(bytes);
      if (full == null) {
        return;
      }
      if (full.waitNanos == 0 || bytes > full.limit) {
        throw full.exceeded(bytes, what);
      }
      long now = System.nanoTime();
      if (!waiting) {
        waiting = true;
        deadline = now + full.waitNanos;
      }
      long remaining = deadline - now;
      if (remaining <= 0) {
        throw full.exceeded(bytes, what);
      }
      synchronized (full) {
        if (full.used.get() + bytes > full.limit) {
          try {
            full.wait(Math.max(1, remaining / 1_000_000));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CairnException(
                ErrorCode.QUERY_CANCELED, "Interrupted while waiting for memory for " + what);
          }
        }
      }
    }
  }

  /**
   * Takes {@code bytes} from this pool and every pool above it when they fit now, never waiting.
   *
   * @return whether they were taken
   */
  public boolean tryReserve(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: [" + bytes + "]");
    }
    return bytes == 0 || reserveOrFind(bytes) == null;
  }

  /** Gives back {@code bytes} taken by {@link #reserve} from this pool and those above it. */
  public void release(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: [" + bytes + "]");
    }
    if (bytes == 0) {
      return;
    }
    for (MemoryPool p = this; p != null; p = p.parent) {
      long after = p.used.addAndGet(-bytes);
      assert after >= 0 : "released more than reserved in " + p.name;
      if (p.waitNanos > 0) {
        synchronized (p) {
          p.notifyAll();
        }
      }
    }
  }

  /** Reserves in this pool and its ancestors, or none of them: null, or the pool that is full. */
  private MemoryPool reserveOrFind(long bytes) {
    for (MemoryPool p = this; p != null; p = p.parent) {
      if (!p.tryAdd(bytes)) {
        for (MemoryPool q = this; q != p; q = q.parent) {
          q.used.addAndGet(-bytes);
        }
        return p;
      }
    }
    return null;
  }

  private boolean tryAdd(long bytes) {
    while (true) {
      long now = used.get();
      if (bytes > limit - now) {
        return false;
      }
      if (used.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  private CairnException exceeded(long bytes, String what) {
    return new CairnException(
        ErrorCode.MEMORY_LIMIT_EXCEEDED,
        "Out of query memory: "
            + what
            + " needs ["
            + bytes
            + "] more bytes, but "
            + name
            + " has ["
            + used.get()
            + "] of its limit of ["
            + limit
            + "] bytes in use: raise ["
            + setting
            + "], or run the query on fewer rows or fewer at once");
  }

  /** Bytes reserved in this pool and the pools under it. */
  public long used() {
    return used.get();
  }

  public long limit() {
    return limit;
  }

  public String name() {
    return name;
  }

  /** The setting that raises the limit. */
  public String setting() {
    return setting;
  }

  /** The pool above, or null at the top. */
  public MemoryPool parent() {
    return parent;
  }

  /**
   * {@code fraction} of the JVM's maximum heap, in bytes: the default of a budget derived from the
   * heap.
   */
  public static long heapFraction(double fraction) {
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException("fraction must be in (0, 1]: [" + fraction + "]");
    }
    return Math.max(1L << 20, (long) (Runtime.getRuntime().maxMemory() * fraction));
  }

  @Override
  public String toString() {
    return name + " (" + used.get() + " of " + limit + " bytes)";
  }
}
