package io.cairn.core.expr;

import io.cairn.core.encoding.RowReader;

/**
 * A numeric column of a run of rows as a vector reads it: layout column {@code column} read as
 * {@code kind} ({@link RowReader#DECIMAL_AT_SCALE} at {@code scale}, {@link RowReader#LONG} or
 * {@link RowReader#DOUBLE}; scale 0 for the last two), as {@link RowReader#readNumbers} reads it.
 */
public record VectorColumn(int column, byte kind, int scale) {
  public VectorColumn {
    if (column < 0) {
      throw new IllegalArgumentException("column: expected >= 0, found [" + column + "]");
    }
    if (kind != RowReader.DECIMAL_AT_SCALE && kind != RowReader.LONG && kind != RowReader.DOUBLE) {
      throw new IllegalArgumentException("kind: expected 0, 1 or 2, found [" + kind + "]");
    }
    if (scale < 0 || (kind != RowReader.DECIMAL_AT_SCALE && scale != 0)) {
      throw new IllegalArgumentException(
          "scale: expected >= 0 for a DECIMAL and 0 otherwise, found [" + scale + "]");
    }
  }
}
