package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.GroupKey;
import io.cairn.core.error.CairnException;
import io.cairn.core.memory.RowSizes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The build side of a broadcast hash join ("hash cache"): rows of {@code columnCount} values,
 * hashed by the values of {@code keyColumns} (a composite key) with SQL equality ({@link GroupKey}:
 * numerically equal decimals match, byte arrays by content). A row with a NULL key value is kept
 * (counted in {@link #rowCount()}, {@link #hasNullKey()}) but never matches. Immutable once built,
 * so that every scan of a query (every chunk, every thread) probes the same object. The rows are
 * kept by column ({@link BuildColumns}) and numbered; a key leads to its first row's number and
 * {@link #next} to the others.
 *
 * <p>The embedded store probes the very object the driver built; a server decodes its own copy from
 * the protocol's tagged values ({@code io.cairn.protocol.wire.WireHashTables}).
 */
public final class JoinHashTable {
  /** Estimated bytes of one entry of the hash index (map node, key object, list), per key. */
  static final long ENTRY_BYTES = 96;

  private final int[] keyColumns;
  private final BuildColumns rows;

  /** Per row, the next row of its key; -1 after the last. */
  private final int[] next;

  /** The first and last row by key: null when {@link #longs} holds the keys. */
  private final Map<GroupKey, int[]> index;

  /** The keys when they are longs (one or two BIGINT or INTEGER columns), or null. */
  private final LongKeyIndex longs;

  private final long rowCount;
  private final boolean hasNullKey;
  private final long estimatedBytes;

  /**
   * What scans derive from the table once per table (a dynamic filter per probe key and layout).
   */
  private final java.util.concurrent.ConcurrentHashMap<Object, Object> derived =
      new java.util.concurrent.ConcurrentHashMap<>();

  private JoinHashTable(Builder b) {
    this.keyColumns = b.keyColumns;
    this.rows = b.rows;
    this.next = b.next;
    this.index = b.index;
    this.longs = b.longs;
    this.rowCount = b.rowCount;
    this.hasNullKey = b.hasNullKey;
    this.estimatedBytes = b.estimatedBytes;
  }

  /** Builds a table; add rows, then {@link Builder#build()}. */
  public static Builder builder(int columnCount, List<Integer> keyColumns) {
    return new Builder(columnCount, keyColumns);
  }

  /** Collects the build rows and their estimated size. Not thread-safe. */
  public static final class Builder {
    private final int columnCount;
    private final int[] keyColumns;
    private final BuildColumns rows;
    private int[] next = new int[16];

    /** Null while {@link #longs} takes every key. */
    private Map<GroupKey, int[]> index;

    /** The keys while they are all longs of one class per column; null once one is not. */
    private LongKeyIndex longs;

    private long rowCount;
    private boolean hasNullKey;
    private long estimatedBytes;

    private Builder(int columnCount, List<Integer> keyColumns) {
      requireNonNull(keyColumns, "keyColumns is null");
      if (keyColumns.isEmpty()) {
        throw CairnException.internal("A join hash table needs at least one key column");
      }
      this.columnCount = columnCount;
      this.keyColumns = keyColumns.stream().mapToInt(Integer::intValue).toArray();
      for (int k : this.keyColumns) {
        if (k < 0 || k >= columnCount) {
          throw CairnException.internal(
              "Join key column: expected 0.." + (columnCount - 1) + ", found [" + k + "]");
        }
      }
      this.rows = new BuildColumns(columnCount);
      if (LongKeyIndex.takes(this.keyColumns)) {
        longs = new LongKeyIndex(this.keyColumns);
      } else {
        index = new HashMap<>();
      }
    }

    /**
     * Adds a row (its values kept, the array not) and returns the estimated bytes it added (for the
     * caller's budget).
     */
    public long add(Object[] row) {
      if (row.length != columnCount) {
        throw CairnException.internal(
            "Join build row: expected [" + columnCount + "] values, found [" + row.length + "]");
      }
      rowCount++;
      for (int k : keyColumns) {
        if (row[k] == null) {
          hasNullKey = true; // never matches and is not kept: only its existence counts (NOT IN)
          return 0;
        }
      }
      long bytes = RowSizes.row(row) + 8;
      int id = rows.size();
      if (longs != null) {
        if (longs.add(row)) {
          bytes += LongKeyIndex.bytesPerRow(keyColumns.length);
        } else {
          moveToMap();
        }
      }
      boolean newKey = false;
      if (longs == null) {
        GroupKey key = GroupKey.of(row, keyColumns);
        int[] ends = index.get(key);
        if (ends == null) {
          index.put(key, new int[] {id, id});
          newKey = true;
        } else {
          next[ends[1]] = id;
          ends[1] = id;
        }
      }
      rows.add(row);
      if (id == next.length) {
        next = java.util.Arrays.copyOf(next, id * 2);
      }
      next[id] = -1;
      if (newKey) {
        bytes += ENTRY_BYTES + 8L * keyColumns.length;
      }
      estimatedBytes += bytes;
      return bytes;
    }

    /**
     * Moves the keys of the rows so far from {@link #longs} to a map, for a key that is not such a
     * long.
     */
    private void moveToMap() {
      longs.finish(next);
      index = new HashMap<>();
      for (int head : longs.heads()) {
        int tail = head;
        while (next[tail] >= 0) {
          tail = next[tail];
        }
        index.put(GroupKey.of(rows.row(head), keyColumns), new int[] {head, tail});
      }
      longs = null;
    }

    /**
     * Records that the build side has a row with a NULL key that this table does not hold (one pass
     * of a build side probed in passes): a NOT IN probe of the table then keeps no row.
     */
    public void markNullKey() {
      hasNullKey = true;
    }

    /** The estimated bytes of the rows added so far. */
    public long estimatedBytes() {
      return estimatedBytes;
    }

    public long rowCount() {
      return rowCount;
    }

    public JoinHashTable build() {
      if (longs != null) {
        longs.finish(next);
      }
      return new JoinHashTable(this);
    }
  }

  /**
   * At most the estimated bytes that {@link Builder#add} counts for {@code row} with {@code
   * keyCount} key columns (when its key is new).
   */
  public static long estimatedBytes(Object[] row, int keyCount) {
    return RowSizes.row(row) + 8 + ENTRY_BYTES + 8L * keyCount;
  }

  /**
   * The number of the first row whose key equals {@code key} (values in key column order, as {@link
   * GroupKey#of} normalises them), or -1: none, or a value of {@code key} is NULL.
   */
  public int first(GroupKey key) {
    if (key.hasNull()) {
      return -1;
    }
    if (longs != null) {
      return longs.first(key);
    }
    int[] ends = index.get(key);
    return ends == null ? -1 : ends[0];
  }

  /** The number of the row after row {@code row} of the same key, or -1. */
  public int next(int row) {
    return next[row];
  }

  /**
   * Row {@code row}'s values of {@code columns} into {@code dest}, column c at {@code offset + c}.
   */
  public void copyRow(int row, int[] columns, Object[] dest, int offset) {
    for (int c : columns) {
      dest[offset + c] = rows.value(c, row);
    }
  }

  /** The rows whose key equals {@code key} (see {@link #first}), as new arrays. */
  public List<Object[]> matches(GroupKey key) {
    return rowsFrom(first(key));
  }

  private List<Object[]> rowsFrom(int first) {
    List<Object[]> found = new ArrayList<>();
    for (int r = first; r >= 0; r = next[r]) {
      found.add(rows.row(r));
    }
    return found;
  }

  /**
   * The index of the keys when they are one or two columns of only Longs or only Integers each
   * (probed with a row's key values, no key object), or null.
   */
  public LongKeyIndex longKeys() {
    return longs;
  }

  public int columnCount() {
    return rows.columnCount();
  }

  /** The key columns, indexes into a row. */
  public List<Integer> keyColumns() {
    List<Integer> keys = new ArrayList<>(keyColumns.length);
    for (int k : keyColumns) {
      keys.add(k);
    }
    return keys;
  }

  /** Every row added, NULL keys included. */
  public long rowCount() {
    return rowCount;
  }

  /** Whether a row has a NULL key value (then a NOT IN probe keeps no row). */
  public boolean hasNullKey() {
    return hasNullKey;
  }

  /** Distinct non-NULL keys. */
  public int keyCount() {
    return longs != null ? longs.size() : index.size();
  }

  /** Estimated heap bytes of the rows and the index, for budgets. */
  public long estimatedBytes() {
    return estimatedBytes;
  }

  /**
   * What {@code compute} derives from this table for {@code key} (equal keys: the same object),
   * computed once however many scans ask: the table is immutable.
   */
  @SuppressWarnings("unchecked")
  public <T> T derived(Object key, java.util.function.Function<JoinHashTable, T> compute) {
    return (T) derived.computeIfAbsent(key, k -> compute.apply(this));
  }

  /** The first row of each key. */
  private int[] heads() {
    if (longs != null) {
      return longs.heads();
    }
    int[] heads = new int[index.size()];
    int n = 0;
    for (int[] ends : index.values()) {
      heads[n++] = ends[0];
    }
    return heads;
  }

  /**
   * The values of key column {@code keyIndex} (0: the first), one per distinct key (so repeated
   * when other key columns differ), NULL never among them.
   */
  public Iterable<Object> keyValues(int keyIndex) {
    int column = keyColumns[keyIndex];
    int[] heads = heads();
    List<Object> values = new ArrayList<>(heads.length);
    for (int head : heads) {
      values.add(rows.value(column, head));
    }
    return values;
  }

  /**
   * Every row with a non-NULL key, grouped by key, made as iterated (for serialising); rows with a
   * NULL key not.
   */
  public Iterable<List<Object[]>> rowsByKey() {
    int[] heads = heads();
    return () ->
        new java.util.Iterator<>() {
          private int at;

          @Override
          public boolean hasNext() {
            return at < heads.length;
          }

          @Override
          public List<Object[]> next() {
            if (at == heads.length) {
              throw new java.util.NoSuchElementException();
            }
            return rowsFrom(heads[at++]);
          }
        };
  }
}
