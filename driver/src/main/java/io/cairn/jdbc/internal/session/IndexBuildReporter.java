package io.cairn.jdbc.internal.session;

import static java.util.Objects.requireNonNull;

import io.cairn.jdbc.internal.engine.BuildProgress;
import io.cairn.jdbc.internal.engine.ProgressListener;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an index build reports its rows indexed so far to ({@link
 * io.cairn.core.catalog.Catalog#createIndex}, {@code rebuildIndex}): keeps the most any of the
 * build's threads reported (the statement's update count), and passes it to the statement's {@link
 * ProgressListener} (when it has one) at most once per the listener's interval, one thread at a
 * time; {@link #finish} sends the final report. A remote catalog asks the server for reports at the
 * listener's {@link #interval()}.
 */
public final class IndexBuildReporter implements LongConsumer {
  private static final Logger LOG = LoggerFactory.getLogger(IndexBuildReporter.class);

  private final String index;
  private final String table;
  private final long estimatedRows;
  private final ProgressListener listener;
  private final long intervalNanos;
  private final long startNanos;
  private final AtomicLong rows = new AtomicLong();
  private final AtomicLong lastReport;
  private final AtomicLong lastReportedRows = new AtomicLong(-1);

  /**
   * @param table the schema-qualified table name
   * @param estimatedRows about how many rows the table holds; -1 when unknown
   * @param listener where reports go; null: nowhere (only the rows are kept)
   */
  IndexBuildReporter(String index, String table, long estimatedRows, ProgressListener listener) {
    this.index = requireNonNull(index, "index is null");
    this.table = requireNonNull(table, "table is null");
    this.estimatedRows = estimatedRows;
    this.listener = listener;
    Duration interval = listener == null ? ProgressListener.DEFAULT_INTERVAL : listener.interval();
    this.intervalNanos = Math.max(0, interval.toNanos());
    this.startNanos = System.nanoTime();
    this.lastReport = new AtomicLong(startNanos);
  }

  /** The least time between two reports (the listener's interval). */
  public Duration interval() {
    return Duration.ofNanos(intervalNanos);
  }

  @Override
  public void accept(long indexed) {
    long most = rows.accumulateAndGet(indexed, Math::max);
    if (listener == null) {
      return;
    }
    long now = System.nanoTime();
    long last = lastReport.get();
    // one of the build's threads wins each interval, the others go on without waiting; a count
    // already reported (the build's last one, which the final report repeats) is not again
    if (now - last >= intervalNanos
        && most != lastReportedRows.get()
        && lastReport.compareAndSet(last, now)) {
      lastReportedRows.set(most);
      report(most, now, false);
    }
  }

  /** The rows indexed: the most reported so far. */
  public long rows() {
    return rows.get();
  }

  /** The build succeeded: the final report, of {@link #rows()}. Returns the rows. */
  long finish() {
    long total = rows.get();
    if (listener != null) {
      report(total, System.nanoTime(), true);
    }
    return total;
  }

  private void report(long indexed, long now, boolean finished) {
    BuildProgress progress =
        new BuildProgress(
            index, table, indexed, estimatedRows, Duration.ofNanos(now - startNanos), finished);
    try {
      synchronized (this) { // one report at a time, so that a listener needs no locks of its own
        listener.progress(progress);
      }
    } catch (RuntimeException e) {
      LOG.debug("The progress listener failed on [{}]", progress.describe(), e);
    }
  }
}
