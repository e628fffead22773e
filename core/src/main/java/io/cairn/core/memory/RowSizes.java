package io.cairn.core.memory;

import java.math.BigDecimal;

/**
 * Estimated heap sizes of the values and rows that operators hold (a reference and the object it
 * points to), for {@link MemoryReservation}: coarse, but proportional to what grows.
 */
public final class RowSizes {
  /** An {@code Object[]} row's header and length, before its references. */
  static final long ARRAY_HEADER = 16;

  private RowSizes() {}

  /** The estimated heap bytes of one value and the reference to it. */
  public static long value(Object value) {
    if (value == null) {
      return 8;
    }
    if (value instanceof String s) {
      return 8 + 40 + s.length();
    }
    if (value instanceof byte[] b) {
      return 8 + 16 + b.length;
    }
    if (value instanceof BigDecimal d) {
      // digits / 2.4 bytes of unscaled value (precision is kept; unscaledValue() would allocate)
      return 8 + 40 + d.precision() * 5L / 12 + 24;
    }
    return 8 + 24;
  }

  /** The estimated heap bytes of a row: the array and every value in it. */
  public static long row(Object[] row) {
    long bytes = ARRAY_HEADER;
    for (Object v : row) {
      bytes += value(v);
    }
    return bytes;
  }
}
