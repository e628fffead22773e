package io.cairn.jdbc.internal.exec;

import io.cairn.core.memory.MemoryPool;
import io.cairn.jdbc.internal.engine.ResultCursor;
import io.cairn.jdbc.internal.exec.spill.SpillSpace;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvTable;
import io.cairn.planner.Explainer;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ScanNode;
import java.lang.ref.Cleaner;
import java.util.List;

/**
 * Runs a query plan and exposes its rows as a cursor. Its operators reserve what they hold in the
 * context's memory pool and give it back when closed; when the execution is closed, whatever is
 * still reserved in that pool goes back too, and so it does when an execution is dropped without
 * being closed (a result set nobody closed), once it is garbage: the driver's JVM-wide budget does
 * not leak; the same goes for its spill files ({@link ExecContext#spill}). One execution per pool.
 */
public final class QueryExecution implements ResultCursor {
  private static final Cleaner CLEANER = Cleaner.create();

  private final Operator root;
  private final ExecContext ctx;
  private final KvSnapshot snapshot;
  private final Cleaner.Cleanable memory;
  private boolean closed;

  private QueryExecution(Operator root, ExecContext ctx, KvSnapshot snapshot) {
    this.root = root;
    this.ctx = ctx;
    this.snapshot = snapshot;
    this.memory = CLEANER.register(this, new ReleaseAll(ctx.memory(), ctx.spill()));
  }

  /**
   * Gives back what is still reserved in a query's pool (and so in the pools above it) and deletes
   * its spill files.
   */
  private record ReleaseAll(MemoryPool pool, SpillSpace spill) implements Runnable {
    @Override
    public void run() {
      try {
        spill.close();
      } finally {
        long left = pool.used();
        if (left > 0) {
          pool.release(left);
        }
      }
    }
  }

  @Override
  public List<String> warnings() {
    return ctx.spill().notes();
  }

  /** Builds the operators; nothing runs until the first {@link #next()}. */
  public static QueryExecution start(PlanNode plan, ExecContext ctx) {
    return start(plan, ctx, Snapshots.LATEST);
  }

  /**
   * Builds the operators of a statement reading at {@code snapshot} ({@code ctx}'s read point),
   * which the execution owns from now on: it is closed with the execution (at its end, on an error,
   * a cancel or a timeout, or when the cursor is closed), or here when building fails.
   */
  public static QueryExecution start(PlanNode plan, ExecContext ctx, KvSnapshot snapshot) {
    Operator root;
    ExecContext shared;
    try {
      shared = ctx.withShared(SharedResults.of(plan));
      root = Operators.build(plan, shared);
    } catch (RuntimeException e) {
      snapshot.close();
      throw e;
    }
    return new QueryExecution(root, shared, snapshot);
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
      try {
        root.close();
      } finally {
        try {
          ctx.shared().close();
          snapshot.close();
        } finally {
          memory.clean();
        }
      }
    }
  }
}
