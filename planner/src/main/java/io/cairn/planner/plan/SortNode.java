package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.kv.SortKey;
import java.util.List;
import java.util.Optional;

/**
 * Sorts by {@code keys} (none: keeps input order), then skips {@code offset} rows and returns at
 * most {@code fetch} rows. Offset and fetch are literals or parameters.
 */
public record SortNode(
    PlanNode input, List<SortKey> keys, Optional<Expr> offset, Optional<Expr> fetch)
    implements PlanNode {
  public SortNode {
    requireNonNull(input, "input is null");
    keys = List.copyOf(keys);
    requireNonNull(offset, "offset is null");
    requireNonNull(fetch, "fetch is null");
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
