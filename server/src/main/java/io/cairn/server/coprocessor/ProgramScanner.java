package io.cairn.server.coprocessor;

import static java.util.Objects.requireNonNull;

import io.cairn.core.encoding.RowReader;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.expr.RowFilter;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.server.cell.RowCursor;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a {@link ScanProgram} over visible rows: keeps a row when the filter is TRUE, emits the
 * projection, stops after the limit. Rows are read in place: a {@link RowReader} is pointed at the
 * cursor's key and value views (nothing is copied) and a {@link RowFilter} tests it, so a row that
 * the filter rejects costs no allocation for the common filter shapes (see RowFilter), and an empty
 * projection ({@code COUNT(*)}) emits one shared empty array. Only emitted rows allocate their
 * values.
 *
 * <p>{@link #close()} may come from another thread (a cancel) while {@link #next()} runs: the rows
 * (and the blocks they hold) are then released by the scanning thread when that call returns, never
 * under its feet.
 */
public final class ProgramScanner implements RowScanner {
  private static final int IDLE = 0;
  private static final int IN_NEXT = 1;
  private static final int CLOSE_REQUESTED = 2;
  private static final int CLOSED = 3;

  /** What an empty projection emits for every row. */
  private static final Object[] NO_VALUES = new Object[0];

  /** {@link #projectedColumns} entry of the row key pseudo-column. */
  private static final int KEY_COLUMN = -1;

  /** {@link #projectedColumns} entry of an expression that is not a plain column. */
  private static final int EXPRESSION = -2;

  private final RowCursor rows;
  private final RowReader reader;
  private final RowFilter filter;
  private final RowExpression[] projection;

  /** Per projected expression: the layout column it is, KEY_COLUMN or EXPRESSION. */
  private final int[] projectedColumns;

  /** The decoded row that EXPRESSION projections read (plus the key pseudo-column); reused. */
  private final Object[] scratch;

  private final EvalContext context;
  private final long limit;
  private final boolean readsKey;
  private final boolean[] needed;
  private long emitted;
  private final AtomicInteger state = new AtomicInteger(IDLE);

  /** Runs {@code program} over {@code rows}, which it closes when closed. */
  public ProgramScanner(RowCursor rows, ScanProgram program, EvalContext context) {
    this.rows = requireNonNull(rows, "rows is null");
    this.context = requireNonNull(context, "context is null");
    int columnCount = program.layout().columnCount();
    this.filter =
        program
            .filter()
            .map(f -> RowFilter.compile(f, program.layout()).bind(context))
            .orElse(null);
    List<RowExpression> compiled =
        program.projection().stream().map(ExprCompiler::compile).toList();
    this.projection = compiled.toArray(new RowExpression[0]);
    this.projectedColumns = new int[projection.length];
    boolean anyExpression = false;
    for (int i = 0; i < projection.length; i++) {
      Expr e = program.projection().get(i);
      if (e instanceof Expr.ColumnRef ref && ref.index() >= 0 && ref.index() <= columnCount) {
        projectedColumns[i] = ref.index() == columnCount ? KEY_COLUMN : ref.index();
      } else {
        projectedColumns[i] = EXPRESSION;
        anyExpression = true;
      }
    }
    this.limit = program.limit();
    this.readsKey = readsKey(program);
    this.scratch = anyExpression ? new Object[columnCount + (readsKey ? 1 : 0)] : null;
    this.needed = new boolean[columnCount];
    program.filter().ifPresent(f -> markColumns(f, needed));
    program.projection().forEach(e -> markColumns(e, needed));
    this.reader = new RowReader(program.layout(), needed);
  }

  /** Marks the table columns {@code expr} reads: only those are decoded. */
  private static void markColumns(Expr expr, boolean[] needed) {
    if (expr instanceof Expr.ColumnRef ref) {
      if (ref.index() < needed.length) {
        needed[ref.index()] = true;
      }
    } else if (expr instanceof Expr.Call call) {
      call.operands().forEach(o -> markColumns(o, needed));
    }
  }

  /** True when the projection reads the row key pseudo-column (see {@link ScanProgram}). */
  private static boolean readsKey(ScanProgram program) {
    int keyIndex = program.layout().columnCount();
    for (Expr e : program.projection()) {
      if (reads(e, keyIndex)) {
        return true;
      }
    }
    return false;
  }

  private static boolean reads(Expr expr, int index) {
    if (expr instanceof Expr.ColumnRef ref) {
      return ref.index() == index;
    }
    return expr instanceof Expr.Call call
        && call.operands().stream().anyMatch(o -> reads(o, index));
  }

  @Override
  public Object[] next() {
    if (!state.compareAndSet(IDLE, IN_NEXT)) {
      throw new CairnException(ErrorCode.OBJECT_CLOSED, "Scanner is closed");
    }
    try {
      return advance();
    } finally {
      if (!state.compareAndSet(IN_NEXT, IDLE)) {
        state.set(CLOSED);
        rows.close();
      }
    }
  }

  private Object[] advance() {
    if (limit != ScanProgram.NO_LIMIT && emitted >= limit) {
      return null;
    }
    while (rows.next()) {
      // per row: point the reader at the cursor's views (no copy), test the filter, project
      reader.reset(
          rows.keyArray(),
          rows.keyOffset(),
          rows.keyLength(),
          rows.valueBuffer(),
          rows.valueOffset(),
          rows.valueLength());
      if (filter != null && !filter.test(reader, context)) {
        continue;
      }
      emitted++;
      return project();
    }
    return null;
  }

  /** The projection of the reader's current row; allocates only what it emits. */
  private Object[] project() {
    if (projection.length == 0) {
      return NO_VALUES;
    }
    Object[] result = new Object[projection.length];
    byte[] key = null;
    boolean decoded = false;
    for (int i = 0; i < projection.length; i++) {
      int column = projectedColumns[i];
      if (column >= 0) {
        result[i] = reader.getObject(column);
      } else if (column == KEY_COLUMN) {
        key = key != null ? key : copyKey();
        result[i] = key;
      } else {
        if (!decoded) {
          reader.decodeInto(scratch);
          if (readsKey) {
            key = key != null ? key : copyKey();
            scratch[scratch.length - 1] = key;
          }
          decoded = true;
        }
        result[i] = projection[i].evaluate(scratch, context);
      }
    }
    return result;
  }

  private byte[] copyKey() {
    int offset = rows.keyOffset();
    return Arrays.copyOfRange(rows.keyArray(), offset, offset + rows.keyLength());
  }

  @Override
  public void close() {
    while (true) {
      int s = state.get();
      if (s == CLOSED || s == CLOSE_REQUESTED) {
        return;
      }
      if (s == IDLE && state.compareAndSet(IDLE, CLOSED)) {
        rows.close();
        return;
      }
      if (s == IN_NEXT && state.compareAndSet(IN_NEXT, CLOSE_REQUESTED)) {
        return;
      }
    }
  }
}
