package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.type.DataType;
import io.cairn.kv.SortKey;
import java.util.ArrayList;
import java.util.List;

/**
 * Window functions: output = every input column, then one column per call of each group, in order.
 * Each group partitions the input by {@code partitionKeys}, orders each partition by {@code
 * orderKeys}, and evaluates its calls over the group's frame.
 */
public record WindowNode(PlanNode input, List<Group> groups) implements PlanNode {
  /** Window functions Cairn evaluates. */
  public enum Function {
    ROW_NUMBER,
    RANK,
    DENSE_RANK,
    PERCENT_RANK,
    CUME_DIST,
    NTILE,
    LAG,
    LEAD,
    FIRST_VALUE,
    LAST_VALUE,
    NTH_VALUE,
    COUNT,
    COUNT_STAR,
    SUM,
    SUM0,
    MIN,
    MAX,
    AVG
  }

  /** One frame bound: UNBOUNDED, CURRENT ROW, or {@code offset} rows/values before or after. */
  public record Bound(Kind kind, long offset) {
    /** Bound kinds. */
    public enum Kind {
      UNBOUNDED_PRECEDING,
      PRECEDING,
      CURRENT_ROW,
      FOLLOWING,
      UNBOUNDED_FOLLOWING
    }

    public Bound {
      requireNonNull(kind, "kind is null");
    }
  }

  /** A window function call: arguments are input column indexes. */
  public record Call(Function function, List<Integer> arguments, boolean distinct, DataType type) {
    public Call {
      requireNonNull(function, "function is null");
      arguments = List.copyOf(arguments);
      requireNonNull(type, "type is null");
    }
  }

  /** Calls sharing one window: partitioning, ordering and frame ({@code rows} or RANGE). */
  public record Group(
      List<Integer> partitionKeys,
      List<SortKey> orderKeys,
      boolean rows,
      Bound lower,
      Bound upper,
      List<Call> calls) {
    public Group {
      partitionKeys = List.copyOf(partitionKeys);
      orderKeys = List.copyOf(orderKeys);
      requireNonNull(lower, "lower is null");
      requireNonNull(upper, "upper is null");
      calls = List.copyOf(calls);
    }
  }

  public WindowNode {
    requireNonNull(input, "input is null");
    groups = List.copyOf(groups);
  }

  @Override
  public List<DataType> outputTypes() {
    List<DataType> types = new ArrayList<>(input.outputTypes());
    for (Group g : groups) {
      for (Call c : g.calls()) {
        types.add(c.type());
      }
    }
    return types;
  }

  @Override
  public List<PlanNode> inputs() {
    return List.of(input);
  }
}
