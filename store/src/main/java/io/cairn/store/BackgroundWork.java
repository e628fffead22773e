package io.cairn.store;

import io.cairn.store.region.Region;
import io.cairn.store.stats.StatisticsKeeper;
import io.cairn.store.stats.StatisticsTable;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's background work and its threads (HBase's {@code MemStoreFlusher} and {@code
 * CompactSplit} scheduling): flushes of regions whose memstores grew, compactions (and the splits
 * after them), and statistics (collecting stale regions again, writing {@value
 * StatisticsTable#NAME}); each region queued at most once for each kind. One daemon thread per
 * kind; the statistics thread ends when idle. What runs is the table's ({@code flushRegion}, {@code
 * compactRegion}, {@code maybeSplit}, {@code collectRegion}); a failure is logged, the data stays
 * in the log.
 *
 * <p>In memory ({@link #inMemory}) nothing is flushed or compacted; statistics are collected all
 * the same.
 *
 * <p>Locks: none of its own; callers may hold a region's write or maintenance lock (requests only
 * queue). Nothing is queued once the store is closed (the {@code closed} the store hands in).
 */
final class BackgroundWork {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundWork.class);

  private final BooleanSupplier closed;

  /** Flushes and compactions: none in memory. */
  private final boolean flushes;

  private final ExecutorService flusher;
  private final ExecutorService compactor;
  private final Set<Region> flushQueued = ConcurrentHashMap.newKeySet();
  private final Set<Region> compactionQueued = ConcurrentHashMap.newKeySet();

  /**
   * One thread (when there is work) for statistics: refreshing stale regions and writing {@value
   * StatisticsTable#NAME}, in the order asked.
   */
  private final ScheduledThreadPoolExecutor statisticsWorker = statisticsWorker();

  private final Set<Region> statisticsQueued = ConcurrentHashMap.newKeySet();

  /**
   * No background collection starts before this time ({@link System#nanoTime}): the last one's
   * duration times {@link StatisticsKeeper#BACKGROUND_PAUSE_FACTOR} after its end.
   */
  private volatile long statisticsIdleUntilNanos = System.nanoTime();

  private BackgroundWork(BooleanSupplier closed, boolean flushes) {
    this.closed = closed;
    this.flushes = flushes;
    this.flusher = flushes ? Executors.newSingleThreadExecutor(daemon("cairn-flush")) : null;
    this.compactor = flushes ? Executors.newSingleThreadExecutor(daemon("cairn-compaction")) : null;
  }

  /** A durable store's: flushes, compactions and statistics. */
  static BackgroundWork durable(BooleanSupplier closed) {
    return new BackgroundWork(closed, true);
  }

  /** An in-memory store's: statistics only. */
  static BackgroundWork inMemory(BooleanSupplier closed) {
    return new BackgroundWork(closed, false);
  }

  /** Whether memstores are flushed (a durable store's). */
  boolean flushes() {
    return flushes;
  }

  void requestFlush(EmbeddedTable table, Region region) {
    if (!flushes || closed.getAsBoolean() || !flushQueued.add(region)) {
      return;
    }
    try {
      flusher.execute(
          () -> {
            flushQueued.remove(region);
            try {
              table.flushRegion(region);
            } catch (RuntimeException e) {
              LOG.error("Flush of {} failed; its data stays in the log", region, e);
            }
          });
    } catch (RejectedExecutionException e) {
      flushQueued.remove(region); // closing
    }
  }

  void requestCompaction(EmbeddedTable table, Region region) {
    if (!flushes || closed.getAsBoolean() || !compactionQueued.add(region)) {
      return;
    }
    try {
      compactor.execute(
          () -> {
            compactionQueued.remove(region);
            try {
              table.compactRegion(region, false);
              table.maybeSplit(region);
            } catch (RuntimeException e) {
              LOG.error("Compaction of {} failed", region, e);
            }
          });
    } catch (RejectedExecutionException e) {
      compactionQueued.remove(region);
    }
  }

  /**
   * Collects the region's statistics again in the background (enough was written since the last
   * collection); at most one queued per region, one running at a time for the whole store, and the
   * collections take at most a tenth of the time, each region's and all of them together: after a
   * collection neither that region nor any other is collected before nine times its duration passed
   * ({@link StatisticsKeeper#BACKGROUND_PAUSE_FACTOR}). So a table growing fast (a load that fills
   * and splits many regions) is not read over and over, and the work of statistics stays a small
   * share of the load's.
   */
  void requestStatistics(EmbeddedTable table, Region region) {
    if (closed.getAsBoolean() || !statisticsQueued.add(region)) {
      return;
    }
    scheduleStatistics(table, region, statisticsWait(region));
  }

  /**
   * Has the statistics thread collect the region as soon as it is free, past the queue and the
   * pauses of {@link #requestStatistics} (tests: a request while the store's own request for the
   * region waits out a pause would be dropped, and the collection start seconds later).
   */
  Future<?> collectNext(EmbeddedTable table, Region region) {
    return statisticsWorker.submit(() -> collect(table, region));
  }

  /** Collects the region's statistics on the statistics thread; a failure is logged. */
  private void collect(EmbeddedTable table, Region region) {
    try {
      table.collectRegion(region);
    } catch (RuntimeException e) {
      if (closed.getAsBoolean()) {
        LOG.debug("Statistics of {} stopped: the store closes", region, e);
      } else {
        LOG.warn("Statistics of {} failed", region, e);
      }
    }
  }

  /** Nanoseconds until the region may be collected again: its own pause and the worker's. */
  private long statisticsWait(Region region) {
    return Math.max(region.statisticsPausedUntilNanos(), statisticsIdleUntilNanos)
        - System.nanoTime();
  }

  private void scheduleStatistics(EmbeddedTable table, Region region, long delayNanos) {
    try {
      statisticsWorker.schedule(
          () -> {
            if (closed.getAsBoolean()) {
              statisticsQueued.remove(region);
              return;
            }
            long wait = statisticsWait(region);
            if (wait > 0) { // another region's collection ran meanwhile: still queued, later
              scheduleStatistics(table, region, wait);
              return;
            }
            statisticsQueued.remove(region);
            long start = System.nanoTime();
            collect(table, region);
            long end = System.nanoTime();
            statisticsIdleUntilNanos =
                end + StatisticsKeeper.BACKGROUND_PAUSE_FACTOR * (end - start);
          },
          Math.max(0, delayNanos),
          TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      statisticsQueued.remove(region);
    }
  }

  /**
   * Runs {@code write} (of {@value StatisticsTable#NAME}) on the statistics thread, after what is
   * queued there.
   *
   * @throws RejectedExecutionException when the store is closed
   */
  void writeStatistics(Runnable write) {
    statisticsWorker.execute(write);
  }

  /** At close: lets the flushes and compactions queued finish (up to 10 minutes), then stops. */
  void finishFlushesAndCompactions() {
    if (flushes) {
      shutdown(flusher);
      shutdown(compactor);
    }
  }

  /** At close: lets the statistics work queued (writes included) finish, then stops. */
  void finishStatistics() {
    shutdown(statisticsWorker);
  }

  /**
   * At close: drops the statistics work still waiting and stops a collection running (interrupted,
   * it ends within {@value io.cairn.store.stats.StatisticsKeeper#STOP_CHECK_ROWS} rows without
   * installing what it counted), waiting for it: the store's files, cache and buffer pool close
   * after this, and a collection still reading them would read closed files and leave its buffer
   * out of a closed pool.
   */
  void stopStatistics() {
    statisticsWorker.shutdownNow();
    try {
      if (!statisticsWorker.awaitTermination(1, TimeUnit.MINUTES)) {
        LOG.warn("A statistics collection did not stop within a minute at close");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** As a killed process: stops everything at once, waiting (a minute) for what runs to end. */
  void abandon() {
    flusher.shutdownNow();
    compactor.shutdownNow();
    statisticsWorker.shutdownNow();
    try {
      flusher.awaitTermination(1, TimeUnit.MINUTES);
      compactor.awaitTermination(1, TimeUnit.MINUTES);
      statisticsWorker.awaitTermination(1, TimeUnit.MINUTES);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ScheduledThreadPoolExecutor statisticsWorker() {
    ScheduledThreadPoolExecutor worker =
        new ScheduledThreadPoolExecutor(1, daemon("cairn-statistics"));
    worker.setKeepAliveTime(10, TimeUnit.SECONDS);
    worker.allowCoreThreadTimeOut(true); // an idle store holds no thread
    worker.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // close drops waiting ones
    return worker;
  }

  private static void shutdown(ExecutorService executor) {
    executor.shutdown();
    try {
      if (!executor.awaitTermination(10, TimeUnit.MINUTES)) {
        LOG.warn("Background work did not finish within 10 minutes at close");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
