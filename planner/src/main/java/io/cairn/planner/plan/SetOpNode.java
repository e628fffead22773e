package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.type.DataType;
import java.util.List;

/** UNION, INTERSECT or EXCEPT of inputs with the same column types, ALL or DISTINCT. */
public record SetOpNode(Kind kind, boolean all, List<PlanNode> inputs, List<DataType> outputTypes)
    implements PlanNode {
  /** Set operations. */
  public enum Kind {
    UNION,
    INTERSECT,
    EXCEPT
  }

  public SetOpNode {
    requireNonNull(kind, "kind is null");
    inputs = List.copyOf(inputs);
    outputTypes = List.copyOf(outputTypes);
  }
}
