package io.cairn.store.coprocessor;

import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import java.util.List;
import java.util.Optional;

/**
 * A join hash table's keys of one or two columns whose values are all {@code Long}s or all {@code
 * Integer}s per column (the planner's keys of BIGINT or INTEGER columns) in an open-addressing
 * table of longs: a probe row finds its build rows without a key object or a map lookup. Equal to
 * {@link JoinHashTable#matches}: a NULL value, or a value of another class than its column's (never
 * equal by GroupKey's equality), matches nothing. Derived once per table ({@link
 * JoinHashTable#derived}) and shared by the scans that probe it; immutable.
 */
final class LongProbeIndex {
  private static final List<Object[]> NONE = List.of();

  /** Per key column, the class of its values. */
  private final Class<?>[] classes;

  private final long[] firsts;
  private final long[] seconds;
  private final List<Object[]>[] rows;
  private final int mask;

  @SuppressWarnings("unchecked")
  private LongProbeIndex(Class<?>[] classes, int capacity) {
    this.classes = classes;
    this.firsts = new long[capacity];
    this.seconds = new long[capacity];
    this.rows = new List[capacity];
    this.mask = capacity - 1;
  }

  /**
   * The index of {@code table}'s keys for {@code probe}, made once per table for all the scans of a
   * query; null when they are not such longs, or the probe is null-aware or in passes.
   */
  static LongProbeIndex of(HashProbe probe, JoinHashTable table) {
    if (probe.partitions() != HashProbe.ALL || probe.nullAware()) {
      return null;
    }
    return table
        .<Optional<LongProbeIndex>>derived(List.of("long-keys"), LongProbeIndex::of)
        .orElse(null);
  }

  /** The index of {@code table}'s keys, or empty when they are not such longs. */
  static Optional<LongProbeIndex> of(JoinHashTable table) {
    List<Integer> keyColumns = table.keyColumns();
    int keys = keyColumns.size();
    if (keys > 2) {
      return Optional.empty();
    }
    int first = keyColumns.get(0);
    int second = keys == 2 ? keyColumns.get(1) : -1;
    int capacity = Integer.highestOneBit(Math.max(4, 2 * table.keyCount() - 1)) << 1;
    LongProbeIndex index = new LongProbeIndex(new Class<?>[keys], capacity);
    Class<?>[] classes = index.classes;
    for (List<Object[]> group : table.rowsByKey()) {
      // one pass: each key's classes checked as it is placed
      Object[] row = group.get(0);
      Object x = row[first];
      Object y = second < 0 ? null : row[second];
      if (!fits(x, classes, 0) || (second >= 0 && !fits(y, classes, 1))) {
        return Optional.empty();
      }
      long a = ((Number) x).longValue();
      long b = second < 0 ? 0 : ((Number) y).longValue();
      int slot = slot(a, b, index.mask);
      while (index.rows[slot] != null) {
        slot = (slot + 1) & index.mask;
      }
      index.firsts[slot] = a;
      index.seconds[slot] = b;
      index.rows[slot] = group;
    }
    return Optional.of(index);
  }

  /**
   * Whether {@code value} is a Long or an Integer of the class of key column {@code k}'s other
   * values (recorded in {@code classes} when it is the first).
   */
  private static boolean fits(Object value, Class<?>[] classes, int k) {
    Class<?> c = value == null ? null : value.getClass();
    if ((c != Long.class && c != Integer.class) || (classes[k] != null && classes[k] != c)) {
      return false;
    }
    classes[k] = c;
    return true;
  }

  private static int slot(long a, long b, int mask) {
    long h = (a * 0x9E3779B97F4A7C15L) ^ (b * 0xC2B2AE3D27D4EB4FL);
    return (int) (h ^ (h >>> 29)) & mask;
  }

  /** The build rows whose key equals {@code values} (one per key column); the list is shared. */
  List<Object[]> matches(Object[] values) {
    Object first = values[0];
    if (first == null || first.getClass() != classes[0]) {
      return NONE;
    }
    long a = ((Number) first).longValue();
    long b = 0;
    if (classes.length == 2) {
      Object second = values[1];
      if (second == null || second.getClass() != classes[1]) {
        return NONE;
      }
      b = ((Number) second).longValue();
    }
    for (int slot = slot(a, b, mask); ; slot = (slot + 1) & mask) {
      List<Object[]> found = rows[slot];
      if (found == null) {
        return NONE;
      }
      if (firsts[slot] == a && seconds[slot] == b) {
        return found;
      }
    }
  }
}
