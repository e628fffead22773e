package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.memory.MemoryPool;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The network server's tree of query memory budgets: the server's pool, under it one pool per
 * database (kept by name, so that it outlives a database closed and opened again), under that one
 * per connection, under that one per scan (see {@link io.cairn.store.coprocessor.ProgramScanner}).
 * Broadcast hash caches count in the server's pool (see {@link HashCacheMemory}). A level whose
 * limit is not below the one above it (the defaults) is that one: it could never be the only full
 * one, and a 53200 then names the setting that binds. Thread-safe.
 */
final class QueryMemory {
  private final QueryMemoryConfig config;
  private final MemoryPool server;
  private final ConcurrentMap<String, MemoryPool> databases = new ConcurrentHashMap<>();

  QueryMemory(QueryMemoryConfig config) {
    this.config = requireNonNull(config, "config is null");
    this.server =
        MemoryPool.root(
            "the server",
            config.maxBytes(),
            ServerConfig.QUERY_MEMORY_MAX_BYTES,
            config.waitTime());
  }

  /** The server's pool, the top of the tree. */
  MemoryPool server() {
    return server;
  }

  /** The pool of database {@code name} (empty: the default database). */
  MemoryPool database(String name) {
    if (config.databaseMaxBytes() >= server.limit()) {
      return server;
    }
    return databases.computeIfAbsent(
        name,
        n ->
            server.child(
                "the database [" + (n.isEmpty() ? "(default)" : n) + "]",
                config.databaseMaxBytes(),
                ServerConfig.QUERY_MEMORY_DATABASE_MAX_BYTES,
                config.waitTime()));
  }

  /** A new pool for one connection (session {@code session}) of database {@code name}. */
  MemoryPool connection(String database, long session) {
    MemoryPool parent = database(database);
    if (config.connectionMaxBytes() >= parent.limit()) {
      return parent;
    }
    return parent.child(
        "the connection (session " + session + ")",
        config.connectionMaxBytes(),
        ServerConfig.QUERY_MEMORY_CONNECTION_MAX_BYTES,
        config.waitTime());
  }

  /** Bytes reserved now by every query and hash cache of the server. */
  long used() {
    return server.used();
  }
}
