package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.kv.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A scan of a table, run by the store: key ranges ({@code keys}, empty list = full scan), then the
 * residual {@code filter} and the {@code projection} over the decoded table row. A projection entry
 * may be a ColumnRef whose index equals the table's column count: it reads the row key itself (for
 * DELETE of tables keyed by a hidden row id).
 *
 * <p>Without aggregates the scan emits the projected rows: in key order, or sorted by {@code
 * orderBy} (indexes into the projection) when it is not empty; then it skips {@code offset} rows
 * and stops after {@code limit} rows when not negative. The executor cuts the scan into chunks and
 * keeps this contract across them: chunks concatenated in key order, or each chunk sorted (a top
 * {@code offset + limit} per chunk under a limit) and the chunks merge-sorted; an offset makes the
 * scan one serial request, skipped in the store.
 *
 * <p>With {@code aggregates} (see {@link io.cairn.kv.ScanProgram}) the store feeds the projection
 * of the rows to these calls, whose arguments index the projection, and each chunk emits partial
 * states ({@link Aggregates#partialTypes}, call after call): one row without {@code groupBy}, one
 * row per group after the group's key values (the projection entries {@code groupBy} names) with
 * it. An {@link AggregateNode} of step {@link AggregateNode.Step#FINAL} merges them. Aggregating
 * scans have no limit, offset or order.
 *
 * <p>{@code cacheBlocks} false (the {@code NO_CACHE} hint) reads data blocks missing from the block
 * cache without adding them to it, so that a one-off big scan does not push out the working set.
 * {@code serial} (the {@code SERIAL} hint) runs the chunks one at a time in key order.
 *
 * <p>{@code index}, when present, reads a local index of the table instead of its rows ({@link
 * IndexScan}); filter, projection and {@code keys} stay over the table's row, so the executor can
 * read the table instead (a transaction's pending writes). Rows then come in index order within
 * each of the executor's requests (one per region) rather than in key order; when that order is the
 * scan's {@code orderBy} ({@link #orderFromIndex()}) the store does not sort: each request streams
 * its rows (stopping at its limit) and the executor merges the requests by the sort keys.
 *
 * <p>{@code probe}, when present, joins the rows the filter keeps with a broadcast hash join's
 * build side in the store ({@link JoinProbe}); projection, aggregates, order and limit then read
 * the joined row (the table's columns, the row key, the build's columns).
 *
 * <p>{@code having}, with {@code groupBy}: the HAVING condition over the merged groups (their key
 * values, then each call's result), which the store may apply early to groups it knows complete
 * ({@link #withHaving}).
 */
public record ScanNode(
    TableDescriptor table,
    List<KeyBounds> keys,
    Optional<Expr> filter,
    List<Expr> projection,
    long limit,
    long offset,
    List<Integer> groupBy,
    List<AggregateCall> aggregates,
    List<SortKey> orderBy,
    boolean cacheBlocks,
    boolean serial,
    Optional<IndexScan> index,
    Optional<JoinProbe> probe,
    Optional<Expr> having)
    implements PlanNode {
  public ScanNode {
    requireNonNull(table, "table is null");
    keys = List.copyOf(keys);
    requireNonNull(filter, "filter is null");
    projection = List.copyOf(projection);
    groupBy = List.copyOf(requireNonNull(groupBy, "groupBy is null"));
    aggregates = List.copyOf(requireNonNull(aggregates, "aggregates is null"));
    orderBy = List.copyOf(requireNonNull(orderBy, "orderBy is null"));
    requireNonNull(index, "index is null");
    requireNonNull(probe, "probe is null");
    requireNonNull(having, "having is null");
    if (having.isPresent() && groupBy.isEmpty()) {
      throw CairnException.internal("A scan's HAVING needs a GROUP BY");
    }
    if (probe.isPresent() && index.isPresent()) {
      throw CairnException.internal("A probing scan reads the table's rows, not an index");
    }
    if (!aggregates.isEmpty() && (limit >= 0 || offset != 0 || !orderBy.isEmpty())) {
      throw CairnException.internal(
          "A scan with aggregates has no limit, offset or order: found limit ["
              + limit
              + "], offset ["
              + offset
              + "], order "
              + orderBy);
    }
    if (!groupBy.isEmpty() && aggregates.isEmpty()) {
      throw CairnException.internal("A scan groups only with aggregates: " + groupBy);
    }
    if (offset < 0) {
      throw CairnException.internal("A scan's offset must not be negative: [" + offset + "]");
    }
  }

  /** A scan without a HAVING hint. */
  public ScanNode(
      TableDescriptor table,
      List<KeyBounds> keys,
      Optional<Expr> filter,
      List<Expr> projection,
      long limit,
      long offset,
      List<Integer> groupBy,
      List<AggregateCall> aggregates,
      List<SortKey> orderBy,
      boolean cacheBlocks,
      boolean serial,
      Optional<IndexScan> index,
      Optional<JoinProbe> probe) {
    this(
        table,
        keys,
        filter,
        projection,
        limit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        cacheBlocks,
        serial,
        index,
        probe,
        Optional.empty());
  }

  /**
   * The same grouping scan with a condition over its groups' final rows that the store may apply to
   * the groups it knows complete (see {@link io.cairn.kv.ScanProgram}); the reader applies it to
   * the merged groups in any case.
   */
  public ScanNode withHaving(Optional<Expr> newHaving) {
    return new ScanNode(
        table,
        keys,
        filter,
        projection,
        limit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        cacheBlocks,
        serial,
        index,
        probe,
        newHaving);
  }

  /** A scan without a join probe. */
  public ScanNode(
      TableDescriptor table,
      List<KeyBounds> keys,
      Optional<Expr> filter,
      List<Expr> projection,
      long limit,
      long offset,
      List<Integer> groupBy,
      List<AggregateCall> aggregates,
      List<SortKey> orderBy,
      boolean cacheBlocks,
      boolean serial,
      Optional<IndexScan> index) {
    this(
        table,
        keys,
        filter,
        projection,
        limit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        cacheBlocks,
        serial,
        index,
        Optional.empty());
  }

  /**
   * The same scan probing a broadcast hash join's build side ({@link JoinProbe}; empty: none); its
   * projection is then over the joined row.
   */
  public ScanNode withProbe(Optional<JoinProbe> newProbe) {
    return new ScanNode(
        table,
        keys,
        filter,
        projection,
        limit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        cacheBlocks,
        serial,
        index,
        newProbe,
        having);
  }

  /** A scan that emits the projected rows in key order and may fill the block cache. */
  public ScanNode(
      TableDescriptor table,
      List<KeyBounds> keys,
      Optional<Expr> filter,
      List<Expr> projection,
      long limit) {
    this(
        table,
        keys,
        filter,
        projection,
        limit,
        0,
        List.of(),
        List.of(),
        List.of(),
        true,
        false,
        Optional.empty());
  }

  /** The same scan reading a local index of its table ({@code read}), or its rows (empty). */
  public ScanNode withIndex(Optional<IndexScan> read) {
    return new ScanNode(
        table,
        keys,
        filter,
        projection,
        limit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        cacheBlocks,
        serial,
        read,
        probe,
        having);
  }

  /** The same scan emitting {@code newProjection} (expressions over the table row). */
  public ScanNode withProjection(List<Expr> newProjection) {
    if (hasAggregates()) {
      throw CairnException.internal("The projection of a scan with aggregates feeds them");
    }
    return new ScanNode(
        table,
        keys,
        filter,
        newProjection,
        limit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        cacheBlocks,
        serial,
        index,
        probe,
        having);
  }

  /** The same scan feeding its projected rows to ungrouped {@code calls}. */
  public ScanNode withAggregates(List<AggregateCall> calls) {
    return withAggregates(List.of(), calls);
  }

  /**
   * The same scan feeding its projected rows to {@code calls} per group (see the class comment).
   */
  public ScanNode withAggregates(List<Integer> newGroupBy, List<AggregateCall> calls) {
    return new ScanNode(
        table,
        keys,
        filter,
        projection,
        limit,
        offset,
        newGroupBy,
        calls,
        orderBy,
        cacheBlocks,
        serial,
        index,
        probe,
        having);
  }

  /** The same scan with other key ranges and filter. */
  public ScanNode withKeysAndFilter(List<KeyBounds> newKeys, Optional<Expr> newFilter) {
    return new ScanNode(
        table,
        newKeys,
        newFilter,
        projection,
        limit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        cacheBlocks,
        serial,
        index,
        probe,
        having);
  }

  /** The same scan stopping after {@code newLimit} rows. */
  public ScanNode withLimit(long newLimit) {
    return new ScanNode(
        table,
        keys,
        filter,
        projection,
        newLimit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        cacheBlocks,
        serial,
        index,
        probe,
        having);
  }

  /**
   * The same scan sorted by {@code keys}, skipping {@code newOffset} rows, at most {@code
   * newLimit}.
   */
  public ScanNode withOrder(List<SortKey> keys, long newOffset, long newLimit) {
    return new ScanNode(
        table,
        this.keys,
        filter,
        projection,
        newLimit,
        newOffset,
        groupBy,
        aggregates,
        keys,
        cacheBlocks,
        serial,
        index,
        probe,
        having);
  }

  /** The same scan filling the block cache or not ({@code NO_CACHE}). */
  public ScanNode withCacheBlocks(boolean cache) {
    return new ScanNode(
        table,
        keys,
        filter,
        projection,
        limit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        cache,
        serial,
        index,
        probe,
        having);
  }

  /** The same scan with its chunks run one at a time in key order, or not ({@code SERIAL}). */
  public ScanNode withSerial(boolean newSerial) {
    return new ScanNode(
        table,
        keys,
        filter,
        projection,
        limit,
        offset,
        groupBy,
        aggregates,
        orderBy,
        cacheBlocks,
        newSerial,
        index,
        probe,
        having);
  }

  /**
   * Whether the scan reads a local index in the order of its {@code orderBy} ({@link
   * IndexScan#ordersBy}), so that no sort is needed.
   */
  public boolean orderFromIndex() {
    return !orderBy.isEmpty()
        && !hasAggregates()
        && index.isPresent()
        && index.get().ordersBy(table, projection, orderBy);
  }

  /**
   * Whether the scan reads a local index whose order brings the rows of each of its groups together
   * ({@link IndexScan#groupsBy}), so that the store aggregates each group as it ends.
   */
  public boolean groupsFromIndex() {
    return !groupBy.isEmpty()
        && index.isPresent()
        && index.get().groupsBy(table, projection, groupBy);
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
      for (int g : groupBy) {
        types.add(projection.get(g).type());
      }
      for (AggregateCall call : aggregates) {
        types.addAll(Aggregates.partialTypes(call));
      }
      return types;
    }
    return projection.stream().map(Expr::type).toList();
  }

  /** The build side of its join probe, if any: the plan the executor runs before this scan. */
  @Override
  public List<PlanNode> inputs() {
    return probe.isPresent() ? List.of(probe.get().build()) : List.of();
  }
}
