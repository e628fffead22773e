package io.cairn.jdbc.internal.exec;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that read the chunks of parallel scans from a store of this JVM: one pool for the
 * whole JVM, as many daemon threads as processors, running short page tasks (one page of one chunk
 * each) first come, first served. A query has at most its parallelism of tasks queued or running,
 * so the tasks of concurrent queries interleave and no query starves another; no thread belongs to
 * a chunk or a query.
 */
final class ScanPool {
  private ScanPool() {}

  private static final class Holder {
    static final ExecutorService POOL = create();
  }

  private static ExecutorService create() {
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "cairn-scan-" + count.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true); // an idle JVM keeps no scan threads
    return pool;
  }

  /** Runs {@code task} on the pool, after the tasks queued before it. */
  static void execute(Runnable task) {
    Holder.POOL.execute(task);
  }
}
