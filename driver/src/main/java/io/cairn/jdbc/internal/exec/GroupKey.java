package io.cairn.jdbc.internal.exec;

import io.cairn.kv.Bytes;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * Values used as a hash key (grouping, joins, set operations): SQL equality semantics for equal
 * types (numerically equal decimals are equal; byte arrays compare by content).
 */
final class GroupKey {
  private final Object[] values;
  private final int hash;

  private GroupKey(Object[] values) {
    this.values = values;
    this.hash = Arrays.hashCode(values);
  }

  static GroupKey of(Object[] row, int[] columns) {
    Object[] values = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      values[i] = normalize(row[columns[i]]);
    }
    return new GroupKey(values);
  }

  static GroupKey ofRow(Object[] row) {
    Object[] values = new Object[row.length];
    for (int i = 0; i < row.length; i++) {
      values[i] = normalize(row[i]);
    }
    return new GroupKey(values);
  }

  boolean hasNull() {
    for (Object v : values) {
      if (v == null) {
        return true;
      }
    }
    return false;
  }

  private static Object normalize(Object value) {
    if (value instanceof byte[] bytes) {
      return Bytes.wrap(bytes);
    }
    if (value instanceof BigDecimal d) {
      return d.signum() == 0 ? BigDecimal.ZERO : d.stripTrailingZeros();
    }
    if (value instanceof Double d && d == 0.0) {
      return 0.0d;
    }
    if (value instanceof Float f && f == 0.0f) {
      return 0.0f;
    }
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GroupKey other && Arrays.equals(values, other.values);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
