package io.cairn.planner;

import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Reduces constant expressions for Calcite's simplifier with Cairn's own evaluator, so that a
 * constant folded at planning has the value it would have at run time: Calcite's default executor
 * generates Java code with its own CAST rules (it truncates {@code CAST(1.9 AS INTEGER)} to 1 and
 * {@code CAST(1.555 AS DECIMAL(10,2))} to 1.55, drops the fraction of a TIMESTAMP cast to text and
 * cuts timestamps to milliseconds). An expression Cairn cannot evaluate now (it fails, depends on
 * the statement time or has a value without a literal form, such as NaN) is left as it is and
 * evaluated at run time.
 */
final class CairnRexExecutor implements RexExecutor {
  @Override
  public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
    for (RexNode node : constExps) {
      reducedValues.add(reduce(rexBuilder, node));
    }
  }

  /**
   * {@code node} with every call whose operands are all literals (after their own folding) reduced
   * to a literal where Cairn can evaluate it now; nothing else is rewritten.
   */
  static RexNode fold(RexBuilder rexBuilder, RexNode node) {
    return node.accept(
        new org.apache.calcite.rex.RexShuttle() {
          @Override
          public RexNode visitCall(RexCall call) {
            RexNode visited = super.visitCall(call);
            if (visited instanceof RexCall c
                && !c.getOperands().isEmpty()
                && c.getOperands().stream().allMatch(o -> o instanceof RexLiteral)) {
              return reduce(rexBuilder, c);
            }
            return visited;
          }
        });
  }

  private static RexNode reduce(RexBuilder rexBuilder, RexNode node) {
    if (!RexUtil.isConstant(node) || RexUtil.containsInputRef(node) || dynamic(node)) {
      return node;
    }
    try {
      Expr expr = new RexToExpr(rexBuilder).convert(node);
      Object value = ExprCompiler.compile(expr).evaluate(new Object[0], EvalContext.EMPTY);
      RexNode literal = literal(rexBuilder, value, node.getType());
      return literal != null && literal.getType().equals(node.getType()) ? literal : node;
    } catch (RuntimeException e) {
      return node; // evaluated (and reported) at run time, only if it is reached
    }
  }

  private static boolean dynamic(RexNode node) {
    if (node instanceof RexCall call) {
      if (call.getOperator().isDynamicFunction() || !call.getOperator().isDeterministic()) {
        return true;
      }
      for (RexNode operand : call.getOperands()) {
        if (dynamic(operand)) {
          return true;
        }
      }
    }
    return false;
  }

  private static RexNode literal(RexBuilder rexBuilder, Object value, RelDataType type) {
    if (value == null) {
      return rexBuilder.makeNullLiteral(type);
    }
    SqlTypeName name = type.getSqlTypeName();
    if (value instanceof LocalDate d && name == SqlTypeName.DATE) {
      return rexBuilder.makeDateLiteral(DateString.fromDaysSinceEpoch((int) d.toEpochDay()));
    }
    if (value instanceof LocalDateTime t && name == SqlTypeName.TIMESTAMP) {
      TimestampString s =
          new TimestampString(
                  t.getYear(),
                  t.getMonthValue(),
                  t.getDayOfMonth(),
                  t.getHour(),
                  t.getMinute(),
                  t.getSecond())
              .withNanos(t.getNano());
      return rexBuilder.makeTimestampLiteral(s, type.getPrecision());
    }
    if (value instanceof LocalTime t && name == SqlTypeName.TIME) {
      TimeString s =
          new TimeString(t.getHour(), t.getMinute(), t.getSecond()).withNanos(t.getNano());
      return rexBuilder.makeTimeLiteral(s, type.getPrecision());
    }
    if (value instanceof byte[] b) {
      return rexBuilder.makeLiteral(new ByteString(b), type, false);
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (!Double.isFinite(d)) {
        return null;
      }
      return rexBuilder.makeLiteral(new BigDecimal(Double.toString(d)), type, false);
    }
    if (value instanceof Number n && !(value instanceof BigDecimal)) {
      return rexBuilder.makeLiteral(BigDecimal.valueOf(n.longValue()), type, false);
    }
    if (value instanceof BigDecimal || value instanceof Boolean || value instanceof String) {
      return rexBuilder.makeLiteral(value, type, false);
    }
    return null;
  }
}
