package io.cairn.core.catalog;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.IndexDescriptor.State;
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
 * <p>Local indexes live in their table's descriptor. Whenever a table's indexes change, and for
 * every table with indexes when the catalog opens, the store is told which to maintain ({@link
 * KvTable#defineIndexes}: BUILDING and ACTIVE ones). Building an index (CREATE INDEX, REBUILD)
 * records it BUILDING under the catalog's lock, builds it without the lock, and records it ACTIVE
 * (or FAILED) under the lock again, unless it was dropped meanwhile. An index still BUILDING when
 * the catalog opens lost its build with the process that ran it: it reads as FAILED, except on a
 * store that clients of other processes change too ({@link KvStore#catalogRefreshMillis}), where
 * another client may be building it: it stays BUILDING (maintained, not read) until built.
 *
 * <p>On such a store the catalog is read again ({@link #refresh}) when a statement finds the last
 * read older than the store's refresh interval, when it names a table this copy lacks, after a
 * write the store refused for an out-of-date catalog, and before every DDL of this catalog, so that
 * other clients' DDL shows here and DDL here starts from the store's latest descriptors.
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

  /** How often the catalog is read again (0: never; see {@link KvStore#catalogRefreshMillis}). */
  private final long refreshNanos;

  /** When the catalog was last read from the store ({@link System#nanoTime}). */
  private volatile long readAt;

  /**
   * The serialised descriptors as this copy last read or wrote them, by {@link #key}: a read that
   * finds the same bytes changes nothing. Replaced whole, under the lock.
   */
  private volatile Map<String, byte[]> stored = Map.of();

  private StoreCatalog(KvStore store, KvTable table) {
    this.store = store;
    this.table = table;
    this.refreshNanos = Math.max(0, store.catalogRefreshMillis()) * 1_000_000L;
  }

  /** Opens the catalog of {@code store}, creating its system table on first use. */
  public static StoreCatalog open(KvStore store) {
    requireNonNull(store, "store is null");
    KvTable table = store.table(CATALOG_TABLE).orElseGet(() -> store.createTable(CATALOG_TABLE));
    StoreCatalog catalog = new StoreCatalog(store, table);
    catalog.load();
    return catalog;
  }

  private synchronized void load() {
    readAt = System.nanoTime();
    Map<String, byte[]> read = readStored(table);
    Map<String, byte[]> kept = new java.util.HashMap<>();
    for (Map.Entry<String, byte[]> e : read.entrySet()) {
      TableDescriptor t = DescriptorSerializer.deserialize(e.getValue());
      TableDescriptor loaded =
          refreshNanos > 0
              ? t // another client may be building an index recorded BUILDING
              : t.withIndexes(CatalogIndexes.interruptedBuildsFailed(t.indexes()));
      // the layout even without indexes: the store's column statistics decode the rows with it
      boolean taken =
          (loaded.indexes().isEmpty() && store.table(t.kvTableName()).isEmpty())
              || adopt(kvTable(loaded), loaded, e.getValue());
      tables.put(e.getKey(), loaded);
      if (taken) { // else the next read hands the indexes to the store again
        kept.put(e.getKey(), e.getValue());
      }
    }
    stored = Map.copyOf(kept);
  }

  /**
   * Hands {@code t}'s maintained indexes, as the catalog records them ({@code serialized}), to its
   * KV table; false when the store cannot take them yet.
   */
  private boolean adopt(KvTable kv, TableDescriptor t, byte[] serialized) {
    return kv.adoptIndexes(
        t.layout(),
        CatalogIndexes.maintained(t),
        () -> java.util.Arrays.equals(readStored(t), serialized));
  }

  @Override
  public boolean refresh(boolean force) {
    if (refreshNanos == 0 || (!force && System.nanoTime() - readAt < refreshNanos)) {
      return false;
    }
    readAt = System.nanoTime();
    if (sameAsStored(readStored(table))) {
      return false; // the common case: nothing changed, and no lock taken
    }
    synchronized (this) {
      return applyRefresh();
    }
  }

  /** Reads the catalog again under the lock (no DDL of this copy running) and takes the changes. */
  private boolean applyRefresh() {
    Map<String, byte[]> read = readStored(table);
    Map<String, byte[]> kept = new java.util.HashMap<>(stored);
    boolean changed = false;
    for (Map.Entry<String, byte[]> e : read.entrySet()) {
      byte[] was = kept.get(e.getKey());
      if (was != null && java.util.Arrays.equals(was, e.getValue())) {
        continue;
      }
      TableDescriptor t = DescriptorSerializer.deserialize(e.getValue());
      Optional<KvTable> kv = store.table(t.kvTableName());
      if (kv.isEmpty() || !adopt(kv.get(), t, e.getValue())) {
        continue; // dropped since, or not ready: the next read takes it
      }
      tables.put(e.getKey(), t);
      kept.put(e.getKey(), e.getValue());
      changed = true;
    }
    for (String key : List.copyOf(kept.keySet())) {
      if (!read.containsKey(key)) { // dropped by another client
        tables.remove(key);
        kept.remove(key);
        changed = true;
      }
    }
    stored = Map.copyOf(kept);
    if (changed) {
      version.incrementAndGet();
    }
    return changed;
  }

  private boolean sameAsStored(Map<String, byte[]> read) {
    Map<String, byte[]> known = stored;
    if (read.size() != known.size()) {
      return false;
    }
    for (Map.Entry<String, byte[]> e : read.entrySet()) {
      if (!java.util.Arrays.equals(e.getValue(), known.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /** Before a DDL (under the lock): the store's latest descriptors, on a store others change. */
  private void refreshBeforeChange() {
    if (refreshNanos > 0) {
      readAt = System.nanoTime();
      applyRefresh();
    }
  }

  /** The serialised descriptors in {@code catalogTable}, by {@link #key}, read now. */
  private static Map<String, byte[]> readStored(KvTable catalogTable) {
    return readStored(catalogTable, KeyRange.ALL);
  }

  /** The serialised descriptor of {@code t} in the store now; null when it has none. */
  private byte[] readStored(TableDescriptor t) {
    return readStored(table, KeyRange.point(rowKey(t))).get(key(t.schemaName(), t.tableName()));
  }

  private static Map<String, byte[]> readStored(KvTable catalogTable, KeyRange range) {
    List<Expr> projection =
        List.of(new Expr.ColumnRef(0, DataType.VARCHAR), new Expr.ColumnRef(1, DataType.VARBINARY));
    ScanRequest request =
        new ScanRequest(
            List.of(range),
            new ScanProgram(LAYOUT, Optional.empty(), projection, ScanProgram.NO_LIMIT),
            EvalContext.EMPTY,
            true);
    Map<String, byte[]> out = new java.util.LinkedHashMap<>();
    try (RowScanner scanner = catalogTable.scan(request)) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        out.put((String) row[0], (byte[]) row[1]);
      }
    }
    return out;
  }

  /**
   * The table descriptors held in {@code catalogTable} (a store's {@value #CATALOG_TABLE}), read
   * now: how the store names its KV tables in SQL (SYSTEM.STATS shows SQL names).
   */
  public static List<TableDescriptor> readDescriptors(KvTable catalogTable) {
    List<TableDescriptor> out = new ArrayList<>();
    for (byte[] serialized : readStored(catalogTable).values()) {
      out.add(DescriptorSerializer.deserialize(serialized));
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
    refreshBeforeChange();
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
      kvTable(created).defineIndexes(created.layout(), List.of()); // the layout, for statistics
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
    refreshBeforeChange();
    TableDescriptor current = tables.get(key(schema, name));
    if (current == null) {
      throw new CairnException(
          ErrorCode.TABLE_NOT_FOUND, "Table [" + schema + "." + name + "] does not exist");
    }
    KvTable kv = kvTable(current);
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
            current.schemaVersion(),
            current.indexes());
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
    refreshBeforeChange();
    TableDescriptor t = tables.get(key(schema, name));
    if (t == null) {
      if (ifExists) {
        return false;
      }
      throw new CairnException(
          ErrorCode.TABLE_NOT_FOUND, "Table [" + schema + "." + name + "] does not exist");
    }
    table.mutate(List.of(new Mutation.Delete(rowKey(t))), writeDurability());
    Map<String, byte[]> kept = new java.util.HashMap<>(stored);
    kept.remove(key(schema, name));
    stored = Map.copyOf(kept);
    flushQuietly();
    tables.remove(key(schema, name));
    version.incrementAndGet();
    store.dropTable(t.kvTableName());
    return true;
  }

  // --- local indexes ---------------------------------------------------------------------------

  /**
   * Creates index {@code draft.name()} on {@code schema.table}: checks the draft against the table,
   * takes a fresh id from the table's KV table (never reused), records the index BUILDING and hands
   * every maintained index of the table to the store ({@link KvTable#defineIndexes}), so that
   * writes from then on keep its entries; then builds it from the table's rows without holding the
   * catalog's lock (other DDL and queries go on), and records it ACTIVE. A DROP INDEX during the
   * build wins (INDEX_NOT_FOUND here); a failed build leaves the index FAILED and throws.
   */
  @Override
  public Optional<IndexDescriptor> createIndex(
      String schema,
      String tableName,
      IndexDescriptor draft,
      boolean ifNotExists,
      java.util.function.LongConsumer progress) {
    requireNonNull(draft, "draft is null");
    IndexDescriptor building;
    TableDescriptor t;
    KvTable kv;
    synchronized (this) {
      refuseIndexOnView(schema, tableName);
      refreshBeforeChange();
      t = existing(schema, tableName);
      kv = kvTable(t);
      Optional<TableDescriptor> owner = indexOwner(schema, draft.name());
      if (owner.isPresent()) {
        if (ifNotExists) {
          return Optional.empty();
        }
        throw new CairnException(
            ErrorCode.INDEX_ALREADY_EXISTS,
            "Index ["
                + schema
                + "."
                + draft.name()
                + "] already exists (on table ["
                + owner.get().qualifiedName()
                + "]): index names are unique within a schema");
      }
      CatalogIndexes.check(t, draft);
      building =
          new IndexDescriptor(
              newIndexId(t), draft.name(), draft.columns(), draft.include(), State.BUILDING);
      List<IndexDescriptor> indexes = new ArrayList<>(t.indexes());
      indexes.add(building);
      t = record(t, t.withIndexes(indexes));
    }
    return Optional.of(build(t, kv, building, progress));
  }

  /**
   * Drops index {@code name} of schema {@code schema}: removes it from its table's descriptor and
   * hands the table's other indexes to the store; compactions drop its entries.
   */
  @Override
  public synchronized boolean dropIndex(
      String schema, String name, String tableName, boolean ifExists) {
    refreshBeforeChange();
    Optional<TableDescriptor> owner = indexOwner(schema, name);
    if (tableName != null) {
      refuseIndexOnView(schema, tableName);
      TableDescriptor named = existing(schema, tableName);
      if (owner.isPresent() && owner.get().tableId() != named.tableId()) {
        throw new CairnException(
            ErrorCode.INDEX_NOT_FOUND,
            "Index ["
                + schema
                + "."
                + name
                + "] is not an index of table ["
                + named.qualifiedName()
                + "]: it is one of ["
                + owner.get().qualifiedName()
                + "]");
      }
    }
    if (owner.isEmpty()) {
      if (ifExists) {
        return false;
      }
      throw indexNotFound(schema, name);
    }
    TableDescriptor t = owner.get();
    List<IndexDescriptor> rest = new ArrayList<>(t.indexes());
    rest.removeIf(i -> i.name().equals(name));
    record(t, t.withIndexes(rest));
    return true;
  }

  /**
   * Builds index {@code name} again under a fresh id (the old id's entries are left to
   * compactions): recorded BUILDING, built without the catalog's lock, then ACTIVE.
   */
  @Override
  public IndexDescriptor rebuildIndex(
      String schema, String tableName, String name, java.util.function.LongConsumer progress) {
    IndexDescriptor building;
    TableDescriptor t;
    KvTable kv;
    synchronized (this) {
      refuseIndexOnView(schema, tableName);
      refreshBeforeChange();
      TableDescriptor current = existing(schema, tableName);
      kv = kvTable(current);
      IndexDescriptor old = current.index(name).orElseThrow(() -> indexNotFound(current, name));
      building =
          new IndexDescriptor(
              newIndexId(current), name, old.columns(), old.include(), State.BUILDING);
      List<IndexDescriptor> indexes = new ArrayList<>(current.indexes());
      indexes.set(indexes.indexOf(old), building);
      t = record(current, current.withIndexes(indexes));
    }
    return build(t, kv, building, progress);
  }

  /** Compares an ACTIVE index with its table's rows ({@link KvTable#verifyIndex}). */
  @Override
  public io.cairn.kv.IndexCheck verifyIndex(String schema, String tableName, String name) {
    TableDescriptor t;
    IndexDescriptor index;
    synchronized (this) {
      refuseIndexOnView(schema, tableName);
      TableDescriptor current = existing(schema, tableName);
      index = current.index(name).orElseThrow(() -> indexNotFound(current, name));
      t = current;
    }
    if (index.state() != State.ACTIVE) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Index ["
              + schema
              + "."
              + name
              + "] is ["
              + index.state()
              + "]: expected ACTIVE to verify it ("
              + (index.state() == State.FAILED
                  ? "ALTER INDEX ... REBUILD builds it"
                  : "being built")
              + ")");
    }
    return kvTable(t).verifyIndex(index.indexId());
  }

  /**
   * Builds {@code building} of {@code t} (recorded BUILDING) outside the catalog's lock, then
   * records the outcome: ACTIVE, or FAILED when the build threw (rethrown). When the index was
   * dropped or rebuilt meanwhile (its id is no longer in the table), that change wins.
   */
  private IndexDescriptor build(
      TableDescriptor t,
      KvTable kv,
      IndexDescriptor building,
      java.util.function.LongConsumer progress) {
    java.util.function.LongConsumer report = progress != null ? progress : rows -> {};
    try {
      kv.buildIndex(building.indexId(), report);
    } catch (RuntimeException e) {
      Optional<IndexDescriptor> failed;
      try {
        failed = finishBuild(t, building, State.FAILED);
      } catch (RuntimeException recording) {
        e.addSuppressed(recording);
        throw e;
      }
      if (failed.isEmpty()) {
        // dropped meanwhile (the index or its table): that change wins, the build's error is noise
        CairnException dropped = droppedWhileBuilding(t, building);
        dropped.addSuppressed(e);
        throw dropped;
      }
      throw e;
    }
    return finishBuild(t, building, State.ACTIVE)
        .orElseThrow(() -> droppedWhileBuilding(t, building));
  }

  private static CairnException droppedWhileBuilding(TableDescriptor t, IndexDescriptor index) {
    return new CairnException(
        ErrorCode.INDEX_NOT_FOUND,
        "Index ["
            + t.schemaName()
            + "."
            + index.name()
            + "] was dropped or rebuilt while it was being built");
  }

  private synchronized Optional<IndexDescriptor> finishBuild(
      TableDescriptor built, IndexDescriptor building, State state) {
    refreshBeforeChange(); // another client may have dropped or rebuilt it meanwhile
    TableDescriptor current = tables.get(key(built.schemaName(), built.tableName()));
    if (current == null || current.tableId() != built.tableId()) {
      return Optional.empty(); // the table was dropped meanwhile
    }
    List<IndexDescriptor> indexes = new ArrayList<>(current.indexes());
    for (int i = 0; i < indexes.size(); i++) {
      if (indexes.get(i).indexId() == building.indexId()) {
        IndexDescriptor finished = indexes.get(i).withState(state);
        indexes.set(i, finished);
        record(current, current.withIndexes(indexes));
        return Optional.of(finished);
      }
    }
    return Optional.empty();
  }

  /**
   * Records {@code updated} in place of {@code current} (same table): persists it, hands its
   * maintained indexes to the store, and publishes it with a new version. When the store refuses
   * the indexes, the recorded descriptor is put back and the error thrown.
   */
  private TableDescriptor record(TableDescriptor current, TableDescriptor updated) {
    KvTable kv = kvTable(updated);
    persist(updated);
    try {
      kv.defineIndexes(updated.layout(), CatalogIndexes.maintained(updated));
    } catch (RuntimeException e) {
      try {
        persist(current);
      } catch (RuntimeException restore) {
        e.addSuppressed(restore);
      }
      throw e;
    }
    tables.put(key(updated.schemaName(), updated.tableName()), updated);
    version.incrementAndGet();
    return updated;
  }

  /** A fresh index id from the table's KV table: never reused, and an int. */
  private int newIndexId(TableDescriptor t) {
    long id = kvTable(t).allocateIds(1);
    if (id < 0 || id > Integer.MAX_VALUE) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "An index id of table ["
              + t.qualifiedName()
              + "]: expected 0.."
              + Integer.MAX_VALUE
              + ", found ["
              + id
              + "]: the table has used up its ids");
    }
    return (int) id;
  }

  /** The table of schema {@code schema} that has an index named {@code name}. */
  private Optional<TableDescriptor> indexOwner(String schema, String name) {
    for (TableDescriptor t : tables.values()) {
      if (t.schemaName().equals(schema) && t.index(name).isPresent()) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  private TableDescriptor existing(String schema, String name) {
    TableDescriptor t = tables.get(key(schema, name));
    if (t == null) {
      throw new CairnException(
          ErrorCode.TABLE_NOT_FOUND, "Table [" + schema + "." + name + "] does not exist");
    }
    return t;
  }

  private static void refuseIndexOnView(String schema, String name) {
    if (SystemViews.find(schema, name).isPresent()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "["
              + schema
              + "."
              + name
              + "] is a read-only system view: it has no indexes; expected a table");
    }
  }

  private static CairnException indexNotFound(String schema, String name) {
    return new CairnException(
        ErrorCode.INDEX_NOT_FOUND, "Index [" + schema + "." + name + "] does not exist");
  }

  private static CairnException indexNotFound(TableDescriptor t, String name) {
    return new CairnException(
        ErrorCode.INDEX_NOT_FOUND,
        "Index ["
            + t.schemaName()
            + "."
            + name
            + "] of table ["
            + t.qualifiedName()
            + "] does not exist");
  }

  private KvTable kvTable(TableDescriptor t) {
    return store
        .table(t.kvTableName())
        .orElseThrow(
            () ->
                CairnException.internal(
                    "Table [" + t.qualifiedName() + "] has no KV table [" + t.kvTableName() + "]"));
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
    byte[] serialized = DescriptorSerializer.serialize(t);
    Object[] row = {key(t.schemaName(), t.tableName()), serialized};
    table.mutate(List.of(new Mutation.Put(rowKey(t), codec.encodeValue(row))), writeDurability());
    Map<String, byte[]> kept = new java.util.HashMap<>(stored);
    kept.put(key(t.schemaName(), t.tableName()), serialized);
    stored = Map.copyOf(kept);
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
