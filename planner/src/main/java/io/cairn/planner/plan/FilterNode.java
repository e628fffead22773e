package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import java.util.List;

/** Keeps the input rows for which {@code condition} is TRUE. */
public record FilterNode(PlanNode input, Expr condition) implements PlanNode {
  public FilterNode {
    requireNonNull(input, "input is null");
    requireNonNull(condition, "condition is null");
  }

  @Override
  public List<DataType> outputTypes() {
    return input.outputTypes();
  }

  @Override
  public List<PlanNode> inputs() {
    return List.of(input);
  }
}
