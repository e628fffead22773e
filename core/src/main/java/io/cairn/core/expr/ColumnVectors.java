package io.cairn.core.expr;

/**
 * A run of rows (a data block's visible rows, in key order) as numeric column vectors: what a
 * {@link VectorFilter} selects from and what a scan's aggregates read instead of one row at a time.
 */
public interface ColumnVectors {
  /** Rows in the run. */
  int size();

  /**
   * The vector of {@code column}, which the caller declared to whoever built this run; {@link
   * NumberVector#size()} is {@link #size()}.
   */
  NumberVector numbers(VectorColumn column);
}
