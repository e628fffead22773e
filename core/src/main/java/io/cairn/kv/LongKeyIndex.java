package io.cairn.kv;

import io.cairn.core.agg.GroupKey;
import java.util.Arrays;

/**
 * The index of a {@link JoinHashTable} whose keys are one or two columns holding only {@code Long}s
 * or only {@code Integer}s each (the planner's keys of BIGINT or INTEGER columns): an
 * open-addressing table of longs, so that adding a build row and probing with a row's key values
 * take no key object and no map node. A key leads to the number of its first build row ({@link
 * BuildColumns}); the table chains the others. Equal to {@link GroupKey}'s equality: a value of
 * another class than its column's (a {@code Long} probing {@code Integer} keys) matches nothing.
 *
 * <p>Filled by one thread while the table is built ({@link #add} says when a row's key does not
 * fit, and the builder moves to a map), then read by any number.
 */
public final class LongKeyIndex {
  /** Per key column, the class of its values (Long or Integer); null until the first key. */
  private final Class<?>[] classes;

  private final int[] keyColumns;
  private long[] firsts;

  /** Null with one key column. */
  private long[] seconds;

  /** Per slot, its key's first row and last row; -1: an empty slot. */
  private int[] heads;

  private int[] tails;
  private int mask;
  private int size;

  LongKeyIndex(int[] keyColumns) {
    this.keyColumns = keyColumns;
    this.classes = new Class<?>[keyColumns.length];
    allocate(64);
  }

  /** Whether a table of {@code keyColumns} may have its keys here (one or two columns). */
  static boolean takes(int[] keyColumns) {
    return keyColumns.length <= 2;
  }

  private void allocate(int capacity) {
    firsts = new long[capacity];
    seconds = keyColumns.length == 2 ? new long[capacity] : null;
    heads = new int[capacity];
    Arrays.fill(heads, -1);
    tails = new int[capacity];
    mask = capacity - 1;
  }

  /** {@link #add}: the row's key values are not such longs (nothing added). */
  static final int UNFIT = -2;

  /** {@link #add}: the row's key is new. */
  static final int NEW_KEY = -1;

  /**
   * Adds row number {@code id}, {@code row}, whose key values are all non-NULL: the number of the
   * last row of its key before it (to chain after), {@link #NEW_KEY} or {@link #UNFIT}.
   */
  int add(Object[] row, int id) {
    Object x = row[keyColumns[0]];
    if (!fits(x, 0)) {
      return UNFIT;
    }
    long a = ((Number) x).longValue();
    long b = 0;
    if (seconds != null) {
      Object y = row[keyColumns[1]];
      if (!fits(y, 1)) {
        return UNFIT;
      }
      b = ((Number) y).longValue();
    }
    int slot = slot(a, b, mask);
    while (heads[slot] >= 0) {
      if (firsts[slot] == a && (seconds == null || seconds[slot] == b)) {
        int last = tails[slot];
        tails[slot] = id;
        return last;
      }
      slot = (slot + 1) & mask;
    }
    firsts[slot] = a;
    if (seconds != null) {
      seconds[slot] = b;
    }
    heads[slot] = id;
    tails[slot] = id;
    if (++size > (mask + 1) / 2) {
      grow();
    }
    return NEW_KEY;
  }

  private void grow() {
    long[] oldFirsts = firsts;
    long[] oldSeconds = seconds;
    int[] oldHeads = heads;
    int[] oldTails = tails;
    allocate(oldHeads.length * 2);
    for (int i = 0; i < oldHeads.length; i++) {
      if (oldHeads[i] >= 0) {
        long a = oldFirsts[i];
        long b = oldSeconds == null ? 0 : oldSeconds[i];
        int slot = slot(a, b, mask);
        while (heads[slot] >= 0) {
          slot = (slot + 1) & mask;
        }
        firsts[slot] = a;
        if (seconds != null) {
          seconds[slot] = b;
        }
        heads[slot] = oldHeads[i];
        tails[slot] = oldTails[i];
      }
    }
  }

  /**
   * Whether {@code value} is a Long or an Integer of the class of key column {@code k}'s other
   * values (recorded when it is the first).
   */
  private boolean fits(Object value, int k) {
    Class<?> c = value == null ? null : value.getClass();
    if (c != Long.class && c != Integer.class) {
      return false;
    }
    if (classes[k] == null) {
      classes[k] = c;
      return true;
    }
    return classes[k] == c;
  }

  private static int slot(long a, long b, int mask) {
    long h = (a * 0x9E3779B97F4A7C15L) ^ (b * 0xC2B2AE3D27D4EB4FL);
    return (int) (h ^ (h >>> 29)) & mask;
  }

  /**
   * The number of the first build row whose key equals {@code values} (one per key column, as a
   * probe row holds them; {@link JoinHashTable#next} gives the others), or -1: none, a value is
   * NULL or of another class than its column's.
   */
  public int first(Object[] values) {
    Object first = values[0];
    if (first == null || first.getClass() != classes[0]) {
      return -1;
    }
    long a = ((Number) first).longValue();
    long b = 0;
    if (seconds != null) {
      Object second = values[1];
      if (second == null || second.getClass() != classes[1]) {
        return -1;
      }
      b = ((Number) second).longValue();
    }
    for (int slot = slot(a, b, mask); ; slot = (slot + 1) & mask) {
      int head = heads[slot];
      if (head < 0 || (firsts[slot] == a && (seconds == null || seconds[slot] == b))) {
        return head;
      }
    }
  }

  /** The first row of {@code key} (as {@link GroupKey#of} normalises a row's key values), or -1. */
  int first(GroupKey key) {
    Object[] values = new Object[key.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = key.value(i);
    }
    return first(values);
  }

  /** Distinct keys. */
  int size() {
    return size;
  }

  /**
   * The values of key column {@code keyIndex} as longs, one per distinct key (repeated when the
   * other key column differs); empty before the first key.
   */
  public long[] keys(int keyIndex) {
    long[] from = keyIndex == 0 ? firsts : seconds;
    long[] keys = new long[size];
    int n = 0;
    for (int i = 0; i < heads.length; i++) {
      if (heads[i] >= 0) {
        keys[n++] = from[i];
      }
    }
    return keys;
  }

  /** The first rows of the keys, in slot order. */
  int[] heads() {
    return occupied(heads);
  }

  /** The last rows of the keys, at the places {@link #heads()} has their first rows. */
  int[] tails() {
    return occupied(tails);
  }

  /** {@code rows}' entries at the occupied slots, in slot order. */
  private int[] occupied(int[] rows) {
    int[] out = new int[size];
    int n = 0;
    for (int i = 0; i < heads.length; i++) {
      if (heads[i] >= 0) {
        out[n++] = rows[i];
      }
    }
    return out;
  }
}
