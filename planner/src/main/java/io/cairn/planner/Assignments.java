package io.cairn.planner;

import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.expr.Values;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ProjectNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.ValuesNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;

/**
 * Store assignment. Calcite converts INSERT sources to the target column types with CASTs, and a
 * CAST truncates strings and rounds numbers silently. Cairn removes those casts where source and
 * column are of the same kind, so the executor's store assignment checks the value and fails with
 * STRING_TOO_LONG or NUMERIC_OUT_OF_RANGE naming the column instead of losing data.
 */
final class Assignments {
  private Assignments() {}

  /**
   * Checks the literals of {@code INSERT/UPSERT ... VALUES} against their target columns before
   * Calcite converts them (its conversion truncates string literals to the column length).
   */
  static void checkLiterals(SqlInsert insert, CalciteCatalogReader reader) {
    SqlNode source = insert.getSource();
    if (source.getKind() != SqlKind.VALUES
        || !(insert.getTargetTable() instanceof SqlIdentifier id)) {
      return;
    }
    Prepare.PreparingTable table = reader.getTable(id.names);
    if (table == null) {
      return;
    }
    CairnCalciteSchema.CairnTable cairnTable = table.unwrap(CairnCalciteSchema.CairnTable.class);
    if (cairnTable == null) {
      return;
    }
    TableDescriptor descriptor = cairnTable.descriptor();
    List<Integer> targets = new ArrayList<>();
    if (insert.getTargetColumnList() == null || insert.getTargetColumnList().isEmpty()) {
      for (int i = 0; i < descriptor.columns().size(); i++) {
        targets.add(i);
      }
    } else {
      for (SqlNode n : insert.getTargetColumnList()) {
        SqlIdentifier column = (SqlIdentifier) n;
        Optional<Integer> index = descriptor.columnIndex(column.names.get(column.names.size() - 1));
        if (index.isEmpty()) {
          return;
        }
        targets.add(index.get());
      }
    }
    for (SqlNode row : ((SqlCall) source).getOperandList()) {
      if (!(row instanceof SqlCall rowCall)) {
        continue;
      }
      List<SqlNode> values = rowCall.getOperandList();
      for (int i = 0; i < values.size() && i < targets.size(); i++) {
        Object value = null;
        if (values.get(i) instanceof SqlCharStringLiteral text) {
          value = text.getValueAs(String.class);
        } else if (values.get(i) instanceof SqlNumericLiteral number && number.isExact()) {
          value = number.getValueAs(java.math.BigDecimal.class);
        }
        if (value != null) {
          ColumnDescriptor column = descriptor.columns().get(targets.get(i));
          if (column.type().name().isString() == value instanceof String) {
            Values.assign(value, column.type(), column.name());
          }
        }
      }
    }
  }

  static PlanNode stripCasts(PlanNode source, TableDescriptor table, List<Integer> targets) {
    if (source instanceof ValuesNode values) {
      List<List<Expr>> rows = new ArrayList<>();
      for (List<Expr> row : values.rows()) {
        rows.add(strip(row, table, targets));
      }
      return new ValuesNode(rows, values.outputTypes());
    }
    if (source instanceof ProjectNode project) {
      return new ProjectNode(project.input(), strip(project.expressions(), table, targets));
    }
    if (source instanceof ScanNode scan && !scan.hasAggregates()) {
      return scan.withProjection(strip(scan.projection(), table, targets));
    }
    return source;
  }

  private static List<Expr> strip(List<Expr> exprs, TableDescriptor table, List<Integer> targets) {
    List<Expr> result = new ArrayList<>(exprs.size());
    for (int i = 0; i < exprs.size(); i++) {
      Expr e = exprs.get(i);
      DataType column = table.columns().get(targets.get(i)).type();
      if (e instanceof Expr.Call call
          && call.op() == Op.CAST
          && sameKind(call.operands().get(0).type().name(), column.name())) {
        e = call.operands().get(0);
      }
      result.add(e);
    }
    return result;
  }

  private static boolean sameKind(TypeName from, TypeName to) {
    return (from.isString() && to.isString()) || (from.isNumeric() && to.isNumeric()) || from == to;
  }
}
