package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.StoreCatalog;
import io.cairn.kv.KvStore;
import io.cairn.protocol.CatalogVersion;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One database the server serves: a store, the catalog kept in it, and the connections using it
 * (which hear of its DDL). DDL runs under {@link #ddlLock()}, so that catalog versions and their
 * events go out in order.
 */
final class Database {
  private final String name;
  private final KvStore store;
  private final StoreCatalog catalog;
  private final long instanceId;
  private final long snapshotMaxAgeMillis;
  private final Object ddlLock = new Object();
  private final Set<ServerConnection> connections = ConcurrentHashMap.newKeySet();

  /**
   * @param snapshotMaxAgeMillis how long the store keeps a snapshot's versions (its
   *     cairn.snapshot.max-age): a connection forgets its snapshots past it
   */
  Database(
      String name,
      KvStore store,
      StoreCatalog catalog,
      long instanceId,
      long snapshotMaxAgeMillis) {
    this.name = requireNonNull(name, "name is null");
    this.store = requireNonNull(store, "store is null");
    this.catalog = requireNonNull(catalog, "catalog is null");
    this.instanceId = instanceId;
    this.snapshotMaxAgeMillis = snapshotMaxAgeMillis;
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
