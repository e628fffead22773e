package io.cairn.core.expr;

import java.math.BigDecimal;
import java.util.function.UnaryOperator;

/**
 * A CAST that hands back its last result while the same value comes in again: a cast of a column of
 * the single row a nested-loop join holds on one side (e.g. {@code val > CAST($2 AS DECIMAL(38,
 * 2))} against a scalar subquery) is computed once instead of once per row of the other side. Only
 * values of immutable classes (DECIMAL, text) are remembered, by identity; after {@value #TRIES}
 * different values it remembers no new one (a column whose value changes row by row only pays the
 * identity test).
 *
 * <p>Shared by the threads evaluating one compiled expression: the remembered pair is one object
 * with final fields, read and replaced whole, and the count of tries is a hint.
 */
final class RememberedCast implements UnaryOperator<Object> {
  static final int TRIES = 64;

  private final UnaryOperator<Object> cast;
  private Remembered last;
  private int tries;

  RememberedCast(UnaryOperator<Object> cast) {
    this.cast = cast;
  }

  @Override
  public Object apply(Object value) {
    Remembered seen = last;
    if (seen != null && seen.value == value) {
      return seen.result;
    }
    Object result = cast.apply(value);
    if (tries < TRIES && (value instanceof BigDecimal || value instanceof String)) {
      tries++;
      last = new Remembered(value, result);
    }
    return result;
  }

  private record Remembered(Object value, Object result) {}
}
