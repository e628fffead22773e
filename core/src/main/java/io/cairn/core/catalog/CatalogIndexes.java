package io.cairn.core.catalog;

import io.cairn.core.catalog.IndexDescriptor.IndexColumn;
import io.cairn.core.catalog.IndexDescriptor.State;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.kv.IndexSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The catalog's rules for a table's local indexes: which indexes the store maintains, what an index
 * left BUILDING at open becomes, and the checks of a draft (also one that came over the network)
 * before it is recorded.
 */
final class CatalogIndexes {
  private CatalogIndexes() {}

  /**
   * The indexes of {@code t} the store keeps entries of: BUILDING (writes maintain it while it is
   * built; queries do not read it) and ACTIVE ones. A FAILED index is not maintained: its entries
   * are incomplete anyway, and ALTER INDEX ... REBUILD builds it under a new id.
   */
  static List<IndexSpec> maintained(TableDescriptor t) {
    List<IndexSpec> specs = new ArrayList<>(t.indexes().size());
    for (IndexDescriptor i : t.indexes()) {
      if (i.state() != State.FAILED) {
        specs.add(i.spec());
      }
    }
    return specs;
  }

  /**
   * The indexes as a new open sees them: one recorded BUILDING had its build stopped (the process
   * ended during CREATE INDEX or REBUILD), so it is FAILED until rebuilt. Nothing is written.
   */
  static List<IndexDescriptor> interruptedBuildsFailed(List<IndexDescriptor> indexes) {
    List<IndexDescriptor> out = new ArrayList<>(indexes.size());
    for (IndexDescriptor i : indexes) {
      out.add(i.state() == State.BUILDING ? i.withState(State.FAILED) : i);
    }
    return out;
  }

  /**
   * Checks {@code draft} against table {@code t}: the table has a primary key; at least one key
   * part; every column an expression reads is one of the table's, of its kind of type; included
   * columns are the table's, neither primary-key columns (every entry carries the row key) nor
   * plain key parts, nor given twice.
   *
   * @throws CairnException NOT_SUPPORTED (no primary key), VALIDATION_ERROR
   */
  static void check(TableDescriptor t, IndexDescriptor draft) {
    if (t.hiddenRowId()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Table ["
              + t.qualifiedName()
              + "] has no primary key: local indexes need one (an entry ends with its row's key)");
    }
    if (draft.columns().isEmpty()) {
      throw invalid(draft, "expected at least one key part, found none");
    }
    Set<Integer> keyParts = new HashSet<>();
    for (IndexColumn c : draft.columns()) {
      checkColumns(t, draft, c.expr());
      c.columnIndex().ifPresent(keyParts::add);
    }
    Set<Integer> included = new HashSet<>();
    for (int column : draft.include()) {
      if (column < 0 || column >= t.columns().size()) {
        throw invalid(
            draft,
            "an included column: expected 0.."
                + (t.columns().size() - 1)
                + ", found ["
                + column
                + "]");
      }
      String name = t.columns().get(column).name();
      if (t.isPrimaryKeyColumn(column)) {
        throw invalid(
            draft,
            "INCLUDE of primary-key column ["
                + name
                + "]: every entry carries the row key; expected other columns");
      }
      if (keyParts.contains(column)) {
        throw invalid(
            draft, "INCLUDE of column [" + name + "], a key part of the index: expected others");
      }
      if (!included.add(column)) {
        throw invalid(draft, "INCLUDE of column [" + name + "] twice");
      }
    }
  }

  private static void checkColumns(TableDescriptor t, IndexDescriptor draft, Expr e) {
    if (e instanceof Expr.ColumnRef ref) {
      if (ref.index() < 0 || ref.index() >= t.columns().size()) {
        throw invalid(
            draft,
            "a column reference: expected 0.."
                + (t.columns().size() - 1)
                + ", found ["
                + ref.index()
                + "]");
      }
      ColumnDescriptor column = t.columns().get(ref.index());
      // the kind of type only: a planner may spell lengths and precisions its own way
      if (column.type().name() != ref.type().name()) {
        throw invalid(
            draft,
            "column ["
                + column.name()
                + "] of type ["
                + column.type().sql()
                + "], found a reference of type ["
                + ref.type().sql()
                + "]");
      }
    } else if (e instanceof Expr.Call call) {
      for (Expr operand : call.operands()) {
        checkColumns(t, draft, operand);
      }
    } else if (e instanceof Expr.Param) {
      throw invalid(draft, "a statement parameter in a key part: expected none");
    }
  }

  private static CairnException invalid(IndexDescriptor draft, String what) {
    return new CairnException(ErrorCode.VALIDATION_ERROR, "Index [" + draft.name() + "]: " + what);
  }
}
