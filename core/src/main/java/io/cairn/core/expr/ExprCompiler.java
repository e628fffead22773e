package io.cairn.core.expr;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.math.BigDecimal;
import java.util.List;

/**
 * TEMPORARY PLACEHOLDER, to be replaced at merge by the real expression compiler being written on
 * another branch; keep everything in this one file so that the merge is a plain overwrite. Supports
 * only {@link Expr.ColumnRef}, {@link Expr.Literal}, {@link Expr.Param} and {@link Expr.Call} of
 * {@link Op#EQUALS}, {@link Op#LESS_THAN} and {@link Op#AND} over {@link Comparable} values (SQL
 * three-valued logic: a NULL operand gives NULL, AND is FALSE if any operand is FALSE). Everything
 * else fails with NOT_SUPPORTED.
 */
public final class ExprCompiler {
  private ExprCompiler() {}

  public static RowExpression compile(Expr expr) {
    if (expr instanceof Expr.ColumnRef ref) {
      int index = ref.index();
      return (row, context) -> row[index];
    }
    if (expr instanceof Expr.Literal literal) {
      Object value = literal.value();
      return (row, context) -> value;
    }
    if (expr instanceof Expr.Param param) {
      int index = param.index();
      return (row, context) -> context.parameter(index);
    }
    Expr.Call call = (Expr.Call) expr;
    List<RowExpression> operands = call.operands().stream().map(ExprCompiler::compile).toList();
    return switch (call.op()) {
      case EQUALS -> comparison(operands, true);
      case LESS_THAN -> comparison(operands, false);
      case AND ->
          (row, context) -> {
            boolean sawNull = false;
            for (RowExpression operand : operands) {
              Object value = operand.evaluate(row, context);
              if (value == null) {
                sawNull = true;
              } else if (Boolean.FALSE.equals(value)) {
                return Boolean.FALSE;
              }
            }
            return sawNull ? null : Boolean.TRUE;
          };
      default ->
          throw new CairnException(
              ErrorCode.NOT_SUPPORTED,
              "Placeholder ExprCompiler: expected EQUALS, LESS_THAN or AND, found ["
                  + call.op()
                  + "]");
    };
  }

  private static RowExpression comparison(List<RowExpression> operands, boolean equals) {
    if (operands.size() != 2) {
      throw CairnException.internal(
          "Comparison: expected [2] operands, found [" + operands.size() + "]");
    }
    RowExpression left = operands.get(0);
    RowExpression right = operands.get(1);
    return (row, context) -> {
      Object a = left.evaluate(row, context);
      Object b = right.evaluate(row, context);
      if (a == null || b == null) {
        return null;
      }
      int c = compare(a, b);
      return equals ? c == 0 : c < 0;
    };
  }

  @SuppressWarnings("unchecked")
  private static int compare(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y && a.getClass() != b.getClass()) {
      return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString()));
    }
    return ((Comparable<Object>) a).compareTo(b);
  }
}
