package io.cairn.planner;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs planning on threads with a large stack, and turns what planning throws into {@link
 * CairnException}s: Calcite parses, validates, converts and simplifies recursively, so a statement
 * with a deeply nested expression (a thousand chained {@code +}, a long OR chain, hundreds of UNION
 * ALL branches) needs a deeper stack than a caller's thread has. What still exhausts the stack is
 * STATEMENT_TOO_COMPLEX (54001); an assertion inside Calcite is INTERNAL_ERROR (XX000) with a
 * bounded message; no {@link Error} of that kind leaves the planner.
 *
 * <p>The caller waits for its planning and gives up at once when the statement is cancelled (or its
 * time is up, which the caller reports as such); the planning itself stops at its next check of the
 * same flag ({@link #check}).
 */
final class PlanningThreads {
  /** Stack of a planning thread: reserved address space, committed only as deep as used. */
  static final long STACK_BYTES = 256L * 1024 * 1024;

  /** Messages quote at most this many characters of a failure (never the whole statement). */
  static final int MAX_MESSAGE_CHARS = 2048;

  private static final long POLL_MILLIS = 10;

  private static final AtomicInteger THREADS = new AtomicInteger();

  /** Threads are made on demand and end after a minute idle, so an idle JVM holds none. */
  private static final ThreadPoolExecutor POOL =
      new ThreadPoolExecutor(
          0,
          Integer.MAX_VALUE,
          60,
          TimeUnit.SECONDS,
          new SynchronousQueue<>(),
          r -> {
            Thread t =
                new Thread(null, r, "cairn-planner-" + THREADS.incrementAndGet(), STACK_BYTES);
            t.setDaemon(true);
            return t;
          });

  private PlanningThreads() {}

  /**
   * Runs {@code planning} on a planning thread and returns its result; {@code cancel} set (from any
   * thread) makes this return QUERY_CANCELED at once.
   */
  static <T> T run(Callable<T> planning, AtomicBoolean cancel) {
    Future<T> future = POOL.submit(() -> converted(planning));
    try {
      while (true) {
        if (cancel.get()) {
          future.cancel(false);
          throw cancelled();
        }
        try {
          return future.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          // poll the cancel flag again
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      cancel.set(true);
      future.cancel(false);
      throw new CairnException(ErrorCode.QUERY_CANCELED, "Planning was interrupted", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw converted(cause);
    }
  }

  /** Throws QUERY_CANCELED when {@code cancel} is set: planning calls it between its phases. */
  static void check(AtomicBoolean cancel) {
    if (cancel.get()) {
      throw cancelled();
    }
  }

  private static CairnException cancelled() {
    return new CairnException(ErrorCode.QUERY_CANCELED, "Statement was cancelled while planning");
  }

  private static <T> T converted(Callable<T> planning) throws Exception {
    try {
      return planning.call();
    } catch (CairnException e) {
      throw e;
    } catch (StackOverflowError | AssertionError e) {
      throw converted(e);
    } catch (RuntimeException e) {
      Throwable error = rootError(e);
      throw converted(error != null ? error : e);
    }
  }

  /** A StackOverflowError or AssertionError in the causes of {@code e} (Calcite wraps them). */
  private static Throwable rootError(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof StackOverflowError || t instanceof AssertionError) {
        return t;
      }
    }
    return null;
  }

  /** The CairnException for what planning threw. */
  static CairnException converted(Throwable t) {
    if (t instanceof CairnException e) {
      return e;
    }
    if (t instanceof StackOverflowError) {
      return new CairnException(
          ErrorCode.STATEMENT_TOO_COMPLEX,
          "Statement too complex: its expressions or set operations are nested too deeply to plan"
              + " (the planner's stack of ["
              + STACK_BYTES / (1024 * 1024)
              + "] MB is exhausted); split it into simpler statements");
    }
    return new CairnException(
        ErrorCode.INTERNAL_ERROR,
        "Internal error while planning: " + bounded(String.valueOf(t)),
        t);
  }

  /** {@code text} cut to {@link #MAX_MESSAGE_CHARS} characters. */
  static String bounded(String text) {
    if (text.length() <= MAX_MESSAGE_CHARS) {
      return text;
    }
    return text.substring(0, MAX_MESSAGE_CHARS)
        + "... ["
        + (text.length() - MAX_MESSAGE_CHARS)
        + "] more characters";
  }
}
