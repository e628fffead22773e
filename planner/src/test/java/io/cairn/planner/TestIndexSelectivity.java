package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexStatistics;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvStore;
import io.cairn.kv.TableStatistics;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The choice between a table and its local index follows the index's statistics (issue 17): rows
 * estimated from the guide posts the scan's key range covers, equality from the distinct values of
 * the first key part; without statistics, the fixed fractions.
 */
class TestIndexSelectivity {
  private static final long ROWS = 1_000_000;

  private KvStore store;
  private Catalog catalog;
  private TableDescriptor table;
  private IndexDescriptor index;

  /** The statistics the planner is given for the index; empty: none. */
  private Optional<IndexStatistics> statistics = Optional.empty();

  private CairnPlanner planner;

  @BeforeEach
  void createTableAndIndex() {
    store = Stores.inMemory("index-selectivity");
    catalog = Catalog.open(store);
    CairnPlanner ddl = new CairnPlanner(catalog);
    StatementPlan.CreateTable create =
        (StatementPlan.CreateTable)
            ddl.plan(
                    "CREATE TABLE T (ID INTEGER PRIMARY KEY, Q INTEGER, NAME VARCHAR(20),"
                        + " NOTE VARCHAR(40))")
                .plan();
    catalog.createTable(create.draft(), false);
    StatementPlan.CreateIndex index =
        (StatementPlan.CreateIndex) ddl.plan("CREATE INDEX T_Q ON T (Q)").plan();
    catalog.createIndex(index.schemaName(), index.tableName(), index.draft(), false, null);
    table = catalog.table("PUBLIC", "T").orElseThrow();
    this.index = table.index("T_Q").orElseThrow();
    planner =
        new CairnPlanner(
            catalog,
            t -> ROWS,
            (t, i) -> i.indexId() == this.index.indexId() ? statistics : Optional.empty());
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  /** The entry key where Q's value {@code q} starts ({@code null}: the index's first key). */
  private Bytes at(Integer q) {
    if (q == null) {
      return IndexKeys.prefix(index.indexId());
    }
    RowCodec codec = new RowCodec(index.spec().entryLayout(table.layout()));
    return IndexKeys.range(index.indexId(), KeyRange.prefix(codec.encodeKeyPrefix(List.of(q))))
        .start();
  }

  /**
   * Statistics of one region whose chunks start at {@code starts} (entry keys, the first the
   * index's first key) holding {@code rows} each.
   */
  private void statistics(List<Bytes> starts, List<Long> rows, long distinct) {
    List<TableStatistics.Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < starts.size(); i++) {
      Bytes stop =
          i + 1 < starts.size() ? starts.get(i + 1) : IndexKeys.range(index.indexId()).stop();
      chunks.add(new TableStatistics.Chunk(1, starts.get(i), stop, rows.get(i), rows.get(i) * 30));
    }
    statistics =
        Optional.of(new IndexStatistics(index.indexId(), 1000, chunks, distinct, distinct, 1));
  }

  /** Q = 5 holds 80% of the rows (two whole chunks); the other values share the rest. */
  private void skewed(long distinct) {
    Bytes middleOfFive = at(5).concat(Bytes.wrap(new byte[] {0x01, 0x40}));
    statistics(
        List.of(at(null), at(5), middleOfFive, at(6)),
        List.of(100_000L, 400_000L, 400_000L, 100_000L),
        distinct);
  }

  private String chosen(String sql) {
    List<ScanNode> scans = new ArrayList<>();
    collect(((StatementPlan.Query) planner.plan(sql).plan()).root(), scans);
    assertThat(scans).hasSize(1);
    return scans
        .get(0)
        .index()
        .map(i -> i.index().name() + (i.covered() ? " covered" : " lookup"))
        .orElse("");
  }

  private static void collect(PlanNode node, List<ScanNode> scans) {
    if (node instanceof ScanNode s) {
      scans.add(s);
    }
    for (PlanNode input : node.inputs()) {
      collect(input, scans);
    }
  }

  @Test
  void withoutStatisticsTheFixedFractionsDecide() {
    assertThat(chosen("SELECT * FROM T WHERE Q = 5")).isEqualTo("T_Q lookup");
    assertThat(chosen("SELECT ID FROM T WHERE Q > 10")).isEqualTo("T_Q covered");
    assertThat(chosen("SELECT * FROM T WHERE Q > 10")).isEmpty();
  }

  @Test
  void aValueHoldingMostRowsIsReadFromTheTable() {
    skewed(100);
    assertThat(chosen("SELECT * FROM T WHERE Q = 5")).as("80% of the rows, looked up").isEmpty();
    assertThat(chosen("SELECT * FROM T WHERE Q = 7")).as("inside a chunk").isEqualTo("T_Q lookup");
    assertThat(chosen("SELECT * FROM T WHERE Q IN (5, 7)")).isEmpty();
    assertThat(chosen("SELECT * FROM T WHERE Q IN (7, 8)")).isEqualTo("T_Q lookup");
    assertThat(chosen("SELECT ID FROM T WHERE Q BETWEEN 2 AND 3")).isEqualTo("T_Q covered");
    assertThat(chosen("SELECT * FROM T WHERE Q < 5")).isEqualTo("T_Q lookup");
    assertThat(chosen("SELECT * FROM T WHERE Q <= 5")).isEmpty();
  }

  @Test
  void aRangeCoveringMostOfTheIndexReadsTheTableANarrowOneTheIndex() {
    // Q uniform over 0..99: one chunk of 10,000 rows per value
    List<Bytes> starts = new ArrayList<>();
    List<Long> rows = new ArrayList<>();
    for (int q = 0; q < 100; q++) {
      starts.add(q == 0 ? at(null) : at(q));
      rows.add(ROWS / 100);
    }
    statistics(starts, rows, 100);
    assertThat(chosen("SELECT ID, NOTE FROM T WHERE Q >= 1")).as("99% looked up").isEmpty();
    assertThat(chosen("SELECT ID, NOTE FROM T WHERE Q < 30")).as("30% looked up").isEmpty();
    assertThat(chosen("SELECT ID, NOTE FROM T WHERE Q < 3")).isEqualTo("T_Q lookup");
    assertThat(chosen("SELECT ID, NOTE FROM T WHERE Q > 96")).isEqualTo("T_Q lookup");
  }

  @Test
  void distinctValuesGiveTheEqualityOfAParameter() {
    skewed(2); // two values: one is half the rows
    assertThat(chosen("SELECT * FROM T WHERE Q = ?")).isEmpty();
    skewed(1000);
    assertThat(chosen("SELECT ID FROM T WHERE Q = ?")).isEqualTo("T_Q covered");
    assertThat(chosen("SELECT ID, NOTE FROM T WHERE Q = ?")).isEqualTo("T_Q lookup");
  }

  @Test
  void unknownCountsFallBackToTheFixedFractions() {
    statistics(List.of(at(null)), List.of(-1L), -1);
    assertThat(chosen("SELECT * FROM T WHERE Q = 5")).isEqualTo("T_Q lookup");
    assertThat(chosen("SELECT * FROM T WHERE Q > 10")).isEmpty();
  }
}
