package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.Catalog;
import io.cairn.kv.KvStore;
import io.cairn.kv.SortKey;
import io.cairn.planner.plan.AggregateNode;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which GROUP BYs, ORDER BYs, OFFSETs and FETCHes run inside the store's scan and which stay on the
 * client; pins the EXPLAIN text of both (the aggregations without GROUP BY: TestAggregatePushdown).
 */
class TestSortAndGroupPushdown {
  private KvStore store;
  private CairnPlanner planner;

  @BeforeEach
  void createTables() {
    store = Stores.inMemory("pushdown2");
    Catalog catalog = Catalog.open(store);
    planner = new CairnPlanner(catalog);
    for (String ddl :
        List.of(
            "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(5) NOT NULL, QTY INTEGER,"
                + " PRICE DECIMAL(5,2), D DATE, X DOUBLE)")) {
      StatementPlan.CreateTable create = (StatementPlan.CreateTable) planner.plan(ddl).plan();
      catalog.createTable(create.draft(), false);
    }
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private StatementPlan.Query query(String sql) {
    return (StatementPlan.Query) planner.plan(sql).plan();
  }

  private List<String> explain(String sql) {
    return ((StatementPlan.Explain) planner.plan("EXPLAIN " + sql).plan()).lines();
  }

  @Test
  void groupByOverAScanRunsPartialInTheStore() {
    assertThat(
            explain(
                "SELECT NAME, COUNT(*), SUM(PRICE), AVG(QTY) FROM T WHERE QTY > 1 GROUP BY NAME"))
        .containsExactly(
            "CLIENT MERGE AGGREGATE INTO DISTINCT ROWS BY [NAME]",
            "    SERVER FULL SCAN OVER PUBLIC.T",
            "        SERVER FILTER BY (QTY > 1)",
            "        SERVER AGGREGATE INTO DISTINCT ROWS BY [NAME] COMPUTE COUNT(*), SUM(PRICE),"
                + " AVG(QTY)");
    PlanNode root = query("SELECT NAME, COUNT(*), SUM(PRICE) FROM T GROUP BY NAME").root();
    assertThat(root)
        .isInstanceOfSatisfying(
            AggregateNode.class,
            a -> {
              assertThat(a.step()).isEqualTo(AggregateNode.Step.FINAL);
              assertThat(a.groupKeys()).containsExactly(0);
              assertThat(a.input())
                  .isInstanceOfSatisfying(
                      ScanNode.class,
                      scan -> {
                        assertThat(scan.groupBy()).containsExactly(0);
                        assertThat(scan.aggregates()).hasSize(2);
                        assertThat(scan.outputTypes()).hasSize(1 + 1 + 1);
                      });
            });
    // keys that are expressions, grouped by two, and an ORDER BY on the merged groups
    assertThat(
            explain(
                "SELECT QTY + 1, NAME, MAX(D), MIN(NAME) FROM T GROUP BY NAME, QTY + 1"
                    + " ORDER BY 3 DESC LIMIT 3"))
        .containsExactly(
            "CLIENT TOP-N SORT BY $2 DESC NULLS LAST LIMIT 3",
            "    CLIENT PROJECT $1, $0, $2, $3",
            "        CLIENT MERGE AGGREGATE INTO DISTINCT ROWS BY [NAME, (QTY + 1)]",
            "            SERVER FULL SCAN OVER PUBLIC.T",
            "                SERVER AGGREGATE INTO DISTINCT ROWS BY [NAME, (QTY + 1)] COMPUTE"
                + " MAX(D), MIN(NAME)");
  }

  @Test
  void distinctRunsAsAGroupingInTheStore() {
    assertThat(explain("SELECT DISTINCT NAME FROM T"))
        .containsExactly(
            "CLIENT PROJECT $0",
            "    CLIENT MERGE AGGREGATE INTO DISTINCT ROWS BY [NAME]",
            "        SERVER FULL SCAN OVER PUBLIC.T",
            "            SERVER AGGREGATE INTO DISTINCT ROWS BY [NAME] COMPUTE COUNT(*)");
  }

  @Test
  void whatStaysOnTheClient() {
    // DISTINCT calls have no partial state
    assertThat(explain("SELECT NAME, COUNT(DISTINCT QTY) FROM T GROUP BY NAME"))
        .containsExactly(
            "CLIENT AGGREGATE GROUP BY $0 COMPUTE COUNT(DISTINCT $1)",
            "    SERVER FULL SCAN OVER PUBLIC.T",
            "        SERVER PROJECT NAME, QTY");
    // grouping sets
    assertThat(explain("SELECT NAME, QTY, COUNT(*) FROM T GROUP BY ROLLUP(NAME, QTY)").get(0))
        .startsWith("CLIENT AGGREGATE GROUP BY $0, $1");
    // FILTER clauses
    assertThat(explain("SELECT NAME, SUM(QTY) FILTER (WHERE QTY > 1) FROM T GROUP BY NAME").get(0))
        .isEqualTo("CLIENT AGGREGATE GROUP BY $0 COMPUTE SUM($1)");
    // a grouping over a limited scan
    assertThat(explain("SELECT NAME, COUNT(*) FROM (SELECT * FROM T LIMIT 5) GROUP BY NAME").get(0))
        .isEqualTo("CLIENT AGGREGATE GROUP BY $0 COMPUTE COUNT(*)");
    // an ORDER BY over a join on the client (probed in the store, the scan sorts)
    assertThat(
            explain(
                    "SELECT /*+ NO_SERVER_JOIN */ A.NAME FROM T A JOIN T B ON A.ID = B.QTY"
                        + " ORDER BY A.QTY")
                .get(1))
        .startsWith("    CLIENT SORT BY");
    assertThat(explain("SELECT A.NAME FROM T A JOIN T B ON A.ID = B.QTY ORDER BY A.QTY"))
        .containsSubsequence(
            "    CLIENT MERGE SORT",
            "        SERVER FULL SCAN OVER PUBLIC.T",
            "            SERVER HASH JOIN PROBE INNER ON ID = $B0 (build:)",
            "            SERVER SORTED BY [QTY]");
  }

  @Test
  void orderByOverAScanSortsInTheStore() {
    assertThat(explain("SELECT * FROM T ORDER BY QTY DESC LIMIT 10"))
        .containsExactly(
            "CLIENT MERGE SORT",
            "    SERVER FULL SCAN OVER PUBLIC.T",
            "        SERVER PROJECT ID, NAME, QTY, PRICE, D, X",
            "        SERVER TOP 10 ROWS SORTED BY [QTY DESC]");
    assertThat(explain("SELECT NAME FROM T ORDER BY QTY NULLS LAST OFFSET 5 ROWS"))
        .containsExactly(
            "CLIENT PROJECT $0",
            "    CLIENT MERGE SORT",
            "        SERVER FULL SCAN OVER PUBLIC.T",
            "            SERVER PROJECT NAME, QTY",
            "            SERVER SORTED BY [QTY NULLS LAST]",
            "            SERVER OFFSET 5");
    // the projection folds into the sorted scan: the key is one of its entries
    assertThat(explain("SELECT NAME, QTY + 1 FROM T WHERE ID > 3 ORDER BY QTY + 1, NAME LIMIT 2"))
        .containsExactly(
            "CLIENT MERGE SORT",
            "    SERVER RANGE SCAN OVER PUBLIC.T (3 - *]",
            "        SERVER FILTER BY (ID > 3)",
            "        SERVER PROJECT NAME, (QTY + 1)",
            "        SERVER TOP 2 ROWS SORTED BY [(QTY + 1), NAME]");
    PlanNode root = query("SELECT ID, NAME FROM T ORDER BY NAME DESC NULLS FIRST, ID").root();
    assertThat(root)
        .isInstanceOfSatisfying(
            ScanNode.class,
            scan ->
                assertThat(scan.orderBy())
                    .containsExactly(new SortKey(1, true, true), new SortKey(0, false, true)));
  }

  @Test
  void parameterOffsetsAndLimitsStayOnTheClient() {
    assertThat(explain("SELECT NAME FROM T ORDER BY NAME DESC LIMIT ?"))
        .containsExactly(
            "CLIENT LIMIT ?1",
            "    CLIENT MERGE SORT",
            "        SERVER FULL SCAN OVER PUBLIC.T",
            "            SERVER PROJECT NAME",
            "            SERVER SORTED BY [NAME DESC]");
    assertThat(explain("SELECT NAME FROM T LIMIT 4 OFFSET ?"))
        .containsExactly(
            "CLIENT OFFSET ?1 LIMIT 4",
            "    SERVER FULL SCAN OVER PUBLIC.T",
            "        SERVER PROJECT NAME");
  }

  @Test
  void offsetAndFetchWithoutOrderGoIntoTheScan() {
    assertThat(explain("SELECT NAME FROM T OFFSET 3 ROWS FETCH NEXT 4 ROWS ONLY"))
        .containsExactly(
            "SERVER FULL SCAN OVER PUBLIC.T",
            "    SERVER PROJECT NAME",
            "    SERVER OFFSET 3",
            "    SERVER 4 ROW LIMIT");
    assertThat(explain("SELECT NAME FROM T OFFSET 3 ROWS"))
        .containsExactly(
            "SERVER FULL SCAN OVER PUBLIC.T", "    SERVER PROJECT NAME", "    SERVER OFFSET 3");
    // a filter over an offset scan stays on the client: it must see the rows after the offset
    assertThat(explain("SELECT NAME FROM (SELECT * FROM T OFFSET 3 ROWS) WHERE QTY > 2").get(0))
        .startsWith("CLIENT");
  }
}
