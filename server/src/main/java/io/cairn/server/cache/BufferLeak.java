package io.cairn.server.cache;

import static java.util.Objects.requireNonNull;

import java.util.Set;

/**
 * A buffer that was never released.
 *
 * @param buffer the buffer's description ({@link PooledBuffer#toString()})
 * @param pool the name of the pool it came from
 * @param unreachable whether it was found unreachable, rather than still out when its pool was
 *     checked or closed
 * @param allocatedAt the stack of its allocation
 */
public record BufferLeak(String buffer, String pool, boolean unreachable, Throwable allocatedAt) {
  public BufferLeak {
    requireNonNull(buffer, "buffer is null");
    requireNonNull(pool, "pool is null");
    requireNonNull(allocatedAt, "allocatedAt is null");
  }

  /** Classes whose frames say nothing about who allocated the buffer. */
  private static final Set<String> INTERNAL =
      Set.of(
          BufferPool.class.getName(),
          PooledBuffer.class.getName(),
          LeakDetector.class.getName(),
          LeakDetector.Tracker.class.getName());

  @Override
  public String toString() {
    return buffer
        + " of pool ["
        + pool
        + "] "
        + (unreachable ? "became unreachable" : "is still out")
        + " without release; allocated at "
        + stackTop();
  }

  private String stackTop() {
    StackTraceElement[] stack = allocatedAt.getStackTrace();
    for (StackTraceElement frame : stack) {
      if (!INTERNAL.contains(frame.getClassName())) {
        return frame.toString();
      }
    }
    return stack.length == 0 ? "(unknown)" : stack[0].toString();
  }
}
