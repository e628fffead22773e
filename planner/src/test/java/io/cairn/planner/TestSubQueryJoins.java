package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.Catalog;
import io.cairn.kv.KvStore;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * EXISTS, NOT EXISTS, IN and NOT IN subqueries correlated by an equality and another comparison
 * become SEMI and ANTI hash joins on the equality with the rest as the join's residual ({@link
 * SubQueryJoins}), not Calcite's value generator; pins the EXPLAIN text. The answers, with NULLs,
 * are checked by the driver's TestCorrelatedSubqueryJoins.
 */
class TestSubQueryJoins {
  private KvStore store;
  private CairnPlanner planner;

  @BeforeEach
  void createTables() {
    store = Stores.inMemory("subquery-joins");
    Catalog catalog = Catalog.open(store);
    planner = new CairnPlanner(catalog);
    for (String ddl :
        List.of(
            "CREATE TABLE L (ID INTEGER PRIMARY KEY, K INTEGER, K2 VARCHAR(4), V DECIMAL(10,2))",
            "CREATE TABLE J (K1 INTEGER PRIMARY KEY, K2 VARCHAR(4), NAME VARCHAR(10))")) {
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

  @Test
  void existsWithAnEqualityAndAnInequalityIsASemiJoinWithAResidual() {
    assertThat(
            explain(
                "SELECT ID FROM L WHERE EXISTS (SELECT * FROM L L2 WHERE L2.K = L.K AND L2.ID <>"
                    + " L.ID)"))
        .containsExactly(
            "SERVER FULL SCAN OVER PUBLIC.L",
            "    SERVER HASH JOIN PROBE SEMI ON K = $B1 FILTER ($B0 <> ID) (build:)",
            "        SERVER FULL SCAN OVER PUBLIC.L",
            "            SERVER PROJECT ID, K",
            "    SERVER DYNAMIC FILTER K IN (build keys)",
            "    SERVER PROJECT ID");
  }

  /**
   * The subquery's own conditions filter its scan (the build side), which holds only the columns
   * the join reads.
   */
  @Test
  void notExistsIsAnAntiJoinWhoseBuildSideKeepsItsOwnFilter() {
    assertThat(
            explain(
                "SELECT ID FROM L WHERE NOT EXISTS (SELECT * FROM L L2 WHERE L2.K = L.K"
                    + " AND L2.ID < L.ID AND L2.V > 1)"))
        .containsExactly(
            "SERVER FULL SCAN OVER PUBLIC.L",
            "    SERVER HASH JOIN PROBE ANTI ON K = $B1 FILTER ($B0 < ID) (build:)",
            "        SERVER FULL SCAN OVER PUBLIC.L",
            "            SERVER FILTER BY (CAST(V AS DECIMAL(12,2)) > 1.00)",
            "            SERVER PROJECT ID, K",
            "    SERVER PROJECT ID");
  }

  @Test
  void inAndNotInJoinOnTheirColumnsToo() {
    assertThat(explain("SELECT ID FROM L WHERE K2 IN (SELECT K2 FROM J WHERE J.K1 < L.K)"))
        .contains("    SERVER HASH JOIN PROBE SEMI ON K2 = $B1 FILTER ($B0 < K) (build:)");
    // neither ID nor K1 can be NULL: NOT IN is NOT EXISTS with one more key
    assertThat(explain("SELECT ID FROM L WHERE ID NOT IN (SELECT K1 FROM J WHERE J.NAME < L.K2)"))
        .contains(
            "    SERVER HASH JOIN PROBE ANTI ON ID = $B0 FILTER ($B1 < CAST(K2 AS VARCHAR(10)))"
                + " (build:)");
    // K2 can be NULL on both sides: (x = y) IS NOT FALSE is a match, so it joins the residual
    assertThat(
            explain(
                "SELECT ID FROM L WHERE K2 NOT IN (SELECT K2 FROM J WHERE J.K1 = L.K"
                    + " AND J.NAME <> L.K2)"))
        .contains(
            "    SERVER HASH JOIN PROBE ANTI ON K = $B0 FILTER (($B2 <> CAST(K2 AS VARCHAR(10)))"
                + " AND IS_NOT_FALSE((K2 = $B1))) (build:)");
  }

  /** An equality of expressions is a key too; a condition on the outer row alone is residual. */
  @Test
  void expressionsAndOuterOnlyConditions() {
    assertThat(
            explain(
                "SELECT ID FROM L WHERE EXISTS (SELECT 1 FROM J WHERE J.K1 = L.K + 1"
                    + " AND J.NAME <> L.K2)"))
        .contains(
            "    SERVER HASH JOIN PROBE SEMI ON (K + 1) = $B0 FILTER ($B1 <> CAST(K2 AS"
                + " VARCHAR(10))) (build:)");
    // for EXISTS it filters the outer rows first
    assertThat(
            explain("SELECT ID FROM L WHERE EXISTS (SELECT 1 FROM J WHERE J.K1 = L.K AND L.V > 2)"))
        .contains(
            "    SERVER FILTER BY (CAST(V AS DECIMAL(12,2)) > 2.00)",
            "    SERVER HASH JOIN PROBE SEMI ON K = $B0 (build:)");
    // NOT EXISTS keeps the outer rows it does not hold for
    assertThat(
            explain(
                "SELECT ID FROM L WHERE NOT EXISTS (SELECT 1 FROM J WHERE J.K1 = L.K AND L.V > 2)"))
        .contains(
            "    SERVER HASH JOIN PROBE ANTI ON K = $B0 FILTER (CAST(V AS DECIMAL(12,2)) >"
                + " 2.00) (build:)");
  }

  /**
   * Shapes left to Calcite's decorrelation: equalities alone (no value generator needed), no
   * equality (no hash key), NOT IN over nullable columns without a correlation equality, a subquery
   * that is not a filter of an uncorrelated input, an EXISTS under an OR.
   */
  @Test
  void otherShapesAreLeftToTheDecorrelator() {
    assertThat(explain("SELECT ID FROM L WHERE NOT EXISTS (SELECT 1 FROM J WHERE J.K1 = L.K)"))
        .contains("    SERVER HASH JOIN PROBE ANTI ON K = $B0 (build:)");
    // (the decorrelator's inner join with the distinct outer keys may become a semi join, but
    // one without the comparison as its residual)
    assertThat(explain("SELECT ID FROM L WHERE EXISTS (SELECT 1 FROM J WHERE J.K1 < L.K)"))
        .noneMatch(l -> l.contains("SEMI") && l.contains("FILTER"));
    assertThat(explain("SELECT ID FROM L WHERE K2 NOT IN (SELECT K2 FROM J WHERE J.K1 < L.K)"))
        .noneMatch(l -> l.contains("ANTI"));
    assertThat(
            explain(
                "SELECT ID FROM L WHERE EXISTS (SELECT 1 FROM J WHERE J.K1 = L.K"
                    + " AND J.NAME <> L.K2 AND J.K2 IN (SELECT K2 FROM L L3 WHERE L3.ID = J.K1))"))
        .noneMatch(l -> l.contains("SEMI"));
    assertThat(
            explain(
                "SELECT ID FROM L WHERE EXISTS (SELECT 1 FROM J WHERE J.K1 = L.K"
                    + " AND J.NAME <> L.K2) OR ID = 3"))
        .noneMatch(l -> l.contains("SEMI"))
        .anyMatch(l -> l.contains("JOIN PROBE LEFT"));
  }

  /** Several subqueries of one filter are a chain of joins over the filter's input. */
  @Test
  void existsAndNotExistsOverAJoinAsInTpchQ21() {
    List<String> lines =
        explain(
            "SELECT L.ID, J.NAME FROM L, J WHERE L.K = J.K1"
                + " AND EXISTS (SELECT * FROM L L2 WHERE L2.K = L.K AND L2.ID <> L.ID)"
                + " AND NOT EXISTS (SELECT * FROM L L3 WHERE L3.K = L.K AND L3.ID <> L.ID"
                + " AND L3.V > 1)");
    assertThat(lines)
        .as(String.join("\n", lines))
        .anyMatch(l -> l.contains("ANTI JOIN ON $1 = $4 FILTER ($3 <> $0)"))
        .anyMatch(l -> l.contains("SEMI JOIN ON $1 = $4 FILTER ($3 <> $0)"))
        .noneMatch(l -> l.contains("DISTINCT ROWS"));
  }

  @Test
  void aDeleteWithSuchASubqueryProbesToo() {
    assertThat(
            explain(
                "DELETE FROM L WHERE EXISTS (SELECT 1 FROM J WHERE J.K1 = L.K"
                    + " AND J.NAME <> L.K2)"))
        .contains(
            "        SERVER HASH JOIN PROBE SEMI ON K = $B0 FILTER ($B1 <> CAST(K2 AS"
                + " VARCHAR(10))) (build:)");
  }
}
