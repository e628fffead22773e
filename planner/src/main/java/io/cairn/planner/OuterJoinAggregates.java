package io.cairn.planner;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Aggregations over an outer join grouped by a unique key of its preserved side, computed on the
 * other side before the join (eager aggregation): {@code SELECT c_custkey, COUNT(o_orderkey) FROM
 * customer LEFT JOIN orders ON c_custkey = o_custkey GROUP BY c_custkey} (TPC-H Q13) becomes
 * customer LEFT JOIN (orders' counts grouped by o_custkey) with a count of 0 where none matched.
 * Each group is one row of the preserved side (its group keys are unique there and never NULL),
 * whose aggregates are those of the rows it matches: the rows the other side has for its join keys,
 * which the pre-aggregation gathers into one row per key. So the store groups the other side's rows
 * as it scans them, and the driver joins one row per key instead of every row.
 *
 * <p>Taken for COUNT, SUM, MIN and MAX (not DISTINCT, no FILTER) of the other side's columns and
 * equi-joins only; a COUNT of no match is 0, the others NULL, as over the joined rows.
 */
final class OuterJoinAggregates {
  private OuterJoinAggregates() {}

  static RelNode rewrite(RelNode rel, RelBuilder relBuilder, RelMetadataQuery mq) {
    return InnerJoinAggregates.eachAggregate(rel, aggregate -> eager(aggregate, relBuilder, mq));
  }

  private static RelNode eager(Aggregate aggregate, RelBuilder b, RelMetadataQuery mq) {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || aggregate.getGroupCount() == 0) {
      return null;
    }
    Project project = aggregate.getInput() instanceof Project p ? p : null;
    RelNode below = project == null ? aggregate.getInput() : project.getInput();
    if (!(below instanceof Join join)
        || (join.getJoinType() != JoinRelType.LEFT && join.getJoinType() != JoinRelType.RIGHT)) {
      return null;
    }
    JoinInfo info = join.analyzeCondition();
    if (!info.isEqui() || info.leftKeys.isEmpty()) {
      return null;
    }
    boolean leftPreserved = join.getJoinType() == JoinRelType.LEFT;
    int leftWidth = join.getLeft().getRowType().getFieldCount();
    RelNode outer = leftPreserved ? join.getLeft() : join.getRight();
    RelNode inner = leftPreserved ? join.getRight() : join.getLeft();
    int outerOffset = leftPreserved ? 0 : leftWidth;
    int innerOffset = leftPreserved ? leftWidth : 0;
    int outerWidth = outer.getRowType().getFieldCount();
    int innerWidth = inner.getRowType().getFieldCount();
    // the group keys: columns of the preserved side, never NULL, unique there
    List<Integer> groupColumns = new ArrayList<>();
    for (int g : aggregate.getGroupSet()) {
      int column = joinColumn(project, g) - outerOffset;
      if (column < 0
          || column >= outerWidth
          || outer.getRowType().getFieldList().get(column).getType().isNullable()) {
        return null;
      }
      groupColumns.add(column);
    }
    if (!Boolean.TRUE.equals(mq.areColumnsUnique(outer, ImmutableBitSet.of(groupColumns)))) {
      return null;
    }
    // the calls: COUNT, SUM, MIN, MAX of one column of the other side
    List<Integer> arguments = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      SqlKind kind = call.getAggregation().getKind();
      boolean supported =
          kind == SqlKind.COUNT
              || kind == SqlKind.SUM
              || kind == SqlKind.MIN
              || kind == SqlKind.MAX;
      if (!supported || call.isDistinct() || call.hasFilter() || call.getArgList().size() != 1) {
        return null;
      }
      int column = joinColumn(project, call.getArgList().get(0)) - innerOffset;
      if (column < 0 || column >= innerWidth) {
        return null;
      }
      arguments.add(column);
    }
    List<Integer> outerKeys = leftPreserved ? info.leftKeys : info.rightKeys;
    List<Integer> innerKeys = leftPreserved ? info.rightKeys : info.leftKeys;
    ImmutableBitSet innerKeySet = ImmutableBitSet.of(innerKeys);
    b.push(inner);
    List<RelBuilder.AggCall> calls = new ArrayList<>();
    for (int i = 0; i < arguments.size(); i++) {
      AggregateCall call = aggregate.getAggCallList().get(i);
      calls.add(b.aggregateCall(call.getAggregation(), b.field(arguments.get(i))).as(call.name));
    }
    b.aggregate(b.groupKey(innerKeySet), calls);
    RelNode preAggregated = b.build();
    b.push(outer);
    b.push(preAggregated);
    List<RexNode> equalities = new ArrayList<>();
    for (int i = 0; i < outerKeys.size(); i++) {
      int position = innerKeySet.indexOf(innerKeys.get(i)); // the aggregate's group fields
      equalities.add(b.equals(b.field(2, 0, outerKeys.get(i)), b.field(2, 1, position)));
    }
    b.join(JoinRelType.LEFT, equalities);
    RexBuilder rex = b.getRexBuilder();
    List<RexNode> outputs = new ArrayList<>();
    for (int column : groupColumns) {
      outputs.add(b.field(column));
    }
    int callsAt = outerWidth + innerKeySet.cardinality();
    for (int i = 0; i < arguments.size(); i++) {
      RexNode value = b.field(callsAt + i);
      if (aggregate.getAggCallList().get(i).getAggregation().getKind() == SqlKind.COUNT) {
        value =
            rex.makeCall(
                SqlStdOperatorTable.COALESCE, value, rex.makeBigintLiteral(BigDecimal.ZERO));
      }
      outputs.add(value);
    }
    List<RelDataTypeField> fields = aggregate.getRowType().getFieldList();
    for (int i = 0; i < outputs.size(); i++) {
      outputs.set(i, rex.ensureType(fields.get(i).getType(), outputs.get(i), true));
    }
    b.project(outputs, aggregate.getRowType().getFieldNames(), true);
    return b.build();
  }

  /** The join's field that aggregate input field {@code field} is (through the projection). */
  private static int joinColumn(Project project, int field) {
    if (project == null) {
      return field;
    }
    return project.getProjects().get(field) instanceof RexInputRef ref ? ref.getIndex() : -1;
  }
}
