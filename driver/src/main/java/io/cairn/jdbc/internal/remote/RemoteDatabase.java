package io.cairn.jdbc.internal.remote;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.error.CairnException;
import io.cairn.jdbc.internal.session.Database;
import io.cairn.kv.KvStore;
import io.cairn.planner.CairnPlanner;
import io.cairn.protocol.Ping;
import io.cairn.protocol.Request;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * A database on a Cairn server, as the JDBC connections of this JVM with the same {@link
 * RemoteConfig} share it: one network connection ({@link RpcConnection}), the KV SPI over it
 * ({@link RemoteKvStore}), a copy of the server's catalog ({@link RemoteCatalog}) and a planner
 * with its plan cache over that copy (row counts from the server). Reference-counted by the
 * sessions using it; the last one to leave closes the network connection.
 */
final class RemoteDatabase implements Database {
  /** Guards {@link #DATABASES} and every database's reference count. */
  private static final Object LOCK = new Object();

  private static final Map<RemoteConfig, RemoteDatabase> DATABASES = new HashMap<>();

  private final RemoteConfig config;
  private final RpcConnection connection;
  private final RemoteKvStore store;
  private final RemoteCatalog catalog;
  private final CairnPlanner planner;
  private int references;

  RemoteDatabase(RpcConnection connection) {
    this.config = connection.config();
    this.connection = connection;
    this.store = new RemoteKvStore(connection);
    this.catalog = new RemoteCatalog(connection);
    this.planner =
        new CairnPlanner(
            catalog,
            t -> store.handle(t.kvTableName()).approximateRowCount(),
            (t, index) -> store.handle(t.kvTableName()).indexStatistics(index.indexId()),
            t -> store.handle(t.kvTableName()).columnStatistics());
  }

  /**
   * The database {@code config} points to, with one more reference; connected (the shared network
   * connection is opened, or reopened when it broke) and its catalog current.
   *
   * @throws CairnException CONNECTION_FAILED, PROTOCOL_VERSION_MISMATCH, AUTHENTICATION_FAILED, ...
   */
  static RemoteDatabase acquire(RemoteConfig config) {
    RemoteDatabase database;
    synchronized (LOCK) {
      database = DATABASES.computeIfAbsent(config, c -> new RemoteDatabase(new RpcConnection(c)));
      database.references++;
    }
    try {
      database.beforeStatement();
    } catch (RuntimeException e) {
      try {
        database.release();
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    return database;
  }

  /** Databases open in this JVM (for tests). */
  static int open() {
    synchronized (LOCK) {
      return DATABASES.size();
    }
  }

  @Override
  public void release() {
    synchronized (LOCK) {
      if (references <= 0) {
        throw CairnException.internal(
            "Database [" + name() + "] released more often than acquired");
      }
      if (--references > 0) {
        return;
      }
      DATABASES.remove(config, this);
    }
    connection.close();
  }

  /** Sessions using this database now. */
  int references() {
    synchronized (LOCK) {
      return references;
    }
  }

  RpcConnection connection() {
    return connection;
  }

  @Override
  public String name() {
    return config.address().storeName();
  }

  @Override
  public KvStore store() {
    return store;
  }

  @Override
  public Catalog catalog() {
    return catalog;
  }

  @Override
  public CairnPlanner planner() {
    return planner;
  }

  /** Reconnects when the connection broke, and reloads the catalog when the server's changed. */
  @Override
  public void beforeStatement() {
    catalog.refreshIfStale();
  }

  /**
   * A Ping: its answer carries the server's catalog version as of now, later than any DDL another
   * client has finished; reloads the copy when that differs from the one loaded.
   */
  @Override
  public boolean catchUp() {
    long before = catalog.version();
    connection.callAndWait(
        Request.newBuilder().setPing(Ping.getDefaultInstance()), "Ping (catalog version)");
    catalog.refreshIfStale();
    return catalog.version() != before;
  }

  @Override
  public boolean isValid(int timeoutSeconds) {
    Duration timeout =
        timeoutSeconds > 0 ? Duration.ofSeconds(timeoutSeconds) : config.requestTimeout();
    return connection.ping(timeout);
  }

  @Override
  public String toString() {
    return "RemoteDatabase[" + config + "]";
  }
}
