package io.cairn.jdbc.internal.session;

import io.cairn.core.catalog.Catalog;
import io.cairn.kv.KvStore;
import io.cairn.planner.CairnPlanner;

/**
 * A database as a {@link DatabaseSession} sees it: a store reached through the KV SPI, its catalog
 * and a planner (with its plan cache) over that catalog, shared by the sessions that acquired it.
 * The embedded engine keeps the store in this JVM; the remote engine reaches a Cairn server's store
 * over the network and holds a copy of its catalog. Everything else (planning, execution, writes,
 * transactions) is the same code over either.
 */
public interface Database {
  /** What {@code Session.storeName()} reports, e.g. {@code mem:demo} or {@code //host:1234/db}. */
  String name();

  KvStore store();

  Catalog catalog();

  CairnPlanner planner();

  /**
   * Called before each statement is planned: a database whose catalog is a copy brings it up to
   * date here (cheaply when it is current).
   */
  default void beforeStatement() {}

  /**
   * Brings a copied catalog up to the state of its source right now, even before the source's
   * notice of a change arrives (a round trip); true when the copy changed. Planning calls it once
   * when a statement names a table or column the catalog does not have, then plans again.
   */
  default boolean catchUp() {
    return false;
  }

  /**
   * Whether the database still answers within {@code timeoutSeconds} (0: no limit), for {@code
   * Connection.isValid}.
   */
  default boolean isValid(int timeoutSeconds) {
    return true;
  }

  /** Gives back the reference a session acquired; the last one may close the database. */
  void release();
}
