package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A local secondary index as the store maintains it: its id (unique within its table, never
 * reused), the expressions over the table's row (columns or functions of them) whose values lead
 * its entries' keys, each with its order, the table columns its entries carry ({@code include}),
 * and whether queries may read it yet ({@code readable}: false while it is being built).
 *
 * <p>An entry of a row is keyed as {@link IndexKeys} says: the index's prefix, the key parts'
 * values, the row's key, and the row key's length; its value is the included columns. Decoded with
 * {@link #entryLayout}, an entry is a row of the part values, then the table's primary-key columns,
 * then the included columns.
 */
public record IndexSpec(
    int indexId,
    List<Expr> parts,
    List<SortOrder> orders,
    List<Integer> include,
    boolean readable) {
  public IndexSpec {
    parts = List.copyOf(requireNonNull(parts, "parts is null"));
    orders = List.copyOf(requireNonNull(orders, "orders is null"));
    include = List.copyOf(requireNonNull(include, "include is null"));
    if (indexId < 0) {
      throw CairnException.internal("An index id: expected >= 0, found [" + indexId + "]");
    }
    if (parts.isEmpty() || parts.size() != orders.size()) {
      throw CairnException.internal(
          "An index's parts and orders: expected as many of each and at least one, found ["
              + parts.size()
              + "] and ["
              + orders.size()
              + "]");
    }
  }

  /** The same index, readable by queries or not. */
  public IndexSpec withReadable(boolean readable) {
    return new IndexSpec(indexId, parts, orders, include, readable);
  }

  /**
   * The layout of this index's entries over a table of layout {@code table} (which has a primary
   * key): columns are the parts, then the table's key columns, then the included columns; the key
   * is the parts (in their orders) then the table's key columns (in theirs), so that an entry's key
   * ends with exactly its row's key; the value holds the included columns.
   */
  public RowLayout entryLayout(RowLayout table) {
    if (table.hiddenRowId()) {
      throw CairnException.internal("An index over a table without a primary key");
    }
    List<RowLayout.ColumnLayout> columns = new ArrayList<>();
    List<RowLayout.KeyColumn> key = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      // key parts may be NULL whatever their expression's type says (an entry of a NULL value)
      DataType type = parts.get(i).type().withNullable(true);
      key.add(new RowLayout.KeyColumn(columns.size(), orders.get(i)));
      columns.add(new RowLayout.ColumnLayout(columns.size(), type));
    }
    for (RowLayout.KeyColumn k : table.keyColumns()) {
      key.add(new RowLayout.KeyColumn(columns.size(), k.order()));
      columns.add(new RowLayout.ColumnLayout(columns.size(), table.columnType(k.columnIndex())));
    }
    for (int c : include) {
      columns.add(new RowLayout.ColumnLayout(columns.size(), table.columnType(c)));
    }
    return new RowLayout(columns, key, false, 0);
  }
}
