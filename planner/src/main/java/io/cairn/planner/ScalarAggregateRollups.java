package io.cairn.planner;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.RelBuilder;

/**
 * An aggregate without GROUP BY over the same rows as a grouped aggregate of the same statement,
 * whose calls that one computes too, is computed from that one's groups (a roll-up): TPC-H Q11
 * compares each part's stock value, {@code SUM(ps_supplycost * ps_availqty)} grouped by part over
 * PARTSUPP joined with GERMANY's suppliers, with a fraction of the total, the same SUM over the
 * same join without groups. The total becomes the SUM of the parts' sums; the grouped aggregate is
 * then one subplan read twice, which the executor computes once ({@code SharedSubplans}): one scan
 * of PARTSUPP instead of two.
 *
 * <p>Taken when the total computes each of the groups' calls (in any order): the field trimmer
 * gives each reader of the groups the calls it reads, and a reader of fewer would get other groups,
 * computed again. A SUM rolls up as the SUM of the sums, a MIN and a MAX as the MIN and MAX of the
 * groups', a COUNT as the SUM0 of the counts (0 over no group, as COUNT over no row); DISTINCT and
 * FILTER calls are left alone. Every row of the input is in exactly one group (NULL keys are a
 * group), so the roll-up sees every row once. "The same rows": the two aggregates' inputs below
 * their projections print the same plan, and each call's argument is the same expression over it.
 */
final class ScalarAggregateRollups {
  private ScalarAggregateRollups() {}

  static RelNode rewrite(RelNode root, RelBuilder relBuilder) {
    List<Aggregate> grouped = new ArrayList<>();
    boolean[] scalar = new boolean[1];
    collect(root, grouped, scalar);
    if (grouped.isEmpty() || !scalar[0]) {
      return root;
    }
    Map<String, List<Aggregate>> byRows = new HashMap<>();
    for (Aggregate aggregate : grouped) {
      byRows.computeIfAbsent(rows(aggregate), r -> new ArrayList<>()).add(aggregate);
    }
    return InnerJoinAggregates.eachAggregate(
        root,
        aggregate -> {
          if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || aggregate.getGroupCount() > 0) {
            return null;
          }
          for (Aggregate groups : byRows.getOrDefault(rows(aggregate), List.of())) {
            RelNode rolled = rollUp(aggregate, groups, relBuilder);
            if (rolled != null) {
              return rolled;
            }
          }
          return null;
        });
  }

  private static void collect(RelNode rel, List<Aggregate> grouped, boolean[] scalar) {
    if (rel instanceof Aggregate aggregate && aggregate.getGroupType() == Aggregate.Group.SIMPLE) {
      if (aggregate.getGroupCount() > 0) {
        grouped.add(aggregate);
      } else {
        scalar[0] = true;
      }
    }
    for (RelNode input : rel.getInputs()) {
      collect(input, grouped, scalar);
    }
  }

  /** The plan of the aggregate's rows, below its projection. */
  private static String rows(Aggregate aggregate) {
    RelNode input = aggregate.getInput();
    RelNode below = input instanceof Project project ? project.getInput() : input;
    return RelOptUtil.toString(below, SqlExplainLevel.DIGEST_ATTRIBUTES);
  }

  /** {@code scalar}'s calls computed over {@code groups}' rows, or null when one is not there. */
  private static RelNode rollUp(Aggregate scalar, Aggregate groups, RelBuilder b) {
    if (scalar.getAggCallList().size() != groups.getAggCallList().size()) {
      // the field trimmer would drop the calls the total does not read from its copy of the
      // groups, which would then differ from the statement's and run again
      return null;
    }
    // each call's roll-up and the field of the groups' call it rolls up, all found before the
    // builder is used
    List<SqlAggFunction> rollUps = new ArrayList<>();
    List<Integer> sources = new ArrayList<>();
    List<AggregateCall> candidates = groups.getAggCallList();
    for (AggregateCall call : scalar.getAggCallList()) {
      int found = -1;
      for (int j = 0; j < candidates.size() && found < 0; j++) {
        if (sameCall(scalar, call, groups, candidates.get(j))) {
          found = j;
        }
      }
      SqlAggFunction rollUp = found < 0 ? null : rollUpOf(call.getAggregation().getKind());
      if (rollUp == null) {
        return null;
      }
      rollUps.add(rollUp);
      sources.add(groups.getGroupCount() + found);
    }
    b.push(groups);
    List<RelBuilder.AggCall> calls = new ArrayList<>();
    for (int i = 0; i < rollUps.size(); i++) {
      calls.add(b.aggregateCall(rollUps.get(i), b.field(sources.get(i))));
    }
    b.aggregate(b.groupKey(), calls);
    RexBuilder rex = b.getRexBuilder();
    List<RexNode> outputs = new ArrayList<>();
    List<RelDataTypeField> fields = scalar.getRowType().getFieldList();
    for (int i = 0; i < fields.size(); i++) {
      outputs.add(rex.ensureType(fields.get(i).getType(), b.field(i), true));
    }
    b.project(outputs, scalar.getRowType().getFieldNames(), true);
    return b.build();
  }

  private static SqlAggFunction rollUpOf(SqlKind kind) {
    return switch (kind) {
      case SUM -> SqlStdOperatorTable.SUM;
      case SUM0, COUNT -> SqlStdOperatorTable.SUM0;
      case MIN -> SqlStdOperatorTable.MIN;
      case MAX -> SqlStdOperatorTable.MAX;
      default -> null;
    };
  }

  /** Whether two calls compute the same function of the same expression of their rows. */
  private static boolean sameCall(
      Aggregate scalar, AggregateCall call, Aggregate groups, AggregateCall candidate) {
    if (call.isDistinct()
        || call.hasFilter()
        || !call.getCollation().getFieldCollations().isEmpty()
        || candidate.isDistinct()
        || candidate.hasFilter()
        || call.getAggregation().getKind() != candidate.getAggregation().getKind()
        || !SqlTypeUtil.equalSansNullability(call.getType(), candidate.getType())
        || call.getArgList().size() != candidate.getArgList().size()) {
      return false;
    }
    for (int a = 0; a < call.getArgList().size(); a++) {
      RexNode mine = argument(scalar, call.getArgList().get(a));
      RexNode theirs = argument(groups, candidate.getArgList().get(a));
      if (!mine.equals(theirs)) {
        return false;
      }
    }
    return true;
  }

  /** Input field {@code field} of {@code aggregate} as an expression of the rows below. */
  private static RexNode argument(Aggregate aggregate, int field) {
    return aggregate.getInput() instanceof Project project
        ? project.getProjects().get(field)
        : RexInputRef.of(field, aggregate.getInput().getRowType());
  }
}
