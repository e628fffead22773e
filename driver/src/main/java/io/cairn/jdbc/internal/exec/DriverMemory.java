package io.cairn.jdbc.internal.exec;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryPool;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * The memory budget of the driver's query state (sort buffers, join build sides, aggregation
 * groups, set operations' sets, window partitions): one pool for the whole JVM, a child per
 * connection and a child per query under it ({@link MemoryPool}). An operator past a limit fails
 * with MEMORY_LIMIT_EXCEEDED (53200) naming the full pool and the setting that raises it, instead
 * of filling the heap until an OutOfMemoryError.
 *
 * <p>The JVM's budget is the system property {@value #JVM_PROPERTY} (bytes, optionally with k, m or
 * g; read once, when the driver first runs a query), by default {@value #DEFAULT_HEAP_PERCENT}% of
 * the maximum heap. A query's is the connection property {@value #QUERY_PROPERTY}; without it a
 * query may use the whole JVM budget. The JVM pool does not wait for other queries to release: a
 * query that does not fit fails at once.
 */
public final class DriverMemory {
  /** The system property of the JVM-wide budget. */
  public static final String JVM_PROPERTY = "cairn.driver.memoryMaxBytes";

  /**
   * The connection property of a query's budget ({@code ConnectionUrl.QUERY_MEMORY_MAX_BYTES}),
   * named here so that the executor does not import the URL parser above it.
   */
  public static final String QUERY_PROPERTY = "queryMemoryMaxBytes";

  /** The default JVM-wide budget, in percent of the maximum heap. */
  public static final int DEFAULT_HEAP_PERCENT = 50;

  /** The smallest accepted budget, JVM-wide or per query. */
  static final long MIN_BYTES = 1024;

  private DriverMemory() {}

  private static final class Jvm {
    static final MemoryPool POOL = createJvmPool();
  }

  private static MemoryPool createJvmPool() {
    long limit = MemoryPool.heapFraction(DEFAULT_HEAP_PERCENT / 100.0);
    String value = System.getProperty(JVM_PROPERTY);
    if (value != null) {
      limit = size(JVM_PROPERTY, value, "system property");
    }
    return MemoryPool.root(
        "the driver's JVM", limit, JVM_PROPERTY + " (system property)", Duration.ZERO);
  }

  /** The JVM-wide pool. */
  public static MemoryPool jvm() {
    return Jvm.POOL;
  }

  /** A new connection's pool: bounded by the JVM's, counting what its queries hold. */
  public static MemoryPool connection() {
    return jvm().child("the connection", Long.MAX_VALUE, "(none)");
  }

  /**
   * A new query's pool under {@code connection}: {@code maxBytes} (the connection property), or the
   * parent's bounds only when it is 0.
   */
  public static MemoryPool query(MemoryPool connection, long maxBytes) {
    return maxBytes > 0
        ? connection.child("the query", maxBytes, QUERY_PROPERTY + " (connection property)")
        : connection.child("the query", Long.MAX_VALUE, "(none)");
  }

  /**
   * The {@value #QUERY_PROPERTY} connection property, or 0 (no limit of the query's own) when it is
   * absent.
   *
   * @throws CairnException INVALID_URL when it is not a size of at least 1k
   */
  public static long queryMaxBytes(Properties info) {
    return sizeProperty(info, QUERY_PROPERTY, 0);
  }

  /**
   * The size connection property {@code name} in bytes ({@code 64m}, {@code 512k}, at least {@value
   * #MIN_BYTES}), or {@code absent} when it is not set.
   *
   * @throws CairnException INVALID_URL naming the property, what it expects and what it found
   */
  public static long sizeProperty(Properties info, String name, long absent) {
    String value = info == null ? null : info.getProperty(name);
    if (value == null) {
      return absent;
    }
    try {
      return size(name, value, "connection property");
    } catch (CairnException e) {
      throw new CairnException(ErrorCode.INVALID_URL, e.getMessage(), e);
    }
  }

  private static long size(String name, String value, String kind) {
    try {
      return io.cairn.store.io.Settings.size(Map.of(name, value), name, 0, MIN_BYTES);
    } catch (CairnException e) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "Invalid value for "
              + kind
              + " ["
              + name
              + "]: expected a whole number of bytes >= "
              + MIN_BYTES
              + ", optionally with k, m or g, found ["
              + value
              + "]",
          e);
    }
  }
}
