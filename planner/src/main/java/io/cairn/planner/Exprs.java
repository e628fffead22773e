package io.cairn.planner;

import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.kv.SortKey;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ProjectNode;
import io.cairn.planner.plan.ScanNode;
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

  /**
   * {@code exprs} over {@code input}'s rows: folded into the scan's projection when the input is a
   * scan (so it runs in the store), else a client-side projection. A sorted scan takes the new
   * projection when every sort key is one of its entries (the keys are renumbered); else the
   * projection stays on the client.
   */
  static PlanNode project(PlanNode input, List<Expr> exprs) {
    if (input instanceof ScanNode scan && !scan.hasAggregates()) {
      List<Expr> inlined = new ArrayList<>(exprs.size());
      for (Expr e : exprs) {
        inlined.add(inline(e, scan.projection()));
      }
      if (scan.orderBy().isEmpty()) {
        return scan.withProjection(inlined);
      }
      List<SortKey> keys = new ArrayList<>();
      for (SortKey k : scan.orderBy()) {
        int column = inlined.indexOf(scan.projection().get(k.column()));
        if (column < 0) {
          return new ProjectNode(input, exprs);
        }
        keys.add(new SortKey(column, k.descending(), k.nullsFirst()));
      }
      return scan.withProjection(inlined).withOrder(keys, scan.offset(), scan.limit());
    }
    return new ProjectNode(input, exprs);
  }

  /** Sets in {@code into} the index of each column {@code expr} reads. */
  static void columns(Expr expr, java.util.BitSet into) {
    if (expr instanceof Expr.ColumnRef ref) {
      into.set(ref.index());
    } else if (expr instanceof Expr.Call call) {
      for (Expr operand : call.operands()) {
        columns(operand, into);
      }
    }
  }

  static Expr and(Expr a, Expr b) {
    return new Expr.Call(Op.AND, List.of(a, b), DataType.BOOLEAN);
  }
}
