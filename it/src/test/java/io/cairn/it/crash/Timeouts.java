package io.cairn.it.crash;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs work on another thread so that a hang becomes a failure instead of a stuck build. */
final class Timeouts {
  private Timeouts() {}

  /** Calls {@code work}; rethrows what it throws; fails with {@code what} when it hangs. */
  static <T> T call(Callable<T> work, Duration patience, String what) throws Exception {
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "timeout-guard");
              thread.setDaemon(true);
              return thread;
            });
    try {
      Future<T> future = executor.submit(work);
      try {
        return future.get(patience.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        future.cancel(true);
        throw new AssertionError("hang: " + what + " did not finish within " + patience, e);
      } catch (ExecutionException e) {
        if (e.getCause() instanceof Exception cause) {
          throw cause;
        }
        if (e.getCause() instanceof Error error) {
          throw error;
        }
        throw e;
      }
    } finally {
      executor.shutdownNow();
    }
  }
}
