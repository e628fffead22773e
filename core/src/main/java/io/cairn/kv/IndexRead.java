package io.cairn.kv;

import static java.util.Objects.requireNonNull;

/**
 * A scan that reads a local index ({@link IndexSpec}) instead of the table's rows: its ranges lie
 * in the index's key space ({@link IndexKeys#range}). Covered ({@code lookup} false): the program
 * runs over the entries, decoded with {@link IndexSpec#entryLayout}. With {@code lookup}: each
 * region reads its entries in batches and fetches their rows from itself at the scan's read point,
 * and the program runs over the rows (the table's layout).
 *
 * <p>{@code rows} restricts the read to the entries whose row key lies in it ({@link KeyRange#ALL}:
 * every entry): the store visits only the regions whose ranges overlap it, and each of those reads
 * only its own entries with row keys in it. Requests whose {@code rows} are disjoint and cover
 * every row key together read every entry exactly once, however the regions split or merged since
 * the ranges were cut (the driver cuts an index scan at region boundaries into parallel chunks so).
 *
 * <p>Order: a request's rows (entries or looked-up rows) come in the order of the entries' keys
 * (range after range, the regions' entries of each range merged), so the order of the index's parts
 * and then of the row key.
 *
 * <p>{@code grouped}: the program's group keys are (after parts the ranges fix) a prefix of that
 * order, so rows of one group come one after the other: the store aggregates each group as it ends
 * (a streaming aggregation holding one group) instead of hashing them all. Were they not, a group
 * would only be emitted in several pieces, which the caller's merge of partial states joins anyway.
 */
public record IndexRead(int indexId, boolean lookup, KeyRange rows, boolean grouped) {
  public IndexRead {
    if (indexId < 0) {
      throw new IllegalArgumentException("An index id: expected >= 0, found [" + indexId + "]");
    }
    requireNonNull(rows, "rows is null");
  }

  /** A read of every entry of the index's ranges. */
  public IndexRead(int indexId, boolean lookup) {
    this(indexId, lookup, KeyRange.ALL, false);
  }

  /** The same read restricted to the entries of rows in {@code rowRange}. */
  public IndexRead withRows(KeyRange rowRange) {
    return new IndexRead(indexId, lookup, rowRange, grouped);
  }

  /** The same read whose program's groups come in runs ({@code grouped}) or not. */
  public IndexRead withGrouped(boolean newGrouped) {
    return new IndexRead(indexId, lookup, rows, newGrouped);
  }
}
