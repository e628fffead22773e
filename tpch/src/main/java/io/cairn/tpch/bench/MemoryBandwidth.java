package io.cairn.tpch.bench;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How fast this machine's cores read memory: sums a {@code long[]} much larger than the processor
 * caches sequentially, first with one thread, then with {@code threads} threads each summing its
 * own contiguous slice of it, and keeps the best (shortest) of a few passes of each. The figure is
 * what plain Java code reading memory front to back can get, the ceiling a scan that reads every
 * byte of its data once runs against; it is not a STREAM copy or triad figure (which also write),
 * and prefetchers make it close to the machine's sequential read bandwidth.
 *
 * <p>No library on Maven Central measures memory bandwidth from Java (JMH is a harness, not a
 * probe), hence this small class. It takes well under a second per GiB on a current machine.
 */
final class MemoryBandwidth {
  /** Where the sums go so that the JIT cannot drop the loops; never read for anything else. */
  private static final AtomicLong SINK = new AtomicLong();

  /** The size the command probes with unless told otherwise. */
  static final int DEFAULT_MIB = 512;

  /** The largest array a {@code long[]} can be, in MiB (rounded down). */
  static final int MAX_MIB = 16 * 1024 - 1;

  /**
   * What the probe found.
   *
   * @param bytes size of the array read on each pass
   * @param threads threads of the all-threads passes
   * @param passes passes of each kind; the best one counts
   * @param singleThreadBytesPerSecond best pass of one thread over the whole array
   * @param allThreadsBytesPerSecond best pass of all threads together over the whole array
   */
  record Result(
      long bytes,
      int threads,
      int passes,
      double singleThreadBytesPerSecond,
      double allThreadsBytesPerSecond,
      String method) {
    Result {
      requireNonNull(method, "method is null");
    }

    /** The all-threads bandwidth shared out evenly: what one core gets when every core reads. */
    double perCoreBytesPerSecond() {
      return allThreadsBytesPerSecond / threads;
    }

    /** One line for humans. */
    String describe() {
      return String.format(
          Locale.ROOT,
          "memory read bandwidth %,.0f MB/s with %d threads (%,.0f MB/s per core), %,.0f MB/s with"
              + " one thread (best of %d passes over %d MiB)",
          allThreadsBytesPerSecond / 1e6,
          threads,
          perCoreBytesPerSecond() / 1e6,
          singleThreadBytesPerSecond / 1e6,
          passes,
          bytes >> 20);
    }
  }

  private MemoryBandwidth() {}

  /** The array size to probe with: {@code mib}, but at most a quarter of the maximum heap. */
  static int fittingMib(int mib) {
    long quarter = Runtime.getRuntime().maxMemory() / 4 >> 20;
    return (int) Math.max(1, Math.min(mib, quarter));
  }

  /**
   * Measures with an array of {@code mib} MiB, one thread then {@code threads} threads, {@code
   * passes} passes each.
   */
  static Result measure(int mib, int threads, int passes) throws InterruptedException {
    if (mib < 1 || mib > MAX_MIB || threads < 1 || passes < 1) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "Expected mib in [1, "
                  + MAX_MIB
                  + "], threads >= 1 and passes >= 1; found [%d], [%d], [%d]",
              mib,
              threads,
              passes));
    }
    long[] data = new long[(int) ((long) mib * (1 << 20) / Long.BYTES)];
    for (int i = 0; i < data.length; i++) {
      data[i] = i;
    }
    // Compile the loop before timing it: many short calls reach C2 sooner than one long one.
    for (int i = 0; i < 200; i++) {
      SINK.addAndGet(sum(data, 0, Math.min(data.length, 1 << 14)));
    }
    long bytes = (long) data.length * Long.BYTES;
    long single = Long.MAX_VALUE;
    for (int p = 0; p < passes; p++) {
      long start = System.nanoTime();
      SINK.addAndGet(sum(data, 0, data.length));
      single = Math.min(single, System.nanoTime() - start);
    }
    long all = allThreads(data, threads, passes);
    return new Result(
        bytes,
        threads,
        passes,
        bytes / (Math.max(1, single) / 1e9),
        bytes / (Math.max(1, all) / 1e9),
        "sequential sum of a long[], one thread and then each thread its own slice, best pass");
  }

  /**
   * The best time of {@code passes} passes in which {@code threads} threads read a slice each. A
   * pass lasts from the first thread's start to the last thread's end, as the threads themselves
   * read the clock: the coordinating thread may not get a core until the workers are done.
   */
  private static long allThreads(long[] data, int threads, int passes) throws InterruptedException {
    CyclicBarrier start = new CyclicBarrier(threads);
    long[][] begins = new long[passes][threads];
    long[][] ends = new long[passes][threads];
    List<Thread> workers = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < threads; t++) {
      int index = t;
      int from = (int) ((long) data.length * t / threads);
      int to = (int) ((long) data.length * (t + 1) / threads);
      Thread worker =
          new Thread(
              () -> {
                try {
                  for (int p = 0; p < passes; p++) {
                    start.await();
                    begins[p][index] = System.nanoTime();
                    SINK.addAndGet(sum(data, from, to));
                    ends[p][index] = System.nanoTime();
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  failures.add(e);
                } catch (BrokenBarrierException | RuntimeException e) {
                  failures.add(e);
                }
              },
              "memory-probe-" + t);
      worker.setDaemon(true);
      workers.add(worker);
      worker.start();
    }
    try {
      for (Thread worker : workers) {
        worker.join();
      }
    } finally {
      start.reset();
    }
    if (!failures.isEmpty()) {
      throw new IllegalStateException("A memory probe thread failed", failures.get(0));
    }
    long best = Long.MAX_VALUE;
    for (int p = 0; p < passes; p++) {
      long first = Long.MAX_VALUE;
      long last = Long.MIN_VALUE;
      for (int t = 0; t < threads; t++) {
        first = Math.min(first, begins[p][t]);
        last = Math.max(last, ends[p][t]);
      }
      best = Math.min(best, last - first);
    }
    return best;
  }

  /** Four independent sums, so the adds do not wait on each other and the loads set the pace. */
  static long sum(long[] a, int from, int to) {
    long s0 = 0;
    long s1 = 0;
    long s2 = 0;
    long s3 = 0;
    int i = from;
    for (; i + 3 < to; i += 4) {
      s0 += a[i];
      s1 += a[i + 1];
      s2 += a[i + 2];
      s3 += a[i + 3];
    }
    for (; i < to; i++) {
      s0 += a[i];
    }
    return s0 + s1 + s2 + s3;
  }
}
