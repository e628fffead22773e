package io.cairn.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvStore;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.store.Stores;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Planning stays bounded and fails with Cairn errors, never Java errors: deep and wide expressions,
 * huge IN lists, nested COALESCE, cancellation; and cached plans are dropped when the tables they
 * use are recreated or change size materially.
 */
class TestPlanningLimits {
  private KvStore store;
  private Catalog catalog;
  private CairnPlanner planner;

  /** Row counts the planner sees, by table name (the store's would follow the data). */
  private final Map<String, Long> rowCounts = new ConcurrentHashMap<>();

  @BeforeEach
  void createTables() {
    store = Stores.inMemory("limits");
    catalog = Catalog.open(store);
    planner = new CairnPlanner(catalog, t -> rowCounts.getOrDefault(t.tableName(), -1L));
    create("CREATE TABLE A (ID INTEGER PRIMARY KEY, X INTEGER, V VARCHAR(10))");
    create("CREATE TABLE B (ID INTEGER PRIMARY KEY, Y INTEGER)");
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private void create(String ddl) {
    StatementPlan.CreateTable create = (StatementPlan.CreateTable) planner.plan(ddl).plan();
    catalog.createTable(create.draft(), false);
  }

  private static String nestedCoalesce(int depth) {
    String e = "V";
    for (int i = 0; i < depth; i++) {
      e = "COALESCE(" + e + ", 'x" + i + "')";
    }
    return e;
  }

  @Test
  void nestedCoalesceThirtyDeepPlans() {
    // was exponential: the validator rewrote each COALESCE into a CASE copying its operand
    StatementPlan plan = planner.plan("SELECT " + nestedCoalesce(30) + " FROM A").plan();
    assertThat(Explainer.explain(plan)).anyMatch(line -> line.contains("COALESCE"));
  }

  @Test
  void inListOfMoreThanTenThousandKeysBecomesOneSpanningRange() {
    StringBuilder sql = new StringBuilder("SELECT * FROM A WHERE ID IN (");
    for (int i = 0; i < 10_001; i++) {
      sql.append(i == 0 ? "" : ",").append(i * 2);
    }
    ScanNode scan =
        (ScanNode) ((StatementPlan.Query) planner.plan(sql.append(")").toString()).plan()).root();
    assertThat(scan.keys()).hasSize(1); // 0 .. 20000, the IN list stays the filter
    assertThat(scan.keys().get(0).lower()).isPresent();
    assertThat(scan.keys().get(0).upper()).isPresent();
    assertThat(scan.filter()).isPresent();
  }

  @Test
  void thousandChainedPlusPlansAndDeeperIsStatementTooComplex() {
    assertThat(planner.plan("SELECT X" + " + 1".repeat(1_000) + " FROM A").plan())
        .isInstanceOf(StatementPlan.Query.class);
    assertThatThrownBy(() -> planner.plan("SELECT X" + " + 1".repeat(3_000) + " FROM A"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX);
              assertThat(e.getMessage()).contains("nested deeper than").hasSizeLessThan(4096);
            });
  }

  @Test
  void cancelledPlanningStopsWithQueryCanceled() {
    assertThatThrownBy(() -> planner.plan("SELECT * FROM A", new AtomicBoolean(true)))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELED));
    assertThat(planner.plan("SELECT * FROM A").plan()).isInstanceOf(StatementPlan.Query.class);
  }

  @Test
  void stackOverflowAndAssertionErrorsBecomeCairnExceptions() {
    CairnException tooDeep = PlanningThreads.converted(new StackOverflowError());
    assertThat(tooDeep.errorCode()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX);
    CairnException assertion = PlanningThreads.converted(new AssertionError("x".repeat(100_000)));
    assertThat(assertion.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR);
    assertThat(assertion.getMessage()).hasSizeLessThan(4096);
  }

  @Test
  void cachedPlanIsReplannedWhenRowCountsChangeMaterially() {
    String join = "SELECT * FROM A JOIN B ON A.X = B.Y";
    rowCounts.put("A", 100_000L);
    rowCounts.put("B", 10L);
    PlannedStatement first = planner.plan(join);
    assertThat(planner.plan(join)).isSameAs(first);
    rowCounts.put("A", 150_000L); // within 2x: the plan stays
    assertThat(planner.isCurrent(first)).isTrue();
    assertThat(planner.plan(join)).isSameAs(first);
    rowCounts.put("A", 10L);
    rowCounts.put("B", 100_000L);
    assertThat(planner.isCurrent(first)).isFalse();
    PlannedStatement second = planner.plan(join);
    assertThat(second).isNotSameAs(first);
    assertThat(second.tables())
        .extracting(u -> u.table().tableName() + "=" + u.rowCount())
        .containsExactlyInAnyOrder("A=10", "B=100000");
    assertThat(planner.plan(join)).isSameAs(second);
  }

  @Test
  void planIsNotCurrentAfterItsTableIsRecreated() {
    PlannedStatement planned = planner.plan("SELECT * FROM A");
    create("CREATE TABLE C (ID INTEGER PRIMARY KEY)");
    assertThat(planner.isCurrent(planned)).isTrue(); // another table changed
    catalog.dropTable("PUBLIC", "A", false);
    assertThat(planner.isCurrent(planned)).isFalse();
    create("CREATE TABLE A (ID INTEGER PRIMARY KEY, X INTEGER, V VARCHAR(10))");
    assertThat(planner.isCurrent(planned)).isFalse(); // same name, new table
    assertThat(planner.isCurrent(planner.plan("SELECT * FROM A"))).isTrue();
  }

  @Test
  void dmlPlanRecordsItsTargetTable() {
    PlannedStatement planned = planner.plan("UPSERT INTO B VALUES (1, 2)");
    assertThat(planned.tables())
        .extracting(u -> u.table().tableName() + "=" + u.rowCount())
        .isEqualTo(List.of("B=-1"));
  }

  private static void assertTooComplex(Runnable planning, String what) {
    assertThatThrownBy(planning::run)
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX);
              assertThat(e.getMessage())
                  .contains(what + " nested deeper than [" + RexToExpr.MAX_DEPTH + "] levels")
                  .hasSizeLessThan(4096);
            });
  }

  @Test
  void deepParenthesesAreStatementTooComplexBeforeParsing() {
    // a million levels exhausted the parser's stack: an empty "Syntax error: " (42601)
    int deep = 1_000_000;
    assertTooComplex(
        () -> planner.plan("SELECT " + "(".repeat(deep) + "X" + ")".repeat(deep) + " FROM A"),
        "parentheses");
    assertTooComplex(
        () ->
            planner.plan(
                "SELECT * FROM " + "(SELECT * FROM ".repeat(5_000) + "A" + ")".repeat(5_000)),
        "parentheses");
    // parentheses in strings, quoted names and comments do not count
    String many = "(".repeat(5_000);
    assertThat(
            planner
                .plan(
                    "SELECT '"
                        + many
                        + "' AS \""
                        + "(".repeat(100)
                        + "\" FROM A -- "
                        + many
                        + "\n /*"
                        + many
                        + "*/")
                .plan())
        .isInstanceOf(StatementPlan.Query.class);
    assertThat(
            planner
                .plan("SELECT " + "(".repeat(1_000) + "X" + ")".repeat(1_000) + " FROM A")
                .plan())
        .isInstanceOf(StatementPlan.Query.class);
  }

  @Test
  void deepExpressionsAreStatementTooComplexBeforeValidation() {
    // validated for seconds (5,000 nested CASE: 9.5 s) before failing on the depth
    assertTooComplex(
        () -> planner.plan("SELECT X" + " + 1".repeat(20_000) + " FROM A"), "expression");
    assertTooComplex(
        () ->
            planner.plan(
                "SELECT "
                    + "CASE WHEN X > 1 THEN 1 ELSE ".repeat(5_000)
                    + "X"
                    + " END".repeat(5_000)
                    + " FROM A"),
        "expression");
    // AND and OR chains are flattened: they do not count as levels
    StringBuilder or = new StringBuilder("X = -1");
    for (int i = 0; i < 3_000; i++) {
      or.append(" OR X = ").append(i);
    }
    assertThat(planner.plan("SELECT ID FROM A WHERE " + or).plan())
        .isInstanceOf(StatementPlan.Query.class);
  }

  @Test
  void conversionFailuresLoseCalcitesWrapperPerLevel() {
    IllegalStateException leaf = new IllegalStateException("leaf");
    RuntimeException wrapped = leaf;
    for (int level = 0; level < 300; level++) {
      wrapped =
          new RuntimeException(
              "While converting " + "ABS(".repeat(300 - level),
              new java.lang.reflect.InvocationTargetException(wrapped));
    }
    assertThat(QueryPlanner.unwrapConversion(wrapped)).isSameAs(leaf);
    RuntimeException other = new RuntimeException("not a wrapper", leaf);
    assertThat(QueryPlanner.unwrapConversion(other)).isSameAs(other);
  }
}
