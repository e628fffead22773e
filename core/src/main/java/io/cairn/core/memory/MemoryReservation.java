package io.cairn.core.memory;

import static java.util.Objects.requireNonNull;

/**
 * The memory one operator holds in a {@link MemoryPool} (a hash aggregation's groups, a sort's
 * rows, a join's build side): the operator adds its estimated bytes as it grows, and the
 * reservation takes them from the pool in quanta of {@value #QUANTUM} bytes, so the shared counters
 * are touched once per quantum, not once per row. {@link #close} gives everything back; it is
 * idempotent. Not thread-safe: one operator uses it.
 */
public final class MemoryReservation implements AutoCloseable {
  /** Bytes taken from the pool at a time. */
  public static final long QUANTUM = 256 << 10;

  private final MemoryPool pool;
  private final String what;
  private long used;
  private long reserved;

  MemoryReservation(MemoryPool pool, String what) {
    this.pool = requireNonNull(pool, "pool is null");
    this.what = requireNonNull(what, "what is null");
  }

  /**
   * Counts {@code bytes} more, reserving from the pool when they pass what is reserved.
   *
   * @throws io.cairn.core.error.CairnException MEMORY_LIMIT_EXCEEDED when the pool (or one above
   *     it) is full; the bytes are then not counted
   */
  public void add(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must not be negative: [" + bytes + "]");
    }
    long after = used + bytes;
    if (after > reserved) {
      long needed = after - reserved;
      if (needed < QUANTUM && pool.tryReserve(QUANTUM)) {
        reserved += QUANTUM;
      } else {
        // near a full pool the bytes needed may fit where a quantum does not; only they may wait
        // (waiting for a quantum first would make every add wait out the pool's wait)
        pool.reserve(needed, what);
        reserved += needed;
      }
    }
    used = after;
  }

  /** Counts {@code bytes} fewer (rows emitted or dropped); the quanta stay reserved until close. */
  public void free(long bytes) {
    used = Math.max(0, used - bytes);
  }

  /** The bytes counted. */
  public long used() {
    return used;
  }

  /** The bytes taken from the pool (at least {@link #used}). */
  public long reserved() {
    return reserved;
  }

  /** Gives every reserved byte back to the pool. */
  @Override
  public void close() {
    long bytes = reserved;
    reserved = 0;
    used = 0;
    pool.release(bytes);
  }
}
