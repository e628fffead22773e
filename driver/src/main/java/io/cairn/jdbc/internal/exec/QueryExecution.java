package io.cairn.jdbc.internal.exec;

import io.cairn.jdbc.internal.engine.RowCursor;
import io.cairn.kv.KvTable;
import io.cairn.planner.Explainer;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;

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

  /**
   * What an execution of {@code scan} would do now, for EXPLAIN: its chunks from the table's
   * current statistics, how many run at once, the estimated rows and bytes. With {@code
   * withoutParameters}, key bounds using a parameter are widened (EXPLAIN runs without values).
   */
  public static Explainer.ScanInfo scanInfo(
      ScanNode scan, ExecContext ctx, boolean withoutParameters) {
    KvTable kv = ExecContext.kvTable(ctx.store(), scan.table());
    boolean widened = withoutParameters && ScanLayout.usesParameters(scan);
    ScanLayout layout =
        widened
            ? ScanLayout.withoutParameters(scan, kv, ctx.eval(), ctx.parallelism())
            : ScanLayout.of(scan, kv, ctx.eval(), ctx.parallelism());
    return new Explainer.ScanInfo(
        layout.units().size(), layout.parallelism(), layout.rows(), layout.bytes(), widened);
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
