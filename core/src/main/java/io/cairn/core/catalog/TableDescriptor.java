package io.cairn.core.catalog;

import static java.util.Objects.requireNonNull;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowLayout.KeyColumn;
import io.cairn.core.expr.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A table as the catalog records it. {@code primaryKey} lists the key columns (indexes into {@code
 * columns}) in key order; empty for a table keyed by a hidden row id. {@code options} are validated
 * table options (upper-case names, canonical values). {@code indexes} are its local secondary
 * indexes, in creation order.
 */
public record TableDescriptor(
    long tableId,
    String schemaName,
    String tableName,
    List<ColumnDescriptor> columns,
    List<KeyColumn> primaryKey,
    Map<String, String> options,
    int schemaVersion,
    List<IndexDescriptor> indexes) {

  public TableDescriptor {
    requireNonNull(schemaName, "schemaName is null");
    requireNonNull(tableName, "tableName is null");
    columns = List.copyOf(columns);
    primaryKey = List.copyOf(primaryKey);
    options = java.util.Collections.unmodifiableMap(new TreeMap<>(options));
    indexes = List.copyOf(indexes);
  }

  /** A table without indexes. */
  public TableDescriptor(
      long tableId,
      String schemaName,
      String tableName,
      List<ColumnDescriptor> columns,
      List<KeyColumn> primaryKey,
      Map<String, String> options,
      int schemaVersion) {
    this(tableId, schemaName, tableName, columns, primaryKey, options, schemaVersion, List.of());
  }

  /** The same table with {@code newIndexes}. */
  public TableDescriptor withIndexes(List<IndexDescriptor> newIndexes) {
    return new TableDescriptor(
        tableId, schemaName, tableName, columns, primaryKey, options, schemaVersion, newIndexes);
  }

  /** The index named {@code name}. */
  public Optional<IndexDescriptor> index(String name) {
    return indexes.stream().filter(i -> i.name().equals(name)).findFirst();
  }

  /** One reference per column, in order: the projection of the whole row. */
  public List<Expr> columnRefs() {
    List<Expr> refs = new ArrayList<>(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      refs.add(new Expr.ColumnRef(i, columns.get(i).type()));
    }
    return refs;
  }

  public boolean hiddenRowId() {
    return primaryKey.isEmpty();
  }

  /**
   * Name of the KV table holding the rows; unique per table incarnation. A system view (negative
   * id, see {@link SystemViews}) is served by the store under its qualified name.
   */
  public String kvTableName() {
    return tableId < 0 ? qualifiedName() : "T" + tableId;
  }

  public String qualifiedName() {
    return schemaName + "." + tableName;
  }

  public Optional<Integer> columnIndex(String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  public boolean isPrimaryKeyColumn(int columnIndex) {
    return primaryKey.stream().anyMatch(k -> k.columnIndex() == columnIndex);
  }

  public RowLayout layout() {
    List<RowLayout.ColumnLayout> layouts = new ArrayList<>(columns.size());
    for (ColumnDescriptor c : columns) {
      layouts.add(new RowLayout.ColumnLayout(c.columnId(), c.type()));
    }
    return new RowLayout(layouts, primaryKey, hiddenRowId(), schemaVersion);
  }
}
