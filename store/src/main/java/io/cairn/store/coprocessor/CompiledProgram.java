package io.cairn.store.coprocessor;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.error.CairnException;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.expr.RowFilter;
import io.cairn.core.expr.VectorColumn;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

/**
 * What a scan program compiles to, shared by every scan of the same program (equal programs: the
 * same statement executed again), so that a point get does not compile its program, nor build a row
 * reader, each time. Immutable, but for one spare row reader that scans borrow and give back; the
 * cache of compiled programs is thread-safe.
 */
final class CompiledProgram {
  /** {@link #projectedColumns} entry of the row key pseudo-column. */
  static final int KEY_COLUMN = -1;

  /** {@link #projectedColumns} entry of an expression that is not a plain column. */
  static final int EXPRESSION = -2;

  /** Compiled programs: a prepared statement's scans compile once. Cleared when it grows large. */
  private static final int MAX_COMPILED = 512;

  private static final ConcurrentHashMap<ScanProgram, CompiledProgram> COMPILED =
      new ConcurrentHashMap<>();

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

  /** The probe step's key expressions and residual (over the joined row), or null. */
  final RowExpression[] probeKeys;

  final RowExpression residual;

  /** The HAVING hint over a group's final row (keys, then results), or null. */
  final RowExpression having;

  /**
   * The layout columns the probe keys read, and whether they, or any joined-row expression, read
   * the row key.
   */
  final int[] probeKeyColumns;

  final boolean probeKeysReadKey;
  final boolean joinedReadsKey;

  /**
   * The layout columns a probe's joined rows are read for: the projection's, the probe keys' and
   * the residual's (not the filter's alone).
   */
  final int[] joinedColumns;

  /**
   * The build columns (0: the first) a probe's joined rows are read for, by the projection or the
   * residual: only they are copied from a matched build row.
   */
  final int[] buildColumns;

  /**
   * Whether a probe's joined rows can be read from blocks' vectors: they read neither the row key
   * nor a column without a vector ({@link VectorColumn#rowsOf}).
   */
  final boolean joinedVectors;

  /**
   * Whether the projection's rows can be read from blocks' vectors: it reads neither the row key
   * nor a column without a vector (and some column).
   */
  final boolean projectionVectors;

  /** The layout columns the filter reads. */
  final int[] filterColumns;

  /**
   * The filter over a row of decoded columns, for rows read from blocks' vectors when the vector
   * filter is incomplete; null when there is no filter, or it reads the row key or a column without
   * a vector.
   */
  final RowExpression vectorRowFilter;

  private final AtomicReference<RowReader> spare = new AtomicReference<>();

  /** An aggregation's batch arrays handed back by a finished scan, for the next one. */
  private final AtomicReference<AggregateInputs.Kit> spareAggregateKit = new AtomicReference<>();

  private CompiledProgram(ScanProgram program) {
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
    this.sortPositions = program.orderBy().stream().mapToInt(SortKey::column).distinct().toArray();
    boolean[] sortRead = new boolean[columnCount];
    for (int i : sortPositions) {
      markColumns(program.projection().get(i), sortRead);
    }
    this.sortColumns = IntStream.range(0, columnCount).filter(i -> sortRead[i]).toArray();
    this.probeKeys =
        program
            .probe()
            .map(
                p ->
                    p.probeKeys().stream().map(ExprCompiler::compile).toArray(RowExpression[]::new))
            .orElse(null);
    this.residual =
        program.probe().flatMap(p -> p.residual()).map(ExprCompiler::compile).orElse(null);
    this.having = program.having().map(ExprCompiler::compile).orElse(null);
    boolean[] keyRead = new boolean[columnCount];
    program.probe().ifPresent(p -> p.probeKeys().forEach(e -> markColumns(e, keyRead)));
    this.probeKeyColumns = IntStream.range(0, columnCount).filter(i -> keyRead[i]).toArray();
    this.probeKeysReadKey =
        program.probe().isPresent()
            && program.probe().get().probeKeys().stream().anyMatch(e -> reads(e, columnCount));
    this.joinedReadsKey =
        readsKey
            || probeKeysReadKey
            || program
                .probe()
                .flatMap(p -> p.residual())
                .map(e -> reads(e, columnCount))
                .orElse(false);
    markProbeColumns(program, needed);
    boolean[] joined = projected.clone();
    markProbeColumns(program, joined);
    this.joinedColumns = IntStream.range(0, columnCount).filter(i -> joined[i]).toArray();
    boolean[] built =
        new boolean[columnCount + 1 + program.probe().map(p -> p.buildTypes().size()).orElse(0)];
    program
        .probe()
        .ifPresent(
            p -> {
              program.projection().forEach(e -> markColumns(e, built));
              p.residual().ifPresent(e -> markColumns(e, built));
            });
    this.buildColumns =
        IntStream.range(columnCount + 1, built.length)
            .filter(i -> built[i])
            .map(i -> i - columnCount - 1)
            .toArray();
    boolean[] filterRead = new boolean[columnCount];
    program.filter().ifPresent(f -> markColumns(f, filterRead));
    this.filterColumns = IntStream.range(0, columnCount).filter(i -> filterRead[i]).toArray();
    this.vectorRowFilter =
        program.filter().isPresent()
                && !reads(program.filter().get(), columnCount)
                && haveRowVectors(filterColumns, program.layout())
            ? ExprCompiler.compile(program.filter().get())
            : null;
    this.joinedVectors = !joinedReadsKey && haveRowVectors(joinedColumns, program.layout());
    this.projectionVectors =
        !readsKey
            && projectionColumns.length > 0
            && haveRowVectors(projectionColumns, program.layout());
  }

  /** Whether each of {@code columns} of {@code layout} has a {@link VectorColumn#rowsOf} vector. */
  private static boolean haveRowVectors(int[] columns, RowLayout layout) {
    return IntStream.of(columns)
        .allMatch(i -> VectorColumn.rowsOf(i, layout.columnType(i), layout.isKeyColumn(i)) != null);
  }

  /** Checks that {@code table} is the hash table this program's probe step expects. */
  void checkProbed(JoinHashTable table) {
    HashProbe probe = program.probe().orElseThrow();
    if (table == null) {
      throw CairnException.internal("A probing scan without its hash table");
    }
    if (table.keyColumns().size() != probe.probeKeys().size()
        || table.columnCount() != probe.buildTypes().size()) {
      throw CairnException.internal(
          "Hash cache ["
              + probe.cacheId()
              + "]: expected ["
              + probe.probeKeys().size()
              + "] keys and ["
              + probe.buildTypes().size()
              + "] columns, found ["
              + table.keyColumns().size()
              + "] and ["
              + table.columnCount()
              + "]");
    }
  }

  /** A row reader for one scan: the spare one when free, else a new one. */
  RowReader borrowReader() {
    RowReader r = spare.getAndSet(null);
    return r != null ? r : new RowReader(program.layout(), needed);
  }

  void giveBack(RowReader reader) {
    spare.compareAndSet(null, reader);
  }

  /**
   * The batch arrays an aggregation of this program handed back ({@link AggregateInputs.Kit}), or
   * null; one is kept, as for readers.
   */
  AggregateInputs.Kit borrowAggregateKit() {
    return (AggregateInputs.Kit) spareAggregateKit.getAndSet(null);
  }

  void giveBackAggregateKit(AggregateInputs.Kit kit) {
    spareAggregateKit.compareAndSet(null, kit);
  }

  /**
   * Programs with an expression deeper than this are compiled for each scan rather than cached:
   * hashing and comparing a record tree recurses through several frames per level, which can
   * exhaust a scan thread's stack long before evaluating the expression would.
   */
  private static final int MAX_CACHED_DEPTH = 64;

  /** The compiled form of {@code program}: cached, unless its expressions are very deep. */
  static CompiledProgram of(ScanProgram program) {
    Last last = lastCompiled;
    if (last != null && last.asked == program) {
      return last.compiled; // a statement run again (lookups): no hash of the whole program
    }
    if (deeperThan(program, MAX_CACHED_DEPTH)) {
      return new CompiledProgram(program);
    }
    CompiledProgram c = COMPILED.get(program);
    if (c == null) {
      c = new CompiledProgram(program);
      if (COMPILED.size() >= MAX_COMPILED) {
        COMPILED.clear();
      }
      CompiledProgram raced = COMPILED.putIfAbsent(program, c);
      c = raced != null ? raced : c;
    }
    lastCompiled = new Last(program, c);
    return c;
  }

  /** The program {@link #of} was asked for last, and its compiled form. */
  private record Last(ScanProgram asked, CompiledProgram compiled) {}

  /** What {@link #of} answered last: the same program instance asked again is answered so. */
  private static volatile Last lastCompiled;

  private static boolean deeperThan(ScanProgram program, int depth) {
    if (program.filter().isPresent() && deeperThan(program.filter().get(), depth)) {
      return true;
    }
    for (Expr e : program.projection()) {
      if (deeperThan(e, depth)) {
        return true;
      }
    }
    if (program.having().isPresent() && deeperThan(program.having().get(), depth)) {
      return true;
    }
    if (program.probe().isPresent()) {
      for (Expr e : program.probe().get().probeKeys()) {
        if (deeperThan(e, depth)) {
          return true;
        }
      }
      Optional<Expr> residual = program.probe().get().residual();
      return residual.isPresent() && deeperThan(residual.get(), depth);
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

  /** Marks the table columns the probe's keys and residual read, if the program probes. */
  private static void markProbeColumns(ScanProgram program, boolean[] needed) {
    program
        .probe()
        .ifPresent(
            p -> {
              p.probeKeys().forEach(e -> markColumns(e, needed));
              p.residual().ifPresent(e -> markColumns(e, needed));
            });
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
}
