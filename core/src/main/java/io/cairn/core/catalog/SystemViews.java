package io.cairn.core.catalog;

import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Read-only views of the store's state in schema {@value #SCHEMA}, queried with SQL like tables
 * (filters, projections and aggregates work on them). The store computes their rows when scanned;
 * nothing is persisted. They carry negative table ids, and their KV table is named after the view
 * ({@link TableDescriptor#kvTableName()}), which the store serves. Creating, altering, dropping and
 * writing them is refused.
 */
public final class SystemViews {
  public static final String SCHEMA = "SYSTEM";

  /**
   * {@code SYSTEM.BLOCK_CACHE}: one row per cache level (L1: on-heap LRU for index and bloom
   * blocks; L2: off-heap bucket cache for data blocks).
   */
  public static final TableDescriptor BLOCK_CACHE =
      view(
          -1,
          "BLOCK_CACHE",
          "LEVEL",
          DataType.VARCHAR,
          "MEMORY",
          DataType.VARCHAR,
          "BLOCKS",
          DataType.BIGINT,
          "BYTES",
          DataType.BIGINT,
          "USED_BYTES",
          DataType.BIGINT,
          "CAPACITY_BYTES",
          DataType.BIGINT,
          "ALLOCATED_BYTES",
          DataType.BIGINT,
          "HITS",
          DataType.BIGINT,
          "MISSES",
          DataType.BIGINT,
          "HIT_RATIO",
          DataType.DOUBLE,
          "EVICTIONS",
          DataType.BIGINT,
          "EVICTED_BYTES",
          DataType.BIGINT,
          "NOT_CACHED_TOO_LARGE",
          DataType.BIGINT,
          "NOT_CACHED_NO_SPACE",
          DataType.BIGINT);

  /** {@code SYSTEM.BUFFER_POOL}: the pool that reads from disk borrow direct buffers from. */
  public static final TableDescriptor BUFFER_POOL =
      view(
          -2,
          "BUFFER_POOL",
          "NAME",
          DataType.VARCHAR,
          "BUFFER_SIZE",
          DataType.BIGINT,
          "USED_BUFFERS",
          DataType.BIGINT,
          "TOTAL_BUFFERS",
          DataType.BIGINT,
          "MAX_BUFFERS",
          DataType.BIGINT,
          "POOL_ALLOCATION_BYTES",
          DataType.BIGINT,
          "HEAP_ALLOCATION_BYTES",
          DataType.BIGINT,
          "HEAP_ALLOCATION_RATIO",
          DataType.DOUBLE);

  /**
   * {@code SYSTEM.STATS}: the statistics of every table, one row per chunk (a region's range cut at
   * guide posts) in key order, with the rows and raw bytes the chunk held when collected. START_KEY
   * and STOP_KEY are the row keys in hex ('' at either end of the key space); ROW_COUNT is null
   * when the region was never collected. COLLECTED_AT is the server's local time. The store
   * persists the same statistics in its KV table of this name, keyed by KV table and region.
   */
  public static final TableDescriptor STATS =
      new TableDescriptor(
          -3,
          SCHEMA,
          "STATS",
          List.of(
              new ColumnDescriptor("TABLE_SCHEM", 1, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("TABLE_NAME", 2, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("REGION_ID", 3, DataType.BIGINT),
              new ColumnDescriptor("START_KEY", 4, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("STOP_KEY", 5, DataType.VARCHAR),
              new ColumnDescriptor("ROW_COUNT", 6, DataType.BIGINT),
              new ColumnDescriptor("BYTE_COUNT", 7, DataType.BIGINT),
              new ColumnDescriptor("GUIDE_POSTS_WIDTH", 8, DataType.BIGINT),
              new ColumnDescriptor("COLLECTED_AT", 9, DataType.TIMESTAMP)),
          List.of(
              new KeyColumn(0, SortOrder.ASC),
              new KeyColumn(1, SortOrder.ASC),
              new KeyColumn(3, SortOrder.ASC)),
          Map.of(),
          1);

  /**
   * {@code SYSTEM.INDEXES}: one row per local index of every table, keyed by schema, table and
   * index name: its id (unique within the table), STATE (BUILDING, ACTIVE or FAILED; queries read
   * only ACTIVE indexes), INDEX_COLUMNS the key parts in order as their SQL text, each followed by
   * DESC when descending (e.g. {@code UPPER(NAME) DESC, PRICE}), INCLUDE_COLUMNS the included
   * columns' names joined by ", " (null when none). JDBC's DatabaseMetaData.getIndexInfo lists the
   * same indexes one row per key part.
   */
  public static final TableDescriptor INDEXES =
      new TableDescriptor(
          -4,
          SCHEMA,
          "INDEXES",
          List.of(
              new ColumnDescriptor("TABLE_SCHEM", 1, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("TABLE_NAME", 2, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("INDEX_NAME", 3, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("INDEX_ID", 4, DataType.INTEGER.withNullable(false)),
              new ColumnDescriptor("STATE", 5, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("INDEX_COLUMNS", 6, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("INCLUDE_COLUMNS", 7, DataType.VARCHAR)),
          List.of(
              new KeyColumn(0, SortOrder.ASC),
              new KeyColumn(1, SortOrder.ASC),
              new KeyColumn(2, SortOrder.ASC)),
          Map.of(),
          1);

  /**
   * {@code SYSTEM.INDEX_STATS}: the statistics of every local index, one row per chunk of each
   * region's entries (the region's own rows' entries cut at guide posts, in index key order), with
   * the entries and raw bytes the chunk held when collected (UPDATE STATISTICS of the table, or in
   * the background) and DISTINCT_COUNT, the distinct values of the index's first key part among the
   * region's entries. START_KEY and STOP_KEY are entry keys in hex; ROW_COUNT is null when the
   * region's entries were never collected. The store persists them in SYSTEM.STATS's KV table.
   */
  public static final TableDescriptor INDEX_STATS =
      new TableDescriptor(
          -5,
          SCHEMA,
          "INDEX_STATS",
          List.of(
              new ColumnDescriptor("TABLE_SCHEM", 1, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("TABLE_NAME", 2, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("INDEX_NAME", 3, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("REGION_ID", 4, DataType.BIGINT.withNullable(false)),
              new ColumnDescriptor("START_KEY", 5, DataType.VARCHAR.withNullable(false)),
              new ColumnDescriptor("STOP_KEY", 6, DataType.VARCHAR),
              new ColumnDescriptor("ROW_COUNT", 7, DataType.BIGINT),
              new ColumnDescriptor("BYTE_COUNT", 8, DataType.BIGINT),
              new ColumnDescriptor("DISTINCT_COUNT", 9, DataType.BIGINT),
              new ColumnDescriptor("GUIDE_POSTS_WIDTH", 10, DataType.BIGINT),
              new ColumnDescriptor("COLLECTED_AT", 11, DataType.TIMESTAMP)),
          List.of(
              new KeyColumn(0, SortOrder.ASC),
              new KeyColumn(1, SortOrder.ASC),
              new KeyColumn(2, SortOrder.ASC),
              new KeyColumn(3, SortOrder.ASC),
              new KeyColumn(4, SortOrder.ASC)),
          Map.of(),
          1);

  private static final List<TableDescriptor> ALL =
      List.of(BLOCK_CACHE, BUFFER_POOL, INDEXES, INDEX_STATS, STATS);

  private SystemViews() {}

  /**
   * The row of {@link #INDEXES} for {@code index} of {@code table}, in the view's column order
   * (shared by the store, which serves the view, and tests).
   */
  public static Object[] indexRow(TableDescriptor table, IndexDescriptor index) {
    StringBuilder parts = new StringBuilder();
    for (IndexDescriptor.IndexColumn c : index.columns()) {
      if (parts.length() > 0) {
        parts.append(", ");
      }
      parts.append(c.sql());
      if (c.order() == SortOrder.DESC) {
        parts.append(" DESC");
      }
    }
    StringBuilder include = new StringBuilder();
    for (int column : index.include()) {
      if (include.length() > 0) {
        include.append(", ");
      }
      include.append(
          column >= 0 && column < table.columns().size()
              ? table.columns().get(column).name()
              : "#" + column);
    }
    return new Object[] {
      table.schemaName(),
      table.tableName(),
      index.name(),
      index.indexId(),
      index.state().name(),
      parts.toString(),
      include.length() == 0 ? null : include.toString()
    };
  }

  /** Every system view, sorted by name. */
  public static List<TableDescriptor> all() {
    return ALL;
  }

  /** The view {@code schema.name}, if it is one. */
  public static Optional<TableDescriptor> find(String schema, String name) {
    if (!SCHEMA.equals(schema)) {
      return Optional.empty();
    }
    return ALL.stream().filter(v -> v.tableName().equals(name)).findFirst();
  }

  /** Whether {@code table} is a system view. */
  public static boolean isView(TableDescriptor table) {
    return table.tableId() < 0;
  }

  /** A view whose first column (NOT NULL) is the key; the others are nullable. */
  private static TableDescriptor view(long id, String name, Object... columns) {
    List<ColumnDescriptor> list = new ArrayList<>();
    for (int i = 0; i < columns.length; i += 2) {
      DataType type = (DataType) columns[i + 1];
      list.add(
          new ColumnDescriptor(
              (String) columns[i], i / 2 + 1, i == 0 ? type.withNullable(false) : type));
    }
    return new TableDescriptor(
        id, SCHEMA, name, list, List.of(new KeyColumn(0, SortOrder.ASC)), Map.of(), 1);
  }
}
