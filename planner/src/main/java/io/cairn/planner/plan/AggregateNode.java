package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Groups input rows by {@code groupKeys} (input column indexes) and computes {@code calls} per
 * group; output = group key values, then one value per call. {@code filterColumns} holds, per call,
 * the input column of its FILTER (WHERE ...) clause or -1. {@code groupSets} lists the grouping
 * sets (GROUPING SETS, ROLLUP, CUBE), each a subset of {@code groupKeys}; keys outside a set are
 * NULL in its rows. An empty grouping set produces exactly one row even for empty input.
 *
 * <p>{@code step} says what the input rows are: {@link Step#SINGLE} rows to aggregate; {@link
 * Step#FINAL} partial states of the same calls computed by a scan (see {@link ScanNode}), merged
 * here, without FILTER columns: per row the group's key values (columns 0..k-1, the {@code
 * groupKeys}, in one grouping set; none without GROUP BY), then the partial states.
 */
public record AggregateNode(
    PlanNode input,
    List<Integer> groupKeys,
    List<List<Integer>> groupSets,
    List<AggregateCall> calls,
    List<Integer> filterColumns,
    Step step)
    implements PlanNode {
  /** What an aggregation does with its input (Trino's AggregationNode.Step). */
  public enum Step {
    /** Aggregates input rows into results. */
    SINGLE,
    /**
     * Merges partial states into results: per input row, the group key values, then the partial
     * state of each call ({@link Aggregates#partialTypes}), call after call.
     */
    FINAL
  }

  public AggregateNode {
    requireNonNull(input, "input is null");
    groupKeys = List.copyOf(groupKeys);
    groupSets = groupSets.stream().map(List::copyOf).toList();
    calls = List.copyOf(calls);
    filterColumns = List.copyOf(filterColumns);
    requireNonNull(step, "step is null");
    if (step == Step.FINAL) {
      List<Integer> leading = IntStream.range(0, groupKeys.size()).boxed().toList();
      if (!groupKeys.equals(leading)
          || !groupSets.equals(List.of(leading))
          || filterColumns.stream().anyMatch(c -> c >= 0)) {
        throw CairnException.internal(
            "A final aggregation merges partial states after the group keys 0..k-1, one grouping"
                + " set, without FILTER: found keys "
                + groupKeys
                + ", sets "
                + groupSets
                + ", filters "
                + filterColumns);
      }
      int width =
          groupKeys.size() + calls.stream().mapToInt(c -> Aggregates.partialTypes(c).size()).sum();
      if (width != input.outputTypes().size()) {
        throw CairnException.internal(
            "Partial states: expected ["
                + width
                + "] columns, found ["
                + input.outputTypes().size()
                + "]");
      }
    }
  }

  /** Aggregates rows into the given grouping sets. */
  public AggregateNode(
      PlanNode input,
      List<Integer> groupKeys,
      List<List<Integer>> groupSets,
      List<AggregateCall> calls,
      List<Integer> filterColumns) {
    this(input, groupKeys, groupSets, calls, filterColumns, Step.SINGLE);
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
