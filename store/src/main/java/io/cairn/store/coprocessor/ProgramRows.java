package io.cairn.store.coprocessor;

import static io.cairn.store.coprocessor.CompiledProgram.KEY_COLUMN;

import io.cairn.core.agg.GroupKey;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.KeySetFilter;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.expr.RowFilter;
import io.cairn.core.expr.VectorColumn;
import io.cairn.core.expr.VectorFilter;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.LongKeyIndex;
import io.cairn.store.cell.RowCursor;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The row-at-a-time part of a scan program: moves a cursor to the next row the filter keeps, read
 * in place (a {@link RowReader} pointed at the cursor's key and value views, nothing copied), and
 * projects the current row, allocating only what it emits. Checks every {@value
 * ProgramScanner#CLOSE_CHECK_INTERVAL} rows for a close from another thread and for the deadline of
 * the call.
 *
 * <p>With a {@link HashProbe} each row the filter keeps is decoded into the joined row, probed in
 * the {@link JoinHashTable}, and {@link #nextKept()} moves through its joined rows (0..n per row):
 * the aggregations, sorts and limits above see joined rows, projected by {@link #project()}.
 *
 * <p>Used by one scanning thread at a time (the {@link ProgramScanner} that owns it); holds the
 * cursor and a borrowed row reader until {@link #close()}.
 */
final class ProgramRows implements AutoCloseable {
  /** {@link #nextKept()}: a row the filter keeps is current. */
  static final int KEPT = 0;

  /** {@link #nextKept()}: no more rows. */
  static final int END = 1;

  /** {@link #nextKept()}: the deadline passed before a kept row; the cursor has not moved. */
  static final int PAUSED = 2;

  /**
   * {@link #nextKept()}: the caller asked to get control back soon ({@link #yieldSoon()}) and this
   * is it; the cursor has not moved.
   */
  static final int YIELDED = 3;

  static final long NO_DEADLINE = Long.MIN_VALUE;

  /** What an empty projection emits for every row. */
  private static final Object[] NO_VALUES = new Object[0];

  private final RowCursor rows;
  final CompiledProgram compiled;
  final RowReader reader;
  private final RowFilter filter;
  final RowExpression[] projection;

  /** Per projected expression: the layout column it is, KEY_COLUMN or EXPRESSION. */
  final int[] projectedColumns;

  /** The decoded row that EXPRESSION projections read with the key pseudo-column; reused. */
  private final Object[] scratch;

  final EvalContext context;
  final boolean readsKey;

  /** The layout columns the projection reads (not the filter's: it reads bytes). */
  private final int[] projectionColumns;

  private final boolean readsRows;

  /** Whether another thread asked the scan to close while a call runs. */
  private final BooleanSupplier closeRequested;

  private int sinceCloseCheck;

  /** Whether {@link #nextKept()} returns YIELDED at its next periodic check. */
  private boolean yieldSoon;

  /** Reads whole data blocks as column vectors when a filter or a sink can use them. */
  private final ProgramBlocks blocks;

  /** Whether a row a block's vectors selected is kept without testing the row filter. */
  private final boolean selectedKept;

  /** Whether the current row passed the probe's key filter on its block's vectors. */
  private boolean keyTested;

  /** Whether the current row is one the blocks read from vectors (the reader is not at it). */
  private boolean fromVectors;

  /** The System.nanoTime() after which {@link #nextKept()} pauses, or NO_DEADLINE. */
  private long deadline = NO_DEADLINE;

  /**
   * Whether the rows are closed: at {@link #close()}, or early by a grouping or sorting program
   * that read all its input (their blocks are released while it emits from memory).
   */
  private boolean rowsClosed;

  /** The probe step, or null; then the fields below are unused. */
  private final HashProbe probe;

  private final JoinHashTable table;

  /**
   * The table's keys as longs when they are (and the probe is in one pass and not null-aware), or
   * null: then rows find their build rows by GroupKey.
   */
  private final LongKeyIndex longIndex;

  private final RowExpression[] probeKeys;
  private final RowExpression residual;
  private final int[] keyPositions;

  /** The current probe row's key values, reused from row to row. */
  private final Object[] keyValues;

  private final int columnCount;

  /**
   * The dynamic filter of an INNER or SEMI probe: the rows whose first key cannot match are skipped
   * on their bytes, before any key is decoded; null when none applies, or once it has kept nearly
   * every row it tested (a build side holding most keys: the test only costs).
   */
  private KeySetFilter keyFilter;

  /** The probe done on blocks' vectors (after the key filter there), or null. */
  private final VectorProbe vectorProbe;

  /** The key filter's trial: dropped when it keeps nearly every row. */
  private final KeyFilterTrial keyFilterTrial = new KeyFilterTrial();

  /** The joined row: decoded columns, row key, build columns; new for every probe row. */
  private Object[] joined;

  /** Whether a probe row is current, its candidate build rows being taken. */
  private boolean matching;

  /** The current row's next candidate build row (a row number of the table), or -1. */
  private int nextMatch;

  private boolean anyMatch;

  /** For a probe that marks ({@link HashProbe#marks()}): the build rows joined; else null. */
  private final long[] joinedBuildRows;

  /** Reads {@code rows}, which it closes when closed, through {@code compiled}. */
  ProgramRows(
      RowCursor rows,
      CompiledProgram compiled,
      EvalContext context,
      BooleanSupplier closeRequested) {
    this(rows, compiled, context, closeRequested, null);
  }

  /**
   * Reads {@code rows}, which it closes when closed, through {@code compiled}, probing {@code
   * table} when the program has a probe step.
   */
  ProgramRows(
      RowCursor rows,
      CompiledProgram compiled,
      EvalContext context,
      BooleanSupplier closeRequested,
      JoinHashTable table) {
    this.rows = rows;
    this.compiled = compiled;
    this.context = context;
    this.closeRequested = closeRequested;
    this.filter = compiled.filter == null ? null : compiled.filter.bind(context);
    this.projection = compiled.projection;
    this.probe = compiled.program.probe().orElse(null);
    this.columnCount = compiled.program.layout().columnCount();
    if (probe != null) {
      compiled.checkProbed(table);
      this.table = table;
      this.probeKeys = compiled.probeKeys;
      this.residual = compiled.residual;
      this.keyPositions = new int[probeKeys.length];
      this.keyValues = new Object[probeKeys.length];
      this.vectorProbe = VectorProbe.of(probe, table, compiled.program.layout());
      this.keyFilter = ProgramBlocks.keyFilter(probe, table, compiled.program.layout());
      this.longIndex =
          probe.partitions() == HashProbe.ALL && !probe.nullAware() ? table.longKeys() : null;
      for (int i = 0; i < keyPositions.length; i++) {
        keyPositions[i] = i;
      }
      this.joinedBuildRows = probe.marks() ? new long[(int) ((table.rowCount() + 63) >>> 6)] : null;
      // joined rows are projected as a whole (no per-column fast paths)
      int[] expressions = new int[compiled.projection.length];
      Arrays.fill(expressions, CompiledProgram.EXPRESSION);
      this.projectedColumns = expressions;
    } else {
      this.table = null;
      this.probeKeys = null;
      this.residual = null;
      this.keyPositions = null;
      this.keyValues = null;
      this.keyFilter = null;
      this.vectorProbe = null;
      this.longIndex = null;
      this.joinedBuildRows = null;
      this.projectedColumns = compiled.projectedColumns;
    }
    this.readsKey = compiled.readsKey || probe != null;
    this.scratch =
        compiled.anyExpression && readsKey
            ? new Object[compiled.program.layout().columnCount() + 1]
            : null;
    this.projectionColumns = compiled.projectionColumns;
    this.readsRows = filter != null || projection.length > 0 || probe != null;
    this.reader = compiled.borrowReader();
    // over lookups' point ranges no block is offered: nothing to test blocks with is made
    boolean blocksOffered = rows.mayOfferBlocks();
    VectorFilter vectorFilter = filter == null || !blocksOffered ? null : filter.vectorFilter();
    this.selectedKept = filter == null || (vectorFilter != null && vectorFilter.complete());
    this.blocks =
        new ProgramBlocks(
            rows,
            compiled,
            vectorFilter,
            blocksOffered ? keyFilter : null,
            blocksOffered ? vectorProbe : null);
    if (probe != null && compiled.joinedVectors) {
      readRowsFromVectors(compiled.joinedColumns);
    }
  }

  /**
   * Reads the rows of blocks from their vectors of {@code columns} and, when the vector filter is
   * incomplete, of the filter's columns, if those have vectors (then the filter is tested on the
   * decoded row); otherwise rows are read one at a time.
   */
  private void readRowsFromVectors(int[] columns) {
    if (selectedKept) {
      blocks.rowsFromVectors(columns, null, null, context);
    } else if (compiled.vectorRowFilter != null) {
      blocks.rowsFromVectors(columns, compiled.filterColumns, compiled.vectorRowFilter, context);
    }
  }

  /**
   * Reads the projection's rows of blocks from their vectors when it can (its filter complete, its
   * columns with vectors): for a scan that projects each row it keeps, without an aggregation or a
   * sort; call before the first row.
   */
  void projectFromVectors() {
    if (probe == null && compiled.projectionVectors) {
      readRowsFromVectors(compiled.projectionColumns);
    }
  }

  /**
   * Lets {@code sink} take whole blocks whose vectors have {@code columns} (besides the filter's),
   * when the filter is complete or absent; call before the first row.
   */
  void sinkBlocks(BlockSink sink, List<VectorColumn> columns) {
    if (probe == null && selectedKept) {
      blocks.sink(sink, columns);
    }
  }

  /** Stops handing blocks to the sink (which keeps refusing them); a vector filter still skips. */
  void stopSinking() {
    blocks.stopSinking();
  }

  /** Whether the rows are joined rows of a probe step (projected as a whole). */
  boolean probes() {
    return probe != null;
  }

  /** The cursor, at the current row: a sort copies the row's key and value bytes from it. */
  RowCursor currentRow() {
    return rows;
  }

  /**
   * The projection of a row held elsewhere (a sort's copy of its bytes), read by pointing the
   * reader at it; only for programs without a probe step that do not read the row key, once the
   * cursor's rows are all read.
   */
  Object[] projectCopy(
      byte[] key,
      int keyOffset,
      int keyLength,
      ByteBuffer value,
      int valueOffset,
      int valueLength) {
    reader.reset(key, keyOffset, keyLength, value, valueOffset, valueLength);
    return project();
  }

  /**
   * Asks {@link #nextKept()} to return YIELDED at its next periodic check (within {@value
   * ProgramScanner#CLOSE_CHECK_INTERVAL} rows or a block): a grouping whose blocks made many groups
   * emits them.
   */
  void yieldSoon() {
    yieldSoon = true;
  }

  /** Whether the cursor's rows come in key order ({@link RowCursor#inKeyOrder()}). */
  boolean inKeyOrder() {
    return rows.inKeyOrder();
  }

  /** Sets the System.nanoTime() after which {@link #nextKept()} pauses, or NO_DEADLINE. */
  void deadline(long deadlineNanos) {
    this.deadline = deadlineNanos;
  }

  /**
   * Moves to the next row the filter keeps, with the reader pointed at it (the cursor's views, no
   * copy): KEPT; END at the end; PAUSED when the deadline passed first (checked before the cursor
   * moves, so the next call goes on from the same place).
   */
  int nextKept() {
    return probe == null ? nextFiltered() : nextJoined();
  }

  /** {@link #nextKept()} with a probe step: the next joined row. */
  private int nextJoined() {
    while (true) {
      if (matching) {
        while (nextMatch >= 0) {
          int match = nextMatch;
          nextMatch = table.next(match);
          if (joinedBuildRows != null && (joinedBuildRows[match >>> 6] & 1L << match) != 0) {
            continue; // joined to an earlier row: marked already
          }
          setBuild(match);
          if (residual != null && !Boolean.TRUE.equals(residual.evaluate(joined, context))) {
            continue;
          }
          anyMatch = true;
          switch (probe.kind()) {
            case INNER, LEFT -> {
              if (joinedBuildRows != null) {
                joinedBuildRows[match >>> 6] |= 1L << match;
              }
              return KEPT;
            }
            case SEMI -> {
              matching = false;
              setBuild(-1);
              return KEPT;
            }
            case ANTI -> nextMatch = -1; // the row is out
          }
        }
        matching = false;
        if (!anyMatch
            && (probe.kind() == HashProbe.Kind.LEFT || probe.kind() == HashProbe.Kind.ANTI)) {
          setBuild(-1);
          return KEPT;
        }
      }
      int found = nextFiltered();
      if (found != KEPT) {
        return found;
      }
      if (keyFilter != null && !keyTested && !keepsKey()) {
        continue; // its key is none of the build side's
      }
      if (vectorProbe != null && keyTested) {
        // the block's vectors were probed: the row has a match
        joined = joinedRow();
        matching = true;
        nextMatch = blocks.match(fromVectors);
        anyMatch = false;
        continue;
      }
      Object[] keyRow;
      if (compiled.probeKeysReadKey) {
        joined = joinedRow();
        keyRow = joined;
      } else {
        // only the key columns decoded, into the reader's own array (or the row read from
        // vectors): a row that matches nothing costs no joined row
        joined = null;
        keyRow = fromVectors ? blocks.vectorRow() : reader.peekDecodedRow(compiled.probeKeyColumns);
      }
      Object[] keyValues = this.keyValues; // GroupKey.of copies them
      for (int i = 0; i < keyValues.length; i++) {
        keyValues[i] = probeKeys[i].evaluate(keyRow, context);
      }
      int candidate;
      if (longIndex != null) {
        candidate = longIndex.first(keyValues);
      } else {
        GroupKey key = GroupKey.of(keyValues, keyPositions);
        if (!probe.takes(key)) {
          continue; // another pass probes this row's partition
        }
        if (probe.nullAware() && table.rowCount() > 0 && (key.hasNull() || table.hasNullKey())) {
          continue; // x NOT IN (list with a NULL), NULL NOT IN (non-empty list): UNKNOWN, not kept
        }
        candidate = table.first(key);
      }
      if (candidate < 0
          && (probe.kind() == HashProbe.Kind.INNER || probe.kind() == HashProbe.Kind.SEMI)) {
        continue;
      }
      if (joined == null) {
        joined = joinedRow();
      }
      matching = true;
      nextMatch = candidate;
      anyMatch = false;
    }
  }

  /** The key filter's test of the current row, counted in its trial. */
  private boolean keepsKey() {
    boolean kept = keyFilter.test(reader);
    if (keyFilterTrial.dropAfter(1, kept ? 1 : 0)) {
      keyFilter = null;
    }
    return kept;
  }

  /** A new joined row holding the current row's decoded columns (and row key when read). */
  private Object[] joinedRow() {
    Object[] row = new Object[columnCount + 1 + table.columnCount()];
    if (fromVectors) {
      System.arraycopy(blocks.vectorRow(), 0, row, 0, columnCount); // never reads the row key
      return row;
    }
    reader.decodeInto(row);
    if (compiled.joinedReadsKey) {
      row[columnCount] = copyKey();
    }
    return row;
  }

  /**
   * Puts build row {@code build}'s values that the program reads (-1: NULLs) after the probe row's
   * in the joined row.
   */
  private void setBuild(int build) {
    if (build < 0) {
      Arrays.fill(joined, columnCount + 1, joined.length, null);
    } else {
      table.copyRow(build, compiled.buildColumns, joined, columnCount + 1);
    }
  }

  /** The next row the filter keeps (see {@link #nextKept()}). */
  private int nextFiltered() {
    fromVectors = false;
    while (true) {
      if (++sinceCloseCheck >= ProgramScanner.CLOSE_CHECK_INTERVAL) {
        sinceCloseCheck = 0;
        if (closeRequested.getAsBoolean()) { // checked every interval, or after a block
          throw new CairnException(ErrorCode.OBJECT_CLOSED, "Scanner was closed during the scan");
        }
        if (deadline != NO_DEADLINE && System.nanoTime() - deadline >= 0) {
          return PAUSED;
        }
        if (yieldSoon) {
          yieldSoon = false;
          return YIELDED;
        }
      }
      if (blocks.nextVectorRow()) {
        // a row read from its block's vectors: the key filter and the filter were applied
        fromVectors = true;
        keyTested = true;
        return KEPT;
      }
      int skipped = blocks.skipOffered();
      if (skipped > 0) {
        sinceCloseCheck += skipped;
        continue;
      }
      if (!rows.next()) {
        return END;
      }
      switch (blocks.guide()) {
        case ProgramBlocks.PASSED_OVER -> {
          continue; // a row of a block the vectors rejected: passed over undecoded
        }
        case ProgramBlocks.SELECTED -> {
          pointReader();
          keyTested = blocks.keyed();
          if (selectedKept || filter.test(reader, context)) {
            return KEPT;
          }
          continue;
        }
        default -> keyTested = false;
      }
      if (!readsRows) {
        return KEPT; // COUNT(*) without a filter: the row's bytes are never looked at
      }
      pointReader();
      if (filter == null || filter.test(reader, context)) {
        return KEPT;
      }
    }
  }

  /** Points the reader at the cursor's current row (its views: nothing copied). */
  private void pointReader() {
    reader.reset(
        rows.keyArray(),
        rows.keyOffset(),
        rows.keyLength(),
        rows.valueBuffer(),
        rows.valueOffset(),
        rows.valueLength());
  }

  /** The projection of the reader's current row; allocates only what it emits. */
  Object[] project() {
    if (projection.length == 0) {
      return NO_VALUES;
    }
    Object[] result = new Object[projection.length];
    projectInto(result);
    return result;
  }

  /** Evaluates the projection over the reader's current row into {@code result}. */
  void projectInto(Object[] result) {
    if (probe != null) {
      // a new array for the next joined row, so the values may be shared with it
      for (int i = 0; i < projection.length; i++) {
        result[i] = projection[i].evaluate(joined, context);
      }
      return;
    }
    if (!readsKey) {
      // each projected column decoded once per row (or read from vectors), shared by plain
      // columns and expressions
      Object[] row = fromVectors ? blocks.vectorRow() : reader.peekDecodedRow(projectionColumns);
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

  private byte[] copyKey() {
    int offset = rows.keyOffset();
    return Arrays.copyOfRange(rows.keyArray(), offset, offset + rows.keyLength());
  }

  /** Closes the rows once all are read, when the rest of the result comes from memory. */
  void closeRowsEarly() {
    if (!rowsClosed) {
      rowsClosed = true;
      rows.close();
    }
  }

  /** Closes the rows (releasing their blocks) if not yet, and gives the row reader back; once. */
  @Override
  public void close() {
    try {
      closeRowsEarly();
    } finally {
      compiled.giveBack(reader);
      blocks.close();
    }
  }
}
