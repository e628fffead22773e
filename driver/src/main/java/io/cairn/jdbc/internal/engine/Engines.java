package io.cairn.jdbc.internal.engine;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;

/** Where the driver finds its engines. */
public final class Engines {
  private Engines() {}

  /** The embedded engine: stores live in this JVM. */
  public static SessionFactory embedded() {
    return (storeName, info) -> {
      throw new CairnException(ErrorCode.NOT_SUPPORTED, "The embedded engine is not wired yet");
    };
  }
}
