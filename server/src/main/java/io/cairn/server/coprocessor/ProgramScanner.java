package io.cairn.server.coprocessor;

import static java.util.Objects.requireNonNull;

import io.cairn.core.encoding.RowCodec;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.server.memstore.KeyValue;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;

/**
 * Runs a {@link ScanProgram} over visible rows: decodes each, keeps it when the filter is TRUE,
 * emits the projection, stops after the limit.
 */
public final class ProgramScanner implements RowScanner {
  private final Iterator<KeyValue> rows;
  private final RowCodec codec;
  private final RowExpression filter;
  private final RowExpression[] projection;
  private final EvalContext context;
  private final long limit;
  private final boolean readsKey;
  private final boolean[] needed;
  private long emitted;
  private final Runnable onClose;
  private volatile boolean closed;

  public ProgramScanner(Iterator<KeyValue> rows, ScanProgram program, EvalContext context) {
    this(rows, program, context, () -> {});
  }

  /** As above; {@code onClose} runs once, at close (releasing the snapshot the rows come from). */
  public ProgramScanner(
      Iterator<KeyValue> rows, ScanProgram program, EvalContext context, Runnable onClose) {
    this.onClose = requireNonNull(onClose, "onClose is null");
    this.rows = requireNonNull(rows, "rows is null");
    this.context = requireNonNull(context, "context is null");
    this.codec = new RowCodec(program.layout());
    this.filter = program.filter().map(ExprCompiler::compile).orElse(null);
    List<RowExpression> compiled =
        program.projection().stream().map(ExprCompiler::compile).toList();
    this.projection = compiled.toArray(new RowExpression[0]);
    this.limit = program.limit();
    this.readsKey = readsKey(program);
    this.needed = new boolean[program.layout().columnCount()];
    program.filter().ifPresent(f -> markColumns(f, needed));
    program.projection().forEach(e -> markColumns(e, needed));
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
      if (e instanceof Expr.ColumnRef ref && ref.index() == keyIndex) {
        return true;
      }
    }
    return false;
  }

  @Override
  public Object[] next() {
    if (closed) {
      throw new CairnException(ErrorCode.OBJECT_CLOSED, "Scanner is closed");
    }
    if (limit != ScanProgram.NO_LIMIT && emitted >= limit) {
      return null;
    }
    while (rows.hasNext()) {
      KeyValue kv = rows.next();
      Object[] row = codec.decode(kv.key(), kv.value(), needed);
      if (readsKey) {
        row = Arrays.copyOf(row, row.length + 1);
        row[row.length - 1] = kv.key().toByteArray();
      }
      if (filter != null && !Boolean.TRUE.equals(filter.evaluate(row, context))) {
        continue;
      }
      Object[] result = new Object[projection.length];
      for (int i = 0; i < projection.length; i++) {
        result[i] = projection[i].evaluate(row, context);
      }
      emitted++;
      return result;
    }
    return null;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      onClose.run();
    }
  }
}
