package io.cairn.jdbc.internal.exec;

import io.cairn.jdbc.internal.engine.RowCursor;
import io.cairn.planner.plan.PlanNode;

/** Runs a query plan and exposes its rows as a cursor. */
public final class QueryExecution implements RowCursor {
  private final Operator root;
  private final ExecContext ctx;
  private boolean closed;

  private QueryExecution(Operator root, ExecContext ctx) {
    this.root = root;
    this.ctx = ctx;
  }

  /** Builds the operators; nothing runs until the first {@link #next()}. */
  public static QueryExecution start(PlanNode plan, ExecContext ctx) {
    return new QueryExecution(Operators.build(plan, ctx), ctx);
  }

  @Override
  public Object[] next() {
    if (closed) {
      return null;
    }
    ctx.control().check();
    try {
      Object[] row = root.next();
      if (row == null) {
        close();
      }
      return row;
    } catch (RuntimeException e) {
      try {
        close();
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      root.close();
    }
  }
}
