package io.cairn.core.expr;

import io.cairn.core.encoding.RowReader;

/**
 * A column of a run of rows as a vector reads it: layout column {@code column} read as {@code kind}
 * ({@link RowReader#DECIMAL_AT_SCALE} at {@code scale}, {@link RowReader#LONG} or {@link
 * RowReader#DOUBLE}, as {@link RowReader#readNumbers} reads it; or {@link #SHORT_BYTES}, a string
 * or binary column's {@link RowReader#shortBytes}, NUMBER_UNFIT when it does not fit a long; scale
 * 0 but for a DECIMAL).
 */
public record VectorColumn(int column, byte kind, int scale) {
  /** The kind of a CHAR, VARCHAR or VARBINARY column read as {@link RowReader#shortBytes}. */
  public static final byte SHORT_BYTES = 3;

  public VectorColumn {
    if (column < 0) {
      throw new IllegalArgumentException("column: expected >= 0, found [" + column + "]");
    }
    if (kind != RowReader.DECIMAL_AT_SCALE
        && kind != RowReader.LONG
        && kind != RowReader.DOUBLE
        && kind != SHORT_BYTES) {
      throw new IllegalArgumentException("kind: expected 0, 1, 2 or 3, found [" + kind + "]");
    }
    if (scale < 0 || (kind != RowReader.DECIMAL_AT_SCALE && scale != 0)) {
      throw new IllegalArgumentException(
          "scale: expected >= 0 for a DECIMAL and 0 otherwise, found [" + scale + "]");
    }
  }
}
