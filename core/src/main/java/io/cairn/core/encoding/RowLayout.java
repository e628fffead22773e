package io.cairn.core.encoding;

import static java.util.Objects.requireNonNull;

import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import java.util.List;

/**
 * How a table's rows map to (key, value) cells. A decoded row is an {@code Object[]} with one entry
 * per column, in {@link #columns()} order. Primary-key columns are encoded into the row key in
 * {@link #keyColumns()} order; all other columns are packed into the value. A table without a
 * primary key has {@code hiddenRowId}: its key is an 8-byte row id that is not part of the row.
 *
 * <p>Self-contained (no catalog lookups) so that it can travel inside a scan program.
 */
public record RowLayout(
    List<ColumnLayout> columns,
    List<KeyColumn> keyColumns,
    boolean hiddenRowId,
    int schemaVersion) {

  /** A column: its stable id (never reused within a table) and type. */
  public record ColumnLayout(int columnId, DataType type) {
    public ColumnLayout {
      requireNonNull(type, "type is null");
    }
  }

  /** A primary-key column: its index in {@link RowLayout#columns()} and its order. */
  public record KeyColumn(int columnIndex, SortOrder order) {
    public KeyColumn {
      requireNonNull(order, "order is null");
    }
  }

  public RowLayout {
    columns = List.copyOf(columns);
    keyColumns = List.copyOf(keyColumns);
    if (hiddenRowId != keyColumns.isEmpty()) {
      throw new IllegalArgumentException(
          "A layout has either key columns or a hidden row id: found "
              + keyColumns.size()
              + " key columns, hiddenRowId="
              + hiddenRowId);
    }
  }

  public int columnCount() {
    return columns.size();
  }

  public DataType columnType(int index) {
    return columns.get(index).type();
  }

  public boolean isKeyColumn(int columnIndex) {
    for (KeyColumn k : keyColumns) {
      if (k.columnIndex() == columnIndex) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code columns} (not empty) are this layout's first key columns, in any order: rows
   * with equal values there are next to each other in key order (none with a hidden row id).
   */
  public boolean isKeyPrefix(int[] columns) {
    if (columns.length == 0 || columns.length > keyColumns.size()) {
      return false;
    }
    // each of the first n key columns among the n columns: they are those, each once
    for (int k = 0; k < columns.length; k++) {
      int wanted = keyColumns.get(k).columnIndex();
      boolean found = false;
      for (int c : columns) {
        found |= c == wanted;
      }
      if (!found) {
        return false;
      }
    }
    return true;
  }
}
