package io.cairn.jdbc.internal.exec;

import java.util.Arrays;

/**
 * The groups of a GROUP BY of one integer column, found by the key's long in an open-addressing
 * table: a lookup reads one slot of keys and one of numbers, where a map of {@code GroupKey}s
 * follows an entry, the key, its array and the boxed value (TPC-H Q13's driver merges 200,000
 * partial rows into 100,000 customers' groups; each lookup of the map was four dependent cache
 * misses). Groups keep the order they were added in. Not thread-safe.
 *
 * @param <G> what a group holds
 */
final class LongGroups<G> {
  private static final int INITIAL_SLOTS = 64;

  /** Per slot: a group's key; valid where {@link #numbers} is not 0. */
  private long[] keys = new long[INITIAL_SLOTS];

  /** Per slot: the group's number + 1, or 0 for an empty slot. */
  private int[] numbers = new int[INITIAL_SLOTS];

  /** The groups by number: in the order they were added; null once taken. */
  private Object[] groups = new Object[16];

  private int size;

  /** The group of key {@code key}, or null when it has none (or it was taken). */
  @SuppressWarnings("unchecked")
  G get(long key) {
    int mask = keys.length - 1;
    for (int slot = slot(key, mask); ; slot = (slot + 1) & mask) {
      int number = numbers[slot];
      if (number == 0) {
        return null;
      }
      if (keys[slot] == key) {
        return (G) groups[number - 1];
      }
    }
  }

  /** Adds {@code group} as the group of {@code key}, which has none. */
  void add(long key, G group) {
    if (size == groups.length) {
      groups = Arrays.copyOf(groups, 2 * size);
    }
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    groups[size] = group;
    place(key, ++size);
  }

  /** The number of groups added. */
  int size() {
    return size;
  }

  /** Group number {@code i} (in the order added), and forgets it: null once taken. */
  @SuppressWarnings("unchecked")
  G take(int i) {
    G group = (G) groups[i];
    groups[i] = null;
    return group;
  }

  private void place(long key, int number) {
    int mask = keys.length - 1;
    int slot = slot(key, mask);
    while (numbers[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    keys[slot] = key;
    numbers[slot] = number;
  }

  private void grow() {
    long[] oldKeys = keys;
    int[] oldNumbers = numbers;
    keys = new long[2 * oldKeys.length];
    numbers = new int[2 * oldKeys.length];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldNumbers[i] != 0) {
        place(oldKeys[i], oldNumbers[i]);
      }
    }
  }

  /** A slot for {@code key}: the high bits of a multiplicative hash (dense ids spread too). */
  private static int slot(long key, int mask) {
    long h = key * 0x9E37_79B9_7F4A_7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }
}
