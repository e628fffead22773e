package io.cairn.core.catalog;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.kv.KvStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tables of one database, as the planner and the driver see them: descriptors (tables and
 * system views), a version that changes on every DDL (plan caches key on it), and the DDL
 * operations. {@link StoreCatalog} keeps it in the store's system table {@value #CATALOG_TABLE}
 * (embedded databases, and the network server); a client of the server holds a copy that follows
 * the server's and sends its DDL there. Implementations are thread-safe.
 */
public interface Catalog {
  String CATALOG_TABLE = "SYSTEM.CATALOG";
  String DEFAULT_SCHEMA = "PUBLIC";

  /** Opens the catalog kept in {@code store}, creating its system table on first use. */
  static Catalog open(KvStore store) {
    return StoreCatalog.open(store);
  }

  /** Changes whenever a table is created, dropped or altered. */
  long version();

  /**
   * Reads the catalog again from its store when other processes change the store ({@link
   * io.cairn.kv.KvStore#catalogRefreshMillis}) and {@code force} or the last read is older than
   * that; a no-op otherwise. Tables and indexes other clients created, altered or dropped then show
   * here (with a new {@link #version}), and writes maintain the indexes the store now records.
   *
   * @return true when something changed
   */
  default boolean refresh(boolean force) {
    return false;
  }

  /** A table or a system view. */
  Optional<TableDescriptor> table(String schema, String name);

  /** All tables and system views, sorted by schema then name. */
  List<TableDescriptor> tables();

  /** Schema names that hold at least one table, plus the default and system schemas; sorted. */
  List<String> schemas();

  /**
   * Creates a table from {@code draft} (its table id is replaced by a fresh one) in one region.
   *
   * @return the created descriptor, or empty when it exists and {@code ifNotExists}
   * @throws CairnException TABLE_ALREADY_EXISTS
   */
  default Optional<TableDescriptor> createTable(TableDescriptor draft, boolean ifNotExists) {
    return createTable(draft, ifNotExists, List.of());
  }

  /**
   * Creates a table from {@code draft} (its table id is replaced by a fresh one), split into
   * regions at {@code splitPoints} (row keys, strictly increasing; see {@link
   * io.cairn.kv.TableSpec}).
   *
   * @return the created descriptor, or empty when it exists and {@code ifNotExists}
   * @throws CairnException TABLE_ALREADY_EXISTS
   */
  Optional<TableDescriptor> createTable(
      TableDescriptor draft, boolean ifNotExists, List<Bytes> splitPoints);

  /**
   * Changes table options (ALTER TABLE ... SET): only options that may change (see {@link
   * TableOptions#validateChanges}); storage options apply to files written afterwards.
   *
   * @return the altered descriptor
   * @throws CairnException TABLE_NOT_FOUND, UNKNOWN_TABLE_OPTION, INVALID_TABLE_OPTION_VALUE,
   *     NOT_SUPPORTED
   */
  TableDescriptor alterTableOptions(String schema, String name, Map<String, String> changes);

  /**
   * Creates a local index on table {@code schema.table} from {@code draft} (its id is replaced by a
   * fresh one, its state by BUILDING), builds it from the table's rows while writes go on ({@link
   * io.cairn.kv.KvTable#buildIndex}), reporting the rows indexed so far to {@code progress}, and
   * makes it ACTIVE. When the build fails the index stays, FAILED, and the error is thrown.
   *
   * @return the index, ACTIVE; empty when an index of that name exists and {@code ifNotExists}
   * @throws CairnException TABLE_NOT_FOUND, INDEX_ALREADY_EXISTS, NOT_SUPPORTED (a system view, a
   *     table without a primary key)
   */
  default Optional<IndexDescriptor> createIndex(
      String schema,
      String table,
      IndexDescriptor draft,
      boolean ifNotExists,
      java.util.function.LongConsumer progress) {
    throw new CairnException(
        io.cairn.core.error.ErrorCode.NOT_SUPPORTED, "This catalog keeps no indexes");
  }

  /**
   * Drops index {@code name} of schema {@code schema} (of table {@code table} when not null): a
   * catalog change; compactions drop its entries later.
   *
   * @return false when it did not exist and {@code ifExists}
   * @throws CairnException INDEX_NOT_FOUND, TABLE_NOT_FOUND
   */
  default boolean dropIndex(String schema, String name, String table, boolean ifExists) {
    throw new CairnException(
        io.cairn.core.error.ErrorCode.NOT_SUPPORTED, "This catalog keeps no indexes");
  }

  /**
   * Builds index {@code name} of table {@code schema.table} again from the table's rows (ALTER
   * INDEX ... REBUILD): its entries are dropped (a new id), it is BUILDING until built, then
   * ACTIVE.
   *
   * @return the rebuilt index
   * @throws CairnException INDEX_NOT_FOUND, TABLE_NOT_FOUND
   */
  default IndexDescriptor rebuildIndex(
      String schema, String table, String name, java.util.function.LongConsumer progress) {
    throw new CairnException(
        io.cairn.core.error.ErrorCode.NOT_SUPPORTED, "This catalog keeps no indexes");
  }

  /**
   * Compares index {@code name} of table {@code schema.table} with the table's rows ({@link
   * io.cairn.kv.KvTable#verifyIndex}).
   *
   * @throws CairnException INDEX_NOT_FOUND, TABLE_NOT_FOUND
   */
  default io.cairn.kv.IndexCheck verifyIndex(String schema, String table, String name) {
    throw new CairnException(
        io.cairn.core.error.ErrorCode.NOT_SUPPORTED, "This catalog keeps no indexes");
  }

  /**
   * Drops a table and its data.
   *
   * @return false when it did not exist and {@code ifExists}
   * @throws CairnException TABLE_NOT_FOUND
   */
  boolean dropTable(String schema, String name, boolean ifExists);
}
