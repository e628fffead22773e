package io.cairn.planner;

import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import java.util.ArrayList;
import java.util.List;

/** Small rewrites of the expression IR. */
final class Exprs {
  private Exprs() {}

  /** Replaces each {@code ColumnRef(i)} in {@code expr} with {@code inputs.get(i)}. */
  static Expr inline(Expr expr, List<Expr> inputs) {
    if (expr instanceof Expr.ColumnRef ref) {
      return inputs.get(ref.index());
    }
    if (expr instanceof Expr.Call call) {
      List<Expr> operands = new ArrayList<>(call.operands().size());
      for (Expr operand : call.operands()) {
        operands.add(inline(operand, inputs));
      }
      return new Expr.Call(call.op(), operands, call.type());
    }
    return expr;
  }

  static Expr and(Expr a, Expr b) {
    return new Expr.Call(Op.AND, List.of(a, b), DataType.BOOLEAN);
  }
}
