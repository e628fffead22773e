package io.cairn.jdbc.internal.embedded;

import io.cairn.core.catalog.Catalog;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.planner.CairnPlanner;
import io.cairn.server.EmbeddedStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One embedded database: a store, its catalog and a plan cache, shared by every connection of this
 * JVM that names it. In-memory databases live as long as the JVM.
 */
final class EmbeddedDatabase {
  private static final Map<String, EmbeddedDatabase> DATABASES = new ConcurrentHashMap<>();

  private final String name;
  private final KvStore store;
  private final Catalog catalog;
  private final CairnPlanner planner;

  private EmbeddedDatabase(String name, KvStore store) {
    this.name = name;
    this.store = store;
    this.catalog = Catalog.open(store);
    this.planner =
        new CairnPlanner(
            catalog,
            t -> store.table(t.kvTableName()).map(KvTable::approximateRowCount).orElse(-1L));
  }

  /** The database called {@code name} (e.g. {@code mem:demo}), created on first use. */
  static EmbeddedDatabase open(String name) {
    return DATABASES.computeIfAbsent(name, n -> new EmbeddedDatabase(n, new EmbeddedStore(n)));
  }

  String name() {
    return name;
  }

  KvStore store() {
    return store;
  }

  Catalog catalog() {
    return catalog;
  }

  CairnPlanner planner() {
    return planner;
  }
}
