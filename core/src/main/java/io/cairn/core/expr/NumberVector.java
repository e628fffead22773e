package io.cairn.core.expr;

import io.cairn.core.encoding.RowReader;

/**
 * One numeric column of a run of rows (a data block's), as {@link RowReader#readNumbers} reads each
 * row: per row a status ({@link RowReader#NUMBER_VALUE}, {@link RowReader#NUMBER_NULL} or {@link
 * RowReader#NUMBER_UNFIT}) and, for a value, the long (a DECIMAL unscaled at the {@link
 * VectorColumn}'s scale, an integer or a datetime as {@link RowReader#getLong}) or the double.
 * {@code status} is null when every row has a value. Immutable once built: shared by the scans that
 * read the same block (do not write into the arrays).
 */
public final class NumberVector {
  /** Per row the status, or null when all are NUMBER_VALUE. */
  public final byte[] status;

  /** Per row the value (LONG and DECIMAL_AT_SCALE columns), else null. */
  public final long[] longs;

  /** Per row the value (DOUBLE columns), else null. */
  public final double[] doubles;

  /** How many rows are NULL. */
  public final int nulls;

  /** How many rows are NUMBER_UNFIT (a DECIMAL beyond a long at the scale): read those per row. */
  public final int unfit;

  public NumberVector(byte[] status, long[] longs, double[] doubles, int nulls, int unfit) {
    if ((longs == null) == (doubles == null)) {
      throw new IllegalArgumentException("A number vector has either longs or doubles");
    }
    if (status == null && (nulls != 0 || unfit != 0)) {
      throw new IllegalArgumentException("A vector with NULL or unfit rows needs their status");
    }
    this.status = status;
    this.longs = longs;
    this.doubles = doubles;
    this.nulls = nulls;
    this.unfit = unfit;
  }

  /** The number of rows. */
  public int size() {
    return longs != null ? longs.length : doubles.length;
  }

  /** Heap bytes the vector holds (its arrays), for a cache's accounting. */
  public long bytes() {
    long b = 16L + size() * 8L;
    return status == null ? b : b + 16 + status.length;
  }
}
