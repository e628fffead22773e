package io.cairn.store.coprocessor;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.VectorColumn;
import io.cairn.core.type.TypeName;
import java.util.Arrays;

/**
 * The groups of a grouped aggregation whose key columns are plain columns of integer, date, time,
 * boolean or string types, found from the row's bytes without allocating: a key is hashed and
 * compared through {@link RowReader}'s primitive accessors ({@code getLong}, {@code shortBytes},
 * and for bytes longer than 7 {@code hashBytes} and {@code compareBytes}) in an open-addressing
 * table; only a new group decodes its key values. Equal keys are those GroupKey finds equal: equal
 * longs, equal bytes (strings as UTF-8), NULL equal to NULL. Groups are numbered in the order they
 * were found (0, 1, ...); the caller keeps what it needs per group by that number. Not thread-safe.
 *
 * <p>Each slot holds, in two longs side by side, the group's first key long and a tag (the key's
 * hash, whether the first key column is NULL, the group's number): a key of one integer column is
 * found by reading one slot, with no group object dereferenced (TPC-H Q13 groups 1,500,000 orders
 * by 100,000 customers; each lookup was five dependent cache misses through entry objects). Other
 * keys compare the rest of the key in per-group arrays.
 */
final class GroupsByBytes {
  private static final int NULL_FIRST = 0x8000_0000;

  private final int[] columns;
  private final boolean[] bytes;
  private final TypeName[] types;

  /** Whether a slot's first long, hash and NULL flag decide a match (one non-bytes column). */
  private final boolean oneLong;

  /**
   * The current row's key as {@link #hash} read it, for {@link #matches}: per key column whether it
   * is NULL, and its long ({@code getLong}, or {@link RowReader#shortBytes} for bytes; 0 for NULL).
   */
  private final boolean[] rowNulls;

  private final long[] rowLongs;

  /** The row {@link #hash} read last, or null when it read a key given as longs. */
  private RowReader current;

  /** Per slot: the group's first key long, then {@code hash << 32 | nullFirst | group + 1}. */
  private long[] slots;

  private int mask;

  /** Per group: its key's hash, its key longs and NULL flags, and its bytes longer than 7. */
  private int[] hashes;

  private long[] longs;
  private boolean[] nulls;
  private byte[][] longBytes;
  private int size;

  private GroupsByBytes(int[] columns, boolean[] bytes, TypeName[] types) {
    this.columns = columns;
    this.bytes = bytes;
    this.types = types;
    this.oneLong = columns.length == 1 && !bytes[0];
    this.rowNulls = new boolean[columns.length];
    this.rowLongs = new long[columns.length];
    reset();
  }

  /**
   * Groups by the layout columns {@code columns}, or null when one of them is not of a type found
   * by bytes (DECIMAL and floating keys compare by value, not by bytes).
   */
  static GroupsByBytes of(int[] columns, RowLayout layout) {
    boolean[] bytes = new boolean[columns.length];
    TypeName[] types = new TypeName[columns.length];
    for (int k = 0; k < columns.length; k++) {
      if (columns[k] < 0 || columns[k] >= layout.columnCount()) {
        return null;
      }
      TypeName type = layout.columnType(columns[k]).name();
      types[k] = type;
      switch (type) {
        case TINYINT, SMALLINT, INTEGER, BIGINT, DATE, TIME, BOOLEAN -> bytes[k] = false;
        case CHAR, VARCHAR, VARBINARY -> bytes[k] = true;
        default -> {
          return null;
        }
      }
    }
    return new GroupsByBytes(columns.clone(), bytes, types);
  }

  /** The number of the reader's current row's group, or -1 when it has none yet ({@link #add}). */
  int find(RowReader row) {
    return find(hash(row));
  }

  /**
   * The number of the group of a key given as longs, per key column whether it is NULL ({@code
   * nulls}) and else its {@code getLong} or, for bytes, its {@link RowReader#shortBytes} (never
   * NOT_SHORT): the group {@link #find(RowReader)} finds for a row with that key; -1 when it has
   * none yet.
   */
  int find(long[] key, boolean[] keyNulls) {
    return find(load(key, keyNulls));
  }

  /** Loads a key given as longs into {@link #rowLongs} and {@link #rowNulls}; its hash. */
  private int load(long[] key, boolean[] keyNulls) {
    for (int k = 0; k < key.length; k++) {
      rowNulls[k] = keyNulls[k];
      rowLongs[k] = keyNulls[k] ? 0 : key[k];
    }
    return hash(rowLongs, rowNulls);
  }

  /** The group of the key in {@link #rowLongs} and {@link #rowNulls} (of {@code row} if any). */
  private int find(int hash) {
    return find(hash, rowLongs, rowNulls, 0);
  }

  /**
   * The number of the group of the key whose hash is {@code hash} and whose longs and NULL flags
   * are at {@code at} in {@code keyLongs} and {@code keyNulls} (as {@link #readKey} wrote them), or
   * -1; for keys of {@link #longsOnly} columns, or the current row's key at 0 of {@link #rowLongs}.
   */
  int find(int hash, long[] keyLongs, boolean[] keyNulls, int at) {
    long first = keyLongs[at];
    int nullFirst = keyNulls[at] ? NULL_FIRST : 0;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      long tag = slots[2 * slot + 1];
      if (tag == 0) {
        return -1;
      }
      if ((int) (tag >>> 32) == hash
          && slots[2 * slot] == first
          && ((int) tag & NULL_FIRST) == nullFirst) {
        int group = ((int) tag & ~NULL_FIRST) - 1;
        if (oneLong || matches(group, keyLongs, keyNulls, at)) {
          return group;
        }
      }
    }
  }

  /** Whether every key column is read as a long (none is compared by its bytes). */
  boolean longsOnly() {
    for (boolean b : bytes) {
      if (b) {
        return false;
      }
    }
    return true;
  }

  /** Whether key column {@code k} is compared by its bytes (a string or binary column). */
  boolean bytesColumn(int k) {
    return bytes[k];
  }

  /** How many groups were found. */
  int size() {
    return size;
  }

  /**
   * Adds the current row's group, which {@link #find} did not find, and returns its number; {@code
   * keyValues} are its key values as decoded (strings, byte arrays, numbers), in key order.
   */
  int add(RowReader row, Object[] keyValues) {
    int group = insert(hash(row));
    for (int k = 0; k < columns.length; k++) {
      Object v = keyValues[k];
      if (v != null && bytes[k] && rowLongs[k] == RowReader.NOT_SHORT) {
        keyBytes()[group * columns.length + k] =
            v instanceof String s ? s.getBytes(UTF_8) : (byte[]) v;
      }
    }
    return group;
  }

  /**
   * Adds the group of a key given as longs (as {@link #find(long[], boolean[])} takes it), which
   * was not found, and returns its number.
   */
  int add(long[] key, boolean[] keyNulls) {
    return insert(load(key, keyNulls));
  }

  private byte[][] keyBytes() {
    if (longBytes == null) {
      longBytes = new byte[hashes.length * columns.length][];
    }
    return longBytes;
  }

  /** Adds the key in {@link #rowLongs} and {@link #rowNulls} as the next group. */
  private int insert(int hash) {
    int group = size;
    int keys = columns.length;
    if (group == hashes.length) {
      int capacity = 2 * group;
      hashes = Arrays.copyOf(hashes, capacity);
      longs = Arrays.copyOf(longs, capacity * keys);
      nulls = Arrays.copyOf(nulls, capacity * keys);
      if (longBytes != null) {
        longBytes = Arrays.copyOf(longBytes, capacity * keys);
      }
    }
    hashes[group] = hash;
    System.arraycopy(rowLongs, 0, longs, group * keys, keys);
    System.arraycopy(rowNulls, 0, nulls, group * keys, keys);
    size++;
    if (size * 2 > mask + 1) {
      slots = new long[4 * (mask + 1)];
      mask = 2 * mask + 1;
      for (int g = 0; g < size; g++) {
        place(g);
      }
    } else {
      place(group);
    }
    return group;
  }

  /**
   * The value of key column {@code k} (as a row decodes it) whose long is {@code v}: its {@code
   * getLong}, or for bytes its {@link RowReader#shortBytes} (never NOT_SHORT).
   */
  Object keyValue(int k, long v) {
    return VectorColumn.valueOf(v, bytes[k], types[k], 0);
  }

  private void place(int group) {
    int keys = columns.length;
    int hash = hashes[group];
    int slot = hash & mask;
    while (slots[2 * slot + 1] != 0) {
      slot = (slot + 1) & mask;
    }
    slots[2 * slot] = longs[group * keys];
    int nullFirst = nulls[group * keys] ? NULL_FIRST : 0;
    slots[2 * slot + 1] = ((long) hash << 32) | ((group + 1) | nullFirst) & 0xFFFF_FFFFL;
  }

  /** Drops every group: the table starts again empty, numbering from 0. */
  void reset() {
    slots = new long[2 * 64];
    mask = 63;
    hashes = new int[16];
    longs = new long[16 * columns.length];
    nulls = new boolean[16 * columns.length];
    longBytes = null;
    size = 0;
  }

  /**
   * The hash of the current row's key, read into {@link #rowNulls} and {@link #rowLongs} on the
   * way: bytes of up to 7 hash as their {@link RowReader#shortBytes} long, longer ones (and those
   * of key columns) by {@link RowReader#hashBytes}; a column is always one or the other for equal
   * bytes.
   */
  private int hash(RowReader row) {
    current = row;
    return readKey(row, rowLongs, rowNulls, 0);
  }

  /**
   * Reads the row's key into {@code keyLongs} and {@code keyNulls} at {@code at} (one long and flag
   * per key column) and returns its hash, for {@link #find(int, long[], boolean[], int)} later
   * (rows read in a batch, their groups found together).
   */
  int readKey(RowReader row, long[] keyLongs, boolean[] keyNulls, int at) {
    int h = 1;
    for (int k = 0; k < columns.length; k++) {
      int column = columns[k];
      int part;
      boolean isNull = row.isNull(column);
      keyNulls[at + k] = isNull;
      if (isNull) {
        keyLongs[at + k] = 0;
        part = NULL_PART;
      } else {
        long v = bytes[k] ? row.shortBytes(column) : row.getLong(column);
        keyLongs[at + k] = v;
        part = bytes[k] && v == RowReader.NOT_SHORT ? row.hashBytes(column) : part(v);
      }
      h = 31 * h + part;
    }
    return h ^ (h >>> 16);
  }

  /** The hash of a key given as longs: the one {@link #hash(RowReader)} gives a row with it. */
  private int hash(long[] key, boolean[] nulls) {
    current = null;
    int h = 1;
    for (int k = 0; k < key.length; k++) {
      h = 31 * h + (nulls[k] ? NULL_PART : part(key[k]));
    }
    return h ^ (h >>> 16);
  }

  /** A NULL key column's part of a key's hash. */
  private static final int NULL_PART = 0x5bd1e995;

  /** A key column's long's part of a key's hash (by row or by longs alike). */
  private static int part(long v) {
    return Long.hashCode(v * 0x9E3779B97F4A7C15L);
  }

  /**
   * Whether the key at {@code from} of {@code keyLongs} and {@code keyNulls} is group {@code
   * group}'s: its first long and NULL flag already matched in the slot. NOT_SHORT bytes are
   * compared with the current row's (only the current row's key has them).
   */
  private boolean matches(int group, long[] keyLongs, boolean[] keyNulls, int from) {
    int at = group * columns.length;
    for (int k = 0; k < columns.length; k++) {
      boolean isNull = keyNulls[from + k];
      if (isNull != nulls[at + k]) {
        return false;
      }
      if (isNull) {
        continue;
      }
      long v = keyLongs[from + k];
      if (v != longs[at + k]) {
        return false;
      }
      if (bytes[k] && v == RowReader.NOT_SHORT && !sameBytes(k, longBytes[at + k])) {
        return false;
      }
    }
    return true;
  }

  /** Whether the current row's key column {@code k} holds {@code other} (NOT_SHORT bytes). */
  private boolean sameBytes(int k, byte[] other) {
    return current != null && current.compareBytes(columns[k], other, false) == 0;
  }
}
