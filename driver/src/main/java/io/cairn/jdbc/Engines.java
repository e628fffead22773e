package io.cairn.jdbc;

import io.cairn.jdbc.internal.ConnectionUrl;
import io.cairn.jdbc.internal.embedded.EmbeddedSessionFactory;
import io.cairn.jdbc.internal.engine.SessionFactory;
import io.cairn.jdbc.internal.remote.RemoteSessionFactory;

/**
 * Where the driver finds its engines. It sits next to {@link CairnDriver}, its one user, so that
 * the engine contract ({@code internal.engine}) does not import its implementations ({@code
 * internal.embedded}, {@code internal.remote}).
 */
final class Engines {
  private static final SessionFactory ALL =
      (storeName, info) ->
          storeName.startsWith(ConnectionUrl.SERVER_PREFIX)
              ? remote().open(storeName, info)
              : embedded().open(storeName, info);

  private Engines() {}

  /** The embedded engine: stores live in this JVM. */
  static SessionFactory embedded() {
    return EmbeddedSessionFactory.INSTANCE;
  }

  /** The remote engine: {@code //host:port[/database]} on a Cairn server. */
  static SessionFactory remote() {
    return RemoteSessionFactory.INSTANCE;
  }

  /** Each store name to its engine: server addresses to the remote one, the rest embedded. */
  static SessionFactory all() {
    return ALL;
  }
}
