package io.cairn.jdbc.internal.engine;

import java.time.Duration;

/**
 * What a statement reports how far it is to while it runs: today the index build of CREATE INDEX
 * and ALTER INDEX ... REBUILD, embedded and remote. Set per statement with {@code
 * CairnStatement#setProgressListener} (reached with {@code unwrap}); statements without one log
 * their progress (see {@link ProgressLog}).
 *
 * <p>Reports come from the statement's worker threads (an embedded build's, a remote connection's
 * I/O thread), one at a time, at most one per {@link #interval()}, then one final report when the
 * work is done (none when it fails: the statement's exception says why). A listener must be quick
 * and must not block; one that throws is ignored, never the statement's failure.
 */
@FunctionalInterface
public interface ProgressListener {
  /** The least time between two reports of one statement while it runs (the final one aside). */
  Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

  void progress(BuildProgress progress);

  /** The least time between two reports while the work runs; zero: every report the work makes. */
  default Duration interval() {
    return DEFAULT_INTERVAL;
  }
}
