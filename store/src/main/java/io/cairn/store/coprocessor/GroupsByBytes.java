package io.cairn.store.coprocessor;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.VectorColumn;
import io.cairn.core.type.TypeName;
import java.util.ArrayList;
import java.util.List;

/**
 * The groups of a grouped aggregation whose key columns are plain columns of integer, date, time,
 * boolean or string types, found from the row's bytes without allocating: a key is hashed and
 * compared through {@link RowReader}'s primitive accessors ({@code getLong}, {@code shortBytes},
 * and for bytes longer than 7 {@code hashBytes} and {@code compareBytes}) in an open-addressing
 * table; only a new group decodes its key values. Equal keys are those GroupKey finds equal: equal
 * longs, equal bytes (strings as UTF-8), NULL equal to NULL. Groups are kept in the order they were
 * found. Not thread-safe.
 *
 * @param <G> what the caller keeps per group
 */
final class GroupsByBytes<G> {
  private final int[] columns;
  private final boolean[] bytes;
  private final TypeName[] types;

  /**
   * The current row's key as {@link #hash} read it, for {@link #matches}: per key column whether it
   * is NULL, and its long ({@code getLong}, or {@link RowReader#shortBytes} for bytes).
   */
  private final boolean[] rowNulls;

  private final long[] rowLongs;
  private List<Entry<G>> entries = new ArrayList<>();
  private int[] slots = new int[64];

  /** One group: its key as compared, and the caller's value. */
  static final class Entry<G> {
    final int hash;
    final boolean[] nulls;
    final long[] longs;
    final byte[][] bytes;
    G value;

    Entry(int hash, int keys) {
      this.hash = hash;
      this.nulls = new boolean[keys];
      this.longs = new long[keys];
      this.bytes = new byte[keys][];
    }
  }

  private GroupsByBytes(int[] columns, boolean[] bytes, TypeName[] types) {
    this.columns = columns;
    this.bytes = bytes;
    this.types = types;
    this.rowNulls = new boolean[columns.length];
    this.rowLongs = new long[columns.length];
  }

  /**
   * Groups by the layout columns {@code columns}, or null when one of them is not of a type found
   * by bytes (DECIMAL and floating keys compare by value, not by bytes).
   */
  static <G> GroupsByBytes<G> of(int[] columns, RowLayout layout) {
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
    return new GroupsByBytes<>(columns.clone(), bytes, types);
  }

  /** The group of the reader's current row, or null when it has none yet (see {@link #add}). */
  Entry<G> find(RowReader row) {
    int hash = hash(row);
    int mask = slots.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int at = slots[slot];
      if (at == 0) {
        return null;
      }
      Entry<G> entry = entries.get(at - 1);
      if (entry.hash == hash && matches(entry, row)) {
        return entry;
      }
    }
  }

  /**
   * The group of a key given as longs, per key column whether it is NULL ({@code nulls}) and else
   * its {@code getLong} or, for bytes, its {@link RowReader#shortBytes} (never NOT_SHORT): the
   * group {@link #find} finds for a row with that key; null when it has none yet.
   */
  Entry<G> find(long[] key, boolean[] nulls) {
    int hash = hash(key, nulls);
    int mask = slots.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int at = slots[slot];
      if (at == 0) {
        return null;
      }
      Entry<G> entry = entries.get(at - 1);
      if (entry.hash == hash && matches(entry, key, nulls)) {
        return entry;
      }
    }
  }

  private static boolean matches(Entry<?> entry, long[] key, boolean[] nulls) {
    for (int k = 0; k < key.length; k++) {
      if (entry.nulls[k] != nulls[k] || (!nulls[k] && entry.longs[k] != key[k])) {
        return false;
      }
    }
    return true;
  }

  /** Whether key column {@code k} is compared by its bytes (a string or binary column). */
  boolean bytesColumn(int k) {
    return bytes[k];
  }

  /**
   * Adds the current row's group, which {@link #find} did not find; {@code keyValues} are its key
   * values as decoded (strings, byte arrays, numbers), in key order.
   */
  Entry<G> add(RowReader row, Object[] keyValues, G value) {
    Entry<G> entry = new Entry<>(hash(row), columns.length);
    for (int k = 0; k < columns.length; k++) {
      Object v = keyValues[k];
      if (v == null) {
        entry.nulls[k] = true;
      } else if (bytes[k]) {
        entry.bytes[k] = v instanceof String s ? s.getBytes(UTF_8) : (byte[]) v;
        entry.longs[k] = row.shortBytes(columns[k]);
      } else {
        entry.longs[k] = row.getLong(columns[k]);
      }
    }
    return insert(entry, value);
  }

  private Entry<G> insert(Entry<G> entry, G value) {
    entry.value = value;
    entries.add(entry);
    if (entries.size() * 2 > slots.length) {
      slots = new int[slots.length * 2];
      for (int i = 0; i < entries.size(); i++) {
        place(entries.get(i).hash, i + 1);
      }
    } else {
      place(entry.hash, entries.size());
    }
    return entry;
  }

  /**
   * Adds the group of a key given as longs (as {@link #find(long[], boolean[])} takes it), which
   * was not found; {@code keyValues} are its values ({@link #keyValue}).
   */
  Entry<G> add(long[] key, boolean[] nulls, Object[] keyValues, G value) {
    Entry<G> entry = new Entry<>(hash(key, nulls), columns.length);
    for (int k = 0; k < columns.length; k++) {
      entry.nulls[k] = nulls[k];
      if (!nulls[k]) {
        entry.longs[k] = key[k];
        if (bytes[k]) {
          Object v = keyValues[k];
          entry.bytes[k] = v instanceof String str ? str.getBytes(UTF_8) : (byte[]) v;
        }
      }
    }
    return insert(entry, value);
  }

  /**
   * The value of key column {@code k} (as a row decodes it) whose long is {@code v}: its {@code
   * getLong}, or for bytes its {@link RowReader#shortBytes} (never NOT_SHORT).
   */
  Object keyValue(int k, long v) {
    return VectorColumn.valueOf(v, bytes[k], types[k], 0);
  }

  private void place(int hash, int at) {
    int mask = slots.length - 1;
    int slot = hash & mask;
    while (slots[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    slots[slot] = at;
  }

  /** The groups in the order they were found; the table starts again empty. */
  List<Entry<G>> drainAndReset() {
    List<Entry<G>> found = entries;
    entries = new ArrayList<>();
    slots = new int[64];
    return found;
  }

  /** The groups in the order they were found; the table must not be used afterwards. */
  List<Entry<G>> drain() {
    slots = null;
    return entries;
  }

  /**
   * The hash of the current row's key, read into {@link #rowNulls} and {@link #rowLongs} on the
   * way: bytes of up to 7 hash as their {@link RowReader#shortBytes} long, longer ones (and those
   * of key columns) by {@link RowReader#hashBytes}; a column is always one or the other for equal
   * bytes.
   */
  private int hash(RowReader row) {
    int h = 1;
    for (int k = 0; k < columns.length; k++) {
      int column = columns[k];
      int part;
      boolean isNull = row.isNull(column);
      rowNulls[k] = isNull;
      if (isNull) {
        part = NULL_PART;
      } else {
        long v = bytes[k] ? row.shortBytes(column) : row.getLong(column);
        rowLongs[k] = v;
        part = bytes[k] && v == RowReader.NOT_SHORT ? row.hashBytes(column) : part(v);
      }
      h = 31 * h + part;
    }
    return h ^ (h >>> 16);
  }

  /** The hash of a key given as longs: the one {@link #hash(RowReader)} gives a row with it. */
  private static int hash(long[] key, boolean[] nulls) {
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

  /** Whether the row {@link #hash} read last has the key of {@code entry}. */
  private boolean matches(Entry<G> entry, RowReader row) {
    for (int k = 0; k < columns.length; k++) {
      boolean isNull = rowNulls[k];
      if (isNull != entry.nulls[k]) {
        return false;
      }
      if (isNull) {
        continue;
      }
      long v = rowLongs[k];
      if (v != entry.longs[k]) {
        return false;
      }
      if (bytes[k]
          && v == RowReader.NOT_SHORT
          && row.compareBytes(columns[k], entry.bytes[k], false) != 0) {
        return false;
      }
    }
    return true;
  }
}
