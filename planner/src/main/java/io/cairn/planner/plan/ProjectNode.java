package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import java.util.List;

/** Computes {@code expressions} over each input row. */
public record ProjectNode(PlanNode input, List<Expr> expressions) implements PlanNode {
  public ProjectNode {
    requireNonNull(input, "input is null");
    expressions = List.copyOf(expressions);
  }

  @Override
  public List<DataType> outputTypes() {
    return expressions.stream().map(Expr::type).toList();
  }

  @Override
  public List<PlanNode> inputs() {
    return List.of(input);
  }
}
