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
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvStore;
import io.cairn.kv.ScanProgram;
import io.cairn.planner.CairnPlanner;
import io.cairn.planner.plan.IndexScan;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import io.cairn.store.cell.HeapRowCursor;
import io.cairn.store.coprocessor.ProgramScanner;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The executor's half of a covered index read, checked without a store that keeps indexes: entries
 * made from rows by the entry layout ({@link io.cairn.kv.IndexSpec#entryLayout}), cut to the key
 * ranges the executor computes over the index's parts, run through the store's program runner with
 * the program rewritten over the entries, give exactly the rows the table's program gives over all
 * the rows. Plain, descending, multi-part and functional indexes, with parameters.
 */
class TestIndexEntryPrograms {
  private static final int ROWS = 600;

  private KvStore store;
  private CairnPlanner planner;
  private TableDescriptor table;
  private io.cairn.kv.KvTable kv;
  private final List<Object[]> rows = new ArrayList<>();

  @BeforeEach
  void createTable() {
    store = Stores.inMemory("index-entry-programs");
    Catalog stored = Catalog.open(store);
    CairnPlanner ddl = new CairnPlanner(stored);
    StatementPlan.CreateTable create =
        (StatementPlan.CreateTable)
            ddl.plan(
                    "CREATE TABLE LI (OKEY INTEGER NOT NULL, LNO INTEGER NOT NULL,"
                        + " PRICE DECIMAL(15, 2), QTY INTEGER, NAME VARCHAR(20),"
                        + " CONSTRAINT PK PRIMARY KEY (OKEY, LNO DESC))")
                .plan();
    stored.createTable(create.draft(), false);
    TableDescriptor li = stored.table("PUBLIC", "LI").orElseThrow();
    PlanNode upper = ((StatementPlan.Query) ddl.plan("SELECT UPPER(NAME) FROM LI").plan()).root();
    Expr upperName = ((ScanNode) upper).projection().get(0);
    table =
        li.withIndexes(
            List.of(
                new IndexDescriptor(
                    1,
                    "LI_PRICE",
                    List.of(part(li, "PRICE", SortOrder.DESC)),
                    List.of(li.columnIndex("QTY").orElseThrow()),
                    IndexDescriptor.State.ACTIVE),
                new IndexDescriptor(
                    2,
                    "LI_QTY_NAME",
                    List.of(part(li, "QTY", SortOrder.ASC), part(li, "NAME", SortOrder.DESC)),
                    List.of(),
                    IndexDescriptor.State.ACTIVE),
                new IndexDescriptor(
                    3,
                    "LI_UPPER",
                    List.of(
                        new IndexDescriptor.IndexColumn(upperName, "UPPER(NAME)", SortOrder.ASC)),
                    List.of(li.columnIndex("PRICE").orElseThrow()),
                    IndexDescriptor.State.ACTIVE)));
    kv = store.table(li.kvTableName()).orElseThrow();
    planner =
        new CairnPlanner(new TestIndexScanLayout.OneTableCatalog(stored, table), t -> 1_000_000);
    Random random = new Random(Long.getLong("cairn.test.seed", 20261126L));
    for (int i = 0; i < ROWS; i++) {
      rows.add(
          new Object[] {
            i / 4,
            i % 4,
            random.nextInt(9) == 0 ? null : BigDecimal.valueOf(random.nextInt(400), 2),
            random.nextInt(7) == 0 ? null : random.nextInt(40) - 5,
            random.nextInt(8) == 0 ? null : (random.nextBoolean() ? "n" : "N") + random.nextInt(30)
          });
    }
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private static IndexDescriptor.IndexColumn part(TableDescriptor t, String name, SortOrder o) {
    int c = t.columnIndex(name).orElseThrow();
    return new IndexDescriptor.IndexColumn(
        new Expr.ColumnRef(c, t.columns().get(c).type()), name, o);
  }

  private ScanNode scan(String sql) {
    PlanNode node = ((StatementPlan.Query) planner.plan(sql).plan()).root();
    while (!(node instanceof ScanNode)) {
      node = node.inputs().get(0);
    }
    return (ScanNode) node;
  }

  /** The entries of {@code index} for the test's rows, keyed without the index's prefix/suffix. */
  private TreeMap<Bytes, Bytes> entries(IndexDescriptor index, EvalContext eval) {
    RowLayout layout = index.spec().entryLayout(table.layout());
    RowCodec codec = new RowCodec(layout);
    TreeMap<Bytes, Bytes> entries = new TreeMap<>();
    for (Object[] row : rows) {
      List<Object> entry = new ArrayList<>();
      for (IndexDescriptor.IndexColumn c : index.columns()) {
        entry.add(ExprCompiler.compile(c.expr()).evaluate(row, eval));
      }
      for (var k : table.primaryKey()) {
        entry.add(row[k.columnIndex()]);
      }
      for (int c : index.include()) {
        entry.add(row[c]);
      }
      Object[] values = entry.toArray();
      entries.put(codec.encodeKey(values), codec.encodeValue(values));
    }
    return entries;
  }

  private List<String> run(Map<Bytes, Bytes> data, ScanProgram program, EvalContext eval) {
    Iterator<Map.Entry<Bytes, Bytes>> it = data.entrySet().iterator();
    HeapRowCursor cursor =
        new HeapRowCursor() {
          @Override
          public boolean next() {
            if (!it.hasNext()) {
              return false;
            }
            Map.Entry<Bytes, Bytes> e = it.next();
            setCurrent(e.getKey(), e.getValue());
            return true;
          }

          @Override
          public void close() {}
        };
    List<String> out = new ArrayList<>();
    try (ProgramScanner scanner = new ProgramScanner(cursor, program, eval)) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        out.add(java.util.Arrays.toString(row));
      }
    }
    out.sort(null);
    return out;
  }

  private static Map<Bytes, Bytes> within(TreeMap<Bytes, Bytes> data, List<KeyRange> ranges) {
    Map<Bytes, Bytes> in = new TreeMap<>();
    for (KeyRange r : ranges) {
      data.forEach(
          (k, v) -> {
            if (k.compareTo(r.start()) >= 0 && (r.stop().isEmpty() || k.compareTo(r.stop()) < 0)) {
              in.put(k, v);
            }
          });
    }
    return in;
  }

  private void check(String sql, String index, Object... parameters) {
    EvalContext eval = new EvalContext(parameters, LocalDateTime.of(2026, 11, 26, 12, 0));
    ScanNode node = scan(sql);
    IndexScan read = node.index().orElseThrow(() -> new AssertionError("no index for " + sql));
    assertThat(read.index().name()).as(sql).isEqualTo(index);
    assertThat(read.covered()).as(sql).isTrue();
    ScanLayout layout = ScanLayout.of(node, kv, eval, 1);
    assertThat(layout.index().lookup()).as(sql).isFalse();
    RowLayout entryLayout = read.entryLayout(table);
    List<KeyRange> ranges =
        KeyRangeBuilder.ranges(entryLayout, new RowCodec(entryLayout), read.keys(), eval);
    Map<Bytes, Bytes> read0 = within(entries(read.index(), eval), ranges);
    List<String> viaIndex = run(read0, layout.program(node), eval);
    RowCodec tableCodec = new RowCodec(table.layout());
    TreeMap<Bytes, Bytes> tableRows = new TreeMap<>();
    for (Object[] row : rows) {
      tableRows.put(tableCodec.encodeKey(row), tableCodec.encodeValue(row));
    }
    ScanNode plain = node.withIndex(Optional.empty());
    List<String> viaTable = run(tableRows, ScanLayout.of(plain, kv, eval, 1).program(plain), eval);
    assertThat(viaIndex).as(sql).isEqualTo(viaTable);
    assertThat(read0.size()).as("entries read for " + sql).isLessThan(ROWS);
  }

  @Test
  void coveredProgramsOverEntriesGiveTheTablesRows() {
    check("SELECT OKEY, LNO, QTY FROM LI WHERE PRICE = 1.5", "LI_PRICE");
    check("SELECT OKEY, PRICE, QTY FROM LI WHERE PRICE > 0.5 AND PRICE <= 2", "LI_PRICE");
    check("SELECT COUNT(*), SUM(QTY), MAX(LNO) FROM LI WHERE PRICE < ?", "LI_PRICE", bd("1.2"));
    check("SELECT LNO, OKEY FROM LI WHERE PRICE IN (0.1, 2.5, 3.99, 77)", "LI_PRICE");
    check("SELECT OKEY, NAME FROM LI WHERE QTY = 7", "LI_QTY_NAME");
    check("SELECT OKEY, NAME, QTY FROM LI WHERE QTY = ? AND NAME > 'n2'", "LI_QTY_NAME", 3);
    check("SELECT NAME, COUNT(*) FROM LI WHERE QTY IN (1, 2, 30) GROUP BY NAME", "LI_QTY_NAME");
    check("SELECT OKEY, PRICE FROM LI WHERE UPPER(NAME) = 'N7'", "LI_UPPER");
    check(
        "SELECT UPPER(NAME), SUM(PRICE) FROM LI WHERE UPPER(NAME) BETWEEN 'N1' AND 'N3'"
            + " GROUP BY UPPER(NAME)",
        "LI_UPPER");
  }

  private static BigDecimal bd(String s) {
    return new BigDecimal(s);
  }
}
