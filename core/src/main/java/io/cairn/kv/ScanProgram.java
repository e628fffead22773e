package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.expr.Expr;
import java.util.List;
import java.util.Optional;

/**
 * What a region runs over the rows of a scan ("coprocessor"): decode each row with {@code layout},
 * keep it when {@code filter} is TRUE, emit {@code projection} evaluated over it, stop after {@code
 * limit} emitted rows. Expressions see the decoded row (one value per layout column).
 *
 * <p>With {@code aggregates} (ungrouped, each {@link Aggregates#isSplittable}), the program emits
 * no projected rows: it feeds the projection of every kept row to the calls (their arguments index
 * the projection) and emits exactly one row of their partial states, the {@link
 * Aggregates#partialTypes} of each call after the other, even for no rows (COUNT 0, SUM NULL, ...);
 * the limit must be {@link #NO_LIMIT}. The reader merges the partial rows of all scans of a query.
 * Later issues add grouped aggregates, top-N, hash-join probes and index lookups.
 */
public record ScanProgram(
    RowLayout layout,
    Optional<Expr> filter,
    List<Expr> projection,
    long limit,
    List<AggregateCall> aggregates) {
  public static final long NO_LIMIT = -1;

  public ScanProgram {
    requireNonNull(layout, "layout is null");
    requireNonNull(filter, "filter is null");
    projection = List.copyOf(projection);
    aggregates = List.copyOf(requireNonNull(aggregates, "aggregates is null"));
    if (!aggregates.isEmpty() && limit != NO_LIMIT) {
      throw CairnException.internal(
          "A scan program with aggregates has no limit: found [" + limit + "]");
    }
    for (AggregateCall call : aggregates) {
      if (!Aggregates.isSplittable(call)) {
        throw CairnException.internal("Aggregate call cannot run in a scan: " + call);
      }
      for (int argument : call.arguments()) {
        if (argument < 0 || argument >= projection.size()) {
          throw CairnException.internal(
              "Aggregate argument: expected 0.."
                  + (projection.size() - 1)
                  + ", found ["
                  + argument
                  + "] in "
                  + call);
        }
      }
    }
  }

  /** A program that emits the projected rows. */
  public ScanProgram(RowLayout layout, Optional<Expr> filter, List<Expr> projection, long limit) {
    this(layout, filter, projection, limit, List.of());
  }
}
