package io.cairn.core.io;

import java.util.Arrays;

/**
 * Closes several things at once, like Lucene's {@code IOUtils}: each one is closed (or run) even
 * when an earlier one fails, and the first failure is thrown with the later ones suppressed in it.
 */
public final class Closeables {
  private Closeables() {}

  /**
   * Closes every resource, in order; throws the first failure, the later ones suppressed in it.
   * Null resources are skipped.
   */
  public static void closeAll(Iterable<? extends AutoCloseable> resources) throws Exception {
    Exception failure = null;
    for (AutoCloseable resource : resources) {
      if (resource == null) {
        continue;
      }
      try {
        resource.close();
      } catch (Exception e) {
        failure = useOrSuppress(failure, e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** {@link #closeAll(Iterable)} of the arguments. */
  public static void closeAll(AutoCloseable... resources) throws Exception {
    closeAll(Arrays.asList(resources));
  }

  /**
   * {@link #closeAll(Iterable)} for resources whose close throws {@code type} (e.g. {@code
   * SQLException}) or unchecked exceptions: the first failure is thrown as is when it is one of
   * those, else wrapped in an {@link IllegalStateException}.
   */
  public static <E extends Exception> void closeAll(
      Iterable<? extends AutoCloseable> resources, Class<E> type) throws E {
    try {
      closeAll(resources);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      if (type.isInstance(e)) {
        throw type.cast(e);
      }
      throw new IllegalStateException(e);
    }
  }

  /**
   * {@link #closeAll(Iterable)} for resources whose close throws no checked exception in practice:
   * a first failure that is checked is thrown wrapped in an {@link IllegalStateException}.
   */
  public static void closeAllUnchecked(Iterable<? extends AutoCloseable> resources) {
    closeAll(resources, RuntimeException.class);
  }

  /** Runs every action, in order; throws the first failure, the later ones suppressed in it. */
  public static void runAll(Iterable<? extends Runnable> actions) {
    RuntimeException failure = null;
    for (Runnable action : actions) {
      try {
        action.run();
      } catch (RuntimeException e) {
        failure = useOrSuppress(failure, e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * {@code first}, with {@code next} suppressed in it; {@code next} when there is no {@code first}
   * yet. The idiom of a loop that keeps going after a failure.
   */
  public static <T extends Throwable> T useOrSuppress(T first, T next) {
    if (first == null) {
      return next;
    }
    if (next != null && next != first) {
      first.addSuppressed(next);
    }
    return first;
  }
}
