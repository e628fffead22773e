package io.cairn.core.expr;

/** A compiled expression: evaluates against one input row. Thread-safe and stateless. */
@FunctionalInterface
public interface RowExpression {
  /**
   * @param row the input row's values (Java types as documented on TypeName)
   * @param context statement parameters and the statement's clock
   * @return the value, null for SQL NULL
   */
  Object evaluate(Object[] row, EvalContext context);
}
