package io.cairn.store.coprocessor;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.DecimalAccumulator;
import io.cairn.core.agg.DoubleAccumulator;
import io.cairn.core.agg.LongAccumulator;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.RowNumber;
import java.util.List;

/**
 * Feeds the current row of a scan program to one group's accumulators, reading the arguments from
 * the row's bytes without allocating where it can: COUNT(*) and COUNT of a column count, SUM and
 * AVG of a numeric expression that {@link RowNumber} compiles take its long (unscaled, for DECIMAL)
 * or double. Other calls, and a row whose value {@link RowNumber} leaves to the generic path, get
 * the projected row (decoded once per row, only when needed). One per scan; the accumulators it is
 * handed must be those {@code Aggregates.create} made for the calls.
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
  private final RowNumber[] numbers;
  private final int[] arguments;

  /** Whether some call always takes the projected row. */
  private final boolean anyGeneric;

  /** The projected row, when a call needs it. */
  private final Object[] projected;

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
  }

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

  /** Adds the reader's current row to {@code accumulators}. */
  void add(Accumulator[] accumulators) {
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
}
