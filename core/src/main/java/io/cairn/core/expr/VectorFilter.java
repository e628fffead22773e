package io.cairn.core.expr;

import java.util.List;

/**
 * The part of a bound {@link RowFilter} that runs over column vectors ({@link ColumnVectors}, a
 * data block's rows): {@link #select} writes the indexes of the rows for which it is TRUE. When
 * {@link #complete()}, those are exactly the rows {@link RowFilter#test} keeps; otherwise a
 * superset (the conjuncts it could not vectorize are left out) and the caller tests each selected
 * row with the RowFilter. Made by {@link RowFilter#vectorFilter()}.
 */
public final class VectorFilter {
  private final List<VectorColumn> columns;
  private final boolean complete;

  VectorFilter(List<VectorColumn> columns, boolean complete) {
    this.columns = List.copyOf(columns);
    this.complete = complete;
  }

  /** The columns {@link #select} reads, each once. */
  public List<VectorColumn> columns() {
    return columns;
  }

  /** Whether the rows it selects are exactly those the RowFilter keeps. */
  public boolean complete() {
    return complete;
  }

  /**
   * Writes into {@code selection} (at least {@code rows.size()} long) the ascending indexes of the
   * rows of {@code rows} for which the filter is TRUE and returns how many. The caller makes sure
   * that no column of {@link #columns()} has a NUMBER_UNFIT row ({@link NumberVector#unfit} 0).
   */
  public int select(ColumnVectors rows, int[] selection) {
    throw new UnsupportedOperationException("not yet");
  }
}
