package io.cairn.jdbc.internal.exec;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.agg.AggregationMemory;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The final merge of a GROUP BY's partial rows while they come with their keys in ascending order
 * (a scan grouping by the table's first key columns, its chunks concatenated in key order): a
 * group's pieces (from two chunks, or from a chunk that emitted its groups early) are then next to
 * each other, so the merge keeps one partial row per group in a list, merging a piece into the
 * previous row when its key is equal, and makes each group's final values when it is handed out. No
 * hash table and no accumulators per group while reading: TPC-H Q11's driver merged 30,000 groups
 * of one piece each by a hash lookup, a group object and accumulators apiece.
 *
 * <p>Correct whatever the order: a key below the previous one (or one it cannot order: NULL, a type
 * it does not compare) stops it, and the caller merges the rows kept so far ({@link #replay}, each
 * group's merged partial row, all exact) and the rest by hash. Keys strictly increasing in a total
 * order consistent with equality never repeat a group.
 *
 * <p>Its rows are counted by the same {@link AggregationMemory} as the hash merge's groups; past
 * the limit it stops too, and the hash merge (which spills) takes over. Not thread-safe.
 */
final class OrderedPieces {
  private final List<AggregateCall> calls;
  private final int keyCount;
  private final int[] keyColumns;
  private final int[] partialOffsets;
  private final AggregationMemory memory;

  /** One partial row per group so far, in key order: the input's rows, or merged ones. */
  private final List<Object[]> rows = new ArrayList<>();

  /** The last group's accumulators when it has more than one piece, else null. */
  private Accumulator[] merging;

  private OrderedPieces(
      List<AggregateCall> calls, int keyCount, int[] partialOffsets, AggregationMemory memory) {
    this.calls = calls;
    this.keyCount = keyCount;
    this.keyColumns = new int[keyCount];
    for (int k = 0; k < keyCount; k++) {
      keyColumns[k] = k;
    }
    this.partialOffsets = partialOffsets;
    this.memory = memory;
  }

  /**
   * An ordered merge for a final aggregation of {@code calls} whose input rows hold the {@code
   * keyCount} key values first (as its output does), or null when it does not apply (no keys, a
   * GROUPING call).
   */
  static OrderedPieces of(
      List<AggregateCall> calls, int keyCount, int[] partialOffsets, AggregationMemory memory) {
    if (keyCount == 0) {
      return null;
    }
    for (AggregateCall call : calls) {
      if (call.kind() == AggregateKind.GROUPING) {
        return null;
      }
    }
    return new OrderedPieces(calls, keyCount, partialOffsets, memory);
  }

  /**
   * Reads {@code input} while its keys ascend. Returns null when it ended so (then {@link #rows}
   * hands out the groups), else the row that broke the order or passed the memory limit, not taken
   * (then {@link #replay} hands back what was read).
   */
  Object[] read(Operator input, Runnable check) {
    Object[] last = null;
    int seen = 0;
    for (Object[] row = input.next(); row != null; row = input.next()) {
      if (++seen >= Operators.CHECK_INTERVAL) {
        seen = 0;
        check.run();
      }
      int order = last == null ? orderable(row) : compareKeys(last, row);
      if (order == 0) {
        if (merging == null) {
          merging = accumulators(last);
        }
        for (int i = 0; i < merging.length; i++) {
          merging[i].mergePartial(row, partialOffsets[i]);
        }
        continue;
      }
      if (order != 1) {
        return row;
      }
      try {
        memory.addGroup(row, keyColumns, calls.size());
      } catch (io.cairn.core.error.CairnException e) {
        return row; // the hash merge counts again, and spills
      }
      closeLast();
      rows.add(row);
      last = row;
    }
    closeLast();
    return null;
  }

  /** 1 when the row's keys can be ordered, else -2. */
  private int orderable(Object[] row) {
    for (int k = 0; k < keyCount; k++) {
      if (!comparable(row[k])) {
        return -2;
      }
    }
    return 1;
  }

  /**
   * 0 when the keys are equal, 1 when {@code row}'s come after {@code last}'s, -1 before, -2 when
   * they cannot be told (a NULL or a type this does not order).
   */
  private int compareKeys(Object[] last, Object[] row) {
    for (int k = 0; k < keyCount; k++) {
      Object a = last[k];
      Object b = row[k];
      if (!comparable(b) || a.getClass() != b.getClass()) {
        return -2;
      }
      int c = compare(a, b);
      if (c != 0) {
        // the rest must still be orderable for a later comparison
        for (int j = k + 1; j < keyCount; j++) {
          if (!comparable(row[j])) {
            return -2;
          }
        }
        return c < 0 ? 1 : -1;
      }
    }
    return 0;
  }

  /** Whether {@code v} is of a type ordered here consistently with its equality. */
  private static boolean comparable(Object v) {
    return v instanceof Long
        || v instanceof Integer
        || v instanceof Short
        || v instanceof Byte
        || v instanceof String
        || v instanceof LocalDate;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
  }

  /** The last group's merged partial row in place of its first piece, when it had several. */
  private void closeLast() {
    if (merging == null) {
      return;
    }
    int at = rows.size() - 1;
    Object[] first = rows.get(at);
    Object[] merged = first.clone();
    for (int i = 0; i < merging.length; i++) {
      merging[i].writePartial(merged, partialOffsets[i]);
    }
    rows.set(at, merged);
    merging = null;
  }

  private Accumulator[] accumulators(Object[] partial) {
    Accumulator[] accumulators = new Accumulator[calls.size()];
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = Aggregates.create(calls.get(i));
      if (partial != null) {
        accumulators[i].mergePartial(partial, partialOffsets[i]);
      }
    }
    return accumulators;
  }

  /** The groups' final rows (keys, then each call's value), made as handed out. */
  Iterator<Object[]> rows(Runnable check) {
    return new Iterator<>() {
      private int next;

      @Override
      public boolean hasNext() {
        return next < rows.size();
      }

      @Override
      public Object[] next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Object[] partial = rows.set(next, null);
        if (++next % Operators.CHECK_INTERVAL == 0) {
          check.run();
        }
        Object[] out = new Object[keyCount + calls.size()];
        System.arraycopy(partial, 0, out, 0, keyCount);
        for (int i = 0; i < calls.size(); i++) {
          Accumulator accumulator = Aggregates.create(calls.get(i));
          accumulator.mergePartial(partial, partialOffsets[i]);
          out[keyCount + i] = accumulator.result();
        }
        return out;
      }
    };
  }

  /**
   * The partial rows read so far (one per group, merged), then {@code stopped}, then the rest of
   * {@code input}: for the hash merge to take over. Their memory is no longer counted here.
   */
  Operator replay(Object[] stopped, Operator input) {
    closeLast();
    memory.groupsGone();
    return new Operator() {
      private int next;
      private boolean stoppedOut;

      @Override
      public Object[] next() {
        if (next < rows.size()) {
          return rows.set(next++, null);
        }
        if (!stoppedOut) {
          stoppedOut = true;
          return stopped;
        }
        return input.next();
      }

      @Override
      public void close() {
        input.close();
      }
    };
  }
}
