package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.server.status.SlowRequestLog;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;

/** What every connection of one server shares. */
final class ServerContext {
  private final ServerConfig config;
  private final Databases databases;
  private final ThreadPoolExecutor workers;
  private final ServerMetrics metrics;
  private final Authenticator authenticator;
  private final HashCacheMemory hashCacheMemory;
  private final QueryMemory queryMemory;
  private final String serverVersion;
  private final Instant startTime = Instant.now();
  private final SlowRequestLog slowRequests;
  private final AtomicLong sessionIds = new AtomicLong();
  private final Set<ServerConnection> connections = ConcurrentHashMap.newKeySet();
  private volatile boolean shuttingDown;

  ServerContext(
      ServerConfig config,
      Databases databases,
      ThreadPoolExecutor workers,
      ServerMetrics metrics,
      Authenticator authenticator,
      HashCacheMemory hashCacheMemory,
      QueryMemory queryMemory,
      String serverVersion) {
    this.config = requireNonNull(config, "config is null");
    this.databases = requireNonNull(databases, "databases is null");
    this.workers = requireNonNull(workers, "workers is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.authenticator = requireNonNull(authenticator, "authenticator is null");
    this.hashCacheMemory = requireNonNull(hashCacheMemory, "hashCacheMemory is null");
    this.queryMemory = requireNonNull(queryMemory, "queryMemory is null");
    this.serverVersion = requireNonNull(serverVersion, "serverVersion is null");
    this.slowRequests = new SlowRequestLog(Duration.ofMillis(config.slowRequestMillis()));
  }

  Instant startTime() {
    return startTime;
  }

  /** The last slow requests, for the status page. */
  SlowRequestLog slowRequests() {
    return slowRequests;
  }

  ServerConfig config() {
    return config;
  }

  Databases databases() {
    return databases;
  }

  ThreadPoolExecutor workers() {
    return workers;
  }

  ServerMetrics metrics() {
    return metrics;
  }

  Authenticator authenticator() {
    return authenticator;
  }

  HashCacheMemory hashCacheMemory() {
    return hashCacheMemory;
  }

  /** The budgets of query state: the server's, each database's, each connection's. */
  QueryMemory queryMemory() {
    return queryMemory;
  }

  String serverVersion() {
    return serverVersion;
  }

  long nextSessionId() {
    return sessionIds.incrementAndGet();
  }

  /** The open connections. */
  Set<ServerConnection> connections() {
    return connections;
  }

  boolean shuttingDown() {
    return shuttingDown;
  }

  void startShutdown() {
    shuttingDown = true;
  }
}
