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
 * so that every scan of a query (every chunk, every thread) probes the same object.
 *
 * <p>The embedded store probes the very object the driver built; a server decodes its own copy from
 * the protocol's tagged values ({@code io.cairn.protocol.wire.WireHashTables}).
 */
public final class JoinHashTable {
  /** Estimated bytes of one entry of the hash index (map node, key object, list), per key. */
  static final long ENTRY_BYTES = 96;

  private static final List<Object[]> NONE = List.of();

  private final int columnCount;
  private final int[] keyColumns;
  private final Map<GroupKey, List<Object[]>> index;
  private final long rowCount;
  private final boolean hasNullKey;
  private final long estimatedBytes;

  /**
   * What scans derive from the table once per table (a dynamic filter per probe key and layout).
   */
  private final java.util.concurrent.ConcurrentHashMap<Object, Object> derived =
      new java.util.concurrent.ConcurrentHashMap<>();

  private JoinHashTable(
      int columnCount,
      int[] keyColumns,
      Map<GroupKey, List<Object[]>> index,
      long rowCount,
      boolean hasNullKey,
      long estimatedBytes) {
    this.columnCount = columnCount;
    this.keyColumns = keyColumns;
    this.index = index;
    this.rowCount = rowCount;
    this.hasNullKey = hasNullKey;
    this.estimatedBytes = estimatedBytes;
  }

  /** Builds a table; add rows, then {@link Builder#build()}. */
  public static Builder builder(int columnCount, List<Integer> keyColumns) {
    return new Builder(columnCount, keyColumns);
  }

  /** Collects the build rows and their estimated size. Not thread-safe. */
  public static final class Builder {
    private final int columnCount;
    private final int[] keyColumns;
    private final Map<GroupKey, List<Object[]>> index = new HashMap<>();
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
    }

    /**
     * Adds a row (kept as it is, not copied) and returns the estimated bytes it added (for the
     * caller's budget).
     */
    public long add(Object[] row) {
      if (row.length != columnCount) {
        throw CairnException.internal(
            "Join build row: expected [" + columnCount + "] values, found [" + row.length + "]");
      }
      rowCount++;
      GroupKey key = GroupKey.of(row, keyColumns);
      long bytes = RowSizes.row(row) + 8;
      if (key.hasNull()) {
        hasNullKey = true; // never matches and is not kept: only its existence counts (NOT IN)
        return 0;
      }
      List<Object[]> rows = index.get(key);
      if (rows == null) {
        rows = new ArrayList<>(1);
        index.put(key, rows);
        bytes += ENTRY_BYTES + 8L * keyColumns.length;
      }
      rows.add(row);
      estimatedBytes += bytes;
      return bytes;
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
      return new JoinHashTable(
          columnCount, keyColumns, index, rowCount, hasNullKey, estimatedBytes);
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
   * The rows whose key equals {@code key} (values in key column order, as {@link GroupKey#of}
   * normalises them); none when a value of {@code key} is NULL. The list must not be changed.
   */
  public List<Object[]> matches(GroupKey key) {
    if (key.hasNull()) {
      return NONE;
    }
    List<Object[]> rows = index.get(key);
    return rows == null ? NONE : rows;
  }

  public int columnCount() {
    return columnCount;
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
    return index.size();
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

  /**
   * The values of key column {@code keyIndex} (0: the first), one per distinct key (so repeated
   * when other key columns differ), NULL never among them.
   */
  public Iterable<Object> keyValues(int keyIndex) {
    int column = keyColumns[keyIndex];
    List<Object> values = new ArrayList<>(index.size());
    for (List<Object[]> rows : index.values()) {
      values.add(rows.get(0)[column]);
    }
    return values;
  }

  /** Every row with a non-NULL key, grouped by key (for serialising); rows with a NULL key not. */
  public Iterable<List<Object[]>> rowsByKey() {
    return index.values();
  }
}
