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
import io.cairn.planner.plan.SetOpNode;
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
 * Store assignment. Calcite converts INSERT sources and UPDATE SET values to the target column
 * types with CASTs, and a CAST truncates strings and rounds numbers silently. Cairn removes those
 * casts where source and column are of the same kind, so the executor's store assignment ({@link
 * Values#assign}) checks every value the same way, whether it came from a literal, a parameter, an
 * expression or a query, and fails with STRING_TOO_LONG or NUMERIC_OUT_OF_RANGE naming the column
 * instead of losing data.
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

  /**
   * Removes the casts to the target columns' types from an INSERT/UPSERT source whose {@code i}-th
   * output goes to column {@code targets.get(i)}: through projections of column references down to
   * the expression that computes the value, any number of nested casts of the same kind.
   */
  static PlanNode stripCasts(PlanNode source, TableDescriptor table, List<Integer> targets) {
    PlanNode result = source;
    for (int i = 0; i < targets.size(); i++) {
      result = stripAt(result, i, table.columns().get(targets.get(i)).type());
    }
    return result;
  }

  /** Removes the casts to {@code column}'s type from output {@code index} of {@code node}. */
  static PlanNode stripAt(PlanNode node, int index, DataType column) {
    if (node instanceof ValuesNode values) {
      List<List<Expr>> rows = new ArrayList<>();
      for (List<Expr> row : values.rows()) {
        List<Expr> copy = new ArrayList<>(row);
        copy.set(index, strip(row.get(index), column));
        rows.add(copy);
      }
      return new ValuesNode(rows, values.outputTypes());
    }
    if (node instanceof ProjectNode project) {
      Expr e = project.expressions().get(index);
      if (e instanceof Expr.ColumnRef ref) {
        PlanNode input = stripAt(project.input(), ref.index(), column);
        return input == project.input() ? node : new ProjectNode(input, project.expressions());
      }
      List<Expr> exprs = new ArrayList<>(project.expressions());
      exprs.set(index, strip(e, column));
      return new ProjectNode(project.input(), exprs);
    }
    if (node instanceof SetOpNode union
        && union.kind() == SetOpNode.Kind.UNION
        && union.all()) { // several VALUES rows with expressions
      List<PlanNode> inputs = new ArrayList<>();
      for (PlanNode input : union.inputs()) {
        inputs.add(stripAt(input, index, column));
      }
      // the union conforms its rows to its output types: not to the column's length
      List<DataType> types = new ArrayList<>(union.outputTypes());
      DataType type = types.get(index);
      if ((type.name().isString() || type.name() == TypeName.VARBINARY) && type.hasLength()) {
        types.set(index, DataType.of(type.name()).withNullable(type.nullable()));
      }
      return new SetOpNode(union.kind(), true, inputs, types);
    }
    if (node instanceof ScanNode scan && !scan.hasAggregates()) {
      List<Expr> exprs = new ArrayList<>(scan.projection());
      exprs.set(index, strip(exprs.get(index), column));
      return scan.withProjection(exprs);
    }
    return node;
  }

  private static Expr strip(Expr e, DataType column) {
    Expr result = e;
    while (result instanceof Expr.Call call
        && call.op() == Op.CAST
        && sameKind(call.operands().get(0).type().name(), column.name())) {
      result = call.operands().get(0);
    }
    return result;
  }

  private static boolean sameKind(TypeName from, TypeName to) {
    return (from.isString() && to.isString()) || (from.isNumeric() && to.isNumeric()) || from == to;
  }
}
