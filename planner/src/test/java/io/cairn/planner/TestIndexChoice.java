package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KvStore;
import io.cairn.planner.plan.IndexScan;
import io.cairn.planner.plan.KeyBounds;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The planner's choice between a table and its local indexes (issue 17): key ranges over index
 * parts, covered or lookup, cost against the primary key's own bounds, the INDEX and NO_INDEX hints
 * and EXPLAIN. Indexes are added to the catalog's descriptors by hand ({@link IndexedCatalog}).
 */
class TestIndexChoice {
  private KvStore store;
  private Catalog stored;
  private IndexedCatalog catalog;
  private long rows = 1_000_000;
  private CairnPlanner planner;

  @BeforeEach
  void createTable() {
    store = Stores.inMemory("index-choice");
    stored = Catalog.open(store);
    CairnPlanner ddl = new CairnPlanner(stored);
    for (String sql :
        List.of(
            "CREATE TABLE LI (OKEY INTEGER NOT NULL, LNO INTEGER NOT NULL, PRICE DECIMAL(15, 2),"
                + " QTY INTEGER, NAME VARCHAR(20), NOTE VARCHAR(40),"
                + " CONSTRAINT PK PRIMARY KEY (OKEY, LNO))",
            "CREATE TABLE SMALL (ID INTEGER PRIMARY KEY, V INTEGER)")) {
      StatementPlan.CreateTable create = (StatementPlan.CreateTable) ddl.plan(sql).plan();
      stored.createTable(create.draft(), false);
    }
    TableDescriptor li = stored.table("PUBLIC", "LI").orElseThrow();
    // UPPER(NAME) as the planner converts it, as CREATE INDEX would
    Expr upperName = projection(ddl, "SELECT UPPER(NAME) FROM LI").get(0);
    catalog = new IndexedCatalog(stored);
    catalog.indexes.put(
        "LI",
        List.of(
            index(li, 1, "LI_PRICE", List.of(column(li, "PRICE")), List.of(col(li, "QTY"))),
            index(li, 2, "LI_QTY_NAME", List.of(column(li, "QTY"), column(li, "NAME")), List.of()),
            index(
                li,
                3,
                "LI_UPPER",
                List.of(new IndexDescriptor.IndexColumn(upperName, "UPPER(NAME)", SortOrder.ASC)),
                List.of()),
            index(li, 4, "LI_NOTE", List.of(column(li, "NOTE")), List.of())
                .withState(IndexDescriptor.State.BUILDING)));
    TableDescriptor small = stored.table("PUBLIC", "SMALL").orElseThrow();
    catalog.indexes.put(
        "SMALL", List.of(index(small, 1, "SMALL_V", List.of(column(small, "V")), List.of())));
    planner = new CairnPlanner(catalog, t -> t.tableName().equals("SMALL") ? 10 : rows);
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private static List<Expr> projection(CairnPlanner planner, String sql) {
    return scans(planner, sql).get(0).projection();
  }

  private static int col(TableDescriptor t, String name) {
    return t.columnIndex(name).orElseThrow();
  }

  private static IndexDescriptor.IndexColumn column(TableDescriptor t, String name) {
    int c = col(t, name);
    return new IndexDescriptor.IndexColumn(
        new Expr.ColumnRef(c, t.columns().get(c).type()), name, SortOrder.ASC);
  }

  private static IndexDescriptor index(
      TableDescriptor t,
      int id,
      String name,
      List<IndexDescriptor.IndexColumn> parts,
      List<Integer> include) {
    return new IndexDescriptor(id, name, parts, include, IndexDescriptor.State.ACTIVE);
  }

  private static List<ScanNode> scans(CairnPlanner planner, String sql) {
    List<ScanNode> scans = new ArrayList<>();
    collect(((StatementPlan.Query) planner.plan(sql).plan()).root(), scans);
    return scans;
  }

  private static void collect(PlanNode node, List<ScanNode> scans) {
    if (node instanceof ScanNode s) {
      scans.add(s);
    }
    for (PlanNode input : node.inputs()) {
      collect(input, scans);
    }
  }

  private Optional<IndexScan> index(String sql) {
    List<ScanNode> scans = scans(planner, sql);
    assertThat(scans).hasSize(1);
    return scans.get(0).index();
  }

  private String chosen(String sql) {
    return index(sql)
        .map(i -> i.index().name() + (i.covered() ? " covered" : " lookup"))
        .orElse("");
  }

  private List<String> explain(String sql) {
    return ((StatementPlan.Explain) planner.plan("EXPLAIN " + sql).plan()).lines();
  }

  @Test
  void equalityOnAnIndexedColumnReadsTheIndex() {
    assertThat(chosen("SELECT COUNT(*) FROM LI WHERE PRICE = 10.5")).isEqualTo("LI_PRICE covered");
    assertThat(chosen("SELECT QTY, OKEY FROM LI WHERE PRICE = 10.5")).isEqualTo("LI_PRICE covered");
    assertThat(chosen("SELECT SUM(QTY) FROM LI WHERE PRICE = 10.5")).isEqualTo("LI_PRICE covered");
    assertThat(chosen("SELECT NAME FROM LI WHERE PRICE = 10.5")).isEqualTo("LI_PRICE lookup");
    assertThat(chosen("SELECT * FROM LI WHERE PRICE = 10.5")).isEqualTo("LI_PRICE lookup");
    IndexScan read = index("SELECT * FROM LI WHERE PRICE = ?").orElseThrow();
    assertThat(read.keys()).hasSize(1);
    assertThat(read.keys().get(0).equalPrefix()).singleElement().isInstanceOf(Expr.Param.class);
    // the scan's own filter and bounds stay over the table's row (the fallback for transactions)
    ScanNode scan = scans(planner, "SELECT * FROM LI WHERE PRICE = ?").get(0);
    assertThat(scan.filter()).isPresent();
    assertThat(scan.keys()).isEmpty();
  }

  @Test
  void prefixesRangesAndInListsBecomeIndexRanges() {
    IndexScan in = index("SELECT OKEY FROM LI WHERE QTY IN (1, 2, 3)").orElseThrow();
    assertThat(in.index().name()).isEqualTo("LI_QTY_NAME");
    assertThat(in.covered()).isTrue();
    assertThat(in.keys()).hasSize(3).allMatch(k -> k.equalPrefix().size() == 1);
    IndexScan range = index("SELECT OKEY FROM LI WHERE QTY = 4 AND NAME > 'b'").orElseThrow();
    assertThat(range.keys()).singleElement().satisfies(this::prefixAndLowerBound);
    assertThat(chosen("SELECT OKEY FROM LI WHERE PRICE > 5 AND PRICE <= 7"))
        .isEqualTo("LI_PRICE covered");
    assertThat(index("SELECT OKEY FROM LI WHERE PRICE > 5 AND PRICE <= 7").orElseThrow().keys())
        .singleElement()
        .satisfies(k -> assertThat(k.lower()).isPresent())
        .satisfies(k -> assertThat(k.upper()).isPresent());
    // the second part alone bounds nothing
    assertThat(chosen("SELECT OKEY FROM LI WHERE NAME = 'b'")).isEmpty();
  }

  private void prefixAndLowerBound(KeyBounds k) {
    assertThat(k.equalPrefix()).hasSize(1);
    assertThat(k.lower()).isPresent();
    assertThat(k.upper()).isEmpty();
  }

  @Test
  void aFunctionalIndexServesTheSameExpression() {
    assertThat(chosen("SELECT OKEY FROM LI WHERE UPPER(NAME) = 'AB'"))
        .isEqualTo("LI_UPPER covered");
    assertThat(chosen("SELECT NAME FROM LI WHERE UPPER(NAME) = 'AB'")).isEqualTo("LI_UPPER lookup");
    assertThat(chosen("SELECT UPPER(NAME) FROM LI WHERE UPPER(NAME) > 'AB'"))
        .isEqualTo("LI_UPPER covered");
    assertThat(chosen("SELECT OKEY FROM LI WHERE LOWER(NAME) = 'ab'")).isEmpty();
  }

  @Test
  void theTableWinsWhenItsKeyIsAsSelectiveOrTheIndexIsUnboundedOrTheTableSmall() {
    assertThat(chosen("SELECT * FROM LI WHERE OKEY = 1 AND LNO = 2 AND PRICE = 10.5")).isEmpty();
    assertThat(chosen("SELECT * FROM LI WHERE OKEY = 1 AND PRICE > 10.5")).isEmpty();
    assertThat(chosen("SELECT * FROM LI")).isEmpty();
    assertThat(chosen("SELECT * FROM LI WHERE QTY + 1 = 3")).isEmpty();
    assertThat(chosen("SELECT * FROM LI ORDER BY PRICE")).isEmpty();
    assertThat(chosen("SELECT * FROM SMALL WHERE V = 3")).isEmpty();
    // a lookup of a quarter of the rows costs more than reading them all
    assertThat(chosen("SELECT * FROM LI WHERE PRICE > 10.5")).isEmpty();
    assertThat(chosen("SELECT OKEY FROM LI WHERE PRICE > 10.5")).isEqualTo("LI_PRICE covered");
    // an index being built is not read
    assertThat(chosen("SELECT OKEY FROM LI WHERE NOTE = 'x'")).isEmpty();
  }

  @Test
  void hintsForceOrForbidIndexes() {
    assertThat(chosen("SELECT /*+ NO_INDEX */ COUNT(*) FROM LI WHERE PRICE = 10.5")).isEmpty();
    assertThat(chosen("SELECT /*+ INDEX(LI LI_PRICE) */ * FROM LI")).isEqualTo("LI_PRICE lookup");
    assertThat(index("SELECT /*+ INDEX(LI LI_PRICE) */ * FROM LI").orElseThrow().isFullScan())
        .isTrue();
    assertThat(chosen("SELECT /*+ INDEX(L LI_QTY_NAME) */ OKEY, NAME FROM LI L"))
        .isEqualTo("LI_QTY_NAME covered");
    assertThat(chosen("SELECT /*+ INDEX(SMALL SMALL_V) */ * FROM SMALL WHERE V = 3"))
        .isEqualTo("SMALL_V covered");
    assertThat(
            chosen(
                "SELECT /*+ INDEX(LI LI_QTY_NAME LI_PRICE) */ OKEY FROM LI WHERE PRICE = 1"
                    + " AND QTY > 3"))
        .isEqualTo("LI_PRICE covered");
    assertThat(chosen("SELECT /*+ index(li li_price) */ * FROM li")).isEqualTo("LI_PRICE lookup");
    assertThat(planner.plan("SELECT /*+ INDEX(LI LI_PRICE) */ * FROM LI").warnings()).isEmpty();
    assertThat(planner.plan("SELECT /*+ NO_INDEX */ * FROM LI").warnings()).isEmpty();
  }

  @Test
  void hintsNamingWhatIsNotThereWarn() {
    PlannedStatement missing = planner.plan("SELECT /*+ INDEX(LI NOPE) */ * FROM LI WHERE QTY = 1");
    assertThat(missing.warnings())
        .containsExactly("Hint INDEX names index [NOPE] that table [PUBLIC.LI] does not have");
    // the cost decides as without the hint
    assertThat(((StatementPlan.Query) missing.plan()).root())
        .isInstanceOfSatisfying(
            ScanNode.class,
            s -> assertThat(s.index().map(i -> i.index().name())).contains("LI_QTY_NAME"));
    assertThat(planner.plan("SELECT /*+ INDEX(LI LI_NOTE) */ * FROM LI").warnings())
        .containsExactly(
            "Hint INDEX names index [LI_NOTE] of table [PUBLIC.LI], which is BUILDING: not used");
    assertThat(planner.plan("SELECT /*+ INDEX(OTHER LI_PRICE) */ * FROM LI").warnings())
        .containsExactly("Hint INDEX names table [OTHER] that its query does not read");
  }

  @Test
  void explainNamesTheIndexAndWhetherItCovers() {
    assertThat(explain("SELECT COUNT(*) FROM LI WHERE PRICE = 10.5"))
        .containsExactly(
            "CLIENT MERGE AGGREGATE INTO SINGLE ROW",
            "    SERVER SCAN INDEX LI_PRICE ON PUBLIC.LI (covered) RANGE [10.50]",
            "        SERVER FILTER BY (PRICE = 10.50)",
            "        SERVER AGGREGATE INTO SINGLE ROW COMPUTE COUNT(*)");
    assertThat(explain("SELECT NOTE FROM LI WHERE QTY IN (1, 2)").get(0))
        .isEqualTo("SERVER SCAN INDEX LI_QTY_NAME ON PUBLIC.LI (lookup) SKIP 2 RANGES");
    assertThat(explain("SELECT /*+ INDEX(LI LI_PRICE), SERIAL */ OKEY FROM LI").get(0))
        .isEqualTo("SERVER SCAN INDEX LI_PRICE ON PUBLIC.LI (covered) FULL (SERIAL)");
    // table scans print as before
    assertThat(explain("SELECT * FROM LI WHERE OKEY = 1").get(0))
        .isEqualTo("SERVER RANGE SCAN OVER PUBLIC.LI [1]");
  }

  @Test
  void aJoinChoosesPerScan() {
    List<ScanNode> scans =
        scans(
            planner,
            "SELECT A.OKEY, B.OKEY FROM LI A JOIN LI B ON A.QTY = B.QTY WHERE A.PRICE = 1"
                + " AND B.QTY > 4");
    assertThat(scans).hasSize(2);
    assertThat(scans)
        .extracting(s -> s.index().map(i -> i.index().name()).orElse("-"))
        .containsExactlyInAnyOrder("LI_PRICE", "LI_QTY_NAME");
  }

  @Test
  void statementSourcesChooseToo() {
    PlanNode delete =
        ((StatementPlan.Delete) planner.plan("DELETE FROM LI WHERE PRICE = 3").plan()).source();
    List<ScanNode> scans = new ArrayList<>();
    collect(delete, scans);
    assertThat(scans)
        .singleElement()
        .satisfies(s -> assertThat(s.index().map(i -> i.index().name())).contains("LI_PRICE"));
    PlanNode hinted =
        ((StatementPlan.Delete)
                planner.plan("DELETE /*+ NO_INDEX */ FROM LI WHERE PRICE = 3").plan())
            .source();
    scans.clear();
    collect(hinted, scans);
    assertThat(scans).singleElement().satisfies(s -> assertThat(s.index()).isEmpty());
  }

  /** A catalog whose tables carry the indexes the test gives them. */
  private static final class IndexedCatalog implements Catalog {
    private final Catalog delegate;
    final Map<String, List<IndexDescriptor>> indexes = new java.util.HashMap<>();

    IndexedCatalog(Catalog delegate) {
      this.delegate = delegate;
    }

    private TableDescriptor withIndexes(TableDescriptor t) {
      return t.withIndexes(indexes.getOrDefault(t.tableName(), List.of()));
    }

    @Override
    public long version() {
      return delegate.version();
    }

    @Override
    public Optional<TableDescriptor> table(String schema, String name) {
      return delegate.table(schema, name).map(this::withIndexes);
    }

    @Override
    public List<TableDescriptor> tables() {
      return delegate.tables().stream().map(this::withIndexes).toList();
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
