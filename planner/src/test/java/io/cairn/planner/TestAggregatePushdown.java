package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.agg.AggregateKind;
import io.cairn.core.catalog.Catalog;
import io.cairn.core.type.DataType;
import io.cairn.kv.KvStore;
import io.cairn.planner.plan.AggregateNode;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which aggregations run inside the store's scan (partial states merged by the client) and which
 * stay on the client; pins the EXPLAIN text of both.
 */
class TestAggregatePushdown {
  private KvStore store;
  private CairnPlanner planner;

  @BeforeEach
  void createTables() {
    store = Stores.inMemory("pushdown");
    Catalog catalog = Catalog.open(store);
    planner = new CairnPlanner(catalog);
    for (String ddl :
        List.of(
            "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(5) NOT NULL, QTY INTEGER,"
                + " PRICE DECIMAL(5,2), D DATE, X DOUBLE)",
            "CREATE TABLE K (A VARCHAR(10) NOT NULL, B BIGINT NOT NULL, C DOUBLE,"
                + " CONSTRAINT PK PRIMARY KEY (A, B DESC))")) {
      StatementPlan.CreateTable create = (StatementPlan.CreateTable) planner.plan(ddl).plan();
      catalog.createTable(create.draft(), false);
    }
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private List<String> explain(String sql) {
    return ((StatementPlan.Explain) planner.plan("EXPLAIN " + sql).plan()).lines();
  }

  private StatementPlan.Query query(String sql) {
    return (StatementPlan.Query) planner.plan(sql).plan();
  }

  @Test
  void countWithAFilterRunsInTheScan() {
    assertThat(explain("SELECT COUNT(*) FROM T WHERE QTY < 10"))
        .containsExactly(
            "CLIENT MERGE AGGREGATE INTO SINGLE ROW",
            "    SERVER FULL SCAN OVER PUBLIC.T",
            "        SERVER FILTER BY (QTY < 10)",
            "        SERVER AGGREGATE INTO SINGLE ROW COMPUTE COUNT(*)");
    AggregateNode merge = (AggregateNode) query("SELECT COUNT(*) FROM T WHERE QTY < 10").root();
    assertThat(merge.step()).isEqualTo(AggregateNode.Step.FINAL);
    ScanNode scan = (ScanNode) merge.input();
    assertThat(scan.projection()).isEmpty(); // COUNT(*) reads no column
    assertThat(scan.aggregates())
        .extracting(c -> c.kind())
        .containsExactly(AggregateKind.COUNT_STAR);
    assertThat(scan.outputTypes()).containsExactly(DataType.BIGINT.withNullable(false));
  }

  @Test
  void everySplittableFunctionRunsInTheScan() {
    assertThat(
            explain(
                "SELECT COUNT(QTY), SUM(QTY), MIN(NAME), MAX(D), AVG(PRICE * 2), SUM(X),"
                    + " EVERY(QTY > 1), ANY_VALUE(NAME) FROM T"))
        .containsExactly(
            "CLIENT MERGE AGGREGATE INTO SINGLE ROW",
            "    SERVER FULL SCAN OVER PUBLIC.T",
            "        SERVER AGGREGATE INTO SINGLE ROW COMPUTE COUNT(QTY), SUM(QTY), MIN(NAME),"
                + " MAX(D), AVG((PRICE * 2)), SUM(X), MIN((QTY > 1)), ANY_VALUE(NAME)");
  }

  @Test
  void keyRangesAndClientOperatorsAbove() {
    assertThat(explain("SELECT SUM(B), COUNT(*) FROM K WHERE A = 'x' AND B >= 5"))
        .containsExactly(
            "CLIENT MERGE AGGREGATE INTO SINGLE ROW",
            "    SERVER RANGE SCAN OVER PUBLIC.K ['x',5 - 'x',*]",
            "        SERVER FILTER BY ((A = 'x') AND (B >= 5))",
            "        SERVER AGGREGATE INTO SINGLE ROW COMPUTE SUM(B), COUNT(*)");
    assertThat(explain("SELECT COUNT(*) + 1 AS N FROM T HAVING COUNT(*) > 1"))
        .containsExactly(
            "CLIENT PROJECT ($0 + 1)",
            "    CLIENT FILTER BY ($0 > 1)",
            "        CLIENT MERGE AGGREGATE INTO SINGLE ROW",
            "            SERVER FULL SCAN OVER PUBLIC.T",
            "                SERVER AGGREGATE INTO SINGLE ROW COMPUTE COUNT(*)");
    assertThat(explain("SELECT NAME FROM T WHERE QTY > (SELECT AVG(QTY) FROM T)"))
        .contains(
            "        CLIENT MERGE AGGREGATE INTO SINGLE ROW",
            "                SERVER AGGREGATE INTO SINGLE ROW COMPUTE AVG(QTY)");
  }

  @Test
  void whatStaysOnTheClient() {
    // (GROUP BY: TestSortAndGroupPushdown)
    assertThat(explain("SELECT COUNT(*), COUNT(DISTINCT QTY) FROM T"))
        .containsExactly(
            "CLIENT AGGREGATE INTO SINGLE ROW COMPUTE COUNT(*), COUNT(DISTINCT $0)",
            "    SERVER FULL SCAN OVER PUBLIC.T",
            "        SERVER PROJECT QTY");
    assertThat(explain("SELECT SUM(QTY) FILTER (WHERE QTY > 1) FROM T"))
        .containsExactly(
            "CLIENT AGGREGATE INTO SINGLE ROW COMPUTE SUM($0)",
            "    SERVER FULL SCAN OVER PUBLIC.T",
            "        SERVER PROJECT QTY, IS_TRUE((QTY > 1))");
    assertThat(explain("SELECT COUNT(*) FROM (SELECT * FROM T LIMIT 2)"))
        .containsExactly(
            "CLIENT AGGREGATE INTO SINGLE ROW COMPUTE COUNT(*)",
            "    SERVER FULL SCAN OVER PUBLIC.T",
            "        SERVER PROJECT ",
            "        SERVER 2 ROW LIMIT");
    assertThat(explain("SELECT COUNT(*) FROM T, K").get(0))
        .isEqualTo("CLIENT AGGREGATE INTO SINGLE ROW COMPUTE COUNT(*)");
    // a scalar subquery's SINGLE_VALUE must see every row: it fails on the second
    assertThat(explain("SELECT (SELECT QTY FROM T WHERE NAME = 'a') FROM K"))
        .contains("        CLIENT AGGREGATE INTO SINGLE ROW COMPUTE SINGLE_VALUE($0)");
  }

  @Test
  void resultTypesAreThoseOfTheClientAggregation() {
    String calls =
        "COUNT(*), COUNT(QTY), SUM(QTY), SUM(PRICE), SUM(X), AVG(QTY), AVG(PRICE),"
            + " AVG(X), MIN(NAME), MAX(D), MIN(PRICE)";
    StatementPlan.Query pushed = query("SELECT " + calls + " FROM T WHERE ID > 2");
    StatementPlan.Query client =
        query("SELECT " + calls + " FROM (SELECT * FROM T WHERE ID > 2 LIMIT 1000000)");
    assertThat(steps(pushed.root())).contains(AggregateNode.Step.FINAL);
    assertThat(steps(client.root())).containsExactly(AggregateNode.Step.SINGLE);
    assertThat(pushed.root().outputTypes()).isEqualTo(client.root().outputTypes());
    assertThat(pushed.columns()).isEqualTo(client.columns());
  }

  private static List<AggregateNode.Step> steps(PlanNode node) {
    List<AggregateNode.Step> steps = new ArrayList<>();
    if (node instanceof AggregateNode a) {
      steps.add(a.step());
    }
    for (PlanNode input : node.inputs()) {
      steps.addAll(steps(input));
    }
    return steps;
  }
}
