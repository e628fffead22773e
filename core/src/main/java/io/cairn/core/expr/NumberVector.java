package io.cairn.core.expr;

import io.cairn.core.encoding.RowReader;
import java.util.Arrays;

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

  /**
   * For a {@link VectorColumn#SHORT_CHARS} column, its values of more than 7 bytes, each once, in
   * the order first met (a row's long is {@link VectorColumn#LONG_STRING} | its index); else null.
   */
  public final byte[][] strings;

  /**
   * For a {@link VectorColumn#BYTES} column, the bytes of its values one after the other (a row's
   * long is its offset and length here); else null.
   */
  public final byte[] heap;

  public NumberVector(byte[] status, long[] longs, double[] doubles, int nulls, int unfit) {
    this(status, longs, doubles, nulls, unfit, null, null);
  }

  public NumberVector(
      byte[] status, long[] longs, double[] doubles, int nulls, int unfit, byte[][] strings) {
    this(status, longs, doubles, nulls, unfit, strings, null);
  }

  public NumberVector(
      byte[] status,
      long[] longs,
      double[] doubles,
      int nulls,
      int unfit,
      byte[][] strings,
      byte[] heap) {
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
    if (strings != null && longs == null) {
      throw new IllegalArgumentException("Long strings are referred to by longs");
    }
    this.strings = strings;
    if (heap != null && longs == null) {
      throw new IllegalArgumentException("Bytes are referred to by longs");
    }
    this.heap = heap;
  }

  /** The index of {@code bytes} among {@link #strings}, or -1. */
  public int stringIndex(byte[] bytes) {
    if (strings != null) {
      for (int i = 0; i < strings.length; i++) {
        if (Arrays.equals(strings[i], bytes)) {
          return i;
        }
      }
    }
    return -1;
  }

  /** The number of rows. */
  public int size() {
    return longs != null ? longs.length : doubles.length;
  }

  /** Heap bytes the vector holds (its arrays), for a cache's accounting. */
  public long bytes() {
    long b = 16L + size() * 8L;
    if (strings != null) {
      b += 16L + strings.length * 8L;
      for (byte[] string : strings) {
        b += 16L + string.length;
      }
    }
    if (heap != null) {
      b += 16L + heap.length;
    }
    return status == null ? b : b + 16 + status.length;
  }
}
