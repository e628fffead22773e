package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Joins two inputs. With equi-join keys it runs as a hash join (build side: right), or, with {@code
 * sortMerge} (the USE_SORT_MERGE_JOIN hint), as a sort-merge join (both sides sorted by their keys,
 * then merged); otherwise as a nested loop. {@code residual} is evaluated over the concatenated
 * (left, right) row and is part of the match condition (so outer joins keep their semantics). SEMI
 * and ANTI output only the left columns.
 */
public record JoinNode(
    PlanNode left,
    PlanNode right,
    Kind kind,
    List<Integer> leftKeys,
    List<Integer> rightKeys,
    Optional<Expr> residual,
    boolean sortMerge)
    implements PlanNode {
  /** Join types. */
  public enum Kind {
    INNER,
    LEFT,
    RIGHT,
    FULL,
    SEMI,
    ANTI
  }

  public JoinNode {
    requireNonNull(left, "left is null");
    requireNonNull(right, "right is null");
    requireNonNull(kind, "kind is null");
    leftKeys = List.copyOf(leftKeys);
    rightKeys = List.copyOf(rightKeys);
    requireNonNull(residual, "residual is null");
    if (sortMerge && leftKeys.isEmpty()) {
      throw io.cairn.core.error.CairnException.internal("A sort-merge join needs equi-join keys");
    }
  }

  /** A hash join (with keys) or a nested loop (without). */
  public JoinNode(
      PlanNode left,
      PlanNode right,
      Kind kind,
      List<Integer> leftKeys,
      List<Integer> rightKeys,
      Optional<Expr> residual) {
    this(left, right, kind, leftKeys, rightKeys, residual, false);
  }

  @Override
  public List<DataType> outputTypes() {
    List<DataType> types = new ArrayList<>();
    boolean leftNullable = kind == Kind.RIGHT || kind == Kind.FULL;
    boolean rightNullable = kind == Kind.LEFT || kind == Kind.FULL;
    for (DataType t : left.outputTypes()) {
      types.add(leftNullable ? t.withNullable(true) : t);
    }
    if (kind != Kind.SEMI && kind != Kind.ANTI) {
      for (DataType t : right.outputTypes()) {
        types.add(rightNullable ? t.withNullable(true) : t);
      }
    }
    return types;
  }

  @Override
  public List<PlanNode> inputs() {
    return List.of(left, right);
  }
}
