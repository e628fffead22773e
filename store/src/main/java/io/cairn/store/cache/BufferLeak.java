package io.cairn.store.cache;

import static java.util.Objects.requireNonNull;

import java.util.Set;

/**
 * A buffer that was never released: a {@link PooledBuffer}, or a block cache entry a reader still
 * holds.
 *
 * @param buffer the buffer's description ({@link PooledBuffer#toString()}, or the cached block's)
 * @param pool the name of the pool or cache it came from
 * @param unreachable whether it was found unreachable, rather than still out when its pool or cache
 *     was checked or closed
 * @param allocatedAt the stack of its allocation; for a cache entry, of its last retain when it was
 *     retained after it was cached
 */
public record BufferLeak(String buffer, String pool, boolean unreachable, Throwable allocatedAt) {
  public BufferLeak {
    requireNonNull(buffer, "buffer is null");
    requireNonNull(pool, "pool is null");
    requireNonNull(allocatedAt, "allocatedAt is null");
  }

  /** Classes whose frames say nothing about who took the buffer (nested classes included). */
  private static final Set<String> INTERNAL =
      Set.of(
          BufferPool.class.getName(),
          PooledBuffer.class.getName(),
          LeakDetector.class.getName(),
          CachedBlock.class.getName(),
          BlockCacheBase.class.getName(),
          LruBlockCache.class.getName(),
          BucketCache.class.getName(),
          CombinedBlockCache.class.getName());

  @Override
  public String toString() {
    return buffer
        + " of ["
        + pool
        + "] "
        + (unreachable ? "became unreachable" : "is still out")
        + " without release; last taken at "
        + stackTop();
  }

  private String stackTop() {
    StackTraceElement[] stack = allocatedAt.getStackTrace();
    for (StackTraceElement frame : stack) {
      String name = frame.getClassName();
      int nested = name.indexOf('$');
      if (!INTERNAL.contains(nested < 0 ? name : name.substring(0, nested))) {
        return frame.toString();
      }
    }
    return stack.length == 0 ? "(unknown)" : stack[0].toString();
  }
}
