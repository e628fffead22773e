package io.cairn.jdbc.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexRead;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.ScanProgram;
import io.cairn.planner.CairnPlanner;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How the executor lays out a scan the planner sent to a local index (issue 17): one request whose
 * ranges lie in the index's key space, carrying {@link IndexRead}, with the program over the
 * entries when the index covers the scan and over the table's rows otherwise.
 */
class TestIndexScanLayout {
  private static final EvalContext NO_PARAMETERS =
      new EvalContext(new Object[0], LocalDateTime.of(2026, 11, 26, 12, 0));

  private KvStore store;
  private CairnPlanner planner;
  private TableDescriptor table;
  private KvTable kv;

  @BeforeEach
  void createTable() {
    store = Stores.inMemory("index-scan-layout");
    Catalog stored = Catalog.open(store);
    CairnPlanner ddl = new CairnPlanner(stored);
    StatementPlan.CreateTable create =
        (StatementPlan.CreateTable)
            ddl.plan(
                    "CREATE TABLE LI (OKEY INTEGER NOT NULL, LNO INTEGER NOT NULL,"
                        + " PRICE DECIMAL(15, 2), QTY INTEGER, NAME VARCHAR(20),"
                        + " CONSTRAINT PK PRIMARY KEY (OKEY, LNO)) SPLIT ON (10, 30)")
                .plan();
    stored.createTable(create.draft(), false, create.splitPoints());
    TableDescriptor li = stored.table("PUBLIC", "LI").orElseThrow();
    int price = li.columnIndex("PRICE").orElseThrow();
    IndexDescriptor byPrice =
        new IndexDescriptor(
            7,
            "LI_PRICE",
            List.of(
                new IndexDescriptor.IndexColumn(
                    new Expr.ColumnRef(price, li.columns().get(price).type()),
                    "PRICE",
                    SortOrder.DESC)),
            List.of(li.columnIndex("QTY").orElseThrow()),
            IndexDescriptor.State.ACTIVE);
    table = li.withIndexes(List.of(byPrice));
    planner = new CairnPlanner(new OneTableCatalog(stored, table), t -> 1_000_000);
    kv = store.table(li.kvTableName()).orElseThrow();
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private ScanNode scan(String sql) {
    PlanNode node = ((StatementPlan.Query) planner.plan(sql).plan()).root();
    while (!(node instanceof ScanNode)) {
      node = node.inputs().get(0);
    }
    return (ScanNode) node;
  }

  private Bytes priceKey(String price) {
    RowLayout entries = table.indexes().get(0).spec().entryLayout(table.layout());
    return new RowCodec(entries).encodeKeyPrefix(List.of(new BigDecimal(price)));
  }

  @Test
  void aCoveredReadRunsTheProgramOverTheEntries() {
    ScanNode node = scan("SELECT QTY, LNO FROM LI WHERE PRICE = 10.5");
    assertThat(node.index()).isPresent();
    ScanLayout layout = ScanLayout.of(node, kv, NO_PARAMETERS, 4);
    assertThat(layout.index()).isEqualTo(new IndexRead(7, false));
    assertThat(layout.isSingle()).isTrue();
    assertThat(layout.units().get(0).ranges())
        .containsExactly(IndexKeys.range(7, KeyRange.prefix(priceKey("10.50"))));
    ScanProgram program = layout.program(node);
    RowLayout entries = table.indexes().get(0).spec().entryLayout(table.layout());
    assertThat(program.layout()).isEqualTo(entries);
    // entry columns: PRICE, then OKEY and LNO (the key), then QTY (included)
    assertThat(program.projection())
        .extracting(e -> ((Expr.ColumnRef) e).index())
        .containsExactly(3, 2);
  }

  @Test
  void anUncoveredReadLooksTheRowsUp() {
    ScanNode node =
        scan("SELECT /*+ INDEX(LI LI_PRICE) */ NAME FROM LI WHERE PRICE > ? AND PRICE < 20");
    assertThat(node.index()).isPresent();
    EvalContext parameters =
        new EvalContext(new Object[] {new BigDecimal("3")}, LocalDateTime.of(2026, 1, 1, 0, 0));
    ScanLayout layout = ScanLayout.of(node, kv, parameters, 4);
    assertThat(layout.index()).isEqualTo(new IndexRead(7, true));
    assertThat(layout.program(node).layout()).isEqualTo(table.layout());
    // a descending part: the upper bound starts the range
    KeyRange over = new KeyRange(priceKey("20.00").prefixEnd(), priceKey("3.00"));
    assertThat(layout.units().get(0).ranges()).containsExactly(IndexKeys.range(7, over));
    // EXPLAIN without the parameter's value widens to the bound it knows
    assertThat(ScanLayout.usesParameters(node)).isTrue();
    ScanLayout widened = ScanLayout.withoutParameters(node, kv, NO_PARAMETERS, 4);
    assertThat(widened.units().get(0).ranges())
        .containsExactly(
            IndexKeys.range(7, new KeyRange(priceKey("20.00").prefixEnd(), Bytes.EMPTY)));
  }

  @Test
  void anOrderTheIndexGivesIsNotSortedAndStopsAtTheLimit() {
    ScanNode node =
        scan("SELECT /*+ INDEX(LI LI_PRICE) */ PRICE, QTY FROM LI ORDER BY PRICE DESC LIMIT 5");
    assertThat(node.orderFromIndex()).isTrue();
    ScanProgram program = ScanLayout.of(node, kv, NO_PARAMETERS, 4).program(node);
    assertThat(program.orderBy()).isEmpty();
    assertThat(program.limit()).isEqualTo(5);
    // ascending is the reverse of the index's order: the store sorts
    ScanNode reversed =
        scan("SELECT /*+ INDEX(LI LI_PRICE) */ PRICE, QTY FROM LI ORDER BY PRICE LIMIT 5");
    assertThat(reversed.orderFromIndex()).isFalse();
    assertThat(ScanLayout.of(reversed, kv, NO_PARAMETERS, 4).program(reversed).orderBy())
        .isEqualTo(reversed.orderBy());
  }

  @Test
  void regionsAndTheirRowRangesBoundedByThePrimaryKey() {
    List<KeyRange> regions = List.of(range(null, 100), range(100, 500), range(500, null));
    assertThat(ScanLayout.restrict(regions.get(1), List.of(KeyRange.ALL)))
        .isEqualTo(regions.get(1));
    assertThat(ScanLayout.restrict(regions.get(1), List.of(range(600, 700)))).isNull();
    assertThat(ScanLayout.restrict(regions.get(1), List.of(range(50, 120), range(130, 140))))
        .isEqualTo(range(100, 140));
    assertThat(ScanLayout.restrict(regions.get(2), List.of(range(50, 120), range(450, null))))
        .isEqualTo(range(500, null));
    assertThat(
            ScanLayout.regionRanges(
                new io.cairn.kv.TableStatistics(
                    10,
                    List.of(
                        chunk(1, null, 50),
                        chunk(1, 50, 100),
                        chunk(2, 100, 500),
                        chunk(3, 500, 700),
                        chunk(3, 700, null)),
                    0)))
        .isEqualTo(regions);
  }

  private static Bytes rowKey(Integer okey) {
    return okey == null
        ? Bytes.EMPTY
        : new RowCodec(
                new RowLayout(
                    List.of(
                        new RowLayout.ColumnLayout(
                            0, io.cairn.core.type.DataType.INTEGER.withNullable(false))),
                    List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
                    false,
                    0))
            .encodeKeyPrefix(List.of(okey));
  }

  private static KeyRange range(Integer start, Integer stop) {
    return new KeyRange(rowKey(start), rowKey(stop));
  }

  private static io.cairn.kv.TableStatistics.Chunk chunk(long region, Integer start, Integer stop) {
    return new io.cairn.kv.TableStatistics.Chunk(region, rowKey(start), rowKey(stop), 1, 1);
  }

  @Test
  void tableScansCarryNoIndexRead() {
    ScanNode node = scan("SELECT /*+ NO_INDEX */ QTY FROM LI WHERE PRICE = 10.5");
    assertThat(node.index()).isEmpty();
    assertThat(ScanLayout.of(node, kv, NO_PARAMETERS, 4).index()).isNull();
  }

  @Test
  void anIndexTheStoreDoesNotHaveIsReadAsTheTable() {
    // the store was never told of LI_PRICE: as after a DROP INDEX that followed the planning
    RowCodec codec = new RowCodec(table.layout());
    List<io.cairn.kv.Mutation> rows = new java.util.ArrayList<>();
    for (int i = 0; i < 50; i++) {
      Object[] row = {i, 1, new BigDecimal(i % 5 + ".50"), i, "n" + i};
      rows.add(new io.cairn.kv.Mutation.Put(codec.encodeKey(row), codec.encodeValue(row)));
    }
    kv.mutate(rows);
    String sql = "SELECT QTY, LNO FROM LI WHERE PRICE = 2.5";
    PlanNode indexed = ((StatementPlan.Query) planner.plan(sql).plan()).root();
    assertThat(scan(sql).index()).isPresent();
    PlanNode plain =
        ((StatementPlan.Query) planner.plan(sql.replace("SELECT", "SELECT /*+ NO_INDEX */")).plan())
            .root();
    assertThat(run(indexed)).hasSize(10).isEqualTo(run(plain));
    // a range: a request per region, each of which finds the index gone
    String range = "SELECT /*+ INDEX(LI LI_PRICE) */ QTY, LNO FROM LI WHERE PRICE > 1.5";
    ScanNode chunked = scan(range);
    assertThat(ScanLayout.of(chunked, kv, NO_PARAMETERS, 4).units()).hasSize(3);
    PlanNode rangePlan = ((StatementPlan.Query) planner.plan(range).plan()).root();
    PlanNode rangePlain =
        ((StatementPlan.Query) planner.plan(range.replace("INDEX(LI LI_PRICE)", "NO_INDEX")).plan())
            .root();
    assertThat(run(rangePlan)).hasSize(30).isEqualTo(run(rangePlain));
  }

  private List<String> run(PlanNode plan) {
    List<String> rows = new java.util.ArrayList<>();
    try (QueryExecution execution =
        QueryExecution.start(
            plan,
            new ExecContext(
                store,
                NO_PARAMETERS,
                io.cairn.jdbc.internal.engine.ExecutionControl.unlimited()))) {
      for (Object[] row = execution.next(); row != null; row = execution.next()) {
        rows.add(java.util.Arrays.toString(row));
      }
    }
    rows.sort(null);
    return rows;
  }

  /** A catalog whose one table carries the test's indexes. */
  record OneTableCatalog(Catalog delegate, TableDescriptor table) implements Catalog {
    private TableDescriptor indexed(TableDescriptor t) {
      return t.tableId() == table.tableId() ? table : t;
    }

    @Override
    public long version() {
      return delegate.version();
    }

    @Override
    public Optional<TableDescriptor> table(String schema, String name) {
      return delegate.table(schema, name).map(this::indexed);
    }

    @Override
    public List<TableDescriptor> tables() {
      return delegate.tables().stream().map(this::indexed).toList();
    }

    @Override
    public List<String> schemas() {
      return delegate.schemas();
    }

    @Override
    public Optional<TableDescriptor> createTable(
        TableDescriptor draft, boolean ifNotExists, List<Bytes> splitPoints) {
      return delegate.createTable(draft, ifNotExists, splitPoints);
    }

    @Override
    public TableDescriptor alterTableOptions(
        String schema, String name, Map<String, String> changes) {
      return delegate.alterTableOptions(schema, name, changes);
    }

    @Override
    public boolean dropTable(String schema, String name, boolean ifExists) {
      return delegate.dropTable(schema, name, ifExists);
    }
  }
}
