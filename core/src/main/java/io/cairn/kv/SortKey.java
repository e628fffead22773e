package io.cairn.kv;

/**
 * One key of a sort: the {@code column} of the row being sorted (for a scan program, an index into
 * its output row), descending or not, and where NULLs go.
 */
public record SortKey(int column, boolean descending, boolean nullsFirst) {
  public SortKey {
    if (column < 0) {
      throw new IllegalArgumentException("column must not be negative: [" + column + "]");
    }
  }
}
