package io.cairn.store.coprocessor;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.agg.DecimalAccumulator;
import io.cairn.core.agg.GroupKey;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.expr.RowFilter;
import io.cairn.core.memory.MemoryPool;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
import io.cairn.core.type.TypeName;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import io.cairn.store.cell.RowCursor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/**
 * Runs a {@link ScanProgram} over visible rows: keeps a row when the filter is TRUE, skips the
 * offset (without evaluating the projection), emits the projection, stops after the limit; or, with
 * aggregates, accumulates the kept rows and emits one row of partial states (COUNT(*) alone only
 * counts), or with a GROUP BY one row per group (hash aggregation: key values, then the partial
 * states; its memory is counted against a limit, see {@link AggregationMemory}); or, with an order,
 * reads all kept rows (only the top offset + limit in a bounded heap when there is a limit), sorts
 * them with {@link SortKey#comparator} (the driver's ORDER BY comparison), skips the offset and
 * emits up to the limit. What a grouping or sorting scan holds (its groups, its sort buffer or
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
 */
public final class ProgramScanner implements RowScanner {
  private static final int IDLE = 0;
  private static final int IN_NEXT = 1;
  private static final int CLOSE_REQUESTED = 2;
  private static final int CLOSED = 3;
  private static final int CLOSE_CHECK_INTERVAL = 1024;

  /**
   * What {@link #next(long)} returns when its deadline passed before it found the next result row:
   * the scan is not over, call again. Compare by identity.
   */
  public static final Object[] NOT_YET = new Object[0];

  /** {@link #nextKept()}: a row the filter keeps is current. */
  private static final int KEPT = 0;

  /** {@link #nextKept()}: no more rows. */
  private static final int END = 1;

  /** {@link #nextKept()}: the deadline passed before a kept row; the cursor has not moved. */
  private static final int PAUSED = 2;

  private static final long NO_DEADLINE = Long.MIN_VALUE;

  /** The scan's own memory pool, for messages, and the setting that bounds it. */
  private static final String SCAN_POOL = "one scan in the store";

  private static final String SCAN_SETTING = "cairn.aggregate.max-bytes";

  /** A sorted row's slot in the buffer and in the array it is sorted in. */
  private static final long SORT_SLOT_BYTES = 16;

  /** The sorted rows once all were emitted. */
  private static final Object[][] NO_ROWS = new Object[0][];

  /** What an empty projection emits for every row. */
  private static final Object[] NO_VALUES = new Object[0];

  /** {@link #projectedColumns} entry of the row key pseudo-column. */
  private static final int KEY_COLUMN = -1;

  /** {@link #projectedColumns} entry of an expression that is not a plain column. */
  private static final int EXPRESSION = -2;

  /** Compiled programs: a prepared statement's scans compile once. Cleared when it grows large. */
  private static final int MAX_COMPILED = 512;

  private static final ConcurrentHashMap<ScanProgram, Compiled> COMPILED =
      new ConcurrentHashMap<>();

  private final RowCursor rows;
  private final Compiled compiled;
  private final RowReader reader;
  private final RowFilter filter;
  private final RowExpression[] projection;

  /** Per projected expression: the layout column it is, KEY_COLUMN or EXPRESSION. */
  private final int[] projectedColumns;

  /** The decoded row that EXPRESSION projections read with the key pseudo-column; reused. */
  private final Object[] scratch;

  private final EvalContext context;
  private final long limit;
  private final long offset;
  private final boolean readsKey;

  /** The layout columns the projection reads (not the filter's: it reads bytes). */
  private final int[] projectionColumns;

  private final List<AggregateCall> aggregates;
  private final boolean countsOnly;
  private final boolean readsRows;
  private final int partialWidth;
  private int sinceCloseCheck;
  private long emitted;
  private long skipped;
  private boolean aggregated;

  /** Limit of a grouped aggregation's hash table, in estimated bytes. */
  private final long aggregateMaxBytes;

  /** The scan's own pool (limit aggregateMaxBytes), under the caller's. */
  private final MemoryPool memory;

  /** What the sort buffer or the top-N heap holds; null before the first row. */
  private MemoryReservation sortMemory;

  /** The failure of a grouping or sorting call: its state is gone, later calls fail alike. */
  private RuntimeException failure;

  /** A grouped aggregation in progress: the groups read so far; null before the first row. */
  private Map<GroupKey, Group> groups;

  private AggregationMemory groupMemory;

  /** The groups to emit once all rows are read; null before. */
  private Iterator<Group> groupOutput;

  /** A sort in progress: the projected rows read so far (or the top ones); null before. */
  private List<Object[]> sortRows;

  private PriorityQueue<Object[]> topRows;
  private int topCapacity;

  /** The sorted rows to emit once all rows are read (offset applied at {@link #sortedAt}). */
  private Object[][] sortedOutput;

  /** The reused array of {@link #sortProbe()}. */
  private Object[] probe;

  private int sortedAt;

  /**
   * Whether a grouping or sorting program read all its input and closed the rows early (their
   * blocks are released while it emits from memory).
   */
  private boolean rowsClosed;

  /** The System.nanoTime() after which {@link #nextKept()} pauses, or NO_DEADLINE. */
  private long deadline = NO_DEADLINE;

  /** The aggregation in progress (kept between calls that pause): null before the first row. */
  private Accumulator[] accumulators;

  private int[] decimalColumns;
  private boolean anyGeneric;
  private Object[] arguments;
  private long count;
  private final AtomicInteger state = new AtomicInteger(IDLE);

  /**
   * What a scan program compiles to, shared by every scan of the same program (equal programs: the
   * same statement executed again), so that a point get does not compile its program, nor build a
   * row reader, each time. Immutable, but for one spare row reader that scans borrow and give back.
   */
  private static final class Compiled {
    final ScanProgram program;
    final RowFilter filter;
    final RowExpression[] projection;
    final int[] projectedColumns;
    final boolean anyExpression;
    final boolean readsKey;
    final boolean[] needed;
    final int[] projectionColumns;
    final boolean countsOnly;
    final int partialWidth;
    final int[] groupColumns;
    final Comparator<Object[]> order;

    /** The projection positions the sort keys name, and the layout columns they read. */
    final int[] sortPositions;

    final int[] sortColumns;
    final AtomicReference<RowReader> spare = new AtomicReference<>();

    Compiled(ScanProgram program) {
      this.program = program;
      int columnCount = program.layout().columnCount();
      this.filter = program.filter().map(f -> RowFilter.compile(f, program.layout())).orElse(null);
      this.projection =
          program.projection().stream().map(ExprCompiler::compile).toArray(RowExpression[]::new);
      this.projectedColumns = new int[projection.length];
      boolean expressions = false;
      for (int i = 0; i < projection.length; i++) {
        Expr e = program.projection().get(i);
        if (e instanceof Expr.ColumnRef ref && ref.index() >= 0 && ref.index() <= columnCount) {
          projectedColumns[i] = ref.index() == columnCount ? KEY_COLUMN : ref.index();
        } else {
          projectedColumns[i] = EXPRESSION;
          expressions = true;
        }
      }
      this.anyExpression = expressions;
      this.readsKey = readsKey(program);
      this.needed = new boolean[columnCount];
      program.filter().ifPresent(f -> markColumns(f, needed));
      program.projection().forEach(e -> markColumns(e, needed));
      boolean[] projected = new boolean[columnCount];
      program.projection().forEach(e -> markColumns(e, projected));
      this.projectionColumns = IntStream.range(0, columnCount).filter(i -> projected[i]).toArray();
      List<AggregateCall> calls = program.aggregates();
      this.countsOnly =
          !calls.isEmpty() && calls.stream().allMatch(c -> c.kind() == AggregateKind.COUNT_STAR);
      this.partialWidth = calls.stream().mapToInt(c -> Aggregates.partialTypes(c).size()).sum();
      this.groupColumns = program.groupBy().stream().mapToInt(Integer::intValue).toArray();
      this.order = program.orderBy().isEmpty() ? null : SortKey.comparator(program.orderBy());
      this.sortPositions =
          program.orderBy().stream().mapToInt(SortKey::column).distinct().toArray();
      boolean[] sortRead = new boolean[columnCount];
      for (int i : sortPositions) {
        markColumns(program.projection().get(i), sortRead);
      }
      this.sortColumns = IntStream.range(0, columnCount).filter(i -> sortRead[i]).toArray();
    }

    /** A row reader for one scan: the spare one when free, else a new one. */
    RowReader borrowReader() {
      RowReader r = spare.getAndSet(null);
      return r != null ? r : new RowReader(program.layout(), needed);
    }

    void giveBack(RowReader reader) {
      spare.compareAndSet(null, reader);
    }
  }

  /**
   * Programs with an expression deeper than this are compiled for each scan rather than cached:
   * hashing and comparing a record tree recurses through several frames per level, which can
   * exhaust a scan thread's stack long before evaluating the expression would.
   */
  private static final int MAX_CACHED_DEPTH = 64;

  private static Compiled compiled(ScanProgram program) {
    if (deeperThan(program, MAX_CACHED_DEPTH)) {
      return new Compiled(program);
    }
    Compiled c = COMPILED.get(program);
    if (c == null) {
      c = new Compiled(program);
      if (COMPILED.size() >= MAX_COMPILED) {
        COMPILED.clear();
      }
      Compiled raced = COMPILED.putIfAbsent(program, c);
      c = raced != null ? raced : c;
    }
    return c;
  }

  private static boolean deeperThan(ScanProgram program, int depth) {
    if (program.filter().isPresent() && deeperThan(program.filter().get(), depth)) {
      return true;
    }
    for (Expr e : program.projection()) {
      if (deeperThan(e, depth)) {
        return true;
      }
    }
    return false;
  }

  private static boolean deeperThan(Expr expr, int depth) {
    if (!(expr instanceof Expr.Call call)) {
      return false;
    }
    if (depth == 0) {
      return true;
    }
    for (Expr operand : call.operands()) {
      if (deeperThan(operand, depth - 1)) {
        return true;
      }
    }
    return false;
  }

  /** One group of a grouped aggregation: its key values and accumulators. */
  private record Group(Object[] keys, Accumulator[] accumulators) {}

  /**
   * Runs {@code program} over {@code rows}, which it closes when closed, a grouped aggregation
   * within {@link AggregationMemory#DEFAULT_MAX_BYTES}.
   */
  public ProgramScanner(RowCursor rows, ScanProgram program, EvalContext context) {
    this(rows, program, context, AggregationMemory.DEFAULT_MAX_BYTES);
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
    this.aggregateMaxBytes = aggregateMaxBytes;
    this.memory =
        memory == null
            ? MemoryPool.root(SCAN_POOL, aggregateMaxBytes, SCAN_SETTING, Duration.ZERO)
            : memory.child(SCAN_POOL, aggregateMaxBytes, SCAN_SETTING);
    this.rows = requireNonNull(rows, "rows is null");
    this.context = requireNonNull(context, "context is null");
    this.compiled = compiled(requireNonNull(program, "program is null"));
    this.filter = compiled.filter == null ? null : compiled.filter.bind(context);
    this.projection = compiled.projection;
    this.projectedColumns = compiled.projectedColumns;
    this.limit = program.limit();
    this.offset = program.offset();
    this.readsKey = compiled.readsKey;
    this.scratch =
        compiled.anyExpression && readsKey ? new Object[program.layout().columnCount() + 1] : null;
    this.projectionColumns = compiled.projectionColumns;
    this.aggregates = program.aggregates();
    this.countsOnly = compiled.countsOnly;
    this.readsRows = filter != null || projection.length > 0;
    this.partialWidth = compiled.partialWidth;
    this.reader = compiled.borrowReader();
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
    if (expr instanceof Expr.Call call) {
      for (Expr operand : call.operands()) { // a loop, not a stream: deep expressions recurse here
        if (reads(operand, index)) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public Object[] next() {
    return next(NO_DEADLINE);
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
    deadline = deadlineNanos;
    try {
      if (failure != null) {
        throw failure;
      }
      if (!aggregates.isEmpty()) {
        return compiled.groupColumns.length == 0 ? aggregate() : aggregateGroups();
      }
      return compiled.order == null ? advance() : sorted();
    } catch (RuntimeException e) {
      if (failure == null && (groupMemory != null || sortMemory != null)) {
        // a failed grouping or sorting scan cannot go on: its state goes at once, not at close
        failure = e;
        releaseMemory();
      }
      throw e;
    } finally {
      deadline = NO_DEADLINE;
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
      found = nextKept();
      if (found != KEPT) {
        return found == END ? null : NOT_YET;
      }
      skipped++;
    }
    found = nextKept();
    if (found != KEPT) {
      return found == END ? null : NOT_YET;
    }
    emitted++;
    return project();
  }

  /**
   * Reads and projects every kept row (keeping only the top {@code offset + limit} of them under a
   * limit), then emits them sorted, after the offset, up to the limit; NOT_YET while reading when
   * the deadline passes (the rows read so far are kept for the next call).
   */
  private Object[] sorted() {
    if (sortedOutput == null) {
      if (limit == 0) {
        return null;
      }
      Comparator<Object[]> order = compiled.order;
      if (sortRows == null && topRows == null) {
        sortMemory = memory.reservation("a sort in the store");
        long capacity = limit == ScanProgram.NO_LIMIT ? Long.MAX_VALUE : offset + limit;
        if (capacity < Integer.MAX_VALUE / 2 && capacity >= 0) {
          topCapacity = (int) capacity;
          topRows = new PriorityQueue<>(Math.min(topCapacity, 1 << 16), order.reversed());
        } else {
          sortRows = new ArrayList<>();
        }
      }
      int found;
      while ((found = nextKept()) == KEPT) {
        if (topRows == null) {
          sortRows.add(holdSorted(project()));
        } else if (topRows.size() < topCapacity) {
          topRows.add(holdSorted(project()));
        } else if (order.compare(sortProbe(), topRows.peek()) < 0) {
          // only a row that enters the top is projected whole
          sortMemory.free(SORT_SLOT_BYTES + RowSizes.row(topRows.poll()));
          topRows.add(holdSorted(project()));
        }
      }
      if (found == PAUSED) {
        return NOT_YET;
      }
      closeRowsEarly();
      Object[][] all = (topRows != null ? topRows : sortRows).toArray(new Object[0][]);
      topRows = null;
      sortRows = null;
      Arrays.sort(all, order);
      sortedOutput = all;
      sortedAt = (int) Math.min(offset, all.length);
    }
    if ((limit != ScanProgram.NO_LIMIT && emitted >= limit) || sortedAt >= sortedOutput.length) {
      sortedOutput = NO_ROWS; // every row emitted: what the sort held goes now, not at close
      sortedAt = 0;
      sortMemory.close();
      return null;
    }
    emitted++;
    Object[] row = sortedOutput[sortedAt];
    sortedOutput[sortedAt++] = null;
    return row;
  }

  /** Counts a row that the sort keeps, before it is kept. */
  private Object[] holdSorted(Object[] row) {
    sortMemory.add(SORT_SLOT_BYTES + RowSizes.row(row));
    return row;
  }

  /**
   * Feeds every kept row to the accumulators of its group (hash aggregation); once all rows are
   * read, emits one row per group: its key values, then the partial states. NOT_YET while reading
   * when the deadline passes (the groups are kept for the next call).
   */
  private Object[] aggregateGroups() {
    int[] keyColumns = compiled.groupColumns;
    if (groupOutput == null) {
      if (groups == null) {
        groups = new HashMap<>();
        groupMemory =
            new AggregationMemory(
                aggregateMaxBytes,
                SCAN_SETTING,
                "in the store (one scan)",
                memory.reservation("a grouped aggregation in the store"));
        arguments = new Object[projection.length];
      }
      int found;
      while ((found = nextKept()) == KEPT) {
        projectInto(arguments);
        GroupKey key = GroupKey.of(arguments, keyColumns);
        Group group = groups.get(key);
        if (group == null) {
          groupMemory.addGroup(arguments, keyColumns, aggregates.size());
          Object[] keys = new Object[keyColumns.length];
          for (int i = 0; i < keys.length; i++) {
            keys[i] = arguments[keyColumns[i]];
          }
          Accumulator[] accumulators = new Accumulator[aggregates.size()];
          for (int i = 0; i < accumulators.length; i++) {
            accumulators[i] = Aggregates.create(aggregates.get(i));
          }
          group = new Group(keys, accumulators);
          groups.put(key, group);
        }
        for (Accumulator accumulator : group.accumulators()) {
          accumulator.add(arguments);
        }
      }
      if (found == PAUSED) {
        return NOT_YET;
      }
      closeRowsEarly();
      groupOutput = groups.values().iterator();
      groups = null;
    }
    if (!groupOutput.hasNext()) {
      groupMemory.close(); // every group emitted: their memory goes now, not at close
      return null;
    }
    Group group = groupOutput.next();
    groupOutput.remove();
    Object[] result = new Object[keyColumns.length + partialWidth];
    System.arraycopy(group.keys(), 0, result, 0, keyColumns.length);
    int at = keyColumns.length;
    Accumulator[] accumulators = group.accumulators();
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i].writePartial(result, at);
      at += Aggregates.partialTypes(aggregates.get(i)).size();
    }
    return result;
  }

  /**
   * Moves to the next row the filter keeps, with the reader pointed at it (the cursor's views, no
   * copy): KEPT; END at the end; PAUSED when the deadline passed first (checked before the cursor
   * moves, so the next call goes on from the same place).
   */
  private int nextKept() {
    while (true) {
      if (++sinceCloseCheck >= CLOSE_CHECK_INTERVAL) {
        sinceCloseCheck = 0;
        if (state.get() == CLOSE_REQUESTED) {
          throw new CairnException(ErrorCode.OBJECT_CLOSED, "Scanner was closed during the scan");
        }
        if (deadline != NO_DEADLINE && System.nanoTime() - deadline >= 0) {
          return PAUSED;
        }
      }
      if (!rows.next()) {
        return END;
      }
      if (!readsRows) {
        return KEPT; // COUNT(*) without a filter: the row's bytes are never looked at
      }
      reader.reset(
          rows.keyArray(),
          rows.keyOffset(),
          rows.keyLength(),
          rows.valueBuffer(),
          rows.valueOffset(),
          rows.valueLength());
      if (filter == null || filter.test(reader, context)) {
        return KEPT;
      }
    }
  }

  /**
   * Feeds every row the filter keeps to the aggregates and returns their partial states, once; null
   * afterwards; NOT_YET when the deadline passed first (the states are kept for the next call).
   * COUNT(*) alone allocates nothing per row.
   */
  private Object[] aggregate() {
    if (aggregated) {
      return null;
    }
    int found;
    if (countsOnly) {
      while ((found = nextKept()) == KEPT) {
        count++;
      }
      if (found == PAUSED) {
        return NOT_YET;
      }
      aggregated = true;
      Object[] counts = new Object[aggregates.size()];
      Arrays.fill(counts, count);
      return counts;
    }
    if (accumulators == null) {
      startAggregation();
    }
    while ((found = nextKept()) == KEPT) {
      if (anyGeneric) {
        projectInto(arguments);
      }
      for (int i = 0; i < accumulators.length; i++) {
        int column = decimalColumns[i];
        if (column < 0) {
          accumulators[i].add(arguments);
        } else if (!reader.isNull(column)) {
          if (reader.decimalFitsLong(column)) {
            ((DecimalAccumulator) accumulators[i])
                .addUnscaled(reader.getUnscaledLong(column), reader.getScale(column));
          } else {
            arguments[aggregates.get(i).arguments().get(0)] = reader.getObject(column);
            accumulators[i].add(arguments);
          }
        }
      }
    }
    if (found == PAUSED) {
      return NOT_YET;
    }
    aggregated = true;
    Object[] result = new Object[partialWidth];
    int at = 0;
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i].writePartial(result, at);
      at += Aggregates.partialTypes(aggregates.get(i)).size();
    }
    return result;
  }

  private void startAggregation() {
    accumulators = new Accumulator[aggregates.size()];
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = Aggregates.create(aggregates.get(i));
    }
    // SUMs of a DECIMAL column read the column's unscaled long: no BigDecimal per row
    decimalColumns = new int[accumulators.length];
    for (int i = 0; i < accumulators.length; i++) {
      decimalColumns[i] = decimalColumn(aggregates.get(i), accumulators[i]);
      anyGeneric |= decimalColumns[i] < 0;
    }
    arguments = new Object[projection.length];
  }

  /**
   * The sort keys of the reader's current row, at their projection positions in a reused array (the
   * other positions are stale): a top-N compares this with its worst row and projects the row whole
   * only when it enters. Decodes only the columns the sort keys read.
   */
  private Object[] sortProbe() {
    if (readsKey) {
      return project();
    }
    if (probe == null) {
      probe = new Object[projection.length];
    }
    Object[] row = reader.peekDecodedRow(compiled.sortColumns);
    for (int i : compiled.sortPositions) {
      int column = projectedColumns[i];
      probe[i] = column >= 0 ? row[column] : projection[i].evaluate(row, context);
    }
    return probe;
  }

  /** The projection of the reader's current row; allocates only what it emits. */
  private Object[] project() {
    if (projection.length == 0) {
      return NO_VALUES;
    }
    Object[] result = new Object[projection.length];
    projectInto(result);
    return result;
  }

  /**
   * The layout column of DECIMAL type that {@code call} sums, when its accumulator takes unscaled
   * longs and its argument is that plain column; else -1.
   */
  private int decimalColumn(AggregateCall call, Accumulator accumulator) {
    if (!(accumulator instanceof DecimalAccumulator) || call.arguments().size() != 1) {
      return -1;
    }
    int column = projectedColumns[call.arguments().get(0)];
    return column >= 0 && compiled.program.layout().columnType(column).name() == TypeName.DECIMAL
        ? column
        : -1;
  }

  /** Evaluates the projection over the reader's current row into {@code result}. */
  private void projectInto(Object[] result) {
    if (!readsKey) {
      // each projected column decoded once per row, shared by plain columns and expressions
      Object[] row = reader.peekDecodedRow(projectionColumns);
      for (int i = 0; i < projection.length; i++) {
        int column = projectedColumns[i];
        result[i] = column >= 0 ? row[column] : projection[i].evaluate(row, context);
      }
      return;
    }
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
  }

  /** Closes the rows once all are read, when the rest of the result comes from memory. */
  private void closeRowsEarly() {
    if (!rowsClosed) {
      rowsClosed = true;
      rows.close();
    }
  }

  /**
   * Closes the rows (releasing their blocks), gives the row reader back and the memory of the
   * groups or sorted rows; once.
   */
  private void release() {
    try {
      if (!rowsClosed) {
        rowsClosed = true;
        rows.close();
      }
    } finally {
      compiled.giveBack(reader);
      releaseMemory();
    }
  }

  /** Drops the groups and sorted rows and gives their reservation back (idempotent). */
  private void releaseMemory() {
    groups = null;
    groupOutput = null;
    sortRows = null;
    topRows = null;
    sortedOutput = null;
    if (groupMemory != null) {
      groupMemory.close();
    }
    if (sortMemory != null) {
      sortMemory.close();
    }
  }

  /** Bytes the scan holds in its pool now (its groups or sorted rows), for tests. */
  public long reservedBytes() {
    return memory.used();
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
        release();
        return;
      }
      if (s == IN_NEXT && state.compareAndSet(IN_NEXT, CLOSE_REQUESTED)) {
        return;
      }
    }
  }
}
