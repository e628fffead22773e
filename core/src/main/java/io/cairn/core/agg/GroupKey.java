package io.cairn.core.agg;

import io.cairn.core.bytes.Bytes;
import java.math.BigDecimal;
import java.util.Arrays;

/**
 * Values used as a hash key (grouping, joins, set operations), in the driver and in the store's
 * grouped aggregation: SQL equality semantics for equal types (numerically equal decimals are
 * equal; byte arrays compare by content). NULLs are equal to each other, as GROUP BY wants.
 */
public final class GroupKey {
  private final Object[] values;
  private final int hash;

  private GroupKey(Object[] values) {
    this.values = values;
    this.hash = Arrays.hashCode(values);
  }

  /** The key of {@code row}'s {@code columns}. */
  public static GroupKey of(Object[] row, int[] columns) {
    Object[] values = new Object[columns.length];
    for (int i = 0; i < columns.length; i++) {
      values[i] = normalize(row[columns[i]]);
    }
    return new GroupKey(values);
  }

  /** The key of all of {@code row}'s values. */
  public static GroupKey ofRow(Object[] row) {
    Object[] values = new Object[row.length];
    for (int i = 0; i < row.length; i++) {
      values[i] = normalize(row[i]);
    }
    return new GroupKey(values);
  }

  /** The number of values. */
  public int size() {
    return values.length;
  }

  /**
   * Value {@code i} (0: the first), normalised: a decimal without trailing zeros, bytes wrapped.
   */
  public Object value(int i) {
    return values[i];
  }

  /** Whether a value of the key is NULL. */
  public boolean hasNull() {
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

  /**
   * This key's hash spread by {@code seed} (murmur3's finalizer: every bit of the hash moves every
   * bit of the result), for partitioning keys into files or passes: equal keys spread equally, in
   * any JVM (the hash is of the values' content).
   */
  public int spread(int seed) {
    int h = hash ^ seed;
    h ^= h >>> 16;
    h *= 0x85EBCA6B;
    h ^= h >>> 13;
    h *= 0xC2B2AE35;
    h ^= h >>> 16;
    return h;
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
