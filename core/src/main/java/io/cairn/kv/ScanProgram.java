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
 * keep it when {@code filter} is TRUE, emit {@code projection} evaluated over it. Expressions see
 * the decoded row (one value per layout column).
 *
 * <p>Without aggregates, the emitted rows are the projections of the kept rows, in key order, or
 * sorted by {@code orderBy} (indexes into the projection) when it is not empty; then the first
 * {@code offset} of them are skipped and at most {@code limit} are emitted ({@link #NO_LIMIT}:
 * all). With {@code orderBy} and a limit, the scan keeps only the top {@code offset + limit} rows
 * while reading (a top-N).
 *
 * <p>With {@code aggregates} (each {@link Aggregates#isSplittable}), the program emits no projected
 * rows: it feeds the projection of every kept row to the calls (their arguments index the
 * projection). With an empty {@code groupBy} it emits exactly one row of their partial states, the
 * {@link Aggregates#partialTypes} of each call after the other, even for no rows (COUNT 0, SUM
 * NULL, ...). With {@code groupBy} (indexes into the projection) it emits one row per distinct
 * group: the group's key values, then the partial states; groups come in no particular order.
 * Aggregating programs have no limit, offset or order. The reader merges the partial rows of all
 * scans of a query.
 *
 * <p>With {@code probe} ({@link HashProbe}), the program joins: decode the row, filter it (the
 * filter sees the decoded row only), probe the hash table (0..n joined rows per row), then the
 * projection, aggregates, order, offset and limit over the joined row (the decoded row, the row key
 * pseudo-column, the build columns).
 *
 * <p>{@code having}, with {@code groupBy}: a condition over a group's final row (its key values,
 * then each call's result) that the reader applies to the merged groups; the store may drop the
 * groups it knows complete for which it is not TRUE (a GROUP BY of the table's first key columns
 * over rows in key order, whose groups end where the next begins), so that fewer partial rows
 * travel. A hint: a store that does not use it sends every group.
 */
public record ScanProgram(
    RowLayout layout,
    Optional<Expr> filter,
    List<Expr> projection,
    long limit,
    long offset,
    List<Integer> groupBy,
    List<AggregateCall> aggregates,
    List<SortKey> orderBy,
    Optional<HashProbe> probe,
    Optional<Expr> having) {
  public static final long NO_LIMIT = -1;

  public ScanProgram {
    requireNonNull(layout, "layout is null");
    requireNonNull(filter, "filter is null");
    projection = List.copyOf(projection);
    groupBy = List.copyOf(requireNonNull(groupBy, "groupBy is null"));
    aggregates = List.copyOf(requireNonNull(aggregates, "aggregates is null"));
    orderBy = List.copyOf(requireNonNull(orderBy, "orderBy is null"));
    requireNonNull(probe, "probe is null");
    requireNonNull(having, "having is null");
    if (having.isPresent() && groupBy.isEmpty()) {
      throw CairnException.internal("A scan program's HAVING needs a GROUP BY");
    }
    if (limit < NO_LIMIT) {
      throw CairnException.internal(
          "A scan program's limit: expected >= -1, found [" + limit + "]");
    }
    if (offset < 0) {
      throw CairnException.internal(
          "A scan program's offset: expected >= 0, found [" + offset + "]");
    }
    if (!aggregates.isEmpty() && (limit != NO_LIMIT || offset != 0 || !orderBy.isEmpty())) {
      throw CairnException.internal(
          "A scan program with aggregates has no limit, offset or order: found limit ["
              + limit
              + "], offset ["
              + offset
              + "], order "
              + orderBy);
    }
    if (!groupBy.isEmpty() && aggregates.isEmpty()) {
      throw CairnException.internal("A scan program groups only with aggregates: " + groupBy);
    }
    for (int g : groupBy) {
      checkColumn("Group key", g, projection.size());
    }
    for (SortKey k : orderBy) {
      checkColumn("Sort key", k.column(), projection.size());
    }
    for (AggregateCall call : aggregates) {
      if (!Aggregates.isSplittable(call)) {
        throw CairnException.internal("Aggregate call cannot run in a scan: " + call);
      }
      for (int argument : call.arguments()) {
        checkColumn("Aggregate argument", argument, projection.size());
      }
    }
  }

  /** A program without a HAVING hint. */
  public ScanProgram(
      RowLayout layout,
      Optional<Expr> filter,
      List<Expr> projection,
      long limit,
      long offset,
      List<Integer> groupBy,
      List<AggregateCall> aggregates,
      List<SortKey> orderBy,
      Optional<HashProbe> probe) {
    this(
        layout,
        filter,
        projection,
        limit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        probe,
        Optional.empty());
  }

  /** A program without a probe step. */
  public ScanProgram(
      RowLayout layout,
      Optional<Expr> filter,
      List<Expr> projection,
      long limit,
      long offset,
      List<Integer> groupBy,
      List<AggregateCall> aggregates,
      List<SortKey> orderBy) {
    this(layout, filter, projection, limit, offset, groupBy, aggregates, orderBy, Optional.empty());
  }

  /** The same program probing {@code newProbe} (empty: none). */
  public ScanProgram withProbe(Optional<HashProbe> newProbe) {
    return new ScanProgram(
        layout, filter, projection, limit, offset, groupBy, aggregates, orderBy, newProbe, having);
  }

  /** A program that emits the projected rows in key order. */
  public ScanProgram(RowLayout layout, Optional<Expr> filter, List<Expr> projection, long limit) {
    this(layout, filter, projection, limit, 0, List.of(), List.of(), List.of());
  }

  /** A program that emits the projected rows, or one row of ungrouped partial states. */
  public ScanProgram(
      RowLayout layout,
      Optional<Expr> filter,
      List<Expr> projection,
      long limit,
      List<AggregateCall> aggregates) {
    this(layout, filter, projection, limit, 0, List.of(), aggregates, List.of());
  }

  /** Whether the program emits partial aggregate states rather than projected rows. */
  public boolean hasAggregates() {
    return !aggregates.isEmpty();
  }

  private static void checkColumn(String what, int column, int width) {
    if (column < 0 || column >= width) {
      throw CairnException.internal(
          what + ": expected 0.." + (width - 1) + ", found [" + column + "]");
    }
  }
}
