package io.cairn.store.coprocessor;

import static io.cairn.store.coprocessor.ProgramRows.KEPT;
import static io.cairn.store.coprocessor.ProgramRows.PAUSED;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.agg.GroupKey;
import java.util.List;

/**
 * The streaming aggregation of a program with a GROUP BY over rows that come grouped (a local index
 * read in its order, {@link io.cairn.kv.IndexRead#grouped()}): a group ends when the group keys
 * change (by {@link GroupKey}'s equality, as the hash aggregation's), and is emitted then (key
 * values, then partial states), so it holds one group whatever their number and counts no memory.
 * Rows that did not come grouped would only emit a group in several pieces, which the driver's
 * merge of partial states joins. Used by the scanning thread of its {@link ProgramScanner} only.
 */
final class ProgramGroupRuns {
  private final ProgramRows rows;
  private final List<AggregateCall> aggregates;
  private final int[] keyColumns;
  private final int partialWidth;

  /** The group being read (kept between calls that pause); null before the first row. */
  private GroupKey key;

  private Object[] keys;
  private Accumulator[] accumulators;
  private Object[] arguments;
  private boolean ended;

  ProgramGroupRuns(ProgramRows rows) {
    this.rows = rows;
    this.aggregates = rows.compiled.program.aggregates();
    this.keyColumns = rows.compiled.groupColumns;
    this.partialWidth = rows.compiled.partialWidth;
  }

  /**
   * Feeds kept rows to the current group's accumulators until a row of another group comes (which
   * starts the next group) and returns the ended group's row; the last group at the end of the
   * rows, then null; NOT_YET when the deadline passes first.
   */
  Object[] next() {
    if (ended) {
      return null;
    }
    if (arguments == null) {
      arguments = new Object[rows.projection.length];
    }
    int found;
    while ((found = rows.nextKept()) == KEPT) {
      rows.projectInto(arguments);
      GroupKey rowKey = GroupKey.of(arguments, keyColumns);
      Object[] done = null;
      if (key == null || !key.equals(rowKey)) {
        done = key == null ? null : result();
        start(rowKey);
      }
      for (Accumulator accumulator : accumulators) {
        accumulator.add(arguments);
      }
      if (done != null) {
        return done;
      }
    }
    if (found == PAUSED) {
      return ProgramScanner.NOT_YET;
    }
    ended = true;
    rows.closeRowsEarly();
    Object[] last = key == null ? null : result();
    key = null;
    accumulators = null;
    return last;
  }

  private void start(GroupKey rowKey) {
    key = rowKey;
    keys = new Object[keyColumns.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = arguments[keyColumns[i]];
    }
    accumulators = new Accumulator[aggregates.size()];
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = Aggregates.create(aggregates.get(i));
    }
  }

  /** The row of the current group: its key values, then the partial states. */
  private Object[] result() {
    Object[] result = new Object[keyColumns.length + partialWidth];
    System.arraycopy(keys, 0, result, 0, keyColumns.length);
    int at = keyColumns.length;
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i].writePartial(result, at);
      at += Aggregates.partialTypes(aggregates.get(i)).size();
    }
    return result;
  }
}
