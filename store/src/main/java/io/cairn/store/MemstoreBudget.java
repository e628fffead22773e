package io.cairn.store;

import io.cairn.store.region.Region;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The store's memstore invariant (HBase's {@code MemStoreFlusher} owns the same): the bytes of all
 * memstores, counted against {@link StoreConfig#globalMemstoreBytes()}. Commits add what they
 * applied ({@link #grew}); a flush subtracts what it wrote ({@link #shrank}); a split counts the
 * memstores its daughters inherit once more ({@link #shared}), since each daughter's flush
 * subtracts all of them. Past the limit, the largest region is flushed; past twice the limit,
 * writers stall (up to a minute) until flushes bring the total down. In memory nothing is flushed:
 * the bytes are only counted.
 *
 * <p>Locks: its own monitor for the stall. Callers may hold region locks when they add or subtract
 * (a split holds the parent's), but not when growing: {@link #grew} may wait.
 */
final class MemstoreBudget {
  private final long limitBytes;
  private final BackgroundWork background;
  private final Supplier<Collection<EmbeddedTable>> tables;
  private final BooleanSupplier closed;
  private final AtomicLong memstoreBytes = new AtomicLong();
  private final Object memoryPressure = new Object();

  MemstoreBudget(
      StoreConfig config,
      BackgroundWork background,
      Supplier<Collection<EmbeddedTable>> tables,
      BooleanSupplier closed) {
    this.limitBytes = config.globalMemstoreBytes();
    this.background = background;
    this.tables = tables;
    this.closed = closed;
  }

  /** Bytes in all memstores (those split daughters share count once for each). */
  long bytes() {
    return memstoreBytes.get();
  }

  /**
   * Accounts memstore growth; flushes the largest region, and stalls writers far past the limit.
   */
  void grew(long bytes) {
    long total = memstoreBytes.addAndGet(bytes);
    if (!background.flushes() || total <= limitBytes) {
      return;
    }
    flushLargest();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    synchronized (memoryPressure) {
      while (memstoreBytes.get() > 2 * limitBytes
          && !closed.getAsBoolean()
          && System.nanoTime() < deadline) {
        try {
          memoryPressure.wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /**
   * Accounts memstores that two regions now share (a split), or that replay filled at open, without
   * stalling anyone.
   */
  void shared(long bytes) {
    memstoreBytes.addAndGet(bytes);
  }

  /** Accounts a flush's memstores gone; wakes the writers that stall. */
  void shrank(long bytes) {
    memstoreBytes.addAndGet(-bytes);
    synchronized (memoryPressure) {
      memoryPressure.notifyAll();
    }
  }

  private void flushLargest() {
    EmbeddedTable bestTable = null;
    Region best = null;
    for (EmbeddedTable t : tables.get()) {
      for (Region r : t.regionList()) {
        if (best == null || r.activeMemstoreBytes() > best.activeMemstoreBytes()) {
          best = r;
          bestTable = t;
        }
      }
    }
    if (best != null) {
      background.requestFlush(bestTable, best);
    }
  }
}
