package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.Catalog;
import io.cairn.kv.KvStore;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When a scan of a local index takes its ORDER BY from the index's order ({@link
 * ScanNode#orderFromIndex()}, issue 17): the sort keys are the entry key's columns (the parts, then
 * the primary key) after the parts fixed by equality, in the index's directions, NULLs where the
 * encoding puts them; and EXPLAIN says so.
 */
class TestIndexOrder {
  private KvStore store;
  private CairnPlanner planner;

  @BeforeEach
  void createTable() {
    store = Stores.inMemory("index-order");
    Catalog catalog = Catalog.open(store);
    planner = new CairnPlanner(catalog, t -> 1_000_000);
    for (String sql :
        List.of(
            "CREATE TABLE T (K1 INTEGER NOT NULL, K2 INTEGER NOT NULL, A INTEGER, B VARCHAR(10),"
                + " C INTEGER NOT NULL, D INTEGER, CONSTRAINT PK PRIMARY KEY (K1, K2 DESC))",
            "CREATE INDEX T_A ON T (A) INCLUDE (D)",
            "CREATE INDEX T_AB ON T (A, B DESC)",
            "CREATE INDEX T_C ON T (C DESC)",
            "CREATE INDEX T_UB ON T (UPPER(B))")) {
      StatementPlan plan = planner.plan(sql).plan();
      if (plan instanceof StatementPlan.CreateTable create) {
        catalog.createTable(create.draft(), false);
      } else {
        StatementPlan.CreateIndex index = (StatementPlan.CreateIndex) plan;
        catalog.createIndex(index.schemaName(), index.tableName(), index.draft(), false, n -> {});
      }
    }
    planner = new CairnPlanner(catalog, t -> 1_000_000);
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

  /** Whether {@code sql} (with index {@code index} forced) takes its order from the index. */
  private boolean fromIndex(String index, String sql) {
    ScanNode scan = scan(sql.replaceFirst("^SELECT ", "SELECT /*+ INDEX(T " + index + ") */ "));
    assertThat(scan.index()).as(sql).isPresent();
    return scan.orderFromIndex();
  }

  @Test
  void theIndexsPartsThenThePrimaryKeyInTheirDirections() {
    assertThat(fromIndex("T_A", "SELECT A FROM T ORDER BY A")).isTrue();
    assertThat(fromIndex("T_A", "SELECT A, D FROM T ORDER BY A LIMIT 5")).isTrue();
    assertThat(fromIndex("T_A", "SELECT A, K1 FROM T ORDER BY A, K1, K2 DESC")).isTrue();
    assertThat(fromIndex("T_A", "SELECT A, K1, B FROM T ORDER BY A, K1")).isTrue(); // lookup
    assertThat(fromIndex("T_AB", "SELECT A, B FROM T ORDER BY A, B DESC")).isTrue();
    assertThat(fromIndex("T_AB", "SELECT A, B FROM T ORDER BY A, B DESC NULLS LAST")).isTrue();
    assertThat(fromIndex("T_C", "SELECT C FROM T ORDER BY C DESC")).isTrue();
    // C is NOT NULL: where NULLs would go does not matter
    assertThat(fromIndex("T_C", "SELECT C FROM T ORDER BY C DESC NULLS FIRST")).isTrue();
    assertThat(fromIndex("T_UB", "SELECT UPPER(B) FROM T ORDER BY UPPER(B)")).isTrue();
    // a key the output repeats, an expression of a column the output names otherwise
    assertThat(fromIndex("T_A", "SELECT A AS X, A AS Y FROM T ORDER BY X, Y DESC")).isTrue();
  }

  @Test
  void partsFixedByEqualityMayBeLeftOutOrKept() {
    assertThat(fromIndex("T_AB", "SELECT B FROM T WHERE A = 3 ORDER BY B DESC")).isTrue();
    assertThat(fromIndex("T_AB", "SELECT A, B FROM T WHERE A = 3 ORDER BY A DESC, B DESC"))
        .isTrue();
    assertThat(fromIndex("T_AB", "SELECT B, K1 FROM T WHERE A = ? ORDER BY B DESC, K1")).isTrue();
    assertThat(fromIndex("T_A", "SELECT K1 FROM T WHERE A = 3 ORDER BY K1, K2 DESC")).isTrue();
    // an IN list fixes no part: its values come one after the other
    assertThat(fromIndex("T_AB", "SELECT B FROM T WHERE A IN (3, 4) ORDER BY B DESC")).isFalse();
    assertThat(fromIndex("T_AB", "SELECT A, B FROM T WHERE A IN (3, 4) ORDER BY A, B DESC"))
        .isTrue();
  }

  @Test
  void otherOrdersAreSorted() {
    assertThat(fromIndex("T_A", "SELECT A FROM T ORDER BY A DESC")).isFalse(); // no backward scan
    assertThat(fromIndex("T_A", "SELECT A FROM T ORDER BY A NULLS LAST")).isFalse();
    assertThat(fromIndex("T_A", "SELECT A FROM T ORDER BY A DESC NULLS FIRST")).isFalse();
    assertThat(fromIndex("T_A", "SELECT A, D FROM T ORDER BY D")).isFalse(); // included
    assertThat(fromIndex("T_A", "SELECT A, K1 FROM T ORDER BY K1")).isFalse();
    assertThat(fromIndex("T_A", "SELECT A, K2 FROM T ORDER BY A, K2 DESC")).isFalse(); // K1 first
    assertThat(fromIndex("T_A", "SELECT A, K1 FROM T ORDER BY A, K1 DESC")).isFalse();
    assertThat(fromIndex("T_AB", "SELECT A, B FROM T ORDER BY A, B")).isFalse();
    assertThat(fromIndex("T_AB", "SELECT A, B FROM T ORDER BY B DESC")).isFalse();
    assertThat(fromIndex("T_UB", "SELECT B FROM T ORDER BY B")).isFalse();
    // a table scan never
    assertThat(scan("SELECT /*+ NO_INDEX */ A FROM T WHERE A = 3 ORDER BY A").orderFromIndex())
        .isFalse();
  }

  /** Whether {@code sql} (with index {@code index} forced) aggregates its groups as they come. */
  private boolean groupsFromIndex(String index, String sql) {
    ScanNode scan = scan(sql.replaceFirst("^SELECT ", "SELECT /*+ INDEX(T " + index + ") */ "));
    assertThat(scan.index()).as(sql).isPresent();
    assertThat(scan.hasAggregates()).as(sql).isTrue();
    return scan.groupsFromIndex();
  }

  @Test
  void groupsOfTheLeadingEntryColumnsComeTogether() {
    assertThat(groupsFromIndex("T_A", "SELECT A, COUNT(*) FROM T GROUP BY A")).isTrue();
    assertThat(groupsFromIndex("T_A", "SELECT A, SUM(D) FROM T GROUP BY A")).isTrue();
    assertThat(groupsFromIndex("T_A", "SELECT DISTINCT A FROM T")).isTrue();
    assertThat(groupsFromIndex("T_A", "SELECT A, K1, COUNT(*) FROM T GROUP BY A, K1")).isTrue();
    assertThat(groupsFromIndex("T_AB", "SELECT A, B, COUNT(*) FROM T GROUP BY A, B")).isTrue();
    assertThat(groupsFromIndex("T_AB", "SELECT B, A, COUNT(*) FROM T GROUP BY B, A")).isTrue();
    assertThat(groupsFromIndex("T_AB", "SELECT B, COUNT(*) FROM T WHERE A = 3 GROUP BY B"))
        .isTrue();
    assertThat(groupsFromIndex("T_UB", "SELECT UPPER(B), COUNT(*) FROM T GROUP BY UPPER(B)"))
        .isTrue();
    // not a prefix of the entry key: hashed
    assertThat(groupsFromIndex("T_AB", "SELECT B, COUNT(*) FROM T GROUP BY B")).isFalse();
    assertThat(groupsFromIndex("T_AB", "SELECT A, K1, COUNT(*) FROM T GROUP BY A, K1")).isFalse();
    assertThat(groupsFromIndex("T_A", "SELECT D, COUNT(*) FROM T GROUP BY D")).isFalse();
    assertThat(groupsFromIndex("T_AB", "SELECT B, COUNT(*) FROM T WHERE A IN (3, 4) GROUP BY B"))
        .isFalse();
    // no GROUP BY: one row anyway
    assertThat(groupsFromIndex("T_A", "SELECT COUNT(*) FROM T WHERE A = 3")).isFalse();
    List<String> lines =
        ((StatementPlan.Explain)
                planner
                    .plan("EXPLAIN SELECT /*+ INDEX(T T_A) */ A, COUNT(*) FROM T GROUP BY A")
                    .plan())
            .lines();
    assertThat(lines.stream().map(String::strip))
        .contains("SERVER AGGREGATE INTO ORDERED DISTINCT ROWS BY [A] COMPUTE COUNT(*)");
  }

  @Test
  void explainSaysTheOrderComesFromTheIndex() {
    List<String> lines =
        ((StatementPlan.Explain)
                planner
                    .plan(
                        "EXPLAIN SELECT /*+ INDEX(T T_AB) */ B FROM T WHERE A = 3"
                            + " ORDER BY B DESC LIMIT 10 OFFSET 2")
                    .plan())
            .lines();
    assertThat(lines.stream().map(String::strip))
        .containsExactly(
            "CLIENT MERGE SORT",
            "SERVER SCAN INDEX T_AB ON PUBLIC.T (covered) RANGE [3]",
            "SERVER FILTER BY (A = 3)",
            "SERVER PROJECT B",
            "SERVER ORDER BY [B DESC] (index order)",
            "SERVER OFFSET 2",
            "SERVER 10 ROW LIMIT");
    List<String> sorted =
        ((StatementPlan.Explain)
                planner
                    .plan("EXPLAIN SELECT /*+ INDEX(T T_AB) */ B FROM T WHERE A = 3 ORDER BY B")
                    .plan())
            .lines();
    assertThat(sorted.stream().map(String::strip)).contains("SERVER SORTED BY [B]");
  }
}
