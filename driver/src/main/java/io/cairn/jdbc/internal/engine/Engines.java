package io.cairn.jdbc.internal.engine;

import io.cairn.jdbc.internal.ConnectionUrl;
import io.cairn.jdbc.internal.embedded.EmbeddedSessionFactory;
import io.cairn.jdbc.internal.remote.RemoteSessionFactory;

/** Where the driver finds its engines. */
public final class Engines {
  private static final SessionFactory ALL =
      (storeName, info) ->
          storeName.startsWith(ConnectionUrl.SERVER_PREFIX)
              ? remote().open(storeName, info)
              : embedded().open(storeName, info);

  private Engines() {}

  /** The embedded engine: stores live in this JVM. */
  public static SessionFactory embedded() {
    return EmbeddedSessionFactory.INSTANCE;
  }

  /** The remote engine: {@code //host:port[/database]} on a Cairn server. */
  public static SessionFactory remote() {
    return RemoteSessionFactory.INSTANCE;
  }

  /** Each store name to its engine: server addresses to the remote one, the rest embedded. */
  public static SessionFactory all() {
    return ALL;
  }
}
