package io.cairn.jdbc.internal.engine;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.io.Closeables;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Cancellation, timeout and progress reports of one statement execution. The executor calls {@link
 * #check()} often (per batch of rows); {@link #cancel()} may be called from any thread, and also
 * runs the actions registered with {@link #onCancel} (closing store scanners that work for a long
 * time within one call, such as a server-side aggregate or a remote scan waiting for its next
 * page).
 *
 * <p>A timeout is enforced twice: {@link #check()} fails once the deadline has passed, and a timer
 * runs the cancel actions at the deadline, so that a statement blocked inside one store call (a
 * scan filtering many rows in the store, a page on its way from a server) stops too. {@link
 * #finish()} stops the timer when the execution ends earlier.
 */
public final class ExecutionControl {
  /** One daemon thread for every statement's deadline; cancelled timers leave its queue. */
  private static final ScheduledThreadPoolExecutor TIMER = createTimer();

  private final long deadlineNanos;
  private final long timeoutSeconds;
  private volatile boolean cancelled;
  private volatile boolean expired;
  private final List<Runnable> cancelActions = new CopyOnWriteArrayList<>();
  private final ScheduledFuture<?> timer;
  private volatile ProgressListener progressListener;

  private ExecutionControl(long timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
    this.deadlineNanos =
        timeoutSeconds > 0 ? System.nanoTime() + timeoutSeconds * 1_000_000_000L : 0;
    this.timer = timeoutSeconds > 0 ? schedule(this, timeoutSeconds) : null;
  }

  private static ScheduledThreadPoolExecutor createTimer() {
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "cairn-statement-timeout");
              t.setDaemon(true);
              return t;
            });
    timer.setRemoveOnCancelPolicy(true);
    return timer;
  }

  /** The timer holds the control weakly: an abandoned execution is not kept until its deadline. */
  private static ScheduledFuture<?> schedule(ExecutionControl control, long seconds) {
    WeakReference<ExecutionControl> ref = new WeakReference<>(control);
    return TIMER.schedule(
        () -> {
          ExecutionControl c = ref.get();
          if (c != null) {
            c.expire();
          }
        },
        seconds,
        TimeUnit.SECONDS);
  }

  /** No timeout. */
  public static ExecutionControl unlimited() {
    return new ExecutionControl(0);
  }

  /** Times out {@code seconds} from now; 0 means never (JDBC's setQueryTimeout convention). */
  public static ExecutionControl withTimeoutSeconds(long seconds) {
    return new ExecutionControl(seconds);
  }

  public void cancel() {
    cancelled = true;
    runCancelActions();
  }

  /** The deadline passed: stop what runs, as a cancel does, but report a timeout. */
  private void expire() {
    expired = true;
    try {
      runCancelActions();
    } catch (RuntimeException e) {
      // nobody to report to on the timer thread; the execution fails with QUERY_TIMEOUT
    }
  }

  private void runCancelActions() {
    Closeables.runAll(cancelActions);
  }

  /**
   * Runs {@code action} (from the cancelling thread, or the timer's at the deadline) when this
   * execution is cancelled or times out; at once when it already was. It may run more than once, so
   * it must be idempotent. Returns what removes it again: an operator that closes before the
   * statement ends (a scan of one pass of many) runs it, so that what the action holds (a scanner,
   * and through it a join's hash table) is not kept until the statement ends.
   */
  public Runnable onCancel(Runnable action) {
    cancelActions.add(action);
    if (cancelled || expired) {
      action.run();
    }
    return () -> cancelActions.remove(action);
  }

  /** Warnings of the execution so far (a join's change of strategy), in order, no duplicates. */
  private final java.util.List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Adds a warning that the statement reports as an SQLWarning (once per text). */
  public void warn(String warning) {
    if (!warnings.contains(warning)) {
      warnings.add(warning);
    }
  }

  /** The warnings added so far. */
  public java.util.List<String> warnings() {
    return java.util.List.copyOf(warnings);
  }

  /** Where the execution reports its progress from now on; null: nowhere. */
  public void progressListener(ProgressListener listener) {
    this.progressListener = listener;
  }

  /** Where the execution reports its progress ({@link ProgressListener}); null: nowhere. */
  public ProgressListener progressListener() {
    return progressListener;
  }

  public boolean isCancelled() {
    return cancelled;
  }

  /** The execution ended: its deadline timer is no longer needed. Idempotent. */
  public void finish() {
    if (timer != null) {
      timer.cancel(false);
    }
  }

  /** Throws when the statement was cancelled or its time is up. */
  public void check() {
    if (cancelled) {
      throw new CairnException(ErrorCode.QUERY_CANCELED, "Statement was cancelled");
    }
    if (expired || (deadlineNanos != 0 && System.nanoTime() - deadlineNanos > 0)) {
      throw new CairnException(
          ErrorCode.QUERY_TIMEOUT, "Statement timed out after [" + timeoutSeconds + "] seconds");
    }
  }
}
