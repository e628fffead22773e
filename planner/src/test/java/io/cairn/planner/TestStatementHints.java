package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.error.CairnException;
import io.cairn.kv.KvStore;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.sql.grammar.ClassifiedStatement;
import io.cairn.sql.grammar.StatementClassifier;
import io.cairn.store.Stores;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hints reach the scans they name: on a SELECT's query block, and, Phoenix's way, on the statement
 * itself for UPSERT ... SELECT, DELETE and UPDATE; unknown ones become warnings.
 */
class TestStatementHints {
  private KvStore store;
  private CairnPlanner planner;

  @BeforeEach
  void createTables() {
    store = Stores.inMemory("hints");
    Catalog catalog = Catalog.open(store);
    planner = new CairnPlanner(catalog);
    for (String ddl :
        List.of(
            "CREATE TABLE T (ID INTEGER PRIMARY KEY, QTY INTEGER)",
            "CREATE TABLE U (ID INTEGER PRIMARY KEY, QTY INTEGER)")) {
      StatementPlan.CreateTable create = (StatementPlan.CreateTable) planner.plan(ddl).plan();
      catalog.createTable(create.draft(), false);
    }
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private static List<ScanNode> scans(StatementPlan plan) {
    List<ScanNode> scans = new ArrayList<>();
    PlanNode root;
    if (plan instanceof StatementPlan.Query q) {
      root = q.root();
    } else if (plan instanceof StatementPlan.Upsert u) {
      root = u.source();
    } else {
      root = ((StatementPlan.Delete) plan).source();
    }
    collect(root, scans);
    return scans;
  }

  private static void collect(PlanNode node, List<ScanNode> scans) {
    if (node instanceof ScanNode s) {
      scans.add(s);
    }
    node.inputs().forEach(i -> collect(i, scans));
  }

  @Test
  void selectHintsReachTheScansOfTheirQueryBlock() {
    PlannedStatement p = planner.plan("SELECT /*+ SERIAL NO_CACHE */ * FROM T WHERE QTY > 1");
    assertThat(p.warnings()).isEmpty();
    assertThat(scans(p.plan()))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.serial()).isTrue();
              assertThat(s.cacheBlocks()).isFalse();
            });
    assertThat(scans(planner.plan("SELECT * FROM T").plan()))
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.serial()).isFalse();
              assertThat(s.cacheBlocks()).isTrue();
            });
  }

  @Test
  void upsertSelectTakesHintsOnTheStatementOrOnItsSelect() {
    for (String sql :
        List.of(
            "UPSERT /*+ SERIAL, NO_CACHE */ INTO U SELECT * FROM T WHERE QTY > 1",
            "upsert/*+ SERIAL NO_CACHE */into U SELECT * FROM T",
            "UPSERT INTO U SELECT /*+ SERIAL NO_CACHE */ * FROM T")) {
      PlannedStatement p = planner.plan(sql);
      assertThat(p.warnings()).as(sql).isEmpty();
      assertThat(scans(p.plan()))
          .as(sql)
          .singleElement()
          .satisfies(s -> assertThat(s.serial() && !s.cacheBlocks()).isTrue());
    }
  }

  @Test
  void deleteAndUpdateTakeHintsOnTheStatement() {
    for (String sql :
        List.of(
            "DELETE /*+ SERIAL NO_CACHE */ FROM T WHERE QTY > 1",
            "UPDATE /*+ SERIAL NO_CACHE */ T SET QTY = 2 WHERE ID > 5")) {
      PlannedStatement p = planner.plan(sql);
      assertThat(p.warnings()).as(sql).isEmpty();
      assertThat(scans(p.plan()))
          .as(sql)
          .singleElement()
          .satisfies(s -> assertThat(s.serial() && !s.cacheBlocks()).isTrue());
    }
    assertThat(scans(planner.plan("DELETE FROM T WHERE QTY > 1").plan()))
        .singleElement()
        .satisfies(s -> assertThat(s.serial() || !s.cacheBlocks()).isFalse());
  }

  @Test
  void unknownHintsOnAStatementAreWarnings() {
    PlannedStatement p = planner.plan("DELETE /*+ SERIAL, NO_CAHCE(T) */ FROM T WHERE QTY > 1");
    assertThat(p.warnings())
        .singleElement()
        .asString()
        .contains("Unknown hint [NO_CAHCE]", "NO_CACHE");
    assertThat(scans(p.plan())).singleElement().satisfies(s -> assertThat(s.serial()).isTrue());
    assertThat(planner.plan("UPSERT /*+ INDEX(T IDX) */ INTO U SELECT * FROM T").warnings())
        .singleElement()
        .asString()
        .contains("INDEX", "no effect");
  }

  @Test
  void aHintCommentElsewhereIsLeftToTheParser() {
    // only the comment right after the verb is the statement's: this one is the SELECT's
    PlannedStatement p = planner.plan("UPSERT INTO U /*+ x */ SELECT * FROM T");
    assertThat(scans(p.plan())).singleElement().satisfies(s -> assertThat(s.serial()).isFalse());
    assertThat(StatementClassifier.classify("SELECT 1").statementHint()).isEmpty();
    assertThat(StatementClassifier.classify("DELETE FROM T").statementHint()).isEmpty();
    String sql = "  DELETE /*+ A B('x y') C */ FROM T";
    ClassifiedStatement.StatementHint h =
        StatementClassifier.classify(sql).statementHint().orElseThrow();
    assertThat(h.names()).containsExactly("A", "B", "C");
    assertThat(StatementClassifier.classify(sql).rewritten(sql, sql.length()))
        .hasSameSizeAs("  DELETE /*+ A B('x y') C */ FROM T")
        .endsWith(" FROM T");
  }

  @Test
  void errorPositionsAfterAHintOrACommentAreThoseOfTheText() {
    // the statement hint is blanked and hint items get commas in place: no column moves
    assertThatThrownBy(() -> planner.plan("DELETE /*+ NO_CACHE */ FROM T WHERE ID = = 1"))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("line 1, column 40");
    assertThatThrownBy(
            () ->
                planner.plan(
                    "-- a comment\n/* another */ SELECT /*+ NO_CACHE SERIAL */ * FROM T WHERE ID = = 1"))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("line 2, column 63");
  }
}
