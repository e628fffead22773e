package io.cairn.store.coprocessor;

import static io.cairn.store.coprocessor.ProgramRows.KEPT;
import static io.cairn.store.coprocessor.ProgramRows.PAUSED;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.agg.GroupKey;
import io.cairn.core.memory.MemoryPool;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The hash aggregation of a program with a GROUP BY: reads every kept row into the accumulators of
 * its group, then emits one row per group (key values, then partial states). Its groups are counted
 * by an {@link AggregationMemory} (limit {@code cairn.aggregate.max-bytes},
 * AGGREGATE_MEMORY_EXCEEDED past it) in a reservation of the scan's pool. Used by the scanning
 * thread of its {@link ProgramScanner} only.
 */
final class ProgramGrouping {
  private final ProgramRows rows;
  private final List<AggregateCall> aggregates;
  private final int[] keyColumns;
  private final int partialWidth;

  /** Limit of the hash table, in estimated bytes. */
  private final long aggregateMaxBytes;

  /** The scan's own pool. */
  private final MemoryPool memory;

  /** The groups read so far; null before the first row and once all rows are read. */
  private Map<GroupKey, Group> groups;

  /** What the groups hold; null before the first row. */
  private AggregationMemory groupMemory;

  /** The groups to emit once all rows are read; null before. */
  private Iterator<Group> groupOutput;

  private Object[] arguments;

  /** One group: its key values and accumulators. */
  private record Group(Object[] keys, Accumulator[] accumulators) {}

  ProgramGrouping(ProgramRows rows, long aggregateMaxBytes, MemoryPool memory) {
    this.rows = rows;
    this.aggregates = rows.compiled.program.aggregates();
    this.keyColumns = rows.compiled.groupColumns;
    this.partialWidth = rows.compiled.partialWidth;
    this.aggregateMaxBytes = aggregateMaxBytes;
    this.memory = memory;
  }

  /**
   * Feeds every kept row to the accumulators of its group; once all rows are read, emits one row
   * per group: its key values, then the partial states. NOT_YET while reading when the deadline
   * passes (the groups are kept for the next call).
   */
  Object[] next() {
    if (groupOutput == null) {
      if (groups == null) {
        groups = new HashMap<>();
        groupMemory =
            new AggregationMemory(
                aggregateMaxBytes,
                ProgramScanner.SCAN_SETTING,
                "in the store (one scan)",
                memory.reservation("a grouped aggregation in the store"));
        arguments = new Object[rows.projection.length];
      }
      int found;
      while ((found = rows.nextKept()) == KEPT) {
        rows.projectInto(arguments);
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
        return ProgramScanner.NOT_YET;
      }
      rows.closeRowsEarly();
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

  /** Whether the grouping has started, and so holds memory until {@link #release()}. */
  boolean holdsMemory() {
    return groupMemory != null;
  }

  /** Drops the groups and gives their reservation back (idempotent). */
  void release() {
    groups = null;
    groupOutput = null;
    if (groupMemory != null) {
      groupMemory.close();
    }
  }
}
