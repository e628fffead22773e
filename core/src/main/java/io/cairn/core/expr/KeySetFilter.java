package io.cairn.core.expr;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.Optional;

/**
 * A dynamic filter of a join probed in the store: whether a row's key column holds one of the build
 * side's keys, tested on the row's bytes before anything is decoded (a hash set of longs: integers,
 * dates, and decimals at one scale), so that the rows that cannot match cost no key object and no
 * hash-table lookup. A row whose column is NULL does not pass (it matches nothing). It tests the
 * first join key only: with several, a row that passes may still not match.
 *
 * <p>Exact for the types it takes, by SQL equality (numerically equal decimals of other scales
 * match); {@link #of} declines the others (strings, floating point, timestamps, expressions).
 */
public final class KeySetFilter {
  private static final long[] POWERS_OF_TEN = RowFilter.POWERS_OF_TEN;

  private final int column;

  /** The scale the set's decimals are at; -1 for a column read as a long. */
  private final int scale;

  private final LongSet keys;

  /** How a data block's column vector holds the column, or null when blocks are not tested. */
  private final VectorColumn vectorColumn;

  /** The keys as the vector holds them (at the column's declared scale), or null. */
  private final LongSet vectorKeys;

  /** The least and greatest of {@link #vectorKeys}. */
  private final long vectorMin, vectorMax;

  private KeySetFilter(int column, int scale, LongSet keys, DataType stored) {
    this.column = column;
    this.scale = scale;
    this.keys = keys;
    keys.freeze();
    VectorColumn v = VectorColumn.numbersOf(column, stored);
    this.vectorColumn = v == null || v.kind() == RowReader.DOUBLE ? null : v;
    this.vectorKeys = vectorColumn == null ? null : atScale(keys, scale, vectorColumn.scale());
    if (vectorKeys != null) {
      vectorKeys.freeze();
    }
    this.vectorMin = vectorKeys == null ? Long.MAX_VALUE : vectorKeys.min;
    this.vectorMax = vectorKeys == null ? Long.MIN_VALUE : vectorKeys.max;
  }

  /**
   * The keys of {@code set} (longs, or decimals unscaled at {@code from}; -1: longs) as a vector of
   * a column at scale {@code to} holds the values equal to them: rescaled exactly, the keys with
   * digits below {@code to} or beyond a long at it left out (no value of the vector equals them).
   */
  private static LongSet atScale(LongSet set, int from, int to) {
    if (from < 0 || from == to) {
      return set;
    }
    LongSet out = new LongSet(set.size);
    for (long k : set.values()) {
      if (from < to) {
        if (to - from >= POWERS_OF_TEN.length) {
          if (k == 0) {
            out.add(0);
          }
          continue;
        }
        long p = POWERS_OF_TEN[to - from];
        long high = Math.multiplyHigh(k, p);
        long scaled = k * p;
        if (high == (scaled >> 63)) {
          out.add(scaled);
        }
      } else {
        long p = from - to >= POWERS_OF_TEN.length ? 0 : POWERS_OF_TEN[from - to];
        if (k == 0) {
          out.add(0);
        } else if (p != 0 && k % p == 0) {
          out.add(k / p);
        }
      }
    }
    return out;
  }

  /**
   * Whether {@code value} (an expression over a row of a table whose column it reads has type
   * {@code stored}) is a key this filter can test: a plain column of an integer, DATE or DECIMAL
   * type as stored.
   */
  public static boolean applies(Expr value, DataType stored) {
    if (!(value instanceof Expr.ColumnRef ref) || ref.type().name() != stored.name()) {
      return false;
    }
    TypeName t = stored.name();
    return t.isExactInteger() || t == TypeName.DATE || t == TypeName.DECIMAL;
  }

  /**
   * The filter of the rows of {@code layout} whose {@code value} is one of {@code keys} (values of
   * {@code value}'s type; NULLs ignored); empty when it does not {@link #applies apply} or a key is
   * of another class or does not fit.
   */
  public static Optional<KeySetFilter> of(Expr value, Iterable<?> keys, RowLayout layout) {
    DataType stored = appliedType(value, layout);
    if (stored == null) {
      return Optional.empty();
    }
    Expr.ColumnRef ref = (Expr.ColumnRef) value;
    TypeName type = stored.name();
    LongSet set = new LongSet(keys instanceof java.util.Collection<?> c ? c.size() : 0);
    if (type != TypeName.DECIMAL) {
      for (Object k : keys) {
        if (k == null) {
          continue;
        }
        if (type == TypeName.DATE && k instanceof LocalDate d) {
          set.add(d.toEpochDay());
        } else if (type != TypeName.DATE && Values.isExactInteger(k)) {
          set.add(((Number) k).longValue());
        } else {
          return Optional.empty();
        }
      }
      return Optional.of(new KeySetFilter(ref.index(), -1, set, stored));
    }
    int scale = 0;
    for (Object k : keys) {
      if (k == null) {
        continue;
      }
      if (!(k instanceof BigDecimal d)) {
        return Optional.empty();
      }
      scale = Math.max(scale, d.signum() == 0 ? 0 : d.stripTrailingZeros().scale());
    }
    if (scale >= POWERS_OF_TEN.length) {
      return Optional.empty();
    }
    for (Object k : keys) {
      if (k == null) {
        continue;
      }
      BigDecimal at = ((BigDecimal) k).setScale(scale, RoundingMode.UNNECESSARY);
      if (at.unscaledValue().bitLength() > 63) {
        return Optional.empty();
      }
      set.add(at.unscaledValue().longValue());
    }
    return Optional.of(new KeySetFilter(ref.index(), scale, set, stored));
  }

  /**
   * The stored type of {@code value}'s column of {@code layout} when the filter applies, or null.
   */
  private static DataType appliedType(Expr value, RowLayout layout) {
    if (!(value instanceof Expr.ColumnRef ref) || ref.index() >= layout.columnCount()) {
      return null;
    }
    DataType stored = layout.columnType(ref.index());
    return applies(value, stored) ? stored : null;
  }

  /**
   * The filter of the rows of {@code layout} whose {@code value}, a column of an integer type, is
   * one of {@code keys}; empty when it is not such a column.
   */
  public static Optional<KeySetFilter> ofLongs(Expr value, long[] keys, RowLayout layout) {
    DataType stored = appliedType(value, layout);
    if (stored == null || !stored.name().isExactInteger()) {
      return Optional.empty();
    }
    LongSet set = new LongSet(keys.length);
    for (long k : keys) {
      set.add(k);
    }
    return Optional.of(new KeySetFilter(((Expr.ColumnRef) value).index(), -1, set, stored));
  }

  /** Whether the current row of {@code row} may match: its column holds one of the keys. */
  public boolean test(RowReader row) {
    if (row.isNull(column)) {
      return false;
    }
    if (scale < 0) {
      return keys.contains(row.getLong(column));
    }
    long unscaled;
    int s;
    if (row.decimalFitsLong(column)) {
      unscaled = row.getUnscaledLong(column);
      s = row.getScale(column);
    } else {
      BigDecimal d = row.getDecimal(column).stripTrailingZeros(); // beyond a long: allocates
      if (d.scale() > scale) {
        return false;
      }
      BigDecimal at = d.setScale(scale);
      return at.unscaledValue().bitLength() <= 63 && keys.contains(at.unscaledValue().longValue());
    }
    if (s == scale) {
      return keys.contains(unscaled);
    }
    if (s < scale) {
      if (scale - s >= POWERS_OF_TEN.length) {
        return unscaled == 0 && keys.contains(0);
      }
      long p = POWERS_OF_TEN[scale - s];
      long high = Math.multiplyHigh(unscaled, p);
      long scaled = unscaled * p;
      if (high != (scaled >> 63)) {
        return false; // beyond a long at the set's scale: no key is
      }
      return keys.contains(scaled);
    }
    if (s - scale >= POWERS_OF_TEN.length) {
      return unscaled == 0 && keys.contains(0);
    }
    long p = POWERS_OF_TEN[s - scale];
    return unscaled % p == 0 && keys.contains(unscaled / p);
  }

  /**
   * The column a data block's vector must hold for {@link #select}, or null when this filter tests
   * rows only (a DECIMAL column without a declared scale of at most 18).
   */
  public VectorColumn vectorColumn() {
    return vectorColumn;
  }

  /**
   * Of the rows of {@code vector} (a block's {@link #vectorColumn()}, without NUMBER_UNFIT rows) at
   * {@code in[0, n)}, or of all its rows when {@code in} is null, writes into {@code out} (may be
   * {@code in}) those whose value is a key, in order, and returns how many: exactly the rows {@link
   * #test} keeps.
   */
  public int select(NumberVector vector, int[] in, int n, int[] out) {
    long[] x = vector.longs;
    byte[] status = vector.nulls == 0 ? null : vector.status;
    LongSet set = vectorKeys;
    long min = vectorMin;
    long max = vectorMax;
    int m = 0;
    int count = in == null ? x.length : n;
    for (int k = 0; k < count; k++) {
      int i = in == null ? k : in[k];
      long v = x[i];
      out[m] = i;
      if (v >= min
          && v <= max
          && (status == null || status[i] == RowReader.NUMBER_VALUE)
          && set.contains(v)) {
        m++;
      }
    }
    return m;
  }

  /**
   * Whether {@link #select} tests a row as cheaply as a comparison does: the keys are a bitmap over
   * their range (a scan in key order reads it in order), not a hashed set.
   */
  public boolean testsByBitmap() {
    return vectorKeys != null && vectorKeys.bitmap != null;
  }

  /** How many distinct keys it holds. */
  public int size() {
    return keys.size;
  }

  @Override
  public String toString() {
    return "#"
        + column
        + " IN "
        + keys.size
        + " keys"
        + (scale >= 0 ? " (scale " + scale + ")" : "");
  }

  /**
   * An open-addressing set of longs (linear probing; no boxing). Once all are added, {@link
   * #freeze()} may turn it into a bitmap over [min, max] when that takes no more memory than the
   * slots or at most 1 MiB (keys of a dense range, as join keys often are): a test then reads one
   * bit of a smaller table, which a cache holds, in the order of the keys.
   */
  private static final class LongSet {
    private static final long EMPTY = Long.MIN_VALUE;

    /** Bits per key a bitmap may take (the slots take 128 to 256). */
    private static final long BITMAP_BITS_PER_KEY = 128;

    /**
     * Bits a bitmap may take whatever the keys (1 MiB): the rows of a scan in key order test bits
     * in order, each cache line many times, where the slots are hashed.
     */
    private static final long BITMAP_BITS = 1L << 23;

    private long[] slots;
    private int size;
    private boolean hasEmptyValue;

    /** Once frozen: the least and greatest value (MAX_VALUE and MIN_VALUE when empty). */
    private long min = Long.MAX_VALUE, max = Long.MIN_VALUE;

    private boolean frozen;

    /** Once frozen and dense: bit {@code v - min} is set for each value {@code v}; else null. */
    private long[] bitmap;

    private long bitmapSpan;

    /** A set sized for {@code expected} values (more may be added). */
    LongSet(int expected) {
      slots = new long[Integer.highestOneBit(Math.max(8, expected) * 2 - 1) << 1];
      java.util.Arrays.fill(slots, EMPTY);
    }

    /** Ends the adding: the set becomes a bitmap when its values are dense enough. */
    void freeze() {
      if (frozen) {
        return;
      }
      frozen = true;
      for (long v : slots) {
        if (v != EMPTY) {
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
      }
      if (hasEmptyValue) {
        min = EMPTY; // the least long: held apart from the slots, never in a bitmap
        return;
      }
      long span = max - min + 1; // no overflow check needed when it stays within the bound below
      if (size == 0
          || max - min < 0
          || span > Math.max(BITMAP_BITS_PER_KEY * size, BITMAP_BITS)
          || span > (1L << 31)) {
        return;
      }
      long[] bits = new long[(int) ((span + 63) >>> 6)];
      for (long v : slots) {
        if (v != EMPTY) {
          long o = v - min;
          bits[(int) (o >>> 6)] |= 1L << o;
        }
      }
      bitmapSpan = span;
      bitmap = bits;
      slots = null;
    }

    void add(long v) {
      if (v == EMPTY) {
        if (!hasEmptyValue) {
          hasEmptyValue = true;
          size++;
        }
        return;
      }
      if ((size + 1) * 2 > slots.length) {
        grow();
      }
      int mask = slots.length - 1;
      for (int i = slot(v, mask); ; i = (i + 1) & mask) {
        long s = slots[i];
        if (s == v) {
          return;
        }
        if (s == EMPTY) {
          slots[i] = v;
          size++;
          return;
        }
      }
    }

    boolean contains(long v) {
      long[] bits = bitmap;
      if (bits != null) {
        long o = v - min;
        return o >= 0 && o < bitmapSpan && (bits[(int) (o >>> 6)] & (1L << o)) != 0;
      }
      if (v == EMPTY) {
        return hasEmptyValue;
      }
      long[] table = slots;
      int mask = table.length - 1;
      for (int i = slot(v, mask); ; i = (i + 1) & mask) {
        long s = table[i];
        if (s == v) {
          return true;
        }
        if (s == EMPTY) {
          return false;
        }
      }
    }

    private static int slot(long v, int mask) {
      long h = v * 0x9E3779B97F4A7C15L;
      return (int) (h ^ (h >>> 32)) & mask;
    }

    private void grow() {
      long[] old = slots;
      slots = new long[old.length * 2];
      java.util.Arrays.fill(slots, EMPTY);
      int mask = slots.length - 1;
      for (long v : old) {
        if (v != EMPTY) {
          int i = slot(v, mask);
          while (slots[i] != EMPTY) {
            i = (i + 1) & mask;
          }
          slots[i] = v;
        }
      }
    }

    /** The values held, in no order. */
    long[] values() {
      long[] out = new long[size];
      int n = 0;
      if (bitmap != null) {
        for (int w = 0; w < bitmap.length; w++) {
          for (long word = bitmap[w]; word != 0; word &= word - 1) {
            out[n++] = min + ((long) w << 6) + Long.numberOfTrailingZeros(word);
          }
        }
        return out;
      }
      if (hasEmptyValue) {
        out[n++] = EMPTY;
      }
      for (long v : slots) {
        if (v != EMPTY) {
          out[n++] = v;
        }
      }
      return out;
    }
  }
}
