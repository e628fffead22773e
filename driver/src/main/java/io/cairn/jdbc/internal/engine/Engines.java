package io.cairn.jdbc.internal.engine;

import io.cairn.jdbc.internal.embedded.EmbeddedSessionFactory;

/** Where the driver finds its engines. */
public final class Engines {
  private Engines() {}

  /** The embedded engine: stores live in this JVM. */
  public static SessionFactory embedded() {
    return EmbeddedSessionFactory.INSTANCE;
  }
}
