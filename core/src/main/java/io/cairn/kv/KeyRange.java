package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;

/**
 * Keys in {@code [start, stop)}: start inclusive, stop exclusive. An empty start means from the
 * first key; an empty stop means to the last key.
 */
public record KeyRange(Bytes start, Bytes stop) {
  public static final KeyRange ALL = new KeyRange(Bytes.EMPTY, Bytes.EMPTY);

  public KeyRange {
    requireNonNull(start, "start is null");
    requireNonNull(stop, "stop is null");
  }

  /** The range holding exactly {@code key}. */
  public static KeyRange point(Bytes key) {
    return new KeyRange(key, key.successor());
  }

  /** All keys starting with {@code prefix}. */
  public static KeyRange prefix(Bytes prefix) {
    return new KeyRange(prefix, prefix.prefixEnd());
  }

  public boolean isAll() {
    return start.isEmpty() && stop.isEmpty();
  }

  public boolean isEmptyRange() {
    return !stop.isEmpty() && start.compareTo(stop) >= 0;
  }

  public boolean isPoint() {
    return !start.isEmpty() && stop.equals(start.successor());
  }

  public boolean contains(Bytes key) {
    return key.compareTo(start) >= 0 && (stop.isEmpty() || key.compareTo(stop) < 0);
  }

  /** Whether the key {@code key[from, to)} is in the range. */
  public boolean contains(byte[] key, int from, int to) {
    byte[] s = start.peekArray();
    if (java.util.Arrays.compareUnsigned(key, from, to, s, 0, s.length) < 0) {
      return false;
    }
    byte[] e = stop.peekArray();
    return e.length == 0 || java.util.Arrays.compareUnsigned(key, from, to, e, 0, e.length) < 0;
  }
}
