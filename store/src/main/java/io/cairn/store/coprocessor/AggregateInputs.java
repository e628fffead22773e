package io.cairn.store.coprocessor;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.DecimalAccumulator;
import io.cairn.core.agg.DoubleAccumulator;
import io.cairn.core.agg.LongAccumulator;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.ColumnVectors;
import io.cairn.core.expr.NumberBatch;
import io.cairn.core.expr.RowNumber;
import io.cairn.core.expr.VectorColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Feeds the current row of a scan program to one group's accumulators, reading the arguments from
 * the row's bytes without allocating where it can: COUNT(*) and COUNT of a column count, SUM and
 * AVG of a numeric expression that {@link RowNumber} compiles take its long (unscaled, for DECIMAL)
 * or double. Other calls, and a row whose value {@link RowNumber} leaves to the generic path, get
 * the projected row (decoded once per row, only when needed). One per scan; the accumulators it is
 * handed must be those {@code Aggregates.create} made for the calls.
 *
 * <p>When some call is a SUM or AVG that {@link RowNumber} compiles (and the rows are a table's,
 * not joined rows, and nothing reads the row key), rows are fed in batches: {@link #add} reads the
 * row's numeric columns into a {@link NumberBatch} (each column once, however many calls use it)
 * and copies its bytes (for a row whose value must come from the generic path), with the
 * accumulators it goes to; every {@link NumberBatch#CAPACITY} rows, and at {@link #flush()}, which
 * the caller calls once all rows are read, each call's values are computed for the whole batch in
 * one loop per expression node ({@link RowNumber#evalBatch}) and added: the same values, in the
 * same order per accumulator, as one row at a time, but that a batch of rows of at most {@link
 * #MAX_GROUPS} groups adds a DECIMAL call's values summed exactly per group (an exact sum does not
 * depend on the order of its terms).
 */
final class AggregateInputs {
  private static final int GENERIC = 0;
  private static final int COUNT_ROW = 1;
  private static final int COUNT_COLUMN = 2;
  private static final int NUMBER = 3;

  private final ProgramRows rows;
  private final RowReader reader;
  private final int[] kinds;
  private final int[] columns;
  private RowNumber[] numbers;
  private final int[] arguments;

  /** Whether some call always takes the projected row. */
  private final boolean anyGeneric;

  /** The projected row, when a call needs it. */
  private final Object[] projected;

  /** What the batches use, or null when rows are added one at a time (or once finished). */
  private Kit kit;

  /** The rows waiting to be added, or null when rows are added one at a time. */
  private final RowBatch batch;

  /** The numbers' columns of the batch's rows; null when not batched. */
  private final NumberBatch numberBatch;

  /** Per batched row: the accumulators it goes to. */
  private final Accumulator[][] batchTargets;

  /** Per batched row, for COUNT of a column: whether the column is NULL. */
  private final boolean[][] batchNulls;

  AggregateInputs(ProgramRows rows, Accumulator[] accumulators) {
    this.rows = rows;
    this.reader = rows.reader;
    List<AggregateCall> calls = rows.compiled.program.aggregates();
    kinds = new int[calls.size()];
    columns = new int[calls.size()];
    numbers = new RowNumber[calls.size()];
    arguments = new int[calls.size()];
    boolean generic = false;
    for (int i = 0; i < kinds.length; i++) {
      kinds[i] = kind(calls.get(i), accumulators[i], i);
      generic |= kinds[i] == GENERIC;
    }
    anyGeneric = generic;
    projected = new Object[rows.projection.length];
    boolean anyNumber = false;
    for (RowNumber number : numbers) {
      anyNumber |= number != null;
    }
    if (anyNumber && !rows.probes() && !rows.readsKey) {
      // the batch's arrays, vectors and trees come from the last scan of the program that
      // finished, when there is one: a chunked scan runs the program hundreds of times
      Kit kit = rows.compiled.borrowAggregateKit();
      if (kit == null || kit.numbers.length != numbers.length) {
        kit = new Kit(numbers, kinds, rows.compiled.program.layout().columnCount());
      }
      this.kit = kit;
      numbers = kit.numbers;
      batch = kit.batch;
      numberBatch = kit.numberBatch;
      batchTargets = kit.targets;
      batchNulls = kit.nulls;
    } else {
      kit = null;
      batch = null;
      numberBatch = null;
      batchTargets = null;
      batchNulls = null;
    }
    firstWithArgument = firstWithArguments();
    blockSums = new BlockSums(kinds.length);
  }

  /**
   * What a batched aggregation needs besides its accumulators: the compiled trees (with their
   * vectors), the row batch and the column vectors; handed from one scan of a program to the next
   * through its {@link CompiledProgram}.
   */
  static final class Kit {
    final RowNumber[] numbers;
    final RowBatch batch = new RowBatch();
    final NumberBatch numberBatch;
    final Accumulator[][] targets = new Accumulator[NumberBatch.CAPACITY][];
    final boolean[][] nulls;

    /** Per batched row: the index of its targets among {@link #distinct}. */
    final int[] groups = new int[NumberBatch.CAPACITY];

    /** The batch's distinct targets (groups), while there are at most {@link #MAX_GROUPS}. */
    final Accumulator[][] distinct = new Accumulator[MAX_GROUPS][];

    /** Per distinct target: the exact sum of a call's unscaled values, and how many. */
    final long[] sums = new long[MAX_GROUPS];

    final long[] counts = new long[MAX_GROUPS];

    Kit(RowNumber[] numbers, int[] kinds, int columnCount) {
      this.numbers = numbers.clone();
      List<RowNumber> batched = new ArrayList<>();
      for (RowNumber number : numbers) {
        if (number != null) {
          batched.add(number);
        }
      }
      numberBatch = new NumberBatch(batched, columnCount);
      nulls = new boolean[kinds.length][];
      for (int i = 0; i < kinds.length; i++) {
        if (kinds[i] == COUNT_COLUMN) {
          nulls[i] = new boolean[NumberBatch.CAPACITY];
        }
      }
    }
  }

  /**
   * Batches with rows of at most this many groups add a DECIMAL call's values summed per group (one
   * {@link DecimalAccumulator#addUnscaledSum} per group instead of an add per row).
   */
  static final int MAX_GROUPS = 8;

  /** How many of the kit's {@code distinct} targets the batch has, or -1: more than MAX_GROUPS. */
  private int distinctCount;

  /** The index among the distinct targets of the last row added. */
  private int lastGroup;

  private int kind(AggregateCall call, Accumulator accumulator, int i) {
    if (call.distinct()) {
      return GENERIC;
    }
    switch (call.kind()) {
      case COUNT_STAR -> {
        return accumulator instanceof LongAccumulator ? COUNT_ROW : GENERIC;
      }
      case COUNT -> {
        int column =
            call.arguments().size() == 1
                ? rows.projectedColumns[call.arguments().get(0)]
                : CompiledProgram.EXPRESSION;
        if (column >= 0 && accumulator instanceof LongAccumulator) {
          columns[i] = column;
          return COUNT_COLUMN;
        }
        return GENERIC;
      }
      case SUM, SUM0, AVG -> {
        if (!rows.probes()) { // a joined row is projected as a whole
          int argument = call.arguments().get(0);
          RowNumber number =
              RowNumber.compile(
                  rows.compiled.program.projection().get(argument), rows.compiled.program.layout());
          if (number != null && takes(accumulator, number)) {
            numbers[i] = number;
            arguments[i] = argument;
            return NUMBER;
          }
        }
        return GENERIC;
      }
      default -> {
        return GENERIC;
      }
    }
  }

  private static boolean takes(Accumulator accumulator, RowNumber number) {
    if (number.floating()) {
      return accumulator instanceof DoubleAccumulator;
    }
    return number.scale() == 0 && accumulator instanceof LongAccumulator
        || accumulator instanceof DecimalAccumulator;
  }

  /**
   * The columns a block's vectors must have for {@link #addBlock}, or null when some call cannot be
   * added from vectors (it needs the row, or COUNT of a column).
   */
  List<VectorColumn> vectorColumns() {
    for (int kind : kinds) {
      if (kind != COUNT_ROW && kind != NUMBER) {
        return null;
      }
    }
    if (numberBatch == null) {
      return List.of();
    }
    if (vectorColumns == null) {
      vectorColumns = numberBatch.vectorColumns();
    }
    return vectorColumns;
  }

  private List<VectorColumn> vectorColumns;

  /**
   * Adds the {@code count} rows of {@code run} at {@code selection[0, count)} (all, in order, when
   * null) to {@code accumulators}, from the vectors of {@link #vectorColumns()}; false, having
   * added nothing, when a run of more than a batch's rows or a value the vectors cannot give (a
   * number that leaves the exact path) asks for the rows to be read one at a time.
   */
  boolean addBlock(Accumulator[] accumulators, ColumnVectors run, int[] selection, int count) {
    blockGroups[0] = accumulators;
    return addBlock(blockGroups, 1, null, run, selection, count);
  }

  private final Accumulator[][] blockGroups = new Accumulator[1][];

  /**
   * As {@link #addBlock(Accumulator[], ColumnVectors, int[], int)}, row {@code i} of the {@code
   * count} going to the accumulators {@code groups[groupOfRow[i]]} (of {@code groupCount}; group 0
   * when {@code groupOfRow} is null).
   */
  boolean addBlock(
      Accumulator[][] groups,
      int groupCount,
      int[] groupOfRow,
      ColumnVectors run,
      int[] selection,
      int count) {
    if (count > NumberBatch.CAPACITY) {
      return false;
    }
    blockSums.newBlock();
    if (numberBatch != null) {
      flush();
      numberBatch.gather(run, vectorColumns, selection, 0, count);
      for (int i = 0; i < kinds.length; i++) {
        if (kinds[i] == NUMBER && sameArgument(i) == i) {
          RowNumber number = numbers[i];
          number.evalBatch(numberBatch, count);
          byte[] status = number.batchStatus;
          for (int row = 0; row < count; row++) {
            if (status[row] == RowNumber.GENERIC) {
              return false;
            }
          }
        }
      }
    }
    for (int i = 0; i < kinds.length; i++) {
      if (kinds[i] == COUNT_ROW) {
        for (int row = 0; row < count; row++) {
          // COUNT(*) counts a row per call
          ((LongAccumulator) groups[groupOfRow == null ? 0 : groupOfRow[row]][i]).addLong(1);
        }
      } else {
        // a call with the argument of an earlier one (SUM(x) and AVG(x)) takes its values
        int source = sameArgument(i);
        blockSums.add(groups, groupCount, groupOfRow, i, source, numbers[source], count);
      }
    }
    return true;
  }

  /**
   * The first NUMBER call whose argument (projected expression) is call {@code i}'s, which computes
   * the same values: itself when none before.
   */
  private int sameArgument(int i) {
    return firstWithArgument[i];
  }

  /** Per call, {@link #sameArgument}: made with the calls, not on a first block (see BlockSums). */
  private final int[] firstWithArgument;

  private int[] firstWithArguments() {
    int[] first = new int[kinds.length];
    for (int c = 0; c < kinds.length; c++) {
      first[c] = c;
      for (int e = 0; e < c; e++) {
        if (kinds[c] == NUMBER
            && kinds[e] == NUMBER
            && arguments[e] == arguments[c]
            && numbers[e].scale() == numbers[c].scale()
            && numbers[e].floating() == numbers[c].floating()) {
          first[c] = e;
          break;
        }
      }
    }
    return first;
  }

  /** Adds a block's values to its groups. */
  private final BlockSums blockSums;

  /**
   * Whether every call only counts rows (COUNT(*) into a {@link LongAccumulator}): adding a row to
   * accumulators is then {@code addLong(1)} on each, and needs nothing of the row.
   */
  boolean countsRowsOnly() {
    for (int kind : kinds) {
      if (kind != COUNT_ROW) {
        return false;
      }
    }
    return batch == null;
  }

  /**
   * Adds the reader's current row to {@code accumulators}: at once, or in a batch that is added
   * when full and at {@link #flush()}.
   */
  void add(Accumulator[] accumulators) {
    if (batch != null) {
      if (kit == null) {
        throw new IllegalStateException("Rows added to finished aggregate inputs");
      }
      addToBatch(accumulators);
      return;
    }
    boolean decoded = false;
    if (anyGeneric) {
      rows.projectInto(projected);
      decoded = true;
    }
    for (int i = 0; i < accumulators.length; i++) {
      Accumulator accumulator = accumulators[i];
      switch (kinds[i]) {
        case COUNT_ROW -> ((LongAccumulator) accumulator).addLong(1);
        case COUNT_COLUMN -> {
          if (!reader.isNull(columns[i])) {
            ((LongAccumulator) accumulator).addLong(1);
          }
        }
        case NUMBER -> {
          RowNumber number = numbers[i];
          int status = number.eval(reader);
          if (status == RowNumber.VALUE) {
            if (number.floating()) {
              ((DoubleAccumulator) accumulator).addDouble(number.doubleValue);
            } else if (number.scale() == 0 && accumulator instanceof LongAccumulator longs) {
              longs.addLong(number.value);
            } else {
              ((DecimalAccumulator) accumulator).addUnscaled(number.value, number.scale());
            }
          } else if (status == RowNumber.GENERIC) {
            if (!decoded) {
              rows.projectInto(projected);
              decoded = true;
            }
            accumulator.add(projected);
          }
        }
        default -> accumulator.add(projected);
      }
    }
  }

  /**
   * Puts the reader's current row in the batch: its numbers' columns read into the {@link
   * NumberBatch} (the row's header was parsed by the filter or the group lookup already), its bytes
   * copied (for a row whose value must come from the generic path); calls that take the projected
   * row get it at once.
   */
  private void addToBatch(Accumulator[] accumulators) {
    int row = batch.size();
    batchTargets[row] = accumulators;
    if (distinctCount >= 0) {
      kit.groups[row] = groupOf(accumulators);
    }
    numberBatch.read(reader, row);
    boolean decoded = false;
    for (int i = 0; i < kinds.length; i++) {
      if (kinds[i] == COUNT_COLUMN) {
        batchNulls[i][row] = reader.isNull(columns[i]);
      } else if (kinds[i] == GENERIC) {
        if (!decoded) {
          rows.projectInto(projected);
          decoded = true;
        }
        accumulators[i].add(projected);
      }
    }
    batch.add(rows.currentRow());
    if (batch.full()) {
      flush();
    }
  }

  /**
   * The index of {@code accumulators} among the batch's distinct targets, added when new; sets
   * {@link #distinctCount} to -1 when there are more than {@link #MAX_GROUPS}.
   */
  private int groupOf(Accumulator[] accumulators) {
    Accumulator[][] distinct = kit.distinct;
    if (distinctCount > 0 && distinct[lastGroup] == accumulators) {
      return lastGroup;
    }
    for (int g = 0; g < distinctCount; g++) {
      if (distinct[g] == accumulators) {
        lastGroup = g;
        return g;
      }
    }
    if (distinctCount == MAX_GROUPS) {
      distinctCount = -1;
      return -1;
    }
    distinct[distinctCount] = accumulators;
    lastGroup = distinctCount;
    return distinctCount++;
  }

  /**
   * Adds the batched rows to their accumulators (nothing when rows are added one at a time); the
   * caller calls it once every row is read, before it reads the accumulators. Leaves the reader
   * pointed at a row of the batch.
   */
  void flush() {
    if (batch == null || batch.size() == 0) {
      return;
    }
    int n = batch.size();
    int projectedRow = -1; // the batch row whose projection {@link #projected} holds
    for (int i = 0; i < kinds.length; i++) {
      switch (kinds[i]) {
        case COUNT_ROW -> {
          for (int row = 0; row < n; row++) {
            ((LongAccumulator) batchTargets[row][i]).addLong(1);
          }
        }
        case COUNT_COLUMN -> {
          boolean[] nulls = batchNulls[i];
          for (int row = 0; row < n; row++) {
            if (!nulls[row]) {
              ((LongAccumulator) batchTargets[row][i]).addLong(1);
            }
          }
        }
        case NUMBER -> projectedRow = addNumbers(i, n, projectedRow);
        default -> {} // added with the row
      }
    }
    Arrays.fill(batchTargets, 0, n, null);
    Arrays.fill(kit.distinct, null);
    distinctCount = 0;
    batch.clear();
  }

  /**
   * {@link #flush()}, once every row is read, and hands the batch's arrays to the program's next
   * scan; nothing may be added afterwards.
   */
  void finish() {
    flush();
    if (kit != null) {
      Kit done = kit;
      kit = null;
      rows.compiled.giveBackAggregateKit(done);
    }
  }

  /** Adds call {@code i}'s values of the batch's {@code n} rows; returns the projected row. */
  private int addNumbers(int i, int n, int projectedRow) {
    RowNumber number = numbers[i];
    number.evalBatch(numberBatch, n);
    byte[] status = number.batchStatus;
    Accumulator[][] targets = batchTargets;
    if (number.floating()) {
      double[] values = number.batchDoubles;
      for (int row = 0; row < n; row++) {
        if (status[row] == RowNumber.VALUE) {
          ((DoubleAccumulator) targets[row][i]).addDouble(values[row]);
        } else if (status[row] == RowNumber.GENERIC) {
          projectedRow = project(row, projectedRow);
          targets[row][i].add(projected);
        }
      }
      return projectedRow;
    }
    long[] values = number.batchValues;
    int scale = number.scale();
    boolean longs = scale == 0 && targets[0][i] instanceof LongAccumulator;
    if (!longs && distinctCount > 0) {
      return addSumsPerGroup(i, n, projectedRow, values, status, scale);
    }
    for (int row = 0; row < n; row++) {
      if (status[row] == RowNumber.VALUE) {
        if (longs) {
          ((LongAccumulator) targets[row][i]).addLong(values[row]);
        } else {
          ((DecimalAccumulator) targets[row][i]).addUnscaled(values[row], scale);
        }
      } else if (status[row] == RowNumber.GENERIC) {
        projectedRow = project(row, projectedRow);
        targets[row][i].add(projected);
      }
    }
    return projectedRow;
  }

  /**
   * {@link #addNumbers} of a DECIMAL call for a batch of at most {@link #MAX_GROUPS} groups: the
   * values of each group summed exactly in a long (a sum about to overflow is added and started
   * again), then added once per group; a row of the generic path is added at once.
   */
  private int addSumsPerGroup(
      int i, int n, int projectedRow, long[] values, byte[] status, int scale) {
    int[] groups = kit.groups;
    long[] sums = kit.sums;
    long[] counts = kit.counts;
    Accumulator[][] distinct = kit.distinct;
    Arrays.fill(sums, 0, distinctCount, 0);
    Arrays.fill(counts, 0, distinctCount, 0);
    for (int row = 0; row < n; row++) {
      if (status[row] == RowNumber.VALUE) {
        int g = groups[row];
        long sum = sums[g];
        long value = values[row];
        long r = sum + value;
        if (((sum ^ r) & (value ^ r)) < 0) {
          // overflow only when both terms have the sign the result lacks
          ((DecimalAccumulator) distinct[g][i]).addUnscaledSum(sum, scale, counts[g]);
          r = value;
          counts[g] = 0;
        }
        sums[g] = r;
        counts[g]++;
      } else if (status[row] == RowNumber.GENERIC) {
        projectedRow = project(row, projectedRow);
        batchTargets[row][i].add(projected);
      }
    }
    for (int g = 0; g < distinctCount; g++) {
      if (counts[g] > 0) {
        ((DecimalAccumulator) distinct[g][i]).addUnscaledSum(sums[g], scale, counts[g]);
      }
    }
    return projectedRow;
  }

  /** Projects batch row {@code row} into {@link #projected} unless it holds it already. */
  private int project(int row, int projectedRow) {
    if (row != projectedRow) {
      batch.point(reader, row);
      rows.projectInto(projected);
    }
    return row;
  }
}
