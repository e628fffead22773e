package io.cairn.jdbc.internal.engine;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Cancellation and timeout of one statement execution. The executor calls {@link #check()} often
 * (per batch of rows); {@link #cancel()} may be called from any thread, and also runs the actions
 * registered with {@link #onCancel} (closing store scanners that work for a long time within one
 * call, such as a server-side aggregate).
 */
public final class ExecutionControl {
  private final long deadlineNanos;
  private final long timeoutSeconds;
  private volatile boolean cancelled;
  private final List<Runnable> cancelActions = new CopyOnWriteArrayList<>();

  private ExecutionControl(long timeoutSeconds) {
    this.timeoutSeconds = timeoutSeconds;
    this.deadlineNanos =
        timeoutSeconds > 0 ? System.nanoTime() + timeoutSeconds * 1_000_000_000L : 0;
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
    RuntimeException failure = null;
    for (Runnable action : cancelActions) {
      try {
        action.run();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Runs {@code action} (from the cancelling thread) when this execution is cancelled; at once when
   * it already was. It may run more than once, so it must be idempotent.
   */
  public void onCancel(Runnable action) {
    cancelActions.add(action);
    if (cancelled) {
      action.run();
    }
  }

  public boolean isCancelled() {
    return cancelled;
  }

  /** Throws when the statement was cancelled or its time is up. */
  public void check() {
    if (cancelled) {
      throw new CairnException(ErrorCode.QUERY_CANCELED, "Statement was cancelled");
    }
    if (deadlineNanos != 0 && System.nanoTime() - deadlineNanos > 0) {
      throw new CairnException(
          ErrorCode.QUERY_TIMEOUT, "Statement timed out after [" + timeoutSeconds + "] seconds");
    }
  }
}
