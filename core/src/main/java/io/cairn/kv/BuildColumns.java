package io.cairn.kv;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * The rows of a join's build side by column: a column whose values are all {@code Long}s, all
 * {@code Integer}s, all {@code LocalDate}s or all decimals of one scale that fit a long is one
 * {@code long[]} (and a bitmap of its NULLs), any other an {@code Object[]}. A row is its number;
 * its values are boxed again when read, equal to those added. Hundreds of thousands of rows then
 * are a few large arrays, not millions of small objects that every young collection copies while
 * the query runs (the collector does not move large arrays). Filled by one thread, then read by any
 * number.
 */
final class BuildColumns {
  private static final byte UNKNOWN = 0; // only NULLs so far
  private static final byte LONG = 1;
  private static final byte INT = 2;
  private static final byte DECIMAL = 3;
  private static final byte DATE = 4;
  private static final byte OBJECT = 5;

  private final byte[] kinds;
  private final int[] scales;
  private final long[][] longs;
  private final Object[][] objects;

  /** Per column, bit i set when row i's value is NULL (long kinds); null before the first NULL. */
  private final long[][] nulls;

  private int size;
  private int capacity = 16;

  BuildColumns(int columnCount) {
    kinds = new byte[columnCount];
    scales = new int[columnCount];
    longs = new long[columnCount][];
    objects = new Object[columnCount][];
    nulls = new long[columnCount][];
  }

  int size() {
    return size;
  }

  int columnCount() {
    return kinds.length;
  }

  /** Adds {@code row} (one value per column) and returns its number. */
  int add(Object[] row) {
    if (size == capacity) {
      grow();
    }
    int at = size;
    for (int c = 0; c < kinds.length; c++) {
      put(c, at, row[c]);
    }
    size++;
    return at;
  }

  private void grow() {
    capacity *= 2;
    for (int c = 0; c < kinds.length; c++) {
      if (longs[c] != null) {
        longs[c] = Arrays.copyOf(longs[c], capacity);
      }
      if (objects[c] != null) {
        objects[c] = Arrays.copyOf(objects[c], capacity);
      }
      if (nulls[c] != null) {
        nulls[c] = Arrays.copyOf(nulls[c], words(capacity));
      }
    }
  }

  private static int words(int rows) {
    return (rows + 63) >>> 6;
  }

  private void put(int c, int at, Object v) {
    byte kind = kinds[c];
    if (v == null) {
      if (kind != OBJECT) {
        if (nulls[c] == null) {
          nulls[c] = new long[words(capacity)];
        }
        nulls[c][at >>> 6] |= 1L << at;
      }
      return;
    }
    if (kind == UNKNOWN) {
      kind = kindOf(v);
      kinds[c] = kind;
      if (kind == DECIMAL) {
        scales[c] = ((BigDecimal) v).scale();
      }
      if (kind == OBJECT) {
        objects[c] = new Object[capacity];
        nulls[c] = null; // the earlier rows' NULLs are the array's nulls
      } else {
        longs[c] = new long[capacity];
      }
    }
    switch (kind) {
      case LONG -> {
        if (v.getClass() == Long.class) {
          longs[c][at] = (Long) v;
          return;
        }
      }
      case INT -> {
        if (v.getClass() == Integer.class) {
          longs[c][at] = (Integer) v;
          return;
        }
      }
      case DATE -> {
        if (v.getClass() == LocalDate.class) {
          longs[c][at] = ((LocalDate) v).toEpochDay();
          return;
        }
      }
      case DECIMAL -> {
        if (v instanceof BigDecimal d && d.scale() == scales[c] && fitsLong(d)) {
          longs[c][at] = d.unscaledValue().longValue();
          return;
        }
      }
      default -> {
        objects[c][at] = v;
        return;
      }
    }
    toObjects(c); // a value of another kind: the column keeps objects from now on
    objects[c][at] = v;
  }

  private static byte kindOf(Object v) {
    Class<?> k = v.getClass();
    if (k == Long.class) {
      return LONG;
    }
    if (k == Integer.class) {
      return INT;
    }
    if (k == LocalDate.class) {
      return DATE;
    }
    if (k == BigDecimal.class && fitsLong((BigDecimal) v)) {
      return DECIMAL;
    }
    return OBJECT;
  }

  private static boolean fitsLong(BigDecimal d) {
    return d.precision() <= 18;
  }

  /** Turns column {@code c} into objects: the rows so far boxed as they were added. */
  private void toObjects(int c) {
    Object[] values = new Object[capacity];
    for (int i = 0; i < size; i++) {
      values[i] = value(c, i);
    }
    objects[c] = values;
    longs[c] = null;
    nulls[c] = null;
    kinds[c] = OBJECT;
  }

  /** Row {@code row}'s value of column {@code c}. */
  Object value(int c, int row) {
    byte kind = kinds[c];
    if (kind == OBJECT) {
      return objects[c][row];
    }
    if (kind == UNKNOWN || (nulls[c] != null && (nulls[c][row >>> 6] & (1L << row)) != 0)) {
      return null;
    }
    long v = longs[c][row];
    return switch (kind) {
      case LONG -> v;
      case INT -> (int) v;
      case DATE -> LocalDate.ofEpochDay(v);
      default -> BigDecimal.valueOf(v, scales[c]);
    };
  }

  /** Row {@code row} as a new array. */
  Object[] row(int row) {
    Object[] values = new Object[kinds.length];
    for (int c = 0; c < kinds.length; c++) {
      values[c] = value(c, row);
    }
    return values;
  }
}
