package io.cairn.planner;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptListener;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.RelFieldTrimmer;
import org.apache.calcite.tools.RelBuilder;

/**
 * The rule phases of {@link QueryPlanner}, between the conversion to relational algebra and the
 * physical plan ({@link PhysicalPlanner}): subqueries correlated by equalities and other
 * comparisons turned into SEMI and ANTI joins ({@link SubQueryJoins}), the others removed and
 * decorrelated, unused fields trimmed, unmatched-row outer joins turned into ANTI joins, windows
 * split out of projections, constants folded and common factors pulled out of ORs, filters pushed
 * down with Hep rule programs (again after adding the filters that OR conditions of inner joins
 * imply on each input), aggregates joined with far smaller inputs reduced by semi joins and inner
 * joins ordered ({@link JoinRewrites}, {@link JoinOrder}), and filters pushed down again. Every Hep
 * planner stops when the statement is cancelled. One instance per statement, used by one thread.
 */
final class LogicalOptimizer {
  // Rule programs are built per planning: HepProgram has carried execution state in some Calcite
  // versions, and a planner is shared by every connection of a database.
  static HepProgram subqueryProgram() {
    return new HepProgramBuilder()
        .addRuleInstance(CoreRules.FILTER_SUB_QUERY_TO_CORRELATE)
        .addRuleInstance(CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE)
        .addRuleInstance(CoreRules.JOIN_SUB_QUERY_TO_CORRELATE)
        .build();
  }

  private static HepProgram windowProgram() {
    return new HepProgramBuilder()
        .addRuleInstance(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW)
        .build();
  }

  /**
   * Join order: inner joins are collected into multi-joins and reordered so that every join has a
   * join condition where the query allows (no cross products from the FROM order, TPC-H Q8/Q9).
   */
  private static HepProgram multiJoinProgram() {
    return new HepProgramBuilder()
        .addMatchOrder(HepMatchOrder.BOTTOM_UP)
        .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
        .build();
  }

  /** The multi-joins {@link JoinOrder} leaves (those with outer joins) go to Calcite's rule. */
  private static HepProgram joinOrderProgram() {
    return new HepProgramBuilder()
        .addMatchOrder(HepMatchOrder.BOTTOM_UP)
        .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
        .build();
  }

  private static HepProgram pushdownProgram() {
    return new HepProgramBuilder()
        .addMatchOrder(HepMatchOrder.BOTTOM_UP)
        .addRuleCollection(
            List.of(
                CoreRules.FILTER_INTO_JOIN,
                CoreRules.JOIN_CONDITION_PUSH,
                // ON f(a) = g(b): f(a) and g(b) computed below the join, so it stays a hash join
                CoreRules.JOIN_PUSH_EXPRESSIONS,
                CoreRules.FILTER_PROJECT_TRANSPOSE,
                CoreRules.FILTER_AGGREGATE_TRANSPOSE,
                CoreRules.FILTER_SET_OP_TRANSPOSE,
                CoreRules.FILTER_MERGE,
                CoreRules.PROJECT_MERGE,
                CoreRules.PROJECT_REMOVE))
        .build();
  }

  private final RelOptCluster cluster;
  private final CalciteCatalogReader reader;
  private final SqlValidator validator;
  private final AtomicBoolean cancel;

  LogicalOptimizer(
      RelOptCluster cluster,
      CalciteCatalogReader reader,
      SqlValidator validator,
      AtomicBoolean cancel) {
    this.cluster = cluster;
    this.reader = reader;
    this.validator = validator;
    this.cancel = cancel;
  }

  /** A Hep planner running {@code program} that stops when the statement is cancelled. */
  private HepPlanner hep(HepProgram program) {
    HepPlanner planner = new HepPlanner(program);
    planner.addListener(new CancelListener(cancel));
    return planner;
  }

  /** {@code rel}, converted from a validated statement, through every rule phase in order. */
  RelNode optimize(RelNode rel) {
    HepPlanner subqueries = hep(subqueryProgram());
    subqueries.setRoot(SubQueryJoins.rewrite(rel, cluster.getRexBuilder()));
    RelNode result = subqueries.findBestExp();
    RelBuilder relBuilder =
        RelBuilder.proto(org.apache.calcite.plan.Contexts.empty()).create(cluster, reader);
    result = RelDecorrelator.decorrelateQuery(result, relBuilder);
    // before the fields are trimmed: both aggregates' rows are still the same plan
    result = ScalarAggregateRollups.rewrite(result, relBuilder);
    result = new RelFieldTrimmer(validator, relBuilder).trim(result);
    result = JoinRewrites.antiJoins(result, cluster.getRexBuilder());
    result = JoinRewrites.semiJoinsOfDistinctKeys(result, cluster.getRexBuilder());
    result = JoinRewrites.semiJoinsWithoutDistinct(result, cluster.getRexBuilder());
    PlanningThreads.check(cancel);
    HepPlanner windows = hep(windowProgram());
    windows.setRoot(result);
    result = windows.findBestExp();
    result = pullOrFactors(result);
    HepPlanner pushdown = hep(pushdownProgram());
    pushdown.setRoot(result);
    result = pushdown.findBestExp();
    RelNode implied = JoinRewrites.orFiltersOfInputs(result, cluster.getRexBuilder());
    if (implied != result) {
      HepPlanner down = hep(pushdownProgram());
      down.setRoot(implied);
      result = down.findBestExp();
    }
    HepPlanner multiJoins = hep(multiJoinProgram());
    multiJoins.setRoot(result);
    RelNode multi = multiJoins.findBestExp();
    RelNode eager = InnerJoinAggregates.rewrite(multi, relBuilder, cluster.getMetadataQuery());
    if (eager != multi) {
      // the dimensions' join and the facts' join below their aggregate become multi-joins too
      HepPlanner regrouped = hep(multiJoinProgram());
      regrouped.setRoot(eager);
      multi = regrouped.findBestExp();
    }
    result = orderInnerJoins(multi, relBuilder);
    HepPlanner joins = hep(joinOrderProgram());
    joins.setRoot(result);
    result = joins.findBestExp();
    HepPlanner again = hep(pushdownProgram());
    again.setRoot(result);
    result = again.findBestExp();
    result = OuterJoinAggregates.rewrite(result, relBuilder, cluster.getMetadataQuery());
    // conditions pushed into an input (an outer join's ON clause over its right side, TPC-H Q13)
    // leave columns nobody reads above the filter: trimmed again, so the scan does not return them;
    // and the columns only joins below read are dropped above them
    result = new JoinFieldTrimmer(validator, relBuilder).trim(result);
    HepPlanner merged = hep(pushdownProgram());
    merged.setRoot(result);
    return merged.findBestExp();
  }

  /**
   * Orders every multi-join of inner joins by estimated cardinalities ({@link JoinOrder}), inner
   * ones first, after reducing its aggregate inputs ({@link JoinRewrites#reduceAggregates}).
   */
  private RelNode orderInnerJoins(RelNode rel, RelBuilder relBuilder) {
    RelMetadataQuery mq = cluster.getMetadataQuery();
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode node = super.visit(other);
            if (node instanceof MultiJoin join && JoinOrder.orders(join)) {
              MultiJoin reduced = JoinRewrites.reduceAggregates(join, cluster.getRexBuilder(), mq);
              return new JoinOrder(relBuilder, mq, cancel).order(reduced);
            }
            return node;
          }
        });
  }

  /**
   * Pulls factors common to every branch of an OR out of filter and join conditions: {@code (a = b
   * AND x) OR (a = b AND y)} becomes {@code a = b AND (x OR y)}, so the equality can become a join
   * key (TPC-H Q19) or a key range. Constant calls in filters are folded first ({@code DATE
   * '1993-07-01' + INTERVAL '3' MONTH} becomes {@code DATE '1993-10-01'}), so that statistics
   * estimate the range (join order) and key ranges bound it. (Calcite's ReduceExpressionsRule also
   * simplifies the whole condition, in quadratic time over a long IN list.)
   */
  private RelNode pullOrFactors(RelNode rel) {
    RexBuilder rexBuilder = cluster.getRexBuilder();
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode node = super.visit(other);
            if (node instanceof LogicalFilter filter) {
              RexNode folded = CairnRexExecutor.fold(rexBuilder, filter.getCondition());
              RexNode pulled = RexUtil.pullFactors(rexBuilder, folded);
              return filter.copy(filter.getTraitSet(), filter.getInput(), pulled);
            }
            if (node instanceof LogicalJoin join) {
              RexNode pulled = RexUtil.pullFactors(rexBuilder, join.getCondition());
              return join.copy(
                  join.getTraitSet(),
                  pulled,
                  join.getLeft(),
                  join.getRight(),
                  join.getJoinType(),
                  join.isSemiJoinDone());
            }
            return node;
          }
        });
  }

  /** Stops a Hep planner's rule loop when the statement is cancelled. */
  private static final class CancelListener implements RelOptListener {
    private final AtomicBoolean cancel;

    CancelListener(AtomicBoolean cancel) {
      this.cancel = cancel;
    }

    @Override
    public void ruleAttempted(RuleAttemptedEvent event) {
      PlanningThreads.check(cancel);
    }

    @Override
    public void relEquivalenceFound(RelEquivalenceEvent event) {}

    @Override
    public void ruleProductionSucceeded(RuleProductionEvent event) {}

    @Override
    public void relDiscarded(RelDiscardedEvent event) {}

    @Override
    public void relChosen(RelChosenEvent event) {}
  }
}
