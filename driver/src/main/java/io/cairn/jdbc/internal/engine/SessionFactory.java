package io.cairn.jdbc.internal.engine;

import java.util.Properties;

/** Opens sessions for a parsed JDBC URL. The embedded engine is the first implementation. */
public interface SessionFactory {
  /**
   * @param storeName what follows {@code jdbc:cairn:} for an embedded store, e.g. {@code mem:demo}
   * @param info the connection properties
   */
  Session open(String storeName, Properties info);
}
