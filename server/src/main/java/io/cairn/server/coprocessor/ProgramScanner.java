package io.cairn.server.coprocessor;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.kv.Bytes;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.server.cell.RowCursor;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a {@link ScanProgram} over visible rows: decodes each, keeps it when the filter is TRUE,
 * emits the projection, stops after the limit; or, with aggregates, accumulates the kept rows and
 * emits one row of partial states.
 *
 * <p>{@link #close()} may come from another thread (a cancel) while {@link #next()} runs: the rows
 * (and the blocks they hold) are then released by the scanning thread when that call returns, never
 * under its feet. A scan that reads many rows in one call (a selective filter, an aggregate) checks
 * for such a close every {@value #CLOSE_CHECK_INTERVAL} rows and then fails with OBJECT_CLOSED.
 */
public final class ProgramScanner implements RowScanner {
  private static final int IDLE = 0;
  private static final int IN_NEXT = 1;
  private static final int CLOSE_REQUESTED = 2;
  private static final int CLOSED = 3;
  private static final int CLOSE_CHECK_INTERVAL = 1024;

  private final RowCursor rows;
  private final RowCodec codec;
  private final RowExpression filter;
  private final RowExpression[] projection;
  private final EvalContext context;
  private final long limit;
  private final boolean readsKey;
  private final boolean[] needed;
  private final boolean decodes;
  private final List<AggregateCall> aggregates;
  private final boolean countsOnly;
  private final int partialWidth;
  private Object[] row;
  private int sinceCloseCheck;
  private long emitted;
  private boolean aggregated;
  private final AtomicInteger state = new AtomicInteger(IDLE);

  /** Runs {@code program} over {@code rows}, which it closes when closed. */
  public ProgramScanner(RowCursor rows, ScanProgram program, EvalContext context) {
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
    this.decodes = filter != null || projection.length > 0;
    this.aggregates = program.aggregates();
    this.countsOnly =
        !aggregates.isEmpty()
            && aggregates.stream().allMatch(c -> c.kind() == AggregateKind.COUNT_STAR);
    this.partialWidth = aggregates.stream().mapToInt(c -> Aggregates.partialTypes(c).size()).sum();
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
    if (!state.compareAndSet(IDLE, IN_NEXT)) {
      throw new CairnException(ErrorCode.OBJECT_CLOSED, "Scanner is closed");
    }
    try {
      return aggregates.isEmpty() ? advance() : aggregate();
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
    if (!nextKept()) {
      return null;
    }
    Object[] result = new Object[projection.length];
    for (int i = 0; i < projection.length; i++) {
      result[i] = projection[i].evaluate(row, context);
    }
    emitted++;
    return result;
  }

  /**
   * Moves to the next row the filter keeps, decoded into {@link #row} (only when the filter or the
   * projection reads it); false at the end.
   */
  private boolean nextKept() {
    while (rows.next()) {
      if (++sinceCloseCheck >= CLOSE_CHECK_INTERVAL) {
        sinceCloseCheck = 0;
        if (state.get() == CLOSE_REQUESTED) {
          throw new CairnException(ErrorCode.OBJECT_CLOSED, "Scanner was closed during the scan");
        }
      }
      if (!decodes) {
        return true;
      }
      Bytes key = Bytes.copyOf(rows.keyArray(), rows.keyOffset(), rows.keyLength());
      byte[] valueBytes = new byte[rows.valueLength()];
      rows.valueBuffer().get(rows.valueOffset(), valueBytes);
      row = codec.decode(key, Bytes.wrap(valueBytes), needed);
      if (readsKey) {
        row = Arrays.copyOf(row, row.length + 1);
        row[row.length - 1] = key.toByteArray();
      }
      if (filter != null && !Boolean.TRUE.equals(filter.evaluate(row, context))) {
        continue;
      }
      return true;
    }
    return false;
  }

  /**
   * Feeds every row the filter keeps to the aggregates and returns their partial states, once; null
   * afterwards.
   */
  private Object[] aggregate() {
    if (aggregated) {
      return null;
    }
    aggregated = true;
    if (countsOnly) {
      long count = 0;
      while (nextKept()) {
        count++;
      }
      Object[] counts = new Object[aggregates.size()];
      Arrays.fill(counts, count);
      return counts;
    }
    Accumulator[] accumulators = new Accumulator[aggregates.size()];
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = Aggregates.create(aggregates.get(i));
    }
    Object[] arguments = new Object[projection.length];
    while (nextKept()) {
      for (int i = 0; i < projection.length; i++) {
        arguments[i] = projection[i].evaluate(row, context);
      }
      for (Accumulator accumulator : accumulators) {
        accumulator.add(arguments);
      }
    }
    Object[] result = new Object[partialWidth];
    int at = 0;
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i].writePartial(result, at);
      at += Aggregates.partialTypes(aggregates.get(i)).size();
    }
    return result;
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
