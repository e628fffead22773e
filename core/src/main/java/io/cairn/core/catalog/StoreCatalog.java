package io.cairn.core.catalog;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.Durability;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The catalog of one store, kept in the store: table descriptors kept in the system table {@value
 * #CATALOG_TABLE} of the store itself (through the KV SPI), with an in-memory copy and a version
 * number that changes on every DDL (plan caches key on it). Thread-safe; DDL is serialised.
 *
 * <p>Catalog writes are at least {@link Durability#SYNC} (they survive a process crash), whatever
 * the system table's default and the connection's durability, and are flushed to files at once.
 */
public final class StoreCatalog implements Catalog {

  /** The catalog table: (NAME VARCHAR PRIMARY KEY, DESCRIPTOR VARBINARY). */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.VARCHAR.withNullable(false)),
              new RowLayout.ColumnLayout(2, DataType.VARBINARY)),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  private final KvStore store;
  private final KvTable table;
  private final RowCodec codec = new RowCodec(LAYOUT);
  private final Map<String, TableDescriptor> tables = new ConcurrentHashMap<>();
  private final AtomicLong version = new AtomicLong(1);

  private StoreCatalog(KvStore store, KvTable table) {
    this.store = store;
    this.table = table;
  }

  /** Opens the catalog of {@code store}, creating its system table on first use. */
  public static StoreCatalog open(KvStore store) {
    requireNonNull(store, "store is null");
    KvTable table = store.table(CATALOG_TABLE).orElseGet(() -> store.createTable(CATALOG_TABLE));
    StoreCatalog catalog = new StoreCatalog(store, table);
    catalog.load();
    return catalog;
  }

  private void load() {
    for (TableDescriptor t : readDescriptors(table)) {
      tables.put(key(t.schemaName(), t.tableName()), t);
    }
  }

  /**
   * The table descriptors held in {@code catalogTable} (a store's {@value #CATALOG_TABLE}), read
   * now: how the store names its KV tables in SQL (SYSTEM.STATS shows SQL names).
   */
  public static List<TableDescriptor> readDescriptors(KvTable catalogTable) {
    List<Expr> projection = List.of(new Expr.ColumnRef(1, DataType.VARBINARY));
    ScanRequest request =
        new ScanRequest(
            List.of(KeyRange.ALL),
            new ScanProgram(LAYOUT, Optional.empty(), projection, ScanProgram.NO_LIMIT),
            EvalContext.EMPTY,
            true);
    List<TableDescriptor> out = new ArrayList<>();
    try (RowScanner scanner = catalogTable.scan(request)) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        out.add(DescriptorSerializer.deserialize((byte[]) row[0]));
      }
    }
    return out;
  }

  private static String key(String schema, String name) {
    return schema + "\u0000" + name;
  }

  /** Changes whenever a table is created, dropped or altered. */
  @Override
  public long version() {
    return version.get();
  }

  /** A table or a system view. */
  @Override
  public Optional<TableDescriptor> table(String schema, String name) {
    TableDescriptor t = tables.get(key(schema, name));
    return t != null ? Optional.of(t) : SystemViews.find(schema, name);
  }

  /** All tables and system views, sorted by schema then name. */
  @Override
  public List<TableDescriptor> tables() {
    List<TableDescriptor> list = new ArrayList<>(tables.values());
    list.addAll(SystemViews.all());
    list.sort(
        Comparator.comparing(TableDescriptor::schemaName)
            .thenComparing(TableDescriptor::tableName));
    return list;
  }

  /** Schema names that hold at least one table, plus the default and system schemas; sorted. */
  @Override
  public List<String> schemas() {
    java.util.TreeSet<String> names = new java.util.TreeSet<>();
    names.add(DEFAULT_SCHEMA);
    names.add(SystemViews.SCHEMA);
    for (TableDescriptor t : tables.values()) {
      names.add(t.schemaName());
    }
    return List.copyOf(names);
  }

  /**
   * Creates a table from {@code draft} (its table id is replaced by a fresh one), split into
   * regions at {@code splitPoints} (row keys, strictly increasing; see {@link TableSpec}).
   *
   * @return the created descriptor, or empty when it exists and {@code ifNotExists}
   * @throws CairnException TABLE_ALREADY_EXISTS
   */
  @Override
  public synchronized Optional<TableDescriptor> createTable(
      TableDescriptor draft, boolean ifNotExists, List<Bytes> splitPoints) {
    requireNonNull(splitPoints, "splitPoints is null");
    if (tables.containsKey(key(draft.schemaName(), draft.tableName()))
        || SystemViews.find(draft.schemaName(), draft.tableName()).isPresent()) {
      if (ifNotExists) {
        return Optional.empty();
      }
      throw new CairnException(
          ErrorCode.TABLE_ALREADY_EXISTS, "Table [" + draft.qualifiedName() + "] already exists");
    }
    long id = table.allocateIds(1);
    TableDescriptor created =
        new TableDescriptor(
            id,
            draft.schemaName(),
            draft.tableName(),
            draft.columns(),
            draft.primaryKey(),
            draft.options(),
            draft.schemaVersion());
    store.createTable(created.kvTableName(), new TableSpec(created.options(), splitPoints));
    try {
      persist(created);
    } catch (RuntimeException e) {
      store.dropTable(created.kvTableName());
      throw e;
    }
    tables.put(key(created.schemaName(), created.tableName()), created);
    version.incrementAndGet();
    return Optional.of(created);
  }

  /**
   * Changes table options (ALTER TABLE ... SET): validates {@code changes} (only options that may
   * change, see {@link TableOptions#validateChanges}), merges them into the descriptor, records it,
   * then hands them to the store, which applies storage options to files written afterwards. When
   * the store refuses them, the recorded descriptor is put back.
   *
   * @return the altered descriptor
   * @throws CairnException TABLE_NOT_FOUND, UNKNOWN_TABLE_OPTION, INVALID_TABLE_OPTION_VALUE,
   *     NOT_SUPPORTED
   */
  @Override
  public synchronized TableDescriptor alterTableOptions(
      String schema, String name, Map<String, String> changes) {
    Map<String, String> validated = TableOptions.validateChanges(changes);
    refuseView(schema, name, "altered");
    TableDescriptor current = tables.get(key(schema, name));
    if (current == null) {
      throw new CairnException(
          ErrorCode.TABLE_NOT_FOUND, "Table [" + schema + "." + name + "] does not exist");
    }
    KvTable kv =
        store
            .table(current.kvTableName())
            .orElseThrow(
                () ->
                    CairnException.internal(
                        "Table ["
                            + current.qualifiedName()
                            + "] has no KV table ["
                            + current.kvTableName()
                            + "]"));
    Map<String, String> merged = new TreeMap<>(current.options());
    merged.putAll(validated);
    TableDescriptor altered =
        new TableDescriptor(
            current.tableId(),
            current.schemaName(),
            current.tableName(),
            current.columns(),
            current.primaryKey(),
            merged,
            current.schemaVersion());
    persist(altered);
    try {
      kv.alter(validated);
    } catch (RuntimeException e) {
      try {
        persist(current);
      } catch (RuntimeException restore) {
        e.addSuppressed(restore);
      }
      throw e;
    }
    tables.put(key(schema, name), altered);
    version.incrementAndGet();
    return altered;
  }

  /**
   * Drops a table and its data.
   *
   * @return false when it did not exist and {@code ifExists}
   * @throws CairnException TABLE_NOT_FOUND
   */
  @Override
  public synchronized boolean dropTable(String schema, String name, boolean ifExists) {
    refuseView(schema, name, "dropped");
    TableDescriptor t = tables.get(key(schema, name));
    if (t == null) {
      if (ifExists) {
        return false;
      }
      throw new CairnException(
          ErrorCode.TABLE_NOT_FOUND, "Table [" + schema + "." + name + "] does not exist");
    }
    table.mutate(List.of(new Mutation.Delete(rowKey(t))), writeDurability());
    flushQuietly();
    tables.remove(key(schema, name));
    version.incrementAndGet();
    store.dropTable(t.kvTableName());
    return true;
  }

  private static void refuseView(String schema, String name, String what) {
    if (SystemViews.find(schema, name).isPresent()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "["
              + schema
              + "."
              + name
              + "] is a read-only system view: it cannot be "
              + what
              + "; expected a table");
    }
  }

  private void persist(TableDescriptor t) {
    Object[] row = {key(t.schemaName(), t.tableName()), DescriptorSerializer.serialize(t)};
    table.mutate(List.of(new Mutation.Put(rowKey(t), codec.encodeValue(row))), writeDurability());
    flushQuietly();
  }

  /**
   * Writes the catalog to files right after a DDL, so that the schema never depends on the log
   * alone (a damaged log tail then loses rows, not tables). Best effort: the change is already
   * logged, so a failed flush only leaves it in the log.
   */
  private void flushQuietly() {
    try {
      table.flush();
    } catch (RuntimeException e) {
      // the write is durable in the log; the next flush retries
    }
  }

  /** SYNC, or the system table's own durability when that is stronger (FSYNC). */
  private Durability writeDurability() {
    String configured = table.options().get("DURABILITY");
    if (configured == null) {
      return Durability.SYNC;
    }
    try {
      return Durability.SYNC.max(Durability.valueOf(configured.toUpperCase(Locale.ROOT)));
    } catch (IllegalArgumentException e) {
      return Durability.SYNC;
    }
  }

  private Bytes rowKey(TableDescriptor t) {
    return codec.encodeKey(new Object[] {key(t.schemaName(), t.tableName()), null});
  }
}
