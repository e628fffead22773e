package io.cairn.planner;

import com.google.common.collect.ImmutableSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * EXISTS, NOT EXISTS, IN and NOT IN subqueries of a filter whose correlation mixes equalities with
 * other comparisons as SEMI and ANTI joins, before Calcite's decorrelation ({@link
 * LogicalOptimizer}). A conjunct of a filter's condition of the form {@code [NOT] EXISTS (SELECT
 * ... FROM r WHERE c)} or {@code x [NOT] IN (SELECT y FROM r WHERE c)}, where {@code r} is not
 * correlated and {@code c}'s conjuncts that read the outer row include both an equality of an outer
 * and an inner expression (a hash key) and something else ({@code l2.l_suppkey <> l1.l_suppkey},
 * TPC-H Q21), becomes a join of the filter's input with {@code r} filtered by {@code c}'s own
 * conjuncts: SEMI for EXISTS and IN, ANTI for NOT EXISTS and NOT IN, on the correlated conjuncts
 * (and IN's equalities). The hash join takes the equalities as its keys and the rest as its
 * residual, evaluated per key match: a residual that is not TRUE (FALSE or UNKNOWN) is no match, as
 * an inner row whose WHERE is not TRUE is not in the subquery's result.
 *
 * <p>Calcite's RelDecorrelator needs a value generator for such a correlation: the distinct outer
 * values, computed by repeating the outer query, joined with {@code r}, then joined back.
 * Subqueries correlated by equalities alone decorrelate without one (into aggregates that {@link
 * JoinRewrites#reduceAggregates} reduces, or outer joins that {@link JoinRewrites#antiJoins} turns
 * into ANTI joins) and are left to it, as are those without any equality (they would be a nested
 * loop here).
 *
 * <p>NULL rules: a NULL key matches nothing, so NOT EXISTS keeps an outer row with a NULL
 * correlation key (its subquery is empty) and EXISTS drops it. {@code x NOT IN (...)} is TRUE only
 * when no row of the (correlated) subquery has {@code x = y} TRUE or UNKNOWN, so its ANTI join
 * matches on {@code (x = y) IS NOT FALSE}: a key only when neither side can be NULL, else part of
 * the residual (then the correlation's equalities must give the keys). Only the filters of the
 * query's own tree are rewritten, not those inside other subqueries.
 */
final class SubQueryJoins {
  private SubQueryJoins() {}

  /** {@code rel} with its filters' subqueries of the shape above as SEMI and ANTI joins. */
  static RelNode rewrite(RelNode rel, RexBuilder rexBuilder) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode node = super.visit(other);
            return node instanceof Filter filter ? joined(filter, rexBuilder) : node;
          }
        });
  }

  /** {@code filter} with its rewritable subqueries as joins over its input, or itself. */
  private static RelNode joined(Filter filter, RexBuilder rexBuilder) {
    Set<CorrelationId> outer = filter.getVariablesSet();
    if (outer.isEmpty()) {
      return filter;
    }
    RelNode input = filter.getInput();
    List<RexNode> rest = new ArrayList<>();
    List<SubQueryJoin> joins = new ArrayList<>();
    for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
      SubQueryJoin join = SubQueryJoin.of(conjunct, input, outer, rexBuilder);
      if (join == null) {
        rest.add(conjunct);
      } else {
        joins.add(join);
      }
    }
    if (joins.isEmpty()) {
      return filter;
    }
    RelNode result = input;
    if (!rest.isEmpty()) {
      // what is left may hold other subqueries, over the same correlation variables
      RexNode condition = RexUtil.composeConjunction(rexBuilder, rest);
      result =
          LogicalFilter.create(
              input,
              condition,
              ImmutableSet.copyOf(
                  RexUtil.SubQueryFinder.find(condition) != null ? outer : Set.of()));
    }
    for (SubQueryJoin join : joins) {
      // SEMI and ANTI joins keep their left row type: the correlation variables still fit
      result =
          LogicalJoin.create(
              result,
              join.right(),
              List.of(),
              join.condition(),
              Set.<CorrelationId>of(),
              join.type());
    }
    return result;
  }

  /** A subquery conjunct as a join: the subquery's source, the join's condition and type. */
  private record SubQueryJoin(RelNode right, RexNode condition, JoinRelType type) {
    /** The join of {@code conjunct} over {@code input}, or null when it has not the shape. */
    static SubQueryJoin of(
        RexNode conjunct, RelNode input, Set<CorrelationId> outer, RexBuilder rexBuilder) {
      boolean negated = conjunct.isA(SqlKind.NOT);
      RexNode node = negated ? ((RexCall) conjunct).getOperands().get(0) : conjunct;
      if (!(node instanceof RexSubQuery subQuery)
          || (!subQuery.isA(SqlKind.EXISTS) && !subQuery.isA(SqlKind.IN))) {
        return null;
      }
      for (RexNode operand : subQuery.getOperands()) {
        if (!RexUtil.isDeterministic(operand)
            || RexUtil.containsCorrelation(operand)
            || RexUtil.SubQueryFinder.find(operand) != null) {
          return null;
        }
      }
      Correlated correlated = Correlated.of(subQuery.rel, input.getRowType(), outer);
      if (correlated == null) {
        return null;
      }
      int width = input.getRowType().getFieldCount();
      List<RexNode> condition = new ArrayList<>();
      boolean keyed = false;
      boolean other = false;
      for (RexNode c : correlated.conjuncts()) {
        RexNode joined = correlated.overJoin(c, width);
        if (isKey(joined, width)) {
          keyed = true;
        } else {
          other = true;
        }
        condition.add(joined);
      }
      if (!other) {
        return null; // correlated by equalities alone: decorrelated without a value generator
      }
      // IN: x = y for each column; NOT IN: (x = y) IS NOT FALSE, x = y when neither can be NULL
      List<RexNode> operands = subQuery.getOperands();
      for (int i = 0; i < operands.size(); i++) {
        RexNode x = operands.get(i);
        RexNode y = RexUtil.shift(correlated.outputs().get(i), width);
        RexNode equal = rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, x, y);
        if (!negated || (!x.getType().isNullable() && !y.getType().isNullable())) {
          keyed |= isKey(equal, width);
          condition.add(equal);
        } else {
          condition.add(rexBuilder.makeCall(SqlStdOperatorTable.IS_NOT_FALSE, equal));
        }
      }
      if (!keyed) {
        return null; // no hash key: a nested loop
      }
      RelNode source =
          correlated.local().isEmpty()
              ? correlated.source()
              : LogicalFilter.create(
                  correlated.source(), RexUtil.composeConjunction(rexBuilder, correlated.local()));
      return narrowed(
          source,
          RexUtil.composeConjunction(rexBuilder, condition),
          width,
          negated ? JoinRelType.ANTI : JoinRelType.SEMI);
    }

    /**
     * The join of {@code source} on {@code condition} with only the source's fields the condition
     * reads projected (the build side holds nothing else; the field trimmer leaves a filter's
     * fields).
     */
    private static SubQueryJoin narrowed(
        RelNode source, RexNode condition, int width, JoinRelType type) {
      ImmutableBitSet used =
          RelOptUtil.InputFinder.bits(condition).get(width, Integer.MAX_VALUE).shift(-width);
      if (used.cardinality() == source.getRowType().getFieldCount()) {
        return new SubQueryJoin(source, condition, type);
      }
      List<RexNode> fields = new ArrayList<>();
      int[] position = new int[source.getRowType().getFieldCount()];
      for (int field : used) {
        position[field] = fields.size();
        fields.add(RexInputRef.of(field, source.getRowType()));
      }
      RelNode projected =
          LogicalProject.create(source, List.of(), fields, (List<String>) null, Set.of());
      RexNode remapped =
          condition.accept(
              new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                  int i = ref.getIndex();
                  return i < width
                      ? ref
                      : new RexInputRef(width + position[i - width], ref.getType());
                }
              });
      return new SubQueryJoin(projected, remapped, type);
    }

    /**
     * Whether {@code condition} (over the join's row, the left input {@code width} fields wide) is
     * an equality of an expression of the left input and one of the right: a hash join's key.
     */
    private static boolean isKey(RexNode condition, int width) {
      if (!condition.isA(SqlKind.EQUALS)) {
        return false;
      }
      List<RexNode> operands = ((RexCall) condition).getOperands();
      ImmutableBitSet a = RelOptUtil.InputFinder.bits(operands.get(0));
      ImmutableBitSet b = RelOptUtil.InputFinder.bits(operands.get(1));
      if (a.isEmpty() || b.isEmpty()) {
        return false;
      }
      boolean aLeft = a.length() <= width;
      boolean aRight = a.nextSetBit(0) >= width;
      boolean bLeft = b.length() <= width;
      boolean bRight = b.nextSetBit(0) >= width;
      return (aLeft && bRight) || (aRight && bLeft);
    }
  }

  /**
   * A subquery {@code Project* (Filter(condition, source))} whose source is not correlated: the
   * condition's conjuncts that read no outer row ({@code local}) and those that do ({@code
   * conjuncts}, over the source's fields and outer fields), and the subquery's columns as
   * expressions over the source's fields ({@code outputs}).
   */
  private record Correlated(
      RelNode source,
      List<RexNode> local,
      List<RexNode> conjuncts,
      List<RexNode> outputs,
      RelDataType outerType) {
    static Correlated of(RelNode subQuery, RelDataType outerType, Set<CorrelationId> outer) {
      List<Project> projects = new ArrayList<>();
      RelNode node = subQuery;
      while (node instanceof Project project) {
        for (RexNode e : project.getProjects()) {
          if (RexUtil.containsCorrelation(e) || RexUtil.SubQueryFinder.find(e) != null) {
            return null;
          }
        }
        projects.add(project);
        node = project.getInput();
      }
      if (!(node instanceof Filter filter)
          || !filter.getVariablesSet().isEmpty()
          || !RelOptUtil.getVariablesUsed(filter.getInput()).isEmpty()) {
        return null;
      }
      List<RexNode> local = new ArrayList<>();
      List<RexNode> conjuncts = new ArrayList<>();
      for (RexNode c : RelOptUtil.conjunctions(filter.getCondition())) {
        if (!RexUtil.isDeterministic(c) || RexUtil.SubQueryFinder.find(c) != null) {
          return null;
        }
        if (!RexUtil.containsCorrelation(c)) {
          local.add(c);
        } else if (readsOnly(c, outer, outerType)) {
          conjuncts.add(c);
        } else {
          return null;
        }
      }
      if (conjuncts.isEmpty()) {
        return null;
      }
      List<RexNode> outputs = new ArrayList<>();
      for (int i = 0; i < subQuery.getRowType().getFieldCount(); i++) {
        RexNode e = RexInputRef.of(i, subQuery.getRowType());
        for (Project project : projects) {
          e = RelOptUtil.pushPastProject(e, project);
        }
        outputs.add(e);
      }
      return new Correlated(filter.getInput(), local, conjuncts, outputs, outerType);
    }

    /**
     * Whether {@code c} reads the outer row only through fields of one of the {@code outer}
     * variables, of the outer row's type.
     */
    private static boolean readsOnly(RexNode c, Set<CorrelationId> outer, RelDataType outerType) {
      boolean[] ok = {true};
      c.accept(
          new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitFieldAccess(RexFieldAccess access) {
              if (access.getReferenceExpr() instanceof RexCorrelVariable variable) {
                int i = access.getField().getIndex();
                ok[0] &=
                    outer.contains(variable.id)
                        && variable.getType().getFieldCount() == outerType.getFieldCount()
                        && i < outerType.getFieldCount()
                        && access.getType().equals(outerType.getFieldList().get(i).getType());
                return null;
              }
              return super.visitFieldAccess(access);
            }

            @Override
            public Void visitCorrelVariable(RexCorrelVariable variable) {
              ok[0] = false; // the whole outer row, not a field of it
              return null;
            }
          });
      return ok[0];
    }

    /**
     * {@code c} over the join's row: the outer fields as the left input's ({@code width} wide), the
     * source's fields after them.
     */
    RexNode overJoin(RexNode c, int width) {
      return c.accept(
          new RexShuttle() {
            @Override
            public RexNode visitFieldAccess(RexFieldAccess access) {
              if (access.getReferenceExpr() instanceof RexCorrelVariable) {
                int i = access.getField().getIndex();
                return new RexInputRef(i, outerType.getFieldList().get(i).getType());
              }
              return super.visitFieldAccess(access);
            }

            @Override
            public RexNode visitInputRef(RexInputRef ref) {
              return new RexInputRef(width + ref.getIndex(), ref.getType());
            }
          });
    }
  }
}
