package io.cairn.jdbc.internal.exec;

import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.RowExpression;
import io.cairn.planner.plan.ValuesNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a VALUES node, each expression compiled once, evaluated for any parameters: what the
 * VALUES operator emits, and what a batch of UPSERT ... VALUES (?, ...) evaluates once per
 * parameter set. Immutable.
 */
public final class ValuesRows {
  /** The input of expressions that read no columns. */
  private static final Object[] NO_INPUT = new Object[0];

  private final ValuesNode node;
  private final List<RowExpression[]> rows;

  public ValuesRows(ValuesNode node) {
    this.node = node;
    this.rows = new ArrayList<>(node.rows().size());
    for (List<Expr> row : node.rows()) {
      rows.add(Operators.compileAll(row));
    }
  }

  public int size() {
    return rows.size();
  }

  /** Row {@code index} evaluated with {@code eval}'s parameters, conformed to the node's types. */
  public Object[] row(int index, EvalContext eval) {
    RowExpression[] exprs = rows.get(index);
    Object[] row = new Object[exprs.length];
    for (int i = 0; i < row.length; i++) {
      row[i] = Operators.conform(exprs[i].evaluate(NO_INPUT, eval), node.outputTypes().get(i));
    }
    return row;
  }
}
