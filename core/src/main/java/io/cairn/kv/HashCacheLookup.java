package io.cairn.kv;

/**
 * Where a scan finds the {@link JoinHashTable}s its program probes ({@link HashProbe#cacheId()}):
 * embedded, the driver's own objects handed over with the {@link ScanRequest}; on a server, the
 * connection's hash caches.
 */
@FunctionalInterface
public interface HashCacheLookup {
  /** The table of {@code cacheId}, or null when there is none. */
  JoinHashTable find(String cacheId);

  /** A lookup of no table. */
  HashCacheLookup NONE = id -> null;
}
