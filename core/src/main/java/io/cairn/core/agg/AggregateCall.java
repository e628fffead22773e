package io.cairn.core.agg;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import java.util.List;

/**
 * One aggregate function applied to input columns.
 *
 * @param kind the function
 * @param arguments indexes of the input row's columns (none for COUNT_STAR, one for the others
 *     except COUNT, which may have several)
 * @param distinct whether only distinct argument values count
 * @param resultType the type of {@link Accumulator#result()}
 */
public record AggregateCall(
    AggregateKind kind, List<Integer> arguments, boolean distinct, DataType resultType) {
  public AggregateCall {
    requireNonNull(kind, "kind is null");
    arguments = List.copyOf(requireNonNull(arguments, "arguments is null"));
    requireNonNull(resultType, "resultType is null");
    int n = arguments.size();
    boolean ok =
        switch (kind) {
          case COUNT_STAR -> n == 0;
          case COUNT, GROUPING -> n >= 1;
          default -> n == 1;
        };
    if (!ok) {
      throw CairnException.internal(
          "Wrong argument count for " + kind + ": found [" + n + "] " + arguments);
    }
  }
}
