package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.Catalog;
import io.cairn.kv.KvStore;
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
 * The scan hints NO_CACHE and SERIAL reach the table scans of their query block, and the EXPLAIN
 * head line of a scan with and without execution information.
 */
class TestScanHints {
  private KvStore store;
  private CairnPlanner planner;

  @BeforeEach
  void createTables() {
    store = Stores.inMemory("scan-hints");
    Catalog catalog = Catalog.open(store);
    planner = new CairnPlanner(catalog);
    for (String ddl :
        List.of(
            "CREATE TABLE T (ID INTEGER PRIMARY KEY, QTY INTEGER)",
            "CREATE TABLE U (ID INTEGER PRIMARY KEY, T_ID INTEGER)")) {
      StatementPlan.CreateTable create = (StatementPlan.CreateTable) planner.plan(ddl).plan();
      catalog.createTable(create.draft(), false);
    }
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private List<ScanNode> scans(String sql) {
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

  @Test
  void serialReachesEveryScanOfItsSelect() {
    assertThat(scans("SELECT * FROM T")).extracting(ScanNode::serial).containsExactly(false);
    assertThat(scans("SELECT /*+ SERIAL */ * FROM T WHERE QTY > 1"))
        .extracting(ScanNode::serial)
        .containsExactly(true);
    assertThat(scans("SELECT /*+ SERIAL */ * FROM T JOIN U ON T.ID = U.T_ID"))
        .extracting(ScanNode::serial)
        .containsExactly(true, true);
    assertThat(scans("SELECT /*+ NO_CACHE, SERIAL */ COUNT(*) FROM T"))
        .allMatch(s -> s.serial() && !s.cacheBlocks());
    assertThat(planner.plan("SELECT /*+ SERIAL */ * FROM T").warnings()).isEmpty();
  }

  @Test
  void explainPrintsTheHintsAndTheChunksWhenKnown() {
    StatementPlan.Explain explain =
        (StatementPlan.Explain)
            planner.plan("EXPLAIN SELECT /*+ SERIAL, NO_CACHE */ * FROM T WHERE QTY > 1").plan();
    assertThat(explain.lines().get(0))
        .isEqualTo("SERVER FULL SCAN OVER PUBLIC.T (NO_CACHE, SERIAL)");
    assertThat(
            Explainer.explain(
                    explain.plan(),
                    scan -> new Explainer.ScanInfo(23, 1, 6_001_215, 778_043_392L, false))
                .get(0))
        .isEqualTo(
            "CLIENT SERIAL 23-CHUNK FULL SCAN OVER PUBLIC.T (NO_CACHE, SERIAL)"
                + " (EST 6,001,215 ROWS, 742 MB)");
    StatementPlan.Explain plain =
        (StatementPlan.Explain) planner.plan("EXPLAIN SELECT * FROM T WHERE ID > ?").plan();
    assertThat(
            Explainer.explain(plain.plan(), scan -> new Explainer.ScanInfo(4, 4, -1, -1, true))
                .get(0))
        .isEqualTo(
            "CLIENT PARALLEL 4-WAY 4-CHUNK RANGE SCAN OVER PUBLIC.T (?1 - *]"
                + " (CHUNKS WITHOUT PARAMETER VALUES)");
  }
}
