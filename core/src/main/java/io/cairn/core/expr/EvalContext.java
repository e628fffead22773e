package io.cairn.core.expr;

import java.time.LocalDateTime;
import java.util.Arrays;

/**
 * What an expression may read besides its row: bound parameters and the statement's start time
 * (CURRENT_DATE etc. are fixed for a whole statement, as in the SQL standard).
 */
public final class EvalContext {
  public static final EvalContext EMPTY = new EvalContext(new Object[0], LocalDateTime.MIN);

  private final Object[] parameters;
  private final LocalDateTime statementTime;

  public EvalContext(Object[] parameters, LocalDateTime statementTime) {
    this.parameters = parameters.clone();
    this.statementTime = statementTime;
  }

  public Object parameter(int index) {
    return parameters[index];
  }

  public int parameterCount() {
    return parameters.length;
  }

  /** Local date and time at which the statement started. */
  public LocalDateTime statementTime() {
    return statementTime;
  }

  @Override
  public String toString() {
    return "EvalContext" + Arrays.toString(parameters);
  }
}
