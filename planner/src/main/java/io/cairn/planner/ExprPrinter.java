package io.cairn.planner;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.expr.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/** Prints expressions in SQL-like text for EXPLAIN. */
final class ExprPrinter {
  private static final Map<Op, String> INFIX =
      Map.ofEntries(
          Map.entry(Op.PLUS, "+"),
          Map.entry(Op.MINUS, "-"),
          Map.entry(Op.TIMES, "*"),
          Map.entry(Op.DIVIDE, "/"),
          Map.entry(Op.MOD, "%"),
          Map.entry(Op.EQUALS, "="),
          Map.entry(Op.NOT_EQUALS, "<>"),
          Map.entry(Op.LESS_THAN, "<"),
          Map.entry(Op.LESS_THAN_OR_EQUAL, "<="),
          Map.entry(Op.GREATER_THAN, ">"),
          Map.entry(Op.GREATER_THAN_OR_EQUAL, ">="),
          Map.entry(Op.AND, "AND"),
          Map.entry(Op.OR, "OR"),
          Map.entry(Op.CONCAT, "||"),
          Map.entry(Op.LIKE, "LIKE"),
          Map.entry(Op.DATETIME_PLUS, "+"),
          Map.entry(Op.DATETIME_MINUS, "-"),
          Map.entry(Op.DATETIME_DIFF, "-"),
          Map.entry(Op.IS_DISTINCT_FROM, "IS DISTINCT FROM"),
          Map.entry(Op.IS_NOT_DISTINCT_FROM, "IS NOT DISTINCT FROM"));

  private ExprPrinter() {}

  static String printAll(List<Expr> exprs, IntFunction<String> names) {
    List<String> parts = new ArrayList<>(exprs.size());
    for (Expr e : exprs) {
      parts.add(print(e, names));
    }
    return String.join(", ", parts);
  }

  static String print(Expr expr, IntFunction<String> names) {
    if (expr instanceof Expr.ColumnRef ref) {
      return names.apply(ref.index());
    }
    if (expr instanceof Expr.Param param) {
      return "?" + (param.index() + 1);
    }
    if (expr instanceof Expr.Literal literal) {
      return Values.toSqlString(literal.value());
    }
    Expr.Call call = (Expr.Call) expr;
    String infix = INFIX.get(call.op());
    List<Expr> operands = call.operands();
    if (infix != null && operands.size() >= 2) {
      List<String> parts = new ArrayList<>();
      for (Expr o : operands) {
        parts.add(print(o, names));
      }
      return "(" + String.join(" " + infix + " ", parts) + ")";
    }
    return switch (call.op()) {
      case NOT -> "NOT " + print(operands.get(0), names);
      case NEGATE -> "-" + print(operands.get(0), names);
      case IS_NULL -> print(operands.get(0), names) + " IS NULL";
      case IS_NOT_NULL -> print(operands.get(0), names) + " IS NOT NULL";
      case CAST -> "CAST(" + print(operands.get(0), names) + " AS " + call.type().sql() + ")";
      default -> call.op().name() + "(" + printAll(operands, names) + ")";
    };
  }

  static String aggregate(AggregateCall call, IntFunction<String> names) {
    List<String> args = new ArrayList<>();
    for (int a : call.arguments()) {
      args.add(names.apply(a));
    }
    String name =
        switch (call.kind()) {
          case COUNT_STAR -> "COUNT";
          default -> call.kind().name();
        };
    String inside = call.arguments().isEmpty() ? "*" : String.join(", ", args);
    return name + "(" + (call.distinct() ? "DISTINCT " : "") + inside + ")";
  }
}
