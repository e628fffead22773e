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
 * Which joins PhysicalPlanner gives to the store as a probing scan (a broadcast hash join), what
 * runs in that scan above the join, and what stays on the client; pins the EXPLAIN text.
 */
class TestJoinProbePlans {
  private KvStore store;
  private CairnPlanner planner;

  @BeforeEach
  void createTables() {
    store = Stores.inMemory("join-probe-plans");
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
  void aCountOverAJoinIsOnePartialRowPerChunk() {
    assertThat(explain("SELECT COUNT(*) FROM L, J WHERE L.K = J.K1"))
        .containsExactly(
            "CLIENT MERGE AGGREGATE INTO SINGLE ROW",
            "    SERVER FULL SCAN OVER PUBLIC.L",
            "        SERVER HASH JOIN PROBE INNER ON K = $B0 (build:)",
            "            SERVER FULL SCAN OVER PUBLIC.J",
            "                SERVER PROJECT K1",
            "        SERVER DYNAMIC FILTER K IN (build keys)",
            "        SERVER AGGREGATE INTO SINGLE ROW COMPUTE COUNT(*)");
  }

  /**
   * A join's rows do not carry the columns only its own condition reads: L.K joins J and is not
   * read above, so the probe of J returns V and the build side's K2, not K and K1.
   */
  @Test
  void aJoinDropsTheColumnsOnlyItsConditionReads() {
    List<String> lines =
        explain(
            "SELECT L.V, J2.NAME FROM L, J, J AS J2 WHERE L.K = J.K1 AND J.K2 = J2.K2"
                + " AND J2.NAME = 'x'");
    assertThat(lines)
        .as(String.join("\n", lines))
        .contains("            SERVER PROJECT V, $B1")
        .contains("    CLIENT HASH INNER JOIN ON $1 = $2");
  }

  /** An equality of expressions of each side is still an equi-join (not a nested loop). */
  @Test
  void anEqualityOfExpressionsIsAHashJoin() {
    assertThat(String.join("\n", explain("SELECT COUNT(*) FROM L, J WHERE L.K + 1 = J.K1 * 2")))
        .contains("SERVER HASH JOIN PROBE INNER ON (K + 1) = $B")
        .doesNotContain("NESTED LOOP");
  }

  /** A probe on the first key column may read only the build keys' rows (a lookup join). */
  @Test
  void aLookupOnTheFirstKeyColumnIsShown() {
    assertThat(explain("SELECT L.V, J.NAME FROM L, J WHERE L.ID = J.K1"))
        .anyMatch(line -> line.contains("SERVER LOOKUP BY ID IN (build keys) WHEN FEW"));
    assertThat(explain("SELECT L.V, J.NAME FROM L, J WHERE L.K = J.K1"))
        .noneMatch(line -> line.contains("LOOKUP"));
    assertThat(explain("SELECT L.V, J.NAME FROM L LEFT JOIN J ON L.ID = J.K1"))
        .noneMatch(line -> line.contains("LOOKUP"));
  }

  @Test
  void theDynamicFilterIsShownWhereTheStoreTestsIt() {
    // not for a LEFT join (it keeps the rows that match nothing), nor a string key
    assertThat(explain("SELECT L.ID, J.NAME FROM L LEFT JOIN J ON L.K = J.K1"))
        .noneMatch(line -> line.contains("DYNAMIC FILTER"));
    assertThat(explain("SELECT COUNT(*) FROM L, J WHERE L.K2 = J.K2"))
        .noneMatch(line -> line.contains("DYNAMIC FILTER"));
    assertThat(explain("SELECT L.ID FROM L WHERE L.K IN (SELECT K1 FROM J)"))
        .anyMatch(line -> line.contains("SERVER DYNAMIC FILTER K IN (build keys)"));
  }

  @Test
  void filtersProjectionsAndGroupsAboveTheJoinRunInTheScan() {
    // Calcite picks which side probes; either way one scan joins, filters and groups
    List<String> lines =
        explain(
            "SELECT J.NAME, SUM(L.V) FROM L JOIN J ON L.K = J.K1 AND L.K2 = J.K2"
                + " WHERE L.ID > 5 AND J.NAME <> L.K2 GROUP BY J.NAME");
    assertThat(lines.get(0)).startsWith("CLIENT MERGE AGGREGATE INTO DISTINCT ROWS BY");
    assertThat(lines.get(2))
        .startsWith("        SERVER HASH JOIN PROBE INNER ON ")
        .contains(" AND ", " FILTER (")
        .endsWith("(build:)");
    assertThat(lines.get(lines.size() - 1))
        .startsWith("        SERVER AGGREGATE INTO DISTINCT ROWS BY");
    assertThat(lines).anyMatch(l -> l.contains("SERVER FILTER BY (ID > 5)"));
  }

  @Test
  void semiAntiAndLeftJoinsProbe() {
    assertThat(explain("SELECT K1 FROM J WHERE K1 IN (SELECT K FROM L)"))
        .anyMatch(l -> l.contains("SERVER HASH JOIN PROBE"));
    // Calcite decorrelates NOT EXISTS into a LEFT join and an IS NULL filter: an ANTI join
    assertThat(explain("SELECT ID FROM L WHERE NOT EXISTS (SELECT 1 FROM J WHERE J.K1 = L.K)"))
        .anyMatch(l -> l.contains("SERVER HASH JOIN PROBE ANTI ON K = $B0"))
        .noneMatch(l -> l.contains("IS NULL"));
    // NOT IN over columns that cannot be null is the same ANTI join
    assertThat(explain("SELECT ID FROM L WHERE ID NOT IN (SELECT K1 FROM J)"))
        .anyMatch(l -> l.contains("SERVER HASH JOIN PROBE ANTI ON ID = $B0"));
    assertThat(explain("SELECT L.ID, J.NAME FROM L LEFT JOIN J ON L.K = J.K1"))
        .anyMatch(l -> l.contains("SERVER HASH JOIN PROBE LEFT ON K = $B0"));
  }

  /**
   * An outer join filtered on a column of its null-supplying side being null is an ANTI join only
   * when that column cannot be null there (else a matched row with a null value would be lost).
   */
  @Test
  void onlyANeverNullColumnMakesAnAntiJoin() {
    assertThat(explain("SELECT L.ID FROM L LEFT JOIN J ON L.K = J.K1 WHERE J.K1 IS NULL"))
        .anyMatch(l -> l.contains("SERVER HASH JOIN PROBE ANTI ON K = $B0"));
    assertThat(explain("SELECT L.ID FROM L LEFT JOIN J ON L.K = J.K1 WHERE J.NAME IS NULL"))
        .anyMatch(l -> l.contains("JOIN PROBE LEFT"))
        .noneMatch(l -> l.contains("ANTI"));
  }

  /**
   * EXISTS on an equality with a far smaller outer input computes no distinct of the inner table's
   * keys (what decorrelation joins it with): the inner table's scan probes the outer rows in the
   * store, a mark join (TPC-H Q4). (A correlated scalar aggregate is still reduced by the outer
   * keys first: TestBroadcastJoins.)
   */
  @Test
  void anExistsWithFewOuterRowsIsAMarkJoin() {
    List<String> lines =
        explain(
            "SELECT J.NAME FROM J WHERE J.NAME = 'x' AND J.K2 = 'y'"
                + " AND EXISTS (SELECT 1 FROM L WHERE L.K = J.K1)");
    assertThat(lines)
        .as(String.join("\n", lines))
        .anyMatch(l -> l.contains("CLIENT MARK SEMI JOIN ON "))
        .anyMatch(l -> l.contains("SERVER HASH JOIN PROBE INNER ON K = $B0"))
        .noneMatch(l -> l.contains("DISTINCT ROWS"));
  }

  /**
   * BROADCAST(table) builds an inner join's hash table on the side holding that table (by name or
   * alias), whichever side the statistics would pick; where it cannot (the preserved side of an
   * outer join), or names no table of a join, a warning says so.
   */
  @Test
  void theBroadcastHintPicksTheBuildSide() {
    String join = " L.ID, J.NAME FROM L JOIN J ON L.K = J.K1 WHERE L.V > 1";
    PlannedStatement onJ = planner.plan("SELECT /*+ BROADCAST(J) */" + join);
    PlannedStatement onL =
        planner.plan(
            "SELECT /*+ BROADCAST(A) */" + join.replace(" L ", " L A ").replace("L.", "A."));
    assertThat(onJ.warnings()).isEmpty();
    assertThat(onL.warnings()).isEmpty();
    // L's scan probes J's keys, or J's scan probes L's
    assertThat(Explainer.explain(onJ.plan()))
        .anyMatch(l -> l.contains("SERVER HASH JOIN PROBE INNER ON K = $B0"));
    assertThat(Explainer.explain(onL.plan()))
        .anyMatch(l -> l.contains("SERVER HASH JOIN PROBE INNER ON K1 = $B"));
    // the swapped probe still takes what is above the join into its scan
    assertThat(
            Explainer.explain(
                planner
                    .plan(
                        "SELECT /*+ BROADCAST(L) */ COUNT(*), SUM(L.V) FROM L JOIN J ON L.K = J.K1")
                    .plan()))
        .anyMatch(l -> l.contains("SERVER HASH JOIN PROBE INNER ON K1 = $B"))
        .anyMatch(l -> l.contains("SERVER AGGREGATE INTO SINGLE ROW"));
    assertThat(
            planner
                .plan("SELECT /*+ BROADCAST(L) */ L.ID, J.NAME FROM L LEFT JOIN J ON L.K = J.K1")
                .warnings())
        .anyMatch(w -> w.contains("preserved side of a LEFT join"));
    assertThat(planner.plan("SELECT /*+ BROADCAST(X) */" + join).warnings())
        .anyMatch(w -> w.contains("Hint BROADCAST names table [X]"));
    // a query without a join, or a hint without a table
    assertThat(planner.plan("SELECT /*+ BROADCAST(L) */ ID FROM L").warnings())
        .anyMatch(w -> w.contains("Hint BROADCAST names table [L] that none of its query's joins"));
    assertThat(planner.plan("SELECT /*+ BROADCAST */" + join).warnings())
        .anyMatch(w -> w.contains("expected BROADCAST(table ...), found no table"));
    assertThat(planner.plan("SELECT /*+ NO_STAR_JOIN */" + join).warnings())
        .anyMatch(w -> w.contains("[NO_STAR_JOIN] changes nothing"));
  }

  /** An OR whose every branch constrains one side filters that side's scan too (TPC-H Q7). */
  @Test
  void anOrOverBothSidesFiltersEachScan() {
    List<String> lines =
        explain(
            "SELECT A.ID, B.ID FROM L A, L B WHERE A.K = B.K"
                + " AND ((A.K2 = 'x' AND B.K2 = 'y') OR (A.K2 = 'y' AND B.K2 = 'x'))");
    assertThat(lines)
        .as(String.join("\n", lines))
        .filteredOn(l -> l.contains("SERVER FILTER BY ((K2 = 'x') OR (K2 = 'y'))"))
        .hasSize(2);
    // a branch without a condition on B's side: no filter on B
    assertThat(
            explain(
                "SELECT A.ID, B.ID FROM L A, L B WHERE A.K = B.K"
                    + " AND ((A.K2 = 'x' AND B.K2 = 'y') OR A.V > 2)"))
        .anyMatch(l -> l.contains("SERVER FILTER BY ((K2 = 'x') OR (CAST(V AS DECIMAL(12,2)) > 2"))
        .noneMatch(l -> l.contains("SERVER FILTER BY (K2 = 'y')"));
  }

  @Test
  void whatStaysOnTheClient() {
    // the hint
    assertThat(explain("SELECT /*+ NO_SERVER_JOIN */ L.ID FROM L JOIN J ON L.K = J.K1"))
        .anyMatch(l -> l.contains("CLIENT HASH INNER JOIN"))
        .noneMatch(l -> l.contains("PROBE"));
    // FULL joins, joins without equality keys
    assertThat(explain("SELECT L.ID, J.NAME FROM L FULL JOIN J ON L.K = J.K1"))
        .anyMatch(l -> l.contains("CLIENT HASH FULL JOIN"))
        .noneMatch(l -> l.contains("PROBE"));
    assertThat(explain("SELECT L.ID FROM L JOIN J ON L.K < J.K1"))
        .anyMatch(l -> l.contains("CLIENT NESTED LOOP"))
        .noneMatch(l -> l.contains("PROBE"));
  }

  /**
   * An aggregate grouped by a whole table's unique key (and its columns) over an inner join is
   * computed over the other table first, grouped by its join column, then joined (TPC-H Q10); a
   * filtered dimension, a group without the key or a call over the dimension keeps the join first.
   */
  @Test
  void groupsOfAWholeTablesKeyAreMadeBeforeTheJoin() {
    List<String> eager =
        explain(
            "SELECT J.K1, J.NAME, SUM(L.V), COUNT(*) FROM L JOIN J ON L.K = J.K1"
                + " GROUP BY J.K1, J.NAME");
    assertThat(eager)
        .as(String.join("\n", eager))
        .anyMatch(l -> l.contains("SERVER AGGREGATE INTO DISTINCT ROWS BY [K] COMPUTE SUM(V)"))
        .anyMatch(l -> l.contains("ON K1 = $B0"));
    for (String kept :
        List.of(
            "SELECT J.K1, J.NAME, SUM(L.V) FROM L JOIN J ON L.K = J.K1 WHERE J.K2 = 'x'"
                + " GROUP BY J.K1, J.NAME",
            "SELECT J.NAME, SUM(L.V) FROM L JOIN J ON L.K = J.K1 GROUP BY J.NAME",
            "SELECT J.K1, SUM(L.V), MAX(J.NAME) FROM L JOIN J ON L.K = J.K1 GROUP BY J.K1",
            "SELECT J.K1, SUM(L.V) FROM L JOIN J ON L.K2 = J.K2 GROUP BY J.K1")) {
      List<String> lines = explain(kept);
      assertThat(lines)
          .as(kept + "\n" + String.join("\n", lines))
          .noneMatch(l -> l.contains("SERVER AGGREGATE INTO DISTINCT ROWS BY [K]"))
          .noneMatch(l -> l.contains("SERVER AGGREGATE INTO DISTINCT ROWS BY [K2]"));
    }
  }

  /**
   * A total over the same rows as a grouped aggregate is rolled up from its groups, which run once
   * (TPC-H Q11); a total of a call the groups do not compute scans again.
   */
  @Test
  void aTotalOfTheSameRowsRollsUpTheGroups() {
    String groups =
        "SELECT L.K, SUM(L.V) FROM L JOIN J ON L.K = J.K1 GROUP BY L.K HAVING SUM(L.V) > ";
    List<String> rolled = explain(groups + "(SELECT SUM(L.V) / 10 FROM L JOIN J ON L.K = J.K1)");
    assertThat(rolled)
        .as(String.join("\n", rolled))
        .anyMatch(l -> l.contains("CLIENT SHARED ROWS (COMPUTED ONCE, READ 2 TIMES)"))
        .anyMatch(l -> l.contains("CLIENT AGGREGATE INTO SINGLE ROW COMPUTE SUM($1)"))
        .filteredOn(l -> l.contains("FULL SCAN OVER PUBLIC.L"))
        .hasSize(1);
    List<String> scanned = explain(groups + "(SELECT MAX(L.V) FROM L JOIN J ON L.K = J.K1)");
    assertThat(scanned)
        .as(String.join("\n", scanned))
        .noneMatch(l -> l.contains("SHARED ROWS"))
        .filteredOn(l -> l.contains("FULL SCAN OVER PUBLIC.L"))
        .hasSize(2);
  }

  /** A build side may itself be a probing scan: its join runs first, then this one's probe. */
  @Test
  void aBuildSideMayItselfProbe() {
    StatementPlan.Query three =
        (StatementPlan.Query)
            planner
                .plan(
                    "SELECT A.ID FROM L A JOIN (SELECT B.ID, B.K FROM L B JOIN J ON B.K = J.K1) C"
                        + " ON A.ID = C.K")
                .plan();
    assertThat(probes(three.root())).isEqualTo(2);
  }

  /** Probing scans in {@code node}, build sides included. */
  private static int probes(PlanNode node) {
    int n = 0;
    if (node instanceof ScanNode scan && scan.probe().isPresent()) {
      return 1 + probes(scan.probe().get().build());
    }
    for (PlanNode input : node.inputs()) {
      n += probes(input);
    }
    return n;
  }
}
