package io.cairn.store.coprocessor;

import static io.cairn.store.coprocessor.ProgramRows.KEPT;
import static io.cairn.store.coprocessor.ProgramRows.PAUSED;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.agg.DecimalAccumulator;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.type.TypeName;
import java.util.Arrays;
import java.util.List;

/**
 * The aggregation of a program without a GROUP BY: feeds every kept row to the accumulators and
 * emits one row of partial states. COUNT(*) alone only counts; a SUM of a DECIMAL column reads the
 * column's unscaled long (no BigDecimal per row). Its state is a few accumulators, not counted
 * against a memory pool. Used by the scanning thread of its {@link ProgramScanner} only.
 */
final class ProgramAggregation {
  private final ProgramRows rows;
  private final List<AggregateCall> aggregates;
  private final boolean countsOnly;
  private final int partialWidth;
  private boolean aggregated;

  /** The aggregation in progress (kept between calls that pause): null before the first row. */
  private Accumulator[] accumulators;

  private int[] decimalColumns;
  private boolean anyGeneric;
  private Object[] arguments;
  private long count;

  ProgramAggregation(ProgramRows rows) {
    this.rows = rows;
    this.aggregates = rows.compiled.program.aggregates();
    this.countsOnly = rows.compiled.countsOnly;
    this.partialWidth = rows.compiled.partialWidth;
  }

  /**
   * Feeds every row the filter keeps to the aggregates and returns their partial states, once; null
   * afterwards; NOT_YET when the deadline passed first (the states are kept for the next call).
   * COUNT(*) alone allocates nothing per row.
   */
  Object[] next() {
    if (aggregated) {
      return null;
    }
    int found;
    if (countsOnly) {
      while ((found = rows.nextKept()) == KEPT) {
        count++;
      }
      if (found == PAUSED) {
        return ProgramScanner.NOT_YET;
      }
      aggregated = true;
      Object[] counts = new Object[aggregates.size()];
      Arrays.fill(counts, count);
      return counts;
    }
    if (accumulators == null) {
      start();
    }
    RowReader reader = rows.reader;
    while ((found = rows.nextKept()) == KEPT) {
      if (anyGeneric) {
        rows.projectInto(arguments);
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
      return ProgramScanner.NOT_YET;
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

  private void start() {
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
    arguments = new Object[rows.projection.length];
  }

  /**
   * The layout column of DECIMAL type that {@code call} sums, when its accumulator takes unscaled
   * longs and its argument is that plain column; else -1.
   */
  private int decimalColumn(AggregateCall call, Accumulator accumulator) {
    if (!(accumulator instanceof DecimalAccumulator) || call.arguments().size() != 1) {
      return -1;
    }
    int column = rows.projectedColumns[call.arguments().get(0)];
    return column >= 0
            && rows.compiled.program.layout().columnType(column).name() == TypeName.DECIMAL
        ? column
        : -1;
  }
}
