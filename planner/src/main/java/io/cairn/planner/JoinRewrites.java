package io.cairn.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Rewrites of the joins Calcite's decorrelation leaves, so that more of them run as probes in the
 * store ({@link LogicalOptimizer}):
 *
 * <ul>
 *   <li>{@link #antiJoins}: an outer join under an {@code IS NULL} filter on a column of the
 *       null-supplying side that can never be null there (how NOT EXISTS, and NOT IN over columns
 *       that cannot be null, come out of decorrelation) is an ANTI join: the preserved side's rows
 *       that match nothing, with nulls for the other side's columns.
 *   <li>{@link #semiJoinsWithoutDistinct}: the distinct of a SEMI or ANTI join's right input, which
 *       only asks whether a row matches, is removed (TPC-H Q22).
 *   <li>{@link #orFiltersOfInputs}: an OR condition of an inner join whose every branch constrains
 *       one input filters that input too (TPC-H Q7).
 *   <li>{@link #reduceAggregates}: an aggregate joined on a group key with a far smaller input
 *       (EXISTS and correlated scalar subqueries after decorrelation: TPC-H Q2, Q4, Q17, Q20) first
 *       reduces its input to the rows whose key that input has (a semi join on the table the key
 *       comes from, probed in the store), so that a distinct or an average over a whole table is
 *       computed only for the groups the join keeps.
 * </ul>
 */
final class JoinRewrites {
  /**
   * The aggregate's input is reduced only when the other input is estimated to have at most this
   * share of the aggregate's groups: the other input is computed twice (for the reduction and for
   * the join), which pays only when it is much smaller.
   */
  private static final double REDUCING_SHARE = 0.25;

  private JoinRewrites() {}

  /**
   * {@code rel} with filters implied by the OR conditions of its inner joins added on the join's
   * inputs: when every branch of an OR constrains one input ({@code (n1.name = 'FRANCE' AND n2.name
   * = 'GERMANY') OR (n1.name = 'GERMANY' AND n2.name = 'FRANCE')}, TPC-H Q7), that input keeps only
   * rows some branch allows ({@code n1.name = 'FRANCE' OR n1.name = 'GERMANY'}). The join keeps its
   * whole condition, so the added filters only remove rows that could never join; they let the
   * filters reach the scans and the estimates see them.
   */
  static RelNode orFiltersOfInputs(RelNode rel, RexBuilder rexBuilder) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode node = super.visit(other);
            if (!(node instanceof Join join) || join.getJoinType() != JoinRelType.INNER) {
              return node;
            }
            int leftWidth = join.getLeft().getRowType().getFieldCount();
            int width = join.getRowType().getFieldCount();
            List<RexNode> leftFilters = new ArrayList<>();
            List<RexNode> rightFilters = new ArrayList<>();
            for (RexNode conjunct : RelOptUtil.conjunctions(join.getCondition())) {
              if (conjunct.isA(SqlKind.OR)) {
                implied(conjunct, 0, leftWidth, rexBuilder).ifPresent(leftFilters::add);
                implied(conjunct, leftWidth, width, rexBuilder)
                    .map(f -> RexUtil.shift(f, -leftWidth))
                    .ifPresent(rightFilters::add);
              }
            }
            if (leftFilters.isEmpty() && rightFilters.isEmpty()) {
              return node;
            }
            RelNode left = filtered(join.getLeft(), leftFilters, rexBuilder);
            RelNode right = filtered(join.getRight(), rightFilters, rexBuilder);
            return join.copy(
                join.getTraitSet(),
                join.getCondition(),
                left,
                right,
                join.getJoinType(),
                join.isSemiJoinDone());
          }
        });
  }

  private static RelNode filtered(RelNode input, List<RexNode> filters, RexBuilder rexBuilder) {
    return filters.isEmpty()
        ? input
        : LogicalFilter.create(input, RexUtil.composeConjunction(rexBuilder, filters));
  }

  /**
   * The OR, over the branches of {@code or}, of each branch's conjuncts that read only fields in
   * [{@code from}, {@code to}); empty when a branch has none (that branch allows any row there).
   */
  private static java.util.Optional<RexNode> implied(
      RexNode or, int from, int to, RexBuilder rexBuilder) {
    List<RexNode> branches = new ArrayList<>();
    for (RexNode branch : RelOptUtil.disjunctions(or)) {
      List<RexNode> own = new ArrayList<>();
      for (RexNode conjunct : RelOptUtil.conjunctions(branch)) {
        org.apache.calcite.util.ImmutableBitSet fields = RelOptUtil.InputFinder.bits(conjunct);
        if (!fields.isEmpty()
            && fields.nextSetBit(0) >= from
            && fields.length() <= to
            && RexUtil.isDeterministic(conjunct)) {
          own.add(conjunct);
        }
      }
      if (own.isEmpty()) {
        return java.util.Optional.empty();
      }
      branches.add(RexUtil.composeConjunction(rexBuilder, own));
    }
    return java.util.Optional.of(RexUtil.composeDisjunction(rexBuilder, branches));
  }

  /** {@code rel} with its outer joins that only keep unmatched rows as ANTI joins. */
  static RelNode antiJoins(RelNode rel, RexBuilder rexBuilder) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode node = super.visit(other);
            if (node instanceof Filter filter && filter.getInput() instanceof Join join) {
              RelNode anti = anti(filter, join, rexBuilder);
              if (anti != null) {
                return anti;
              }
            }
            return node;
          }
        });
  }

  private static RelNode anti(Filter filter, Join join, RexBuilder rexBuilder) {
    JoinRelType type = join.getJoinType();
    if (type != JoinRelType.LEFT && type != JoinRelType.RIGHT) {
      return null;
    }
    int leftWidth = join.getLeft().getRowType().getFieldCount();
    int width = join.getRowType().getFieldCount();
    boolean nullsOnRight = type == JoinRelType.LEFT;
    List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
    RexNode unmatched = null;
    for (RexNode conjunct : conjuncts) {
      if (conjunct.isA(SqlKind.IS_NULL)
          && ((RexCall) conjunct).getOperands().get(0) instanceof RexInputRef ref
          && neverNullOnItsSide(join, ref.getIndex(), leftWidth, nullsOnRight)) {
        unmatched = conjunct;
        break;
      }
    }
    if (unmatched == null) {
      return null;
    }
    RelNode preserved = nullsOnRight ? join.getLeft() : join.getRight();
    RelNode nullSupplying = nullsOnRight ? join.getRight() : join.getLeft();
    RexNode condition = join.getCondition();
    if (!nullsOnRight) {
      int rightWidth = width - leftWidth;
      condition =
          condition.accept(
              new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                  int i = ref.getIndex();
                  return new RexInputRef(
                      i < leftWidth ? i + rightWidth : i - leftWidth, ref.getType());
                }
              });
    }
    RelNode anti =
        LogicalJoin.create(
            preserved,
            nullSupplying,
            join.getHints(),
            condition,
            Set.<CorrelationId>of(),
            JoinRelType.ANTI);
    List<RexNode> fields = new ArrayList<>();
    int preservedStart = nullsOnRight ? 0 : leftWidth;
    for (RelDataTypeField field : join.getRowType().getFieldList()) {
      int i = field.getIndex();
      boolean fromPreserved = nullsOnRight ? i < leftWidth : i >= leftWidth;
      fields.add(
          fromPreserved
              ? rexBuilder.makeInputRef(anti, i - preservedStart)
              : rexBuilder.makeNullLiteral(field.getType()));
    }
    RelNode projected =
        LogicalProject.create(anti, List.of(), fields, join.getRowType().getFieldNames(), Set.of());
    List<RexNode> rest = new ArrayList<>(conjuncts);
    rest.remove(unmatched);
    if (rest.isEmpty()) {
      return projected;
    }
    return LogicalFilter.create(projected, RexUtil.composeConjunction(rexBuilder, rest));
  }

  /**
   * {@code rel} with the distinct under its SEMI and ANTI joins removed: a join that only asks
   * whether a row of the right matches (NOT EXISTS after decorrelation and {@link #antiJoins}:
   * TPC-H Q22) needs no distinct of the right's keys, since a key met twice matches as once. When
   * the right input is an aggregate (or a projection of one) and the join condition is equalities
   * of right columns that are its group keys, the right becomes a projection of the aggregate's
   * input: its rows can then be scanned in the store probing the left's (a mark join) instead of
   * being grouped first.
   */
  static RelNode semiJoinsWithoutDistinct(RelNode rel, RexBuilder rexBuilder) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode node = super.visit(other);
            if (node instanceof Join join
                && (join.getJoinType() == JoinRelType.SEMI
                    || join.getJoinType() == JoinRelType.ANTI)) {
              RelNode right = withoutDistinct(join, rexBuilder);
              if (right != null) {
                return join.copy(
                    join.getTraitSet(),
                    join.getCondition(),
                    join.getLeft(),
                    right,
                    join.getJoinType(),
                    join.isSemiJoinDone());
              }
            }
            return node;
          }
        });
  }

  /**
   * {@code rel} with its inner joins with the distinct keys of another input turned into SEMI joins
   * (then read without the distinct, {@link #semiJoinsWithoutDistinct}): a projection of only the
   * left's columns over an inner join on equalities that cover every group key of an aggregate on
   * the right (EXISTS after decorrelation: TPC-H Q4) keeps each left row that matches once, as a
   * semi join does.
   */
  static RelNode semiJoinsOfDistinctKeys(RelNode rel, RexBuilder rexBuilder) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode node = super.visit(other);
            if (node instanceof Project project
                && project.getInput() instanceof Join join
                && join.getJoinType() == JoinRelType.INNER) {
              RelNode semi = semiOfDistinct(project, join, rexBuilder);
              if (semi != null) {
                return semi;
              }
            }
            return node;
          }
        });
  }

  private static RelNode semiOfDistinct(Project project, Join join, RexBuilder rexBuilder) {
    int leftWidth = join.getLeft().getRowType().getFieldCount();
    ImmutableBitSet read = RelOptUtil.InputFinder.bits(project.getProjects(), null);
    if (!read.isEmpty() && read.length() > leftWidth) {
      return null; // the projection reads the right's columns
    }
    Distinct distinct = Distinct.of(join.getRight());
    JoinInfo info = join.analyzeCondition();
    if (distinct == null || !info.isEqui()) {
      return null;
    }
    // every group key equated: the right has at most one row per key the join matches
    ImmutableBitSet.Builder covered = ImmutableBitSet.builder();
    for (int key : info.rightKeys) {
      int group = distinct.groupKey(key);
      if (group >= 0) {
        covered.set(group);
      }
    }
    if (covered.build().cardinality() != distinct.aggregate().getGroupCount()) {
      return null;
    }
    RelNode right = distinct.input(info, rexBuilder);
    if (right == null) {
      return null;
    }
    RelNode semi =
        LogicalJoin.create(
            join.getLeft(),
            right,
            join.getHints(),
            join.getCondition(),
            Set.<CorrelationId>of(),
            JoinRelType.SEMI);
    return project.copy(project.getTraitSet(), semi, project.getProjects(), project.getRowType());
  }

  /** The right input of {@code join} without its aggregate (see above), or null. */
  private static RelNode withoutDistinct(Join join, RexBuilder rexBuilder) {
    Distinct distinct = Distinct.of(join.getRight());
    JoinInfo info = join.analyzeCondition();
    return distinct == null || !info.isEqui() ? null : distinct.input(info, rexBuilder);
  }

  /** A join's right input that is an aggregate, or a projection of one. */
  private record Distinct(RelNode right, Project project, Aggregate aggregate) {
    static Distinct of(RelNode right) {
      Project project = right instanceof Project p ? p : null;
      if ((project == null ? right : project.getInput()) instanceof Aggregate aggregate
          && aggregate.getGroupType() == Aggregate.Group.SIMPLE) {
        return new Distinct(right, project, aggregate);
      }
      return null;
    }

    /** The group key that field {@code field} of the right input is, or -1. */
    int groupKey(int field) {
      int group = field;
      if (project != null) {
        if (!(project.getProjects().get(field) instanceof RexInputRef ref)) {
          return -1;
        }
        group = ref.getIndex();
      }
      return group < aggregate.getGroupCount() ? group : -1;
    }

    /**
     * A projection of the aggregate's input in the right input's shape: the group keys the join's
     * equalities read ({@code info}), NULLs for the columns it does not; null when a column it
     * reads is not a group key of the same type.
     */
    RelNode input(JoinInfo info, RexBuilder rexBuilder) {
      RelNode input = aggregate.getInput();
      List<RexNode> fields = new ArrayList<>();
      for (RelDataTypeField field : right.getRowType().getFieldList()) {
        if (!info.rightSet().get(field.getIndex())) {
          fields.add(rexBuilder.makeNullLiteral(field.getType())); // never read
          continue;
        }
        int group = groupKey(field.getIndex());
        if (group < 0) {
          return null; // an aggregated value or an expression
        }
        RexNode key = rexBuilder.makeInputRef(input, aggregate.getGroupSet().nth(group));
        if (!key.getType().equals(field.getType())) {
          return null;
        }
        fields.add(key);
      }
      return LogicalProject.create(
          input, List.of(), fields, right.getRowType().getFieldNames(), Set.of());
    }
  }

  /**
   * Whether field {@code index} of the join comes from its null-supplying side and is never null
   * there (so that it is null exactly in the rows that matched nothing).
   */
  private static boolean neverNullOnItsSide(
      Join join, int index, int leftWidth, boolean nullsOnRight) {
    if (nullsOnRight ? index < leftWidth : index >= leftWidth) {
      return false;
    }
    RelNode side = nullsOnRight ? join.getRight() : join.getLeft();
    int i = nullsOnRight ? index - leftWidth : index;
    return !side.getRowType().getFieldList().get(i).getType().isNullable();
  }

  /**
   * {@code join} (inner joins only, before they are ordered) with its aggregate inputs reduced
   * where that pays (class comment). A group key of an aggregate input may be equated, directly or
   * through other columns, with columns of several other inputs: the reduction reads the one with
   * the fewest estimated rows (TPC-H Q20: LINEITEM's (L_PARTKEY, L_SUPPKEY) groups equal PARTSUPP's
   * keys, and PS_PARTKEY equals the filtered PART's P_PARTKEY: the groups are reduced by PART's
   * keys). That input is computed twice, so it must read one table (through filters, projections
   * and aggregates) and have at most {@link #REDUCING_SHARE} of the aggregate's estimated groups.
   * The aggregate's own input may join several tables: the semi join goes on the one the group key
   * comes from ({@link #semiJoined}).
   */
  static MultiJoin reduceAggregates(MultiJoin join, RexBuilder rexBuilder, RelMetadataQuery mq) {
    List<RelNode> inputs = join.getInputs();
    ColumnClasses equated = ColumnClasses.of(join);
    for (RexNode conjunct : RelOptUtil.conjunctions(join.getJoinFilter())) {
      equated.unite(conjunct);
    }
    int[] inputOf = equated.inputOf;
    int[] start = equated.start;
    List<RelNode> reduced = new ArrayList<>(inputs);
    boolean changed = false;
    for (int i = 0; i < inputs.size(); i++) {
      Grouped grouped = Grouped.of(inputs.get(i));
      if (grouped == null) {
        continue;
      }
      Double groups = mq.getRowCount(grouped.aggregate());
      if (groups == null) {
        continue;
      }
      // the smallest other input holding a column equal to one of the group keys
      int bestKey = -1;
      int bestField = -1;
      double bestRows = groups * REDUCING_SHARE;
      for (int key = 0; key < grouped.aggregate().getGroupCount(); key++) {
        int field = grouped.outputOf(key);
        if (field < 0 || !reducible(grouped.aggregate().getInput(), groupField(grouped, key))) {
          continue;
        }
        int cls = equated.find(start[i] + field);
        for (int f = 0; f < inputOf.length; f++) {
          int other = inputOf[f];
          if (other == i || equated.find(f) != cls || !readsOneTable(inputs.get(other))) {
            continue;
          }
          Double rows = mq.getRowCount(inputs.get(other));
          if (rows != null && rows <= bestRows) {
            bestRows = rows;
            bestKey = key;
            bestField = f;
          }
        }
      }
      if (bestField >= 0) {
        RelNode source = inputs.get(inputOf[bestField]);
        reduced.set(
            i,
            grouped.reducedBy(
                grouped.aggregate().getGroupSet().nth(bestKey),
                source,
                bestField - start[inputOf[bestField]],
                rexBuilder));
        changed = true;
      }
    }
    return changed ? (MultiJoin) join.copy(join.getTraitSet(), reduced) : join;
  }

  /**
   * An aggregate over one table's rows, under projections of plain fields ({@code projects}, top
   * first).
   */
  private record Grouped(List<Project> projects, Aggregate aggregate) {
    static Grouped of(RelNode input) {
      List<Project> projects = new ArrayList<>();
      RelNode node = input;
      while (node instanceof Project project) {
        projects.add(project);
        node = project.getInput();
      }
      if (node instanceof Aggregate aggregate
          && aggregate.getGroupType() == Aggregate.Group.SIMPLE
          && aggregate.getGroupCount() > 0
          && !(aggregate.getInput() instanceof Aggregate)) {
        return new Grouped(projects, aggregate);
      }
      return null;
    }

    /**
     * The field of the input (above the projections) that is group key {@code key}; -1 when the
     * projections do not pass it through.
     */
    int outputOf(int key) {
      int field = key;
      for (int p = projects.size() - 1; p >= 0; p--) {
        int found = -1;
        List<RexNode> exprs = projects.get(p).getProjects();
        for (int e = 0; e < exprs.size(); e++) {
          if (exprs.get(e) instanceof RexInputRef ref && ref.getIndex() == field) {
            found = e;
            break;
          }
        }
        if (found < 0) {
          return -1;
        }
        field = found;
      }
      return field;
    }

    /**
     * The input with the aggregate's rows reduced to those whose column {@code inputKey} equals
     * field {@code sourceField} of some row of {@code source} (a semi join).
     */
    RelNode reducedBy(int inputKey, RelNode source, int sourceField, RexBuilder rexBuilder) {
      RelNode keys =
          LogicalProject.create(
              source,
              List.of(),
              List.of(rexBuilder.makeInputRef(source, sourceField)),
              (List<String>) null,
              Set.of());
      RelNode semi = semiJoined(aggregate.getInput(), inputKey, keys, rexBuilder);
      RelNode result = aggregate.copy(aggregate.getTraitSet(), List.of(semi));
      for (int p = projects.size() - 1; p >= 0; p--) {
        result = projects.get(p).copy(projects.get(p).getTraitSet(), List.of(result));
      }
      return result;
    }
  }

  private static int groupField(Grouped grouped, int key) {
    return grouped.aggregate().getGroupSet().nth(key);
  }

  /**
   * Whether a semi join on field {@code field} of {@code rel} can be placed on the one table that
   * field comes from, through projections of plain fields, filters and the side of a join whose
   * rows the join only removes ({@link #semiJoined}).
   */
  private static boolean reducible(RelNode rel, int field) {
    if (readsOneTable(rel)) {
      return true;
    }
    if (rel instanceof Project project) {
      return project.getProjects().get(field) instanceof RexInputRef ref
          && reducible(project.getInput(), ref.getIndex());
    }
    if (rel instanceof Filter filter) {
      return reducible(filter.getInput(), field);
    }
    if (rel instanceof Join join) {
      int leftWidth = join.getLeft().getRowType().getFieldCount();
      boolean left = field < leftWidth;
      return reducesSide(join.getJoinType(), left)
          && (left
              ? reducible(join.getLeft(), field)
              : reducible(join.getRight(), field - leftWidth));
    }
    return false;
  }

  /**
   * Whether removing a join input's rows whose key is outside a set removes exactly the join's
   * output rows whose key (that input's column) is outside it: the input's rows reach the output
   * only through matches (inner joins, either side; the preserved side of an outer join; the left
   * side of a semi or anti join).
   */
  private static boolean reducesSide(JoinRelType type, boolean left) {
    return switch (type) {
      case INNER -> true;
      case LEFT, SEMI, ANTI -> left;
      case RIGHT -> !left;
      default -> false;
    };
  }

  /**
   * {@code rel} with the rows whose field {@code field} is not in {@code keys}' only column removed
   * by a semi join placed on the table that field comes from (TPC-H Q2: the suppliers' cheapest
   * costs, a MIN grouped by part over a join of PARTSUPP with SUPPLIER, NATION and REGION, are
   * computed for the filtered parts only: PARTSUPP's scan looks up their keys). Only for a {@code
   * rel} that is {@link #reducible} on {@code field}.
   */
  private static RelNode semiJoined(RelNode rel, int field, RelNode keys, RexBuilder rexBuilder) {
    if (readsOneTable(rel)) {
      RexNode equality =
          rexBuilder.makeCall(
              SqlStdOperatorTable.EQUALS,
              rexBuilder.makeInputRef(rel, field),
              new RexInputRef(
                  rel.getRowType().getFieldCount(),
                  keys.getRowType().getFieldList().get(0).getType()));
      return LogicalJoin.create(
          rel, keys, List.of(), equality, Set.<CorrelationId>of(), JoinRelType.SEMI);
    }
    if (rel instanceof Project project) {
      int source = ((RexInputRef) project.getProjects().get(field)).getIndex();
      return project.copy(
          project.getTraitSet(), List.of(semiJoined(project.getInput(), source, keys, rexBuilder)));
    }
    if (rel instanceof Filter filter) {
      return filter.copy(
          filter.getTraitSet(), List.of(semiJoined(filter.getInput(), field, keys, rexBuilder)));
    }
    Join join = (Join) rel;
    int leftWidth = join.getLeft().getRowType().getFieldCount();
    RelNode left = join.getLeft();
    RelNode right = join.getRight();
    if (field < leftWidth) {
      left = semiJoined(left, field, keys, rexBuilder);
    } else {
      right = semiJoined(right, field - leftWidth, keys, rexBuilder);
    }
    return join.copy(join.getTraitSet(), List.of(left, right));
  }

  /**
   * Whether {@code rel} reads one table through filters, projections and aggregates (no join), so
   * that computing it twice costs little more than one scan and a semi join on it becomes a probe
   * in the store.
   */
  private static boolean readsOneTable(RelNode rel) {
    RelNode node = rel;
    while (node instanceof Filter || node instanceof Project || node instanceof Aggregate) {
      node = node.getInput(0);
    }
    return node instanceof org.apache.calcite.rel.core.TableScan;
  }
}
