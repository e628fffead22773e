package io.cairn.planner.plan;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a {@link ScanNode} reads a local index of its table instead of the table's rows: the index,
 * its key ranges ({@code keys}: bounds over the index's parts, in part order, as {@link KeyBounds}
 * are over primary-key columns; empty: the whole index), and whether the index covers the scan.
 *
 * <p>The scan's own filter, projection and key bounds stay over the table's row, so that the scan
 * can always fall back to the table (a transaction with pending writes to it reads the table).
 * Covered, the executor rewrites the program over the index entries ({@link #toEntry}: a part's
 * expression or column becomes the entry's part column, a primary-key or included column the
 * entry's copy) and the store reads only the entries; otherwise ({@code lookup}) the program runs
 * over the rows the store fetches for the entries, in the region of each.
 */
public record IndexScan(IndexDescriptor index, List<KeyBounds> keys, boolean covered) {
  public IndexScan {
    requireNonNull(index, "index is null");
    keys = List.copyOf(keys);
  }

  /** Whether the scan reads the whole index (no bound on its first part). */
  public boolean isFullScan() {
    return keys.isEmpty() || keys.stream().anyMatch(KeyBounds::isAll);
  }

  /** The layout of the index's entries over {@code table}'s rows. */
  public RowLayout entryLayout(TableDescriptor table) {
    return index.spec().entryLayout(table.layout());
  }

  /**
   * {@code expr} (over {@code table}'s row) over the entries of {@code index}, or empty when it
   * reads a column the entries lack. Subexpressions equal to a part's expression become that part's
   * column (a functional index covers its expression without its columns); a column becomes the
   * part that is that plain column, its primary-key copy, or its included copy.
   */
  public static Optional<Expr> toEntry(TableDescriptor table, IndexDescriptor index, Expr expr) {
    List<IndexDescriptor.IndexColumn> parts = index.columns();
    for (int i = 0; i < parts.size(); i++) {
      if (!(parts.get(i).expr() instanceof Expr.ColumnRef) && sameExpr(parts.get(i).expr(), expr)) {
        return Optional.of(new Expr.ColumnRef(i, expr.type()));
      }
    }
    if (expr instanceof Expr.ColumnRef ref) {
      int column = entryColumn(table, index, ref.index());
      return column < 0 ? Optional.empty() : Optional.of(new Expr.ColumnRef(column, ref.type()));
    }
    if (expr instanceof Expr.Call call) {
      List<Expr> operands = new ArrayList<>(call.operands().size());
      for (Expr operand : call.operands()) {
        Optional<Expr> mapped = toEntry(table, index, operand);
        if (mapped.isEmpty()) {
          return Optional.empty();
        }
        operands.add(mapped.get());
      }
      return Optional.of(new Expr.Call(call.op(), operands, call.type()));
    }
    return Optional.of(expr); // literals and parameters
  }

  /**
   * The leading parts that every entry this scan reads has the same value in: those its one bound
   * fixes by equality (none with several bounds: each bound fixes other values).
   */
  public int fixedParts() {
    return keys.size() == 1 ? keys.get(0).equalPrefix().size() : 0;
  }

  /**
   * Whether the entries this scan reads, in index order, are in the order of {@code orderBy} (keys
   * indexing {@code projection}, expressions over {@code table}'s row): each sort key, after those
   * on parts fixed by equality ({@link #fixedParts}), is the next column of the entry key (the
   * index's parts, then the primary key's columns), in the same direction with NULLs where the
   * encoding puts them (first ascending, last descending; either for a NOT NULL expression). A
   * store request then gives its rows in that order with no sort (the store reads forward only, so
   * an order that reverses the index's is not one).
   */
  public boolean ordersBy(TableDescriptor table, List<Expr> projection, List<SortKey> orderBy) {
    if (orderBy.isEmpty()) {
      return false;
    }
    List<RowLayout.KeyColumn> key = entryLayout(table).keyColumns();
    int fixed = fixedParts();
    int next = fixed;
    for (SortKey k : orderBy) {
      Expr e = projection.get(k.column());
      Optional<Expr> mapped = toEntry(table, index, e);
      if (mapped.isEmpty() || !(mapped.get() instanceof Expr.ColumnRef ref)) {
        return false;
      }
      int c = ref.index(); // entry column i is key column i for the parts and the primary key
      if (c < fixed || c < next) {
        continue; // a constant, or a column already ordered by an earlier key
      }
      if (c != next || c >= key.size()) {
        return false;
      }
      boolean descending = key.get(c).order() == SortOrder.DESC;
      if (k.descending() != descending || (e.type().nullable() && k.nullsFirst() == descending)) {
        return false;
      }
      next++;
    }
    return true;
  }

  /**
   * Whether the entries this scan reads, in index order, come grouped by {@code groupBy} (indexes
   * into {@code projection}): the group keys are, besides parts fixed by equality, exactly the
   * first columns of the entry key after those (in any order), so the rows of one group come one
   * after the other.
   */
  public boolean groupsBy(TableDescriptor table, List<Expr> projection, List<Integer> groupBy) {
    if (groupBy.isEmpty()) {
      return false;
    }
    int keyColumns = entryLayout(table).keyColumns().size();
    int fixed = fixedParts();
    java.util.BitSet columns = new java.util.BitSet();
    for (int g : groupBy) {
      Optional<Expr> mapped = toEntry(table, index, projection.get(g));
      if (mapped.isEmpty()
          || !(mapped.get() instanceof Expr.ColumnRef ref)
          || ref.index() >= keyColumns) {
        return false;
      }
      if (ref.index() >= fixed) {
        columns.set(ref.index());
      }
    }
    // the columns past the fixed ones are fixed .. fixed + n - 1, with no gap
    return columns.isEmpty()
        || (columns.nextSetBit(0) == fixed && columns.nextClearBit(fixed) == columns.length());
  }

  /** The entry column holding table column {@code column}, or -1 when the entries lack it. */
  private static int entryColumn(TableDescriptor table, IndexDescriptor index, int column) {
    List<IndexDescriptor.IndexColumn> parts = index.columns();
    for (int i = 0; i < parts.size(); i++) {
      if (parts.get(i).expr() instanceof Expr.ColumnRef ref && ref.index() == column) {
        return i;
      }
    }
    int base = parts.size();
    for (int k = 0; k < table.primaryKey().size(); k++) {
      if (table.primaryKey().get(k).columnIndex() == column) {
        return base + k;
      }
    }
    base += table.primaryKey().size();
    int at = index.include().indexOf(column);
    return at < 0 ? -1 : base + at;
  }

  /**
   * Whether two expressions are the same computation: equal trees whose types may differ in
   * nullability only (a query's expression over a NOT NULL column and the index's over the
   * catalog's column type).
   */
  public static boolean sameExpr(Expr a, Expr b) {
    if (!sameType(a.type(), b.type())) {
      return false;
    }
    if (a instanceof Expr.ColumnRef x && b instanceof Expr.ColumnRef y) {
      return x.index() == y.index();
    }
    if (a instanceof Expr.Call x && b instanceof Expr.Call y) {
      if (x.op() != y.op() || x.operands().size() != y.operands().size()) {
        return false;
      }
      for (int i = 0; i < x.operands().size(); i++) {
        if (!sameExpr(x.operands().get(i), y.operands().get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Expr.Literal x && b instanceof Expr.Literal y) {
      return java.util.Objects.equals(x.value(), y.value());
    }
    if (a instanceof Expr.Param x && b instanceof Expr.Param y) {
      return x.index() == y.index();
    }
    return false;
  }

  private static boolean sameType(DataType a, DataType b) {
    return a.withNullable(true).equals(b.withNullable(true));
  }
}
