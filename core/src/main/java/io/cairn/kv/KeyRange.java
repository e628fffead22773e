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
}
