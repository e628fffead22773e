package io.cairn.store;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.kv.KvStore;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.function.Supplier;

/** Opens Cairn's embedded stores: in memory, or durable in a directory. */
public final class Stores {
  private Stores() {}

  /** A new, empty in-memory store. */
  public static KvStore inMemory(String name) {
    return new EmbeddedStore(name);
  }

  /**
   * Opens (creating when missing or empty) the durable store in {@code dir}, locking it for this
   * process until {@link KvStore#close()}. {@code config} holds store settings ({@code cairn.*}
   * keys, see docs/configuration.md); unknown keys are errors.
   *
   * @throws CairnException NOT_A_STORE, STORE_IN_USE, UNSUPPORTED_FORMAT_VERSION, DATA_CORRUPTED,
   *     IO_ERROR
   */
  public static KvStore open(Path dir, Map<String, String> config) {
    return EmbeddedStore.open(dir, StoreConfig.from(config));
  }

  /**
   * Tells {@code store}, when it is an embedded store, how the SQL catalog kept in it names its KV
   * tables: {@code sqlTables} gives the catalog's tables, read when SYSTEM.STATS is scanned (the
   * store does not read the catalog itself). Called by the catalog's owner; does nothing for other
   * stores.
   */
  public static void useSqlNames(
      KvStore store, Supplier<? extends Collection<TableDescriptor>> sqlTables) {
    if (store instanceof EmbeddedStore embedded) {
      embedded.useSqlNames(sqlTables);
    }
  }
}
