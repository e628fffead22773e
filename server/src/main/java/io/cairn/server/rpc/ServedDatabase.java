package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.StoreCatalog;
import io.cairn.kv.KvStore;
import io.cairn.protocol.CatalogVersion;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One database the server serves: a store, the catalog kept in it, and the connections using it
 * (which hear of its DDL). DDL runs under {@link #ddlLock()}, so that catalog versions and their
 * events go out in order.
 *
 * <p>Sessions hold it by a reference count ({@link #tryAcquire}, {@link #release}): {@link
 * Databases} closes a database that nobody has held for the idle timeout, and a count of -1 marks
 * one being closed, which no one can acquire any more (the next Hello opens it again).
 */
final class ServedDatabase {
  private final String name;
  private final KvStore store;
  private final StoreCatalog catalog;
  private final long instanceId;
  private final long snapshotMaxAgeMillis;
  private final Object ddlLock = new Object();
  private final Set<ServerConnection> connections = ConcurrentHashMap.newKeySet();
  private final boolean pinned;

  /** Sessions holding it; -1 once retired (being closed). */
  private final AtomicInteger holders = new AtomicInteger();

  /** When the last holder released it (System.nanoTime). */
  private volatile long idleSinceNanos = System.nanoTime();

  /**
   * @param snapshotMaxAgeMillis how long the store keeps a snapshot's versions (its
   *     cairn.snapshot.max-age): a connection forgets its snapshots past it
   * @param pinned never closed while the server runs (the default database, in-memory ones)
   */
  ServedDatabase(
      String name,
      KvStore store,
      StoreCatalog catalog,
      long instanceId,
      long snapshotMaxAgeMillis,
      boolean pinned) {
    this.name = requireNonNull(name, "name is null");
    this.store = requireNonNull(store, "store is null");
    this.catalog = requireNonNull(catalog, "catalog is null");
    this.instanceId = instanceId;
    this.snapshotMaxAgeMillis = snapshotMaxAgeMillis;
    this.pinned = pinned;
  }

  /** True when it stays open until the server stops, held or not. */
  boolean pinned() {
    return pinned;
  }

  /** Adds a holder; false when the database is being closed (open it again instead). */
  boolean tryAcquire() {
    while (true) {
      int n = holders.get();
      if (n < 0) {
        return false;
      }
      if (holders.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /** Gives back what {@link #tryAcquire} took. */
  void release() {
    int n = holders.decrementAndGet();
    if (n < 0) {
      throw new IllegalStateException(
          "Database " + displayName() + " released more often than acquired");
    }
    if (n == 0) {
      idleSinceNanos = System.nanoTime();
    }
  }

  /**
   * Gives back what {@link #tryAcquire} took for a look (the status page) without counting as use:
   * the idle time goes on.
   */
  void endPeek() {
    if (holders.decrementAndGet() < 0) {
      throw new IllegalStateException(
          "Database " + displayName() + " released more often than acquired");
    }
  }

  /** Sessions holding it now (-1: being closed). */
  int holders() {
    return holders.get();
  }

  /**
   * Marks it closed when nobody has held it for {@code idleNanos} at {@code nowNanos}; true when it
   * did, and then no one can acquire it again.
   */
  boolean tryRetire(long nowNanos, long idleNanos) {
    return !pinned
        && holders.get() == 0
        && nowNanos - idleSinceNanos >= idleNanos
        && holders.compareAndSet(0, -1);
  }

  /** The name clients give in Hello; empty for the default database. */
  String name() {
    return name;
  }

  /** The name for logs and the status page. */
  String displayName() {
    return name.isEmpty() ? "(default)" : name;
  }

  KvStore store() {
    return store;
  }

  StoreCatalog catalog() {
    return catalog;
  }

  /** The store's maximum snapshot age (cairn.snapshot.max-age). */
  long snapshotMaxAgeMillis() {
    return snapshotMaxAgeMillis;
  }

  Object ddlLock() {
    return ddlLock;
  }

  /** The catalog's current version, as every response carries it. */
  CatalogVersion version() {
    return CatalogVersion.newBuilder()
        .setInstance(instanceId)
        .setVersion(catalog.version())
        .build();
  }

  Set<ServerConnection> connections() {
    return connections;
  }
}
