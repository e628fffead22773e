package io.cairn.jdbc.internal.exec;

import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.RowExpression;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ProjectNode;
import io.cairn.planner.plan.ValuesNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of a VALUES node, under projections or not, each expression compiled once, evaluated for
 * any parameters: what the VALUES operator emits, and what a batch of UPSERT ... VALUES (?, ...)
 * (planned as a projection of the parameters over one empty row) evaluates once per parameter set.
 * Immutable.
 */
public final class ValuesRows {
  /** The input of expressions that read no columns. */
  private static final Object[] NO_INPUT = new Object[0];

  private final ValuesNode node;
  private final List<RowExpression[]> rows;

  /** The projections over the VALUES, innermost first. */
  private final List<RowExpression[]> projections;

  public ValuesRows(ValuesNode node) {
    this(node, List.of());
  }

  private ValuesRows(ValuesNode node, List<RowExpression[]> projections) {
    this.node = node;
    this.rows = new ArrayList<>(node.rows().size());
    for (List<Expr> row : node.rows()) {
      rows.add(Operators.compileAll(row));
    }
    this.projections = projections;
  }

  /** Whether {@code source} is VALUES under nothing but projections (what {@link #of} takes). */
  public static boolean accepts(PlanNode source) {
    PlanNode node = source;
    while (node instanceof ProjectNode p) {
      node = p.input();
    }
    return node instanceof ValuesNode;
  }

  /** The rows of {@code source} when it is VALUES under nothing but projections; else null. */
  public static ValuesRows of(PlanNode source) {
    if (!accepts(source)) {
      return null;
    }
    List<RowExpression[]> projections = new ArrayList<>();
    PlanNode node = source;
    while (node instanceof ProjectNode p) {
      projections.add(0, Operators.compileAll(p.expressions()));
      node = p.input();
    }
    return new ValuesRows((ValuesNode) node, List.copyOf(projections));
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
    for (RowExpression[] projection : projections) {
      Object[] out = new Object[projection.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = projection[i].evaluate(row, eval);
      }
      row = out;
    }
    return row;
  }
}
