package io.cairn.jdbc.internal.exec;

import io.cairn.core.agg.GroupKey;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The hash index of a join's build rows: per key, its rows as a chain through {@link #next} (in
 * build order), found by the key of a probe row with {@link GroupKey}'s equality (NULL matches
 * nothing). A key of one column whose values are all {@code Long}s (or all {@code Integer}s, the
 * planner's join keys of BIGINT or INTEGER columns) is kept in an open-addressing table of longs:
 * no key object per build or probe row, no boxed list per key; a probe value of another class
 * matches nothing there, as GroupKey's equality says; keys of a dense range (a table's sequence of
 * ids) in an array of chain heads by key, probed without hashing. A key of two such columns (each
 * all Longs or all Integers) is kept in the same kind of table, by both longs (TPC-H Q5 joins its
 * rows to SUPPLIER on the supplier's key and nation). Other keys go through a map of GroupKeys.
 */
final class JoinIndex {
  private static final int NONE = -1;

  /** Per build row, the next build row of the same key, or NONE. */
  private final int[] next;

  /** The key's class on the long path, else null. */
  private final Class<?> longClass;

  /** Long path: the slots' keys, and the first row of each slot's key (NONE: empty slot). */
  private final long[] slotKeys;

  /** Long path of two columns: the second column's class and the slots' second keys; else null. */
  private Class<?> secondClass;

  private long[] secondKeys;

  private final int[] slotHeads;

  /** Generic path: the first row of each key. */
  private final Map<GroupKey, Integer> heads;

  /** Dense long path: the first row of each key by key minus {@link #denseMin}, or null. */
  private final int[] denseHeads;

  private final long denseMin;

  private JoinIndex(
      int[] next,
      Class<?> longClass,
      long[] slotKeys,
      int[] slotHeads,
      Map<GroupKey, Integer> heads,
      int[] denseHeads,
      long denseMin) {
    this.next = next;
    this.longClass = longClass;
    this.slotKeys = slotKeys;
    this.slotHeads = slotHeads;
    this.heads = heads;
    this.denseHeads = denseHeads;
    this.denseMin = denseMin;
  }

  /** The index of {@code rows} by their {@code keys} columns (rows with a NULL key left out). */
  static JoinIndex of(List<Object[]> rows, int[] keys) {
    int n = rows.size();
    int[] next = new int[n];
    Arrays.fill(next, NONE);
    LongKeys longKeys = keys.length <= 2 ? LongKeys.of(rows, keys[0]) : null;
    if (longKeys != null && keys.length == 2) {
      LongKeys second = LongKeys.of(rows, keys[1]);
      return second == null ? generic(rows, keys, next) : pairs(rows, keys, next, longKeys, second);
    }
    if (longKeys != null) {
      int capacity = Integer.highestOneBit(Math.max(4, 2 * n - 1)) << 1;
      if (longKeys.span() <= 3L * capacity) {
        return dense(rows, keys[0], next, longKeys);
      }
      long[] slotKeys = new long[capacity];
      int[] slotHeads = new int[capacity];
      Arrays.fill(slotHeads, NONE);
      int mask = capacity - 1;
      for (int i = n - 1; i >= 0; i--) { // backwards, so that each chain runs in build order
        Object v = rows.get(i)[keys[0]];
        if (v == null) {
          continue;
        }
        long k = ((Number) v).longValue();
        int slot = slot(k, mask);
        while (slotHeads[slot] != NONE && slotKeys[slot] != k) {
          slot = (slot + 1) & mask;
        }
        next[i] = slotHeads[slot];
        slotKeys[slot] = k;
        slotHeads[slot] = i;
      }
      return new JoinIndex(next, longKeys.type(), slotKeys, slotHeads, null, null, 0);
    }
    return generic(rows, keys, next);
  }

  /** The index of keys of two columns of longs (see {@link LongKeys}) in a table of both. */
  private static JoinIndex pairs(
      List<Object[]> rows, int[] keys, int[] next, LongKeys first, LongKeys second) {
    int n = rows.size();
    int capacity = Integer.highestOneBit(Math.max(4, 2 * n - 1)) << 1;
    long[] slotKeys = new long[capacity];
    long[] secondKeys = new long[capacity];
    int[] slotHeads = new int[capacity];
    Arrays.fill(slotHeads, NONE);
    int mask = capacity - 1;
    for (int i = n - 1; i >= 0; i--) { // backwards, so that each chain runs in build order
      Object a = rows.get(i)[keys[0]];
      Object b = rows.get(i)[keys[1]];
      if (a == null || b == null) {
        continue;
      }
      long k = ((Number) a).longValue();
      long k2 = ((Number) b).longValue();
      int slot = slot(k, k2, mask);
      while (slotHeads[slot] != NONE && (slotKeys[slot] != k || secondKeys[slot] != k2)) {
        slot = (slot + 1) & mask;
      }
      next[i] = slotHeads[slot];
      slotKeys[slot] = k;
      secondKeys[slot] = k2;
      slotHeads[slot] = i;
    }
    JoinIndex index = new JoinIndex(next, first.type(), slotKeys, slotHeads, null, null, 0);
    index.secondClass = second.type();
    index.secondKeys = secondKeys;
    return index;
  }

  /** The index of other keys, by GroupKey. */
  private static JoinIndex generic(List<Object[]> rows, int[] keys, int[] next) {
    int n = rows.size();
    Map<GroupKey, Integer> heads = new HashMap<>();
    for (int i = n - 1; i >= 0; i--) {
      GroupKey key = GroupKey.of(rows.get(i), keys);
      if (!key.hasNull()) {
        Integer old = heads.put(key, i);
        next[i] = old == null ? NONE : old;
      }
    }
    return new JoinIndex(next, null, null, null, heads, null, 0);
  }

  /**
   * The index of keys of a dense range (at most three times as many values between the least and
   * the greatest as the slots would take: no more memory), as an array of chain heads by key minus
   * the least.
   */
  private static JoinIndex dense(List<Object[]> rows, int column, int[] next, LongKeys keys) {
    int[] heads = new int[(int) keys.span()];
    Arrays.fill(heads, NONE);
    for (int i = rows.size() - 1; i >= 0; i--) { // backwards: each chain runs in build order
      Object v = rows.get(i)[column];
      if (v != null) {
        int at = (int) (((Number) v).longValue() - keys.min());
        next[i] = heads[at];
        heads[at] = i;
      }
    }
    return new JoinIndex(next, keys.type(), null, null, null, heads, keys.min());
  }

  /**
   * A key column whose non-NULL values are all Longs or all Integers ({@code type}), with their
   * least and greatest ({@code min > max}: none).
   */
  private record LongKeys(Class<?> type, long min, long max) {
    /** The column's long keys, or null when a value is of another class. */
    static LongKeys of(List<Object[]> rows, int column) {
      Class<?> found = null;
      long min = Long.MAX_VALUE;
      long max = Long.MIN_VALUE;
      for (Object[] row : rows) {
        Object v = row[column];
        if (v == null) {
          continue;
        }
        Class<?> c = v.getClass();
        if ((c != Long.class && c != Integer.class) || (found != null && found != c)) {
          return null;
        }
        found = c;
        long k = ((Number) v).longValue();
        min = Math.min(min, k);
        max = Math.max(max, k);
      }
      return found == null ? null : new LongKeys(found, min, max);
    }

    /** How many values lie from the least to the greatest; MAX_VALUE when more than an int's. */
    long span() {
      long span = max - min + 1;
      return span <= 0 || span > Integer.MAX_VALUE ? Long.MAX_VALUE : span;
    }
  }

  private static int slot(long k, int mask) {
    long h = k * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  private static int slot(long k, long k2, int mask) {
    return slot(k ^ Long.rotateLeft(k2 * 0xC2B2AE3D27D4EB4FL, 31), mask);
  }

  /** The first build row whose key equals the probe row's {@code keys} columns, or -1. */
  int first(Object[] probe, int[] keys) {
    if (secondKeys != null) {
      Object a = probe[keys[0]];
      Object b = probe[keys[1]];
      if (a == null || b == null || a.getClass() != longClass || b.getClass() != secondClass) {
        return NONE;
      }
      long k = ((Number) a).longValue();
      long k2 = ((Number) b).longValue();
      int mask = slotKeys.length - 1;
      for (int slot = slot(k, k2, mask); ; slot = (slot + 1) & mask) {
        int head = slotHeads[slot];
        if (head == NONE || (slotKeys[slot] == k && secondKeys[slot] == k2)) {
          return head;
        }
      }
    }
    if (longClass != null) {
      Object v = probe[keys[0]];
      if (v == null || v.getClass() != longClass) {
        return NONE;
      }
      long k = ((Number) v).longValue();
      if (denseHeads != null) {
        long at = k - denseMin; // wraps to outside [0, length) for a key far out of the range
        return at >= 0 && at < denseHeads.length ? denseHeads[(int) at] : NONE;
      }
      int mask = slotKeys.length - 1;
      for (int slot = slot(k, mask); ; slot = (slot + 1) & mask) {
        int head = slotHeads[slot];
        if (head == NONE || slotKeys[slot] == k) {
          return head;
        }
      }
    }
    GroupKey key = GroupKey.of(probe, keys);
    if (key.hasNull()) {
      return NONE;
    }
    Integer head = heads.get(key);
    return head == null ? NONE : head;
  }

  /** The build row after {@code row} with the same key, or -1. */
  int next(int row) {
    return next[row];
  }
}
