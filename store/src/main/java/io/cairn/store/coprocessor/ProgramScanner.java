package io.cairn.store.coprocessor;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.RowFilter;
import io.cairn.core.memory.MemoryPool;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.kv.HashCacheLookup;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import io.cairn.store.cell.RowCursor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a {@link ScanProgram} over visible rows: keeps a row when the filter is TRUE, skips the
 * offset (without evaluating the projection), emits the projection, stops after the limit; or, with
 * aggregates, accumulates the kept rows and emits one row of partial states (COUNT(*) alone only
 * counts), or with a GROUP BY one row per group (hash aggregation: key values, then the partial
 * states; its memory is counted against a limit, see {@link AggregationMemory}; over rows that come
 * grouped, a streaming aggregation that holds one group, {@link ProgramGroupRuns}); or, with an
 * order, reads all kept rows (only the top offset + limit in a bounded heap when there is a limit),
 * sorts them with {@link SortKey#comparator} (the driver's ORDER BY comparison), skips the offset
 * and emits up to the limit. What a grouping or sorting scan holds (its groups, its sort buffer or
 * top-N heap) is counted in a {@link MemoryReservation} of the scan's own pool (limit {@code
 * cairn.aggregate.max-bytes}) under the pool the caller gives (a network connection's, under its
 * database's and the server's; embedded, the store's): past one of them the scan fails with
 * MEMORY_LIMIT_EXCEEDED (a grouped aggregation past its own limit with AGGREGATE_MEMORY_EXCEEDED).
 * The reservation is given back once the last row was emitted, when the scan fails, and when it is
 * closed (also by another thread: then when the running call returns). Rows are read in place: a
 * {@link RowReader} is pointed at the cursor's key and value views (nothing is copied) and a {@link
 * RowFilter} tests it, so a row that the filter rejects costs no allocation for the common filter
 * shapes (see RowFilter), and an empty projection ({@code COUNT(*)}) emits one shared empty array.
 * Only emitted rows allocate their values.
 *
 * <p>{@link #close()} may come from another thread (a cancel) while {@link #next()} runs: the rows
 * (and the blocks they hold) are then released by the scanning thread when that call returns, never
 * under its feet. A scan that reads many rows in one call (a selective filter, an aggregate) checks
 * for such a close every {@value #CLOSE_CHECK_INTERVAL} rows and then fails with OBJECT_CLOSED.
 *
 * <p>{@link #next(long)} bounds a call in time: at the same checks it gives up once a deadline has
 * passed and returns {@link #NOT_YET}, keeping its place (and an aggregate its partial states), so
 * that the network server can answer a page of a long, selective scan with few or no rows instead
 * of going silent. A grouping or sorting program pauses the same way while it reads its input and
 * emits its rows once it has read all of it, after closing the rows (their blocks are released
 * while it emits from memory).
 *
 * <p>This class is the scan's life cycle (calls, deadline, close from another thread, memory) and
 * the plain scan's offset and limit; the parts are {@link CompiledProgram} (the compiled, cached
 * program), {@link ProgramRows} (the row-at-a-time filter and projection), {@link
 * ProgramAggregation} and {@link ProgramGrouping} (the aggregations) and {@link ProgramSort} (the
 * sort and top-N).
 */
public final class ProgramScanner implements RowScanner {
  private static final int IDLE = 0;
  private static final int IN_NEXT = 1;
  private static final int CLOSE_REQUESTED = 2;
  private static final int CLOSED = 3;

  /** Rows read between two checks for a close from another thread and for the deadline. */
  static final int CLOSE_CHECK_INTERVAL = 1024;

  /**
   * What {@link #next(long)} returns when its deadline passed before it found the next result row:
   * the scan is not over, call again. Compare by identity.
   */
  public static final Object[] NOT_YET = new Object[0];

  /** The scan's own memory pool, for messages, and the setting that bounds it. */
  private static final String SCAN_POOL = "one scan in the store";

  static final String SCAN_SETTING = "cairn.aggregate.max-bytes";

  private final ProgramRows rows;
  private final long limit;
  private final long offset;
  private long emitted;
  private long skipped;

  /** The scan's own pool (limit aggregateMaxBytes), under the caller's. */
  private final MemoryPool memory;

  /**
   * What runs the program past the filter and projection: at most one of them, else a plain scan.
   */
  private final ProgramAggregation aggregation;

  private final ProgramGrouping grouping;
  private final ProgramGroupRuns groupRuns;
  private final ProgramSort sort;

  /** The failure of a grouping or sorting call: its state is gone, later calls fail alike. */
  private RuntimeException failure;

  private final AtomicInteger state = new AtomicInteger(IDLE);

  /**
   * Runs {@code program} over {@code rows}, which it closes when closed, a grouped aggregation
   * within {@link AggregationMemory#DEFAULT_MAX_BYTES}.
   */
  public ProgramScanner(RowCursor rows, ScanProgram program, EvalContext context) {
    this(rows, program, context, AggregationMemory.DEFAULT_MAX_BYTES);
  }

  /**
   * Lets an ORDER BY whose rows pass the scan's memory write them to {@code directory} as sorted
   * runs, merged when emitted, instead of failing with MEMORY_LIMIT_EXCEEDED; before the first
   * {@link #next}.
   */
  public ProgramScanner spillSortsTo(Path directory) {
    if (sort != null) {
      sort.spillTo(directory);
    }
    return this;
  }

  /**
   * Runs {@code program} over {@code rows}, which it closes when closed; a grouped aggregation
   * fails with AGGREGATE_MEMORY_EXCEEDED when its groups need more than {@code aggregateMaxBytes}
   * (estimated; the store's {@code cairn.aggregate.max-bytes}).
   */
  public ProgramScanner(
      RowCursor rows, ScanProgram program, EvalContext context, long aggregateMaxBytes) {
    this(rows, program, context, aggregateMaxBytes, null);
  }

  /**
   * Runs {@code program} over {@code rows}, which it closes when closed; its groups, sort buffer or
   * top-N heap count against a pool of the scan limited to {@code aggregateMaxBytes} (estimated;
   * the store's {@code cairn.aggregate.max-bytes}), under {@code memory} (null: none above it).
   */
  public ProgramScanner(
      RowCursor rows,
      ScanProgram program,
      EvalContext context,
      long aggregateMaxBytes,
      MemoryPool memory) {
    this(rows, program, context, aggregateMaxBytes, memory, false);
  }

  /**
   * As {@link #ProgramScanner(RowCursor, ScanProgram, EvalContext, long, MemoryPool)}; with {@code
   * groupRuns}, the rows come grouped by the program's group keys (a local index read in its order)
   * and a GROUP BY streams ({@link ProgramGroupRuns}: one group at a time) instead of hashing.
   */
  public ProgramScanner(
      RowCursor rows,
      ScanProgram program,
      EvalContext context,
      long aggregateMaxBytes,
      MemoryPool memory,
      boolean groupRuns) {
    this(rows, program, context, aggregateMaxBytes, memory, groupRuns, null);
  }

  /**
   * As {@link #ProgramScanner(RowCursor, ScanProgram, EvalContext, long, MemoryPool, boolean)}; a
   * program's {@link io.cairn.kv.HashProbe} probes the table {@code hashCaches} finds for its cache
   * id.
   *
   * @throws CairnException HASH_CACHE_NOT_FOUND when the program probes a cache not there
   */
  public ProgramScanner(
      RowCursor rows,
      ScanProgram program,
      EvalContext context,
      long aggregateMaxBytes,
      MemoryPool memory,
      boolean groupRuns,
      HashCacheLookup hashCaches) {
    JoinHashTable table = null;
    if (program.probe().isPresent()) {
      String id = program.probe().get().cacheId();
      table = hashCaches == null ? null : hashCaches.find(id);
      if (table == null) {
        rows.close();
        throw new CairnException(
            ErrorCode.HASH_CACHE_NOT_FOUND,
            "Hash cache ["
                + id
                + "] of a join is not here: expected it put before the probing scan, found none");
      }
    }
    this.memory =
        memory == null
            ? MemoryPool.root(SCAN_POOL, aggregateMaxBytes, SCAN_SETTING, Duration.ZERO)
            : memory.child(SCAN_POOL, aggregateMaxBytes, SCAN_SETTING);
    requireNonNull(rows, "rows is null");
    requireNonNull(context, "context is null");
    CompiledProgram compiled = CompiledProgram.of(requireNonNull(program, "program is null"));
    this.limit = program.limit();
    this.offset = program.offset();
    this.rows =
        new ProgramRows(rows, compiled, context, () -> state.get() == CLOSE_REQUESTED, table);
    boolean aggregates = !program.aggregates().isEmpty();
    boolean grouped = aggregates && compiled.groupColumns.length > 0;
    this.aggregation = aggregates && !grouped ? new ProgramAggregation(this.rows) : null;
    this.grouping =
        grouped && !groupRuns
            ? new ProgramGrouping(this.rows, aggregateMaxBytes, this.memory)
            : null;
    this.groupRuns = grouped && groupRuns ? new ProgramGroupRuns(this.rows) : null;
    this.sort =
        !aggregates && compiled.order != null ? new ProgramSort(this.rows, this.memory) : null;
    if (!aggregates && sort == null) {
      this.rows.projectFromVectors(); // each kept row is projected, nothing else reads it
    }
  }

  @Override
  public Object[] next() {
    return next(ProgramRows.NO_DEADLINE);
  }

  /**
   * The next result row, null at the end, or {@link #NOT_YET} when {@code deadlineNanos} (a {@link
   * System#nanoTime()} value) passed before the next row was found; the deadline is checked every
   * {@value #CLOSE_CHECK_INTERVAL} rows read, so each call makes progress.
   */
  public Object[] next(long deadlineNanos) {
    if (!state.compareAndSet(IDLE, IN_NEXT)) {
      throw new CairnException(ErrorCode.OBJECT_CLOSED, "Scanner is closed");
    }
    rows.deadline(deadlineNanos);
    try {
      if (failure != null) {
        throw failure;
      }
      if (aggregation != null) {
        return aggregation.next();
      }
      if (grouping != null) {
        return grouping.next();
      }
      if (groupRuns != null) {
        return groupRuns.next();
      }
      return sort == null ? advance() : sort.next();
    } catch (RuntimeException e) {
      if (failure == null
          && ((grouping != null && grouping.holdsMemory())
              || (sort != null && sort.holdsMemory()))) {
        // a failed grouping or sorting scan cannot go on: its state goes at once, not at close
        failure = e;
        releaseMemory();
      }
      throw e;
    } finally {
      rows.deadline(ProgramRows.NO_DEADLINE);
      if (!state.compareAndSet(IN_NEXT, IDLE)) {
        state.set(CLOSED);
        release();
      }
    }
  }

  private Object[] advance() {
    if (limit != ScanProgram.NO_LIMIT && emitted >= limit) {
      return null;
    }
    int found;
    while (skipped < offset) {
      // the offset's rows are filtered (in place) but never projected
      found = rows.nextKept();
      if (found != ProgramRows.KEPT) {
        return found == ProgramRows.END ? null : NOT_YET;
      }
      skipped++;
    }
    found = rows.nextKept();
    if (found != ProgramRows.KEPT) {
      return found == ProgramRows.END ? null : NOT_YET;
    }
    emitted++;
    return rows.project();
  }

  /**
   * Closes the rows (releasing their blocks), gives the row reader back and the memory of the
   * groups or sorted rows; once.
   */
  private void release() {
    try {
      rows.close();
    } finally {
      releaseMemory();
    }
  }

  /** Drops the groups and sorted rows and gives their reservation back (idempotent). */
  private void releaseMemory() {
    if (grouping != null) {
      grouping.release();
    }
    if (sort != null) {
      sort.release();
    }
  }

  /** Bytes the scan holds in its pool now (its groups or sorted rows), for tests. */
  public long reservedBytes() {
    return memory.used();
  }

  @Override
  public void close() {
    while (true) {
      int s = state.get();
      if (s == CLOSED || s == CLOSE_REQUESTED) {
        return;
      }
      if (s == IDLE && state.compareAndSet(IDLE, CLOSED)) {
        release();
        return;
      }
      if (s == IN_NEXT && state.compareAndSet(IN_NEXT, CLOSE_REQUESTED)) {
        return;
      }
    }
  }
}
