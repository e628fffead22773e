package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A scan of a table, run by the store: key ranges ({@code keys}, empty list = full scan), then the
 * residual {@code filter} and the {@code projection} over the decoded table row, stopping after
 * {@code limit} rows when not negative. A projection entry may be a ColumnRef whose index equals
 * the table's column count: it reads the row key itself (for DELETE of tables keyed by a hidden row
 * id).
 *
 * <p>With {@code aggregates} (see {@link io.cairn.kv.ScanProgram}) the store feeds the projection
 * of the rows to these ungrouped calls, whose arguments index the projection, and the scan emits
 * one row of their partial states ({@link Aggregates#partialTypes}, call after call) instead of the
 * projected rows; an {@link AggregateNode} of step {@link AggregateNode.Step#FINAL} merges them.
 *
 * <p>{@code cacheBlocks} false (the {@code NO_CACHE} hint) reads data blocks missing from the block
 * cache without adding them to it, so that a one-off big scan does not push out the working set.
 */
public record ScanNode(
    TableDescriptor table,
    List<KeyBounds> keys,
    Optional<Expr> filter,
    List<Expr> projection,
    long limit,
    List<AggregateCall> aggregates,
    boolean cacheBlocks)
    implements PlanNode {
  public ScanNode {
    requireNonNull(table, "table is null");
    keys = List.copyOf(keys);
    requireNonNull(filter, "filter is null");
    projection = List.copyOf(projection);
    aggregates = List.copyOf(requireNonNull(aggregates, "aggregates is null"));
    if (!aggregates.isEmpty() && limit >= 0) {
      throw CairnException.internal("A scan with aggregates has no limit: found [" + limit + "]");
    }
  }

  /** A scan that emits the projected rows and may fill the block cache. */
  public ScanNode(
      TableDescriptor table,
      List<KeyBounds> keys,
      Optional<Expr> filter,
      List<Expr> projection,
      long limit) {
    this(table, keys, filter, projection, limit, List.of(), true);
  }

  /** The same scan emitting {@code newProjection} (expressions over the table row). */
  public ScanNode withProjection(List<Expr> newProjection) {
    if (hasAggregates()) {
      throw CairnException.internal("The projection of a scan with aggregates feeds them");
    }
    return new ScanNode(table, keys, filter, newProjection, limit, aggregates, cacheBlocks);
  }

  /** The same scan feeding its projected rows to {@code calls} (see the class comment). */
  public ScanNode withAggregates(List<AggregateCall> calls) {
    return new ScanNode(table, keys, filter, projection, limit, calls, cacheBlocks);
  }

  /** The same scan with other key ranges and filter. */
  public ScanNode withKeysAndFilter(List<KeyBounds> newKeys, Optional<Expr> newFilter) {
    return new ScanNode(table, newKeys, newFilter, projection, limit, aggregates, cacheBlocks);
  }

  /** The same scan stopping after {@code newLimit} rows. */
  public ScanNode withLimit(long newLimit) {
    return new ScanNode(table, keys, filter, projection, newLimit, aggregates, cacheBlocks);
  }

  /** The same scan filling the block cache or not ({@code NO_CACHE}). */
  public ScanNode withCacheBlocks(boolean cache) {
    return new ScanNode(table, keys, filter, projection, limit, aggregates, cache);
  }

  /** Whether the scan emits partial aggregate states rather than projected rows. */
  public boolean hasAggregates() {
    return !aggregates.isEmpty();
  }

  public boolean isFullScan() {
    return keys.isEmpty() || keys.stream().anyMatch(KeyBounds::isAll);
  }

  @Override
  public List<DataType> outputTypes() {
    if (hasAggregates()) {
      List<DataType> types = new ArrayList<>();
      for (AggregateCall call : aggregates) {
        types.addAll(Aggregates.partialTypes(call));
      }
      return types;
    }
    return projection.stream().map(Expr::type).toList();
  }

  @Override
  public List<PlanNode> inputs() {
    return List.of();
  }
}
