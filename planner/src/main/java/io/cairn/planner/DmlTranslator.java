package io.cairn.planner;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;

/**
 * The physical translation of a table modification ({@link QueryPlanner}'s INSERT, UPSERT, DELETE
 * and UPDATE, as Calcite's {@link TableModify}) into an {@link StatementPlan.Upsert} or {@link
 * StatementPlan.Delete}: target columns resolved, the store assignment's casts removed ({@link
 * Assignments}), UPDATE as an upsert of whole rows (its primary key unchangeable), DELETE of a
 * table without a primary key by its hidden row key.
 */
final class DmlTranslator {
  private DmlTranslator() {}

  /**
   * The plan of {@code modify}, the relational form of {@code validated}, whose source {@code
   * physical} converts; the written table is added to {@code uses}.
   */
  static StatementPlan translate(
      TableModify modify,
      SqlNode validated,
      PhysicalPlanner physical,
      List<DataType> params,
      CairnPlanner.Uses uses) {
    TableDescriptor table = PhysicalPlanner.descriptor(modify.getTable());
    uses.written.add(table);
    PlanNode source = physical.convert(modify.getInput());
    int width = table.columns().size();
    switch (modify.getOperation()) {
      case INSERT -> {
        SqlInsert insert = (SqlInsert) validated;
        List<Integer> targets = new ArrayList<>();
        if (insert.getTargetColumnList() == null || insert.getTargetColumnList().isEmpty()) {
          for (int i = 0; i < width; i++) {
            targets.add(i);
          }
        } else {
          for (SqlNode n : insert.getTargetColumnList()) {
            String name = ((SqlIdentifier) n).names.get(((SqlIdentifier) n).names.size() - 1);
            targets.add(
                table
                    .columnIndex(name)
                    .orElseThrow(
                        () ->
                            new CairnException(
                                ErrorCode.COLUMN_NOT_FOUND,
                                "Column ["
                                    + name
                                    + "] not found in ["
                                    + table.qualifiedName()
                                    + "]")));
          }
          source = select(source, targets);
        }
        source = Assignments.stripCasts(source, table, targets);
        return new StatementPlan.Upsert(table, source, targets, !insert.isUpsert(), params);
      }
      case DELETE -> {
        if (!(validated instanceof SqlDelete)) {
          throw CairnException.internal("DELETE expected");
        }
        if (table.hiddenRowId()) {
          source = rowKeySource(source, table);
        }
        return new StatementPlan.Delete(table, source, params);
      }
      case UPDATE -> {
        SqlUpdate update = (SqlUpdate) validated;
        List<String> updated = modify.getUpdateColumnList();
        List<Expr> exprs = new ArrayList<>();
        List<DataType> types = source.outputTypes();
        for (int i = 0; i < width; i++) {
          String name = table.columns().get(i).name();
          int j = updated == null ? -1 : updated.indexOf(name);
          if (j >= 0 && table.isPrimaryKeyColumn(i)) {
            throw new CairnException(
                ErrorCode.NOT_SUPPORTED,
                "UPDATE of primary key column ["
                    + name
                    + "] is not supported; use DELETE and UPSERT");
          }
          int from = j >= 0 ? width + j : i;
          if (j >= 0) { // store assignment checks SET values (no silent CAST truncation)
            source = Assignments.stripAt(source, from, table.columns().get(i).type());
          }
          exprs.add(new Expr.ColumnRef(from, types.get(from)));
        }
        if (table.hiddenRowId()) {
          throw new CairnException(
              ErrorCode.NOT_SUPPORTED,
              "UPDATE of a table without a primary key is not supported yet (table ["
                  + update.getTargetTable()
                  + "])");
        }
        // then the row as read: a store without read points writes on condition it is unchanged
        for (int i = 0; i < width; i++) {
          exprs.add(new Expr.ColumnRef(i, types.get(i)));
        }
        PlanNode rows = select(source, exprs);
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < width; i++) {
          all.add(i);
        }
        return new StatementPlan.Upsert(table, rows, all, false, params, Optional.empty(), true);
      }
      default ->
          throw new CairnException(
              ErrorCode.NOT_SUPPORTED, "[" + modify.getOperation() + "] is not supported");
    }
  }

  private static PlanNode select(PlanNode source, List<?> columnsOrExprs) {
    List<Expr> exprs = new ArrayList<>();
    for (Object o : columnsOrExprs) {
      if (o instanceof Integer i) {
        exprs.add(new Expr.ColumnRef(i, source.outputTypes().get(i)));
      } else {
        exprs.add((Expr) o);
      }
    }
    return Exprs.project(source, exprs);
  }

  private static PlanNode rowKeySource(PlanNode source, TableDescriptor table) {
    if (!(source instanceof ScanNode scan)) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "DELETE with a subquery or join on a table without a primary key is not supported yet"
              + " (table ["
              + table.qualifiedName()
              + "])");
    }
    Expr key = new Expr.ColumnRef(table.columns().size(), DataType.VARBINARY.withNullable(false));
    return scan.withProjection(List.of(key));
  }
}
