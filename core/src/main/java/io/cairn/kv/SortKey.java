package io.cairn.kv;

import io.cairn.core.expr.Values;
import java.util.Comparator;
import java.util.List;

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

  /**
   * The order of rows by {@code keys}, the first key first: non-null values in SQL order ({@link
   * Values#compare}), reversed for a descending key; NULLs first or last as each key says, whatever
   * its direction. The one row order of ORDER BY in the driver and in the store's sorted scans.
   */
  public static Comparator<Object[]> comparator(List<SortKey> keys) {
    SortKey[] k = keys.toArray(new SortKey[0]);
    return (a, b) -> {
      for (SortKey key : k) {
        Object x = a[key.column];
        Object y = b[key.column];
        if (x == null || y == null) {
          if (x == y) {
            continue;
          }
          return (x == null) == key.nullsFirst ? -1 : 1;
        }
        int c = Values.compare(x, y);
        if (c != 0) {
          return key.descending ? -c : c;
        }
      }
      return 0;
    };
  }
}
