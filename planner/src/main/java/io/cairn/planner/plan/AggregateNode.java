package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.type.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * Groups input rows by {@code groupKeys} (input column indexes) and computes {@code calls} per
 * group; output = group key values, then one value per call. {@code filterColumns} holds, per call,
 * the input column of its FILTER (WHERE ...) clause or -1. Without group keys, produces exactly one
 * row even for empty input.
 */
public record AggregateNode(
    PlanNode input, List<Integer> groupKeys, List<AggregateCall> calls, List<Integer> filterColumns)
    implements PlanNode {
  public AggregateNode {
    requireNonNull(input, "input is null");
    groupKeys = List.copyOf(groupKeys);
    calls = List.copyOf(calls);
    filterColumns = List.copyOf(filterColumns);
  }

  @Override
  public List<DataType> outputTypes() {
    List<DataType> types = new ArrayList<>();
    for (int k : groupKeys) {
      types.add(input.outputTypes().get(k));
    }
    for (AggregateCall c : calls) {
      types.add(c.resultType());
    }
    return types;
  }

  @Override
  public List<PlanNode> inputs() {
    return List.of(input);
  }
}
