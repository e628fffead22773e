package io.cairn.planner.plan;

import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import java.util.List;

/** Constant rows (literals or parameters). */
public record ValuesNode(List<List<Expr>> rows, List<DataType> outputTypes) implements PlanNode {
  public ValuesNode {
    rows = rows.stream().map(List::copyOf).toList();
    outputTypes = List.copyOf(outputTypes);
  }

  @Override
  public List<PlanNode> inputs() {
    return List.of();
  }
}
