package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.type.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * Groups input rows by {@code groupKeys} (input column indexes) and computes {@code calls} per
 * group; output = group key values, then one value per call. {@code filterColumns} holds, per call,
 * the input column of its FILTER (WHERE ...) clause or -1. {@code groupSets} lists the grouping
 * sets (GROUPING SETS, ROLLUP, CUBE), each a subset of {@code groupKeys}; keys outside a set are
 * NULL in its rows. An empty grouping set produces exactly one row even for empty input.
 */
public record AggregateNode(
    PlanNode input,
    List<Integer> groupKeys,
    List<List<Integer>> groupSets,
    List<AggregateCall> calls,
    List<Integer> filterColumns)
    implements PlanNode {
  public AggregateNode {
    requireNonNull(input, "input is null");
    groupKeys = List.copyOf(groupKeys);
    groupSets = groupSets.stream().map(List::copyOf).toList();
    calls = List.copyOf(calls);
    filterColumns = List.copyOf(filterColumns);
  }

  /** A plain GROUP BY: one grouping set of all keys. */
  public AggregateNode(
      PlanNode input, List<Integer> groupKeys, List<AggregateCall> calls, List<Integer> filters) {
    this(input, groupKeys, List.of(groupKeys), calls, filters);
  }

  @Override
  public List<DataType> outputTypes() {
    List<DataType> types = new ArrayList<>();
    boolean sets = groupSets.size() != 1;
    for (int k : groupKeys) {
      DataType t = input.outputTypes().get(k);
      types.add(sets ? t.withNullable(true) : t);
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
