package io.cairn.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.IndexDescriptor.IndexColumn;
import io.cairn.core.catalog.IndexDescriptor.State;
import io.cairn.core.catalog.StoreCatalog;
import io.cairn.core.catalog.SystemViews;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexCheck;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog's side of local indexes ({@link StoreCatalog#createIndex} and the rest) over a real
 * in-memory store whose tables record the index calls ({@link IndexRecordingStore}): what is
 * recorded in which state, what the store is told to maintain, ids, names, bad input, and builds
 * that run without the catalog's lock while other DDL goes on.
 */
class TestCatalogIndexes {
  private final KvStore embedded = Stores.inMemory("indexes");
  private final IndexRecordingStore store = new IndexRecordingStore(embedded);
  private final StoreCatalog catalog = StoreCatalog.open(store);

  @AfterEach
  void close() {
    store.close();
  }

  private TableDescriptor createTable(String schema, String name, boolean primaryKey) {
    TableDescriptor draft =
        new TableDescriptor(
            0,
            schema,
            name,
            List.of(
                new ColumnDescriptor("ID", 1, DataType.BIGINT.withNullable(false)),
                new ColumnDescriptor("NAME", 2, DataType.varchar(20)),
                new ColumnDescriptor("PRICE", 3, DataType.decimal(15, 2))),
            primaryKey ? List.of(new KeyColumn(0, SortOrder.ASC)) : List.of(),
            Map.of(),
            1);
    return catalog.createTable(draft, false, List.of()).orElseThrow();
  }

  private static IndexDescriptor draft(String name, List<Integer> include) {
    return new IndexDescriptor(
        0,
        name,
        List.of(
            new IndexColumn(
                new Expr.Call(
                    Op.UPPER,
                    List.of(new Expr.ColumnRef(1, DataType.varchar(20))),
                    DataType.varchar(20)),
                "UPPER(NAME)",
                SortOrder.DESC)),
        include,
        State.BUILDING);
  }

  private static IndexDescriptor onPrice(String name) {
    return new IndexDescriptor(
        0,
        name,
        List.of(
            new IndexColumn(
                new Expr.ColumnRef(2, DataType.decimal(15, 2)), "PRICE", SortOrder.ASC)),
        List.of(1),
        State.BUILDING);
  }

  private TableDescriptor table(String schema, String name) {
    return catalog.table(schema, name).orElseThrow();
  }

  @Test
  void createRecordsBuildingHandsItToTheStoreBuildsThenRecordsActive() {
    TableDescriptor t = createTable("S", "T", true);
    AtomicLong reported = new AtomicLong();
    store.build =
        (table, id, progress) -> {
          // during the build: recorded BUILDING, maintained by writes, not readable
          assertThat(table).isEqualTo(t.kvTableName());
          assertThat(table("S", "T").index("I").orElseThrow().state()).isEqualTo(State.BUILDING);
          assertThat(store.defined.get(table))
              .singleElement()
              .satisfies(s -> assertThat(s.readable()).isFalse())
              .satisfies(s -> assertThat(s.indexId()).isEqualTo(id));
          progress.accept(42);
          return 42;
        };
    long before = catalog.version();
    IndexDescriptor created =
        catalog.createIndex("S", "T", draft("I", List.of(2)), false, reported::set).orElseThrow();

    assertThat(created.state()).isEqualTo(State.ACTIVE);
    assertThat(created.name()).isEqualTo("I");
    assertThat(created.columns()).isEqualTo(draft("I", List.of()).columns());
    assertThat(created.include()).containsExactly(2);
    assertThat(reported.get()).isEqualTo(42);
    assertThat(table("S", "T").indexes()).containsExactly(created);
    assertThat(catalog.version()).as("BUILDING, then ACTIVE").isEqualTo(before + 2);
    IndexSpec active = store.defined.get(t.kvTableName()).get(0);
    assertThat(active).isEqualTo(created.spec());
    assertThat(active.readable()).isTrue();

    // kept: a catalog opened again reads it and hands it to the store
    store.definitions.clear();
    StoreCatalog reopened = StoreCatalog.open(store);
    assertThat(reopened.table("S", "T").orElseThrow().indexes()).containsExactly(created);
    assertThat(store.definitions)
        .containsExactly(new IndexRecordingStore.Definition(t.kvTableName(), List.of(active)));
  }

  @Test
  void indexNamesAreUniqueWithinTheSchemaAcrossTables() {
    createTable("S", "T", true);
    createTable("S", "U", true);
    createTable("OTHER", "T", true);
    assertThat(catalog.createIndex("S", "T", draft("I", List.of()), false, null)).isPresent();
    long version = catalog.version();
    TableDescriptor u = table("S", "U");

    assertError(
        () -> catalog.createIndex("S", "U", onPrice("I"), false, null),
        ErrorCode.INDEX_ALREADY_EXISTS,
        "Index [S.I] already exists (on table [S.T])");
    assertThat(catalog.createIndex("S", "U", onPrice("I"), true, null)).isEmpty();
    assertThat(catalog.createIndex("S", "T", onPrice("I"), true, null)).isEmpty();
    assertThat(table("S", "U")).isEqualTo(u);
    assertThat(catalog.version()).isEqualTo(version);
    // another schema has names of its own
    assertThat(catalog.createIndex("OTHER", "T", onPrice("I"), false, null)).isPresent();
  }

  @Test
  void badInputLeavesTheTableAndItsIndexesUntouched() {
    createTable("S", "T", true);
    createTable("S", "NOKEY", false);
    assertThat(catalog.createIndex("S", "T", draft("I", List.of()), false, null)).isPresent();
    TableDescriptor before = table("S", "T");
    long version = catalog.version();
    int definitions = store.definitions.size();

    assertError(
        () -> catalog.createIndex("S", "MISSING", onPrice("J"), false, null),
        ErrorCode.TABLE_NOT_FOUND,
        "Table [S.MISSING] does not exist");
    assertError(
        () -> catalog.createIndex("SYSTEM", "STATS", onPrice("J"), false, null),
        ErrorCode.NOT_SUPPORTED,
        "[SYSTEM.STATS] is a read-only system view");
    assertError(
        () -> catalog.createIndex("S", "NOKEY", onPrice("J"), false, null),
        ErrorCode.NOT_SUPPORTED,
        "Table [S.NOKEY] has no primary key: local indexes need one");
    assertError(
        () -> catalog.createIndex("S", "T", draft("J", List.of(0)), false, null),
        ErrorCode.VALIDATION_ERROR,
        "INCLUDE of primary-key column [ID]");
    assertError(
        () ->
            catalog.createIndex(
                "S",
                "T",
                new IndexDescriptor(0, "J", onPrice("J").columns(), List.of(2), State.BUILDING),
                false,
                null),
        ErrorCode.VALIDATION_ERROR,
        "INCLUDE of column [PRICE], a key part of the index");
    assertError(
        () -> catalog.createIndex("S", "T", draft("J", List.of(2, 2)), false, null),
        ErrorCode.VALIDATION_ERROR,
        "INCLUDE of column [PRICE] twice");
    assertError(
        () -> catalog.createIndex("S", "T", draft("J", List.of(9)), false, null),
        ErrorCode.VALIDATION_ERROR,
        "an included column: expected 0..2, found [9]");
    assertError(
        () ->
            catalog.createIndex(
                "S",
                "T",
                new IndexDescriptor(
                    0,
                    "J",
                    List.of(
                        new IndexColumn(
                            new Expr.ColumnRef(1, DataType.BIGINT), "X", SortOrder.ASC)),
                    List.of(),
                    State.BUILDING),
                false,
                null),
        ErrorCode.VALIDATION_ERROR,
        "column [NAME] of type [VARCHAR(20)], found a reference of type [BIGINT]");
    assertError(
        () ->
            catalog.createIndex(
                "S",
                "T",
                new IndexDescriptor(0, "J", List.of(), List.of(), State.BUILDING),
                false,
                null),
        ErrorCode.VALIDATION_ERROR,
        "expected at least one key part");

    assertThat(table("S", "T")).isEqualTo(before);
    assertThat(catalog.version()).isEqualTo(version);
    assertThat(store.definitions).hasSize(definitions);
  }

  @Test
  void idsAreFreshForEveryCreateAndRebuildAndNeverReused() {
    createTable("S", "T", true);
    int first = catalog.createIndex("S", "T", onPrice("I"), false, null).orElseThrow().indexId();
    assertThat(catalog.dropIndex("S", "I", null, false)).isTrue();
    int second = catalog.createIndex("S", "T", onPrice("I"), false, null).orElseThrow().indexId();
    IndexDescriptor rebuilt = catalog.rebuildIndex("S", "T", "I", null);
    assertThat(List.of(first, second, rebuilt.indexId())).doesNotHaveDuplicates();
    assertThat(rebuilt.state()).isEqualTo(State.ACTIVE);
    assertThat(table("S", "T").indexes()).containsExactly(rebuilt);
    assertThat(store.defined.get(table("S", "T").kvTableName())).containsExactly(rebuilt.spec());
  }

  @Test
  void aFailedBuildRecordsFailedStopsMaintainingAndRethrowsUntilRebuilt() {
    TableDescriptor t = createTable("S", "T", true);
    assertThat(catalog.createIndex("S", "T", onPrice("OK"), false, null)).isPresent();
    store.build =
        (table, id, progress) -> {
          throw new CairnException(ErrorCode.IO_ERROR, "disk full");
        };
    assertError(
        () -> catalog.createIndex("S", "T", draft("BAD", List.of()), false, null),
        ErrorCode.IO_ERROR,
        "disk full");
    IndexDescriptor failed = table("S", "T").index("BAD").orElseThrow();
    assertThat(failed.state()).isEqualTo(State.FAILED);
    assertThat(store.defined.get(t.kvTableName()))
        .as("only OK is maintained")
        .extracting(IndexSpec::indexId)
        .containsExactly(table("S", "T").index("OK").orElseThrow().indexId());
    assertError(
        () -> catalog.verifyIndex("S", "T", "BAD"),
        ErrorCode.NOT_SUPPORTED,
        "Index [S.BAD] is [FAILED]: expected ACTIVE");

    store.build = (table, id, progress) -> 0;
    IndexDescriptor rebuilt = catalog.rebuildIndex("S", "T", "BAD", null);
    assertThat(rebuilt.state()).isEqualTo(State.ACTIVE);
    assertThat(rebuilt.indexId()).isNotEqualTo(failed.indexId());
    assertThat(table("S", "T").indexes())
        .extracting(IndexDescriptor::name)
        .containsExactly("OK", "BAD");
    assertThat(catalog.verifyIndex("S", "T", "BAD"))
        .isEqualTo(new IndexCheck(rebuilt.indexId(), rebuilt.indexId(), 0, 0, List.of()));
  }

  @Test
  void theBuildRunsWithoutTheCatalogsLockAndADropMeanwhileWins() throws Exception {
    createTable("S", "T", true);
    CountDownLatch building = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    store.build =
        (table, id, progress) -> {
          building.countDown();
          await(release);
          return 0;
        };
    CompletableFuture<?> create =
        CompletableFuture.supplyAsync(
            () -> catalog.createIndex("S", "T", onPrice("I"), false, null));
    await(building);

    // other DDL goes on while the index builds, and sees it BUILDING
    createTable("S", "OTHER", true);
    assertThat(table("S", "T").index("I").orElseThrow().state()).isEqualTo(State.BUILDING);
    assertError(
        () -> catalog.createIndex("S", "OTHER", onPrice("I"), false, null),
        ErrorCode.INDEX_ALREADY_EXISTS,
        "[S.I]");
    assertThat(catalog.dropIndex("S", "I", "T", false)).isTrue();
    release.countDown();

    assertThatThrownBy(() -> create.get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INDEX_NOT_FOUND))
        .hasMessageContaining("Index [S.I] was dropped or rebuilt while it was being built");
    assertThat(table("S", "T").indexes()).isEmpty();
    assertThat(store.defined.get(table("S", "T").kvTableName())).isEmpty();
  }

  @Test
  void aTableDroppedDuringAFailingBuildWinsOverTheBuildsError() throws Exception {
    createTable("S", "T", true);
    CountDownLatch building = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    store.build =
        (table, id, progress) -> {
          building.countDown();
          await(release);
          throw new CairnException(ErrorCode.INTERNAL_ERROR, "the table went away");
        };
    CompletableFuture<?> create =
        CompletableFuture.supplyAsync(
            () -> catalog.createIndex("S", "T", onPrice("I"), false, null));
    await(building);
    assertThat(catalog.dropTable("S", "T", false)).isTrue();
    release.countDown();
    assertThatThrownBy(() -> create.get(30, TimeUnit.SECONDS))
        .cause()
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INDEX_NOT_FOUND))
        .hasMessageContaining("was dropped or rebuilt while it was being built");
    assertThat(catalog.table("S", "T")).isEmpty();
  }

  @Test
  void anIndexLeftBuildingIsFailedAtTheNextOpenAndNotMaintained() throws Exception {
    TableDescriptor t = createTable("S", "T", true);
    assertThat(catalog.createIndex("S", "T", onPrice("ACTIVE"), false, null)).isPresent();
    CountDownLatch building = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    store.build =
        (table, id, progress) -> {
          building.countDown();
          await(release);
          return 0;
        };
    CompletableFuture<?> create =
        CompletableFuture.supplyAsync(
            () -> catalog.createIndex("S", "T", draft("STOPPED", List.of()), false, null));
    try {
      await(building);
      // as if the process had ended here: a new open reads the catalog as recorded
      store.definitions.clear();
      StoreCatalog reopened = StoreCatalog.open(store);
      TableDescriptor read = reopened.table("S", "T").orElseThrow();
      assertThat(read.index("STOPPED").orElseThrow().state()).isEqualTo(State.FAILED);
      assertThat(read.index("ACTIVE").orElseThrow().state()).isEqualTo(State.ACTIVE);
      assertThat(store.definitions)
          .singleElement()
          .satisfies(d -> assertThat(d.table()).isEqualTo(t.kvTableName()))
          .satisfies(
              d ->
                  assertThat(d.indexes())
                      .containsExactly(read.index("ACTIVE").orElseThrow().spec()));
    } finally {
      release.countDown();
      create.get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void dropChecksTheNamedTableAndIfExists() {
    createTable("S", "T", true);
    createTable("S", "U", true);
    assertThat(catalog.createIndex("S", "T", onPrice("I"), false, null)).isPresent();
    assertThat(catalog.createIndex("S", "T", draft("J", List.of()), false, null)).isPresent();

    assertError(
        () -> catalog.dropIndex("S", "I", "U", false),
        ErrorCode.INDEX_NOT_FOUND,
        "Index [S.I] is not an index of table [S.U]: it is one of [S.T]");
    assertError(
        () -> catalog.dropIndex("S", "I", "MISSING", true),
        ErrorCode.TABLE_NOT_FOUND,
        "Table [S.MISSING] does not exist");
    assertError(
        () -> catalog.dropIndex("S", "NONE", null, false),
        ErrorCode.INDEX_NOT_FOUND,
        "Index [S.NONE] does not exist");
    assertError(
        () -> catalog.dropIndex("OTHER", "I", null, false),
        ErrorCode.INDEX_NOT_FOUND,
        "Index [OTHER.I] does not exist");
    long version = catalog.version();
    assertThat(catalog.dropIndex("S", "NONE", null, true)).isFalse();
    assertThat(catalog.version()).isEqualTo(version);

    assertThat(catalog.dropIndex("S", "I", "T", false)).isTrue();
    assertThat(catalog.version()).isEqualTo(version + 1);
    TableDescriptor t = table("S", "T");
    assertThat(t.indexes()).extracting(IndexDescriptor::name).containsExactly("J");
    assertThat(store.defined.get(t.kvTableName())).containsExactly(t.indexes().get(0).spec());
    assertThat(catalog.dropIndex("S", "I", null, true)).isFalse();
  }

  @Test
  void rebuildAndVerifyNameTheirIndex() {
    createTable("S", "T", true);
    assertError(
        () -> catalog.rebuildIndex("S", "T", "NONE", null),
        ErrorCode.INDEX_NOT_FOUND,
        "Index [S.NONE] of table [S.T] does not exist");
    assertError(
        () -> catalog.verifyIndex("S", "MISSING", "NONE"),
        ErrorCode.TABLE_NOT_FOUND,
        "Table [S.MISSING] does not exist");
    assertError(
        () -> catalog.rebuildIndex("SYSTEM", "STATS", "NONE", null),
        ErrorCode.NOT_SUPPORTED,
        "read-only system view");
  }

  @Test
  void aStoreThatRefusesIndexesLeavesNoIndexRecorded() {
    createTable("S", "T", true);
    TableDescriptor before = table("S", "T");
    long version = catalog.version();
    store.refuseIndexes = true;
    assertError(
        () -> catalog.createIndex("S", "T", onPrice("I"), false, null),
        ErrorCode.NOT_SUPPORTED,
        "refused by the test");
    assertThat(table("S", "T")).isEqualTo(before);
    assertThat(catalog.version()).isEqualTo(version);
    store.refuseIndexes = false;
    assertThat(StoreCatalog.open(store).table("S", "T").orElseThrow().indexes())
        .as("the recorded descriptor was put back")
        .isEmpty();
  }

  @Test
  void alteringOptionsAndDroppingTheTableKeepOrDropItsIndexes() {
    createTable("S", "T", true);
    IndexDescriptor i = catalog.createIndex("S", "T", onPrice("I"), false, null).orElseThrow();
    TableDescriptor altered = catalog.alterTableOptions("S", "T", Map.of("TTL", "3600"));
    assertThat(altered.indexes()).containsExactly(i);
    assertThat(StoreCatalog.open(store).table("S", "T").orElseThrow().indexes()).containsExactly(i);
    catalog.dropTable("S", "T", false);
    // the name is free again
    createTable("S", "T", true);
    assertThat(catalog.createIndex("S", "T", onPrice("I"), false, null)).isPresent();
  }

  @Test
  void systemIndexesListsEveryIndexWithItsStateKeyPartsAndIncludes() {
    createTable("S", "T", true);
    createTable("A", "U", true);
    Stores.useSqlNames(embedded, catalog::tables); // as the driver and the server do
    KvTable view = store.table("SYSTEM.INDEXES").orElseThrow();
    assertThat(rows(view)).isEmpty();

    IndexDescriptor upper =
        catalog.createIndex("S", "T", draft("BY_UPPER", List.of(2)), false, null).orElseThrow();
    IndexDescriptor price =
        catalog.createIndex("A", "U", onPrice("BY_PRICE"), false, null).orElseThrow();
    store.build =
        (table, id, progress) -> {
          throw new CairnException(ErrorCode.IO_ERROR, "disk full");
        };
    assertThatThrownBy(() -> catalog.createIndex("S", "T", onPrice("AA_FAILED"), false, null))
        .hasMessageContaining("disk full");
    int failed = table("S", "T").index("AA_FAILED").orElseThrow().indexId();

    assertThat(rows(view))
        .containsExactly(
            List.of("A", "U", "BY_PRICE", price.indexId(), "ACTIVE", "PRICE", "NAME"),
            Arrays.asList("S", "T", "AA_FAILED", failed, "FAILED", "PRICE", "NAME"),
            List.of("S", "T", "BY_UPPER", upper.indexId(), "ACTIVE", "UPPER(NAME) DESC", "PRICE"));
    catalog.dropIndex("S", "AA_FAILED", null, false);
    assertThat(rows(view)).extracting(r -> r.get(2)).containsExactly("BY_PRICE", "BY_UPPER");
  }

  @Test
  void onARealDurableStoreTheIndexIsBuiltKeptAcrossReopeningAndMaintainedAfter(@TempDir Path dir) {
    Path path = dir.resolve("store");
    int built;
    AtomicLong reported = new AtomicLong();
    try (EmbeddedStore durable = EmbeddedStore.open(path, StoreConfig.defaults())) {
      StoreCatalog c = StoreCatalog.open(durable);
      TableDescriptor t =
          c.createTable(
                  new TableDescriptor(
                      0,
                      "S",
                      "T",
                      List.of(
                          new ColumnDescriptor("ID", 1, DataType.BIGINT.withNullable(false)),
                          new ColumnDescriptor("NAME", 2, DataType.varchar(20)),
                          new ColumnDescriptor("PRICE", 3, DataType.decimal(15, 2))),
                      List.of(new KeyColumn(0, SortOrder.ASC)),
                      Map.of(),
                      1),
                  false,
                  List.of())
              .orElseThrow();
      KvTable kv = durable.table(t.kvTableName()).orElseThrow();
      write(kv, t, 0, 500);
      IndexDescriptor index =
          c.createIndex("S", "T", draft("BY_UPPER", List.of(2)), false, reported::set)
              .orElseThrow();
      built = index.indexId();
      IndexCheck check = c.verifyIndex("S", "T", "BY_UPPER");
      assertThat(check.consistent()).as("%s", check).isTrue();
      assertThat(check.rows()).isEqualTo(500);
      assertThat(check.entries()).isEqualTo(500);
    }
    try (EmbeddedStore durable = EmbeddedStore.open(path, StoreConfig.defaults())) {
      StoreCatalog c = StoreCatalog.open(durable);
      TableDescriptor t = c.table("S", "T").orElseThrow();
      IndexDescriptor index = t.index("BY_UPPER").orElseThrow();
      assertThat(index.state()).isEqualTo(State.ACTIVE);
      assertThat(index.indexId()).isEqualTo(built);
      // the reopened catalog told the store: writes from now on keep the entries
      KvTable kv = durable.table(t.kvTableName()).orElseThrow();
      write(kv, t, 250, 800);
      IndexCheck check = c.verifyIndex("S", "T", "BY_UPPER");
      assertThat(check.consistent()).as("%s", check).isTrue();
      assertThat(check.rows()).isEqualTo(800);
      assertThat(c.dropIndex("S", "BY_UPPER", "T", false)).isTrue();
      assertThatThrownBy(() -> c.verifyIndex("S", "T", "BY_UPPER"))
          .hasMessageContaining("Index [S.BY_UPPER] of table [S.T] does not exist");
    }
  }

  /** Rows [from, to) of {@code t}: NAME 'name i', PRICE i / 100. */
  private static void write(KvTable kv, TableDescriptor t, int from, int to) {
    RowCodec codec = new RowCodec(t.layout());
    List<Mutation> batch = new ArrayList<>();
    for (int i = from; i < to; i++) {
      Object[] row = {
        (long) i, i % 7 == 0 ? null : "name " + i, java.math.BigDecimal.valueOf(i, 2)
      };
      batch.add(new Mutation.Put(codec.encodeKey(row), codec.encodeValue(row)));
    }
    kv.mutate(batch);
  }

  private static List<List<Object>> rows(KvTable view) {
    TableDescriptor v = SystemViews.INDEXES;
    ScanRequest request =
        new ScanRequest(
            List.of(KeyRange.ALL),
            new ScanProgram(v.layout(), Optional.empty(), v.columnRefs(), ScanProgram.NO_LIMIT),
            EvalContext.EMPTY,
            true);
    List<List<Object>> rows = new ArrayList<>();
    try (RowScanner scanner = view.scan(request)) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        rows.add(Arrays.asList(row));
      }
    }
    return rows;
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("waited 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static void assertError(ThrowingCallable call, ErrorCode code, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(code))
        .hasMessageContaining(message);
  }
}
