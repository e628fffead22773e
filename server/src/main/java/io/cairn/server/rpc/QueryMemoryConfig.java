package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.memory.MemoryPool;
import java.time.Duration;

/**
 * The network server's budgets for query state (grouped aggregations' groups, sorts, broadcast hash
 * caches), from the {@code query-memory.*} settings (see {@link ServerConfig}); documented in
 * docs/server.md.
 *
 * @param maxBytes every query of the server together ({@value ServerConfig#QUERY_MEMORY_MAX_BYTES};
 *     default {@value #HEAP_PERCENT}% of the heap)
 * @param databaseMaxBytes the queries of one database ({@value
 *     ServerConfig#QUERY_MEMORY_DATABASE_MAX_BYTES}; default the server's)
 * @param connectionMaxBytes the queries of one connection ({@value
 *     ServerConfig#QUERY_MEMORY_CONNECTION_MAX_BYTES}; default the database's: the JDBC driver
 *     multiplexes every connection of a client JVM to a server over one, so a connection is a whole
 *     client application; lower it so that no one client can take the whole budget)
 * @param waitTime how long a scan whose state does not fit in a shared budget waits for others to
 *     give memory back before it fails with MEMORY_LIMIT_EXCEEDED ({@value
 *     ServerConfig#QUERY_MEMORY_WAIT}; default 1 s)
 */
public record QueryMemoryConfig(
    long maxBytes, long databaseMaxBytes, long connectionMaxBytes, Duration waitTime) {
  /**
   * The default server budget in percent of the heap: the budgets count estimated bytes (the real
   * footprint runs higher), and memstores (a quarter of the heap by default), cached blocks, frames
   * in flight and the JVM itself need the rest.
   */
  public static final int HEAP_PERCENT = 40;

  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(1);

  public QueryMemoryConfig {
    requireNonNull(waitTime, "waitTime is null");
    if (maxBytes <= 0 || databaseMaxBytes <= 0 || connectionMaxBytes <= 0) {
      throw new IllegalArgumentException(
          "query memory budgets must be positive: ["
              + maxBytes
              + ", "
              + databaseMaxBytes
              + ", "
              + connectionMaxBytes
              + "]");
    }
  }

  /** The default server budget: {@value #HEAP_PERCENT}% of this JVM's maximum heap. */
  public static long defaultMaxBytes() {
    return MemoryPool.heapFraction(HEAP_PERCENT / 100.0);
  }
}
