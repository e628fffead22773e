package io.cairn.kv;

import java.util.Optional;

/**
 * The KV SPI: the only way the driver and the catalog reach a store. Implemented by the embedded
 * stores (in memory and on files) now; by the remote client and an HBase adapter later.
 * Thread-safe.
 */
public interface KvStore extends AutoCloseable {
  /**
   * Creates an empty table.
   *
   * @throws io.cairn.core.error.CairnException TABLE_ALREADY_EXISTS when it exists
   */
  KvTable createTable(String name, TableSpec spec);

  /** Creates an empty table with default options and one region. */
  default KvTable createTable(String name) {
    return createTable(name, TableSpec.DEFAULT);
  }

  Optional<KvTable> table(String name);

  /** Drops the table and its data; does nothing when it does not exist. */
  void dropTable(String name);

  /**
   * Closes the store: a durable store flushes its memstores and releases its files and lock. Open
   * scanners fail afterwards.
   */
  @Override
  void close();
}
