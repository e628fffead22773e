package io.cairn.planner;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * The fields of a {@link MultiJoin} (which input each comes from, where each input's fields start)
 * and the classes of fields its equi-join conditions equate: {@code a = b} and {@code b = c} put a,
 * b and c in one class (a union-find). Used by {@link JoinOrder}, {@link
 * JoinRewrites#reduceAggregates} and {@link InnerJoinAggregates} (its fields alone).
 */
final class ColumnClasses {
  /** The input of each field of the multi-join's row. */
  final int[] inputOf;

  /** The first field of each input in the multi-join's row. */
  final int[] start;

  private final int[] parent;

  private ColumnClasses(int[] inputOf, int[] start) {
    this.inputOf = inputOf;
    this.start = start;
    this.parent = new int[inputOf.length];
    for (int f = 0; f < parent.length; f++) {
      parent[f] = f;
    }
  }

  /** Every field of {@code join} in a class of its own, until {@link #unite} joins them. */
  static ColumnClasses of(MultiJoin join) {
    int[] inputOf = new int[join.getRowType().getFieldCount()];
    int[] start = new int[join.getInputs().size()];
    int at = 0;
    for (int i = 0; i < start.length; i++) {
      RelNode input = join.getInputs().get(i);
      start[i] = at;
      for (int f = 0; f < input.getRowType().getFieldCount(); f++) {
        inputOf[at++] = i;
      }
    }
    return new ColumnClasses(inputOf, start);
  }

  /**
   * Puts the two columns of {@code condition} in one class when it is an equality of columns of two
   * different inputs of the same type (nullability aside); whether it was.
   */
  boolean unite(RexNode condition) {
    if (condition.isA(SqlKind.EQUALS)
        && ((RexCall) condition).getOperands().get(0) instanceof RexInputRef a
        && ((RexCall) condition).getOperands().get(1) instanceof RexInputRef b
        && inputOf[a.getIndex()] != inputOf[b.getIndex()]
        && SqlTypeUtil.equalSansNullability(a.getType(), b.getType())) {
      parent[find(a.getIndex())] = find(b.getIndex());
      return true;
    }
    return false;
  }

  /** The class of field {@code f} (its root field). */
  int find(int f) {
    while (parent[f] != f) {
      parent[f] = parent[parent[f]];
      f = parent[f];
    }
    return f;
  }
}
