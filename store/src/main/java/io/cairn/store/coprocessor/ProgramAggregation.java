package io.cairn.store.coprocessor;

import static io.cairn.store.coprocessor.ProgramRows.KEPT;
import static io.cairn.store.coprocessor.ProgramRows.PAUSED;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.expr.VectorColumn;
import java.util.Arrays;
import java.util.List;

/**
 * The aggregation of a program without a GROUP BY: feeds every kept row to the accumulators and
 * emits one row of partial states. COUNT(*) alone only counts; the arguments of the others are read
 * from the row's bytes by {@link AggregateInputs} (no object per row where it can). Its state is a
 * few accumulators, not counted against a memory pool. Used by the scanning thread of its {@link
 * ProgramScanner} only.
 */
final class ProgramAggregation {
  private final ProgramRows rows;
  private final List<AggregateCall> aggregates;
  private final boolean countsOnly;
  private final int partialWidth;
  private boolean aggregated;

  /** The aggregation in progress (kept between calls that pause): null before the first row. */
  private Accumulator[] accumulators;

  private AggregateInputs inputs;
  private long count;

  /** Whether the rows were told to hand whole blocks to the count. */
  private boolean sinking;

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
      if (!sinking) {
        sinking = true;
        rows.sinkBlocks(
            (run, selection, n, narrowed) -> {
              count += n;
              return 0;
            },
            List.of());
      }
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
      accumulators = new Accumulator[aggregates.size()];
      for (int i = 0; i < accumulators.length; i++) {
        accumulators[i] = Aggregates.create(aggregates.get(i));
      }
      inputs = new AggregateInputs(rows, accumulators);
      List<VectorColumn> columns = inputs.vectorColumns();
      if (columns != null) {
        Accumulator[] targets = accumulators;
        rows.sinkBlocks(
            BlockSink.whole((run, selection, n) -> inputs.addBlock(targets, run, selection, n)),
            columns);
      }
    }
    while ((found = rows.nextKept()) == KEPT) {
      inputs.add(accumulators);
    }
    if (found == PAUSED) {
      return ProgramScanner.NOT_YET;
    }
    inputs.finish();
    aggregated = true;
    Object[] result = new Object[partialWidth];
    int at = 0;
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i].writePartial(result, at);
      at += Aggregates.partialTypes(aggregates.get(i)).size();
    }
    return result;
  }
}
