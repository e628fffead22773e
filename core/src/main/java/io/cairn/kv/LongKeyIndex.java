package io.cairn.kv;

import io.cairn.core.agg.GroupKey;
import java.util.Arrays;

/**
 * The index of a {@link JoinHashTable} whose keys are one or two columns holding only {@code Long}s
 * or only {@code Integer}s each (the planner's keys of BIGINT or INTEGER columns), so that adding a
 * build row and probing with a row's key values take no key object and no map node. A key leads to
 * the number of its first build row ({@link BuildColumns}); the table's {@code next} array chains
 * the others in the order they were added. Equal to {@link GroupKey}'s equality: a value of another
 * class than its column's (a {@code Long} probing {@code Integer} keys) matches nothing.
 *
 * <p>Rows are added first (their keys kept as longs: {@link #add} says when a row's key does not
 * fit, and the builder moves to a map), then {@link #finish} makes the index in one pass: a single
 * key column whose values lie in a range of at most a few times the rows (the dense keys of
 * generated tables, a dimension's ids) is indexed by {@code value - min} in an array, so a probe is
 * one array read; other keys go to an open-addressing table sized for the rows, each slot's key and
 * first row side by side. Filled by one thread, then read by any number.
 */
public final class LongKeyIndex {
  /** Per key column, the class of its values (Long or Integer); null until the first key. */
  private final Class<?>[] classes;

  private final int[] keyColumns;

  /** Per added row, its key values (column k at {@code k + keyColumns.length * row}). */
  private long[] rowKeys = new long[32];

  private int rows;

  /** Dense index: the first row of the key {@code min + i} at {@code i}, -1 none; else null. */
  private int[] denseHeads;

  private long min;

  /**
   * Hashed index: per slot, its key's values then its first row + 1 (0: an empty slot), {@link
   * #stride} longs; null when the index is dense.
   */
  private long[] slots;

  private int stride;
  private int mask;
  private int size;

  LongKeyIndex(int[] keyColumns) {
    this.keyColumns = keyColumns;
    this.classes = new Class<?>[keyColumns.length];
  }

  /** Whether a table of {@code keyColumns} may have its keys here (one or two columns). */
  static boolean takes(int[] keyColumns) {
    return keyColumns.length <= 2;
  }

  /** Heap bytes {@link #add} and {@link #finish} take per row: its key, a share of the slots. */
  static long bytesPerRow(int keyColumnCount) {
    return 8L * keyColumnCount + 2 * (8L * keyColumnCount + 8);
  }

  /**
   * Adds the next row, {@code row}, whose key values are all non-NULL; false, adding nothing, when
   * they are not such longs.
   */
  boolean add(Object[] row) {
    if (rowKeys == null) {
      throw new IllegalStateException("A row added to a join's long key index once it is made");
    }
    int keys = keyColumns.length;
    Object x = row[keyColumns[0]];
    Object y = keys == 2 ? row[keyColumns[1]] : null;
    if (!fits(x, 0) || (keys == 2 && !fits(y, 1))) {
      return false;
    }
    int at = keys * rows;
    if (at + keys > rowKeys.length) {
      rowKeys = Arrays.copyOf(rowKeys, 2 * rowKeys.length);
    }
    rowKeys[at] = ((Number) x).longValue();
    if (keys == 2) {
      rowKeys[at + 1] = ((Number) y).longValue();
    }
    rows++;
    return true;
  }

  /**
   * Makes the index of the rows added and chains the rows of each key in {@code next} (row r's
   * entry: the next row of its key, -1 after the last), after the last {@link #add}; again, it does
   * nothing.
   */
  void finish(int[] next) {
    if (rowKeys == null) {
      return;
    }
    int keys = keyColumns.length;
    long[] values = rowKeys;
    if (keys == 1 && rows > 0) {
      long lo = Long.MAX_VALUE;
      long hi = Long.MIN_VALUE;
      for (int r = 0; r < rows; r++) {
        lo = Math.min(lo, values[r]);
        hi = Math.max(hi, values[r]);
      }
      long span = hi - lo; // negative when it overflows: not dense
      if (span >= 0 && span < 4L * rows + 1024) {
        min = lo;
        denseHeads = new int[(int) span + 1];
        Arrays.fill(denseHeads, -1);
        // backwards, each row put before the rows of its key after it: chains in added order
        for (int r = rows - 1; r >= 0; r--) {
          int k = (int) (values[r] - lo);
          int head = denseHeads[k];
          size += head < 0 ? 1 : 0;
          next[r] = head;
          denseHeads[k] = r;
        }
        rowKeys = null;
        return;
      }
    }
    stride = keys + 1;
    int capacity = Integer.highestOneBit(Math.max(32, 2 * rows - 1)) * 2;
    slots = new long[capacity * stride];
    mask = capacity - 1;
    for (int r = rows - 1; r >= 0; r--) {
      long a = values[keys * r];
      long b = keys == 2 ? values[keys * r + 1] : 0;
      int at = stride * find(a, b);
      long headPlus1 = slots[at + keys];
      if (headPlus1 == 0) {
        size++;
        slots[at] = a;
        if (keys == 2) {
          slots[at + 1] = b;
        }
      }
      next[r] = (int) headPlus1 - 1;
      slots[at + keys] = r + 1;
    }
    rowKeys = null;
  }

  /** The slot of key (a, b): its own, or the empty one where it would go. */
  private int find(long a, long b) {
    long[] table = slots;
    int keys = stride - 1;
    for (int slot = slot(a, b, mask); ; slot = (slot + 1) & mask) {
      int at = slot * stride;
      if (table[at + keys] == 0 || (table[at] == a && (keys == 1 || table[at + 1] == b))) {
        return slot;
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
    if (denseHeads == null && slots == null) {
      return -1; // not made yet
    }
    long a = ((Number) first).longValue();
    if (keyColumns.length == 1) {
      return first(a);
    }
    Object second = values[1];
    if (second == null || second.getClass() != classes[1]) {
      return -1;
    }
    return first(a, ((Number) second).longValue());
  }

  /**
   * The class of key column {@code k}'s values (Long or Integer), or null before the first key: a
   * probe value of another class matches nothing.
   */
  public Class<?> keyClass(int k) {
    return classes[k];
  }

  /**
   * The number of the first build row whose one key column holds {@code value} (of the column's
   * {@link #keyClass}, which the caller checked), or -1; once made ({@link #finish}).
   */
  public int first(long value) {
    if (denseHeads != null) {
      long k = value - min;
      return k >= 0 && k < denseHeads.length ? denseHeads[(int) k] : -1;
    }
    return (int) slots[stride * find(value, 0) + stride - 1] - 1;
  }

  /**
   * The number of the first build row whose two key columns hold {@code a} and {@code b} (of the
   * columns' {@link #keyClass}es, which the caller checked), or -1; once made ({@link #finish}).
   */
  public int first(long a, long b) {
    return (int) slots[stride * find(a, b) + stride - 1] - 1;
  }

  /** The first row of {@code key} (as {@link GroupKey#of} normalises a row's key values), or -1. */
  int first(GroupKey key) {
    Object[] values = new Object[key.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = key.value(i);
    }
    return first(values);
  }

  /** Distinct keys (after {@link #finish}). */
  int size() {
    return size;
  }

  /**
   * The values of key column {@code keyIndex} as longs, one per distinct key (repeated when the
   * other key column differs); empty before the first key.
   */
  public long[] keys(int keyIndex) {
    long[] keys = new long[size];
    int n = 0;
    if (denseHeads != null) {
      for (int i = 0; i < denseHeads.length; i++) {
        if (denseHeads[i] >= 0) {
          keys[n++] = min + i;
        }
      }
    } else if (slots != null) {
      int keyCount = stride - 1;
      for (int at = 0; at < slots.length; at += stride) {
        if (slots[at + keyCount] != 0) {
          keys[n++] = slots[at + keyIndex];
        }
      }
    }
    return keys;
  }

  /** The first rows of the keys, in index order. */
  int[] heads() {
    int[] heads = new int[size];
    int n = 0;
    if (denseHeads != null) {
      for (int head : denseHeads) {
        if (head >= 0) {
          heads[n++] = head;
        }
      }
    } else if (slots != null) {
      for (int at = stride - 1; at < slots.length; at += stride) {
        if (slots[at] != 0) {
          heads[n++] = (int) slots[at] - 1;
        }
      }
    }
    return heads;
  }
}
