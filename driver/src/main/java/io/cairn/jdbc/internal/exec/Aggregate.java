package io.cairn.jdbc.internal.exec;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.agg.GroupKey;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.jdbc.internal.exec.spill.SpillPartitions;
import io.cairn.jdbc.internal.exec.spill.SpillRun;
import io.cairn.planner.plan.AggregateNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hash aggregation; at step FINAL it merges the partial states that scans computed (any number of
 * rows: one per scan or chunk, or one per group and chunk after the group's key values). The
 * groups' memory is counted against the connection's {@code aggregateMaxBytes} and reserved in the
 * query's memory pool until the last row is out.
 *
 * <p>A GROUP BY of one grouping set whose groups pass either limit (53200) keeps the groups it
 * holds and goes on adding rows to them, while the rows of groups it does not hold are written to
 * {@value SpillPartitions#FANOUT} spill files by a hash of their group key. After its own groups,
 * it aggregates each file by an aggregation of its own (which may spill again, with another hash
 * seed, up to {@value Join#MAX_LEVEL} levels): every group's rows are in memory or in one file,
 * never both, so any aggregate (DISTINCT too) stays exact. Several grouping sets (ROLLUP, CUBE) do
 * not spill.
 */
final class Aggregate implements Operator {
  private final AggregateNode node;
  private final Operator input;
  private final ExecContext ctx;
  private final int level;
  private final MemoryReservation memory;
  private Iterator<Object[]> output;
  private List<SpillRun> runs;
  private int run;
  private Aggregate partitionAggregate;

  Aggregate(AggregateNode node, Operator input, ExecContext ctx) {
    this(node, input, ctx, 0);
  }

  private Aggregate(AggregateNode node, Operator input, ExecContext ctx, int level) {
    this.node = node;
    this.input = input;
    this.ctx = ctx;
    this.level = level;
    this.memory = ctx.memory().reservation("GROUP BY (groups)");
  }

  private Accumulator[] newAccumulators() {
    Accumulator[] accumulators = new Accumulator[node.calls().size()];
    for (int i = 0; i < accumulators.length; i++) {
      AggregateCall call = node.calls().get(i);
      accumulators[i] = call.kind() == AggregateKind.GROUPING ? null : Aggregates.create(call);
    }
    return accumulators;
  }

  /** One group: its key values (at the output's key positions) and its accumulators. */
  private record Group(Object[] values, Accumulator[] accumulators) {}

  /** The groups of one grouping set, in first-seen order. */
  private static final class SetState {
    final int[] columns;

    /** Per column of {@link #columns}, its position among the output's key values. */
    final int[] positions;

    final Map<GroupKey, Group> groups = new LinkedHashMap<>();

    /**
     * The groups whose one key column holds an INTEGER or BIGINT (a Long or an Integer), by its
     * long; null for keys of other widths. Other values of the column (NULL) are in {@link
     * #groups}.
     */
    final LongGroups<Group> longGroups;

    SetState(int[] columns, List<Integer> keys) {
      this.columns = columns;
      this.longGroups = columns.length == 1 ? new LongGroups<>() : null;
      this.positions = new int[columns.length];
      for (int j = 0; j < columns.length; j++) {
        positions[j] = keys.indexOf(columns[j]);
      }
    }

    /** {@code key}, or when null (a key found by its long) the row's GroupKey. */
    GroupKey key(Object[] row, GroupKey key) {
      return key != null ? key : GroupKey.of(row, columns);
    }

    boolean isEmpty() {
      return groups.isEmpty() && (longGroups == null || longGroups.size() == 0);
    }

    /** The groups held, the integer keys' first; each handed out once (its accumulators too). */
    Iterator<Group> take() {
      Iterator<Group> mapped = groups.values().iterator();
      return new Iterator<>() {
        private int next;

        @Override
        public boolean hasNext() {
          return (longGroups != null && next < longGroups.size()) || mapped.hasNext();
        }

        @Override
        public Group next() {
          if (longGroups != null && next < longGroups.size()) {
            return longGroups.take(next++);
          }
          Group group = mapped.next();
          mapped.remove(); // handed out: its accumulators go with it
          return group;
        }
      };
    }
  }

  private void run() {
    List<Integer> keys = node.groupKeys();
    int[] filters = node.filterColumns().stream().mapToInt(Integer::intValue).toArray();
    boolean merges = node.step() == AggregateNode.Step.FINAL;
    int[] partialOffsets = new int[node.calls().size()];
    if (merges) {
      // a final aggregation's input: the group keys (columns 0..k-1), then the partial states
      int at = keys.size();
      for (int i = 0; i < partialOffsets.length; i++) {
        partialOffsets[i] = at;
        at += Aggregates.partialTypes(node.calls().get(i)).size();
      }
    }
    List<SetState> sets = new ArrayList<>();
    for (List<Integer> set : node.groupSets()) {
      sets.add(new SetState(set.stream().mapToInt(Integer::intValue).toArray(), keys));
    }
    boolean canSpill = sets.size() == 1 && sets.get(0).columns.length > 0;
    AggregationMemory groupMemory =
        new AggregationMemory(
            ctx.aggregateMaxBytes(),
            ExecContext.AGGREGATE_MAX_BYTES_PROPERTY + " (connection property)",
            "in the driver",
            memory);
    Operator source = input;
    OrderedPieces ordered =
        merges && level == 0 && sets.size() == 1 && keysFirst(sets.get(0), keys)
            ? OrderedPieces.of(node.calls(), keys.size(), partialOffsets, groupMemory)
            : null;
    if (ordered != null) {
      Object[] stopped = ordered.read(input, () -> ctx.control().check());
      if (stopped == null) {
        output = ordered.rows(() -> ctx.control().check());
        return;
      }
      source = ordered.replay(stopped, input); // out of order: merged by hash from here
    }
    SpillPartitions spill = null;
    CairnException spilledBy = null;
    long spilledRows = 0;
    try {
      int seen = 0;
      for (Object[] row = source.next(); row != null; row = source.next()) {
        for (SetState set : sets) {
          GroupKey key = null;
          long longKey = 0;
          Group group;
          Object first = set.longGroups == null ? null : row[set.columns[0]];
          if (first instanceof Long || first instanceof Integer) {
            longKey = ((Number) first).longValue();
            group = set.longGroups.get(longKey);
          } else {
            key = GroupKey.of(row, set.columns);
            group = set.groups.get(key);
          }
          Accumulator[] accs;
          if (group == null) {
            if (spill != null) {
              spill.write(set.key(row, key), row);
              spilledRows++;
              continue;
            }
            try {
              addGroup(groupMemory, row, set.columns);
            } catch (CairnException e) {
              boolean full =
                  e.errorCode() == ErrorCode.MEMORY_LIMIT_EXCEEDED
                      || e.errorCode() == ErrorCode.AGGREGATE_MEMORY_EXCEEDED;
              if (!full || !canSpill || set.isEmpty() || level >= Join.MAX_LEVEL) {
                throw e;
              }
              spilledBy = e;
              spill = new SpillPartitions(ctx.spill(), "aggregate", level);
              spill.write(set.key(row, key), row);
              spilledRows++;
              continue;
            }
            accs = newAccumulators();
            Object[] values = new Object[keys.size()];
            for (int j = 0; j < set.columns.length; j++) {
              values[set.positions[j]] = row[set.columns[j]];
            }
            if (key == null) {
              set.longGroups.add(longKey, new Group(values, accs));
            } else {
              set.groups.put(key, new Group(values, accs));
            }
          } else {
            accs = group.accumulators();
          }
          for (int i = 0; i < accs.length; i++) {
            if (accs[i] == null) {
              continue;
            }
            if (merges) {
              accs[i].mergePartial(row, partialOffsets[i]);
            } else if (filters[i] < 0 || Boolean.TRUE.equals(row[filters[i]])) {
              accs[i].add(row);
            }
          }
        }
        if (++seen >= Operators.CHECK_INTERVAL) {
          seen = 0;
          ctx.control().check();
        }
      }
      if (spill != null) {
        long bytes = spill.bytes();
        runs = spill.finish();
        ctx.spill()
            .note(
                (level == 0 ? "GROUP BY" : "GROUP BY (a partition again, level " + level + ")")
                    + " spilled "
                    + SpillPartitions.FANOUT
                    + " partitions to disk, "
                    + (bytes >> 20)
                    + " MB ("
                    + spilledRows
                    + " rows of groups it could not hold) past its memory: "
                    + spilledBy.getMessage());
      }
    } finally {
      if (spill != null) {
        spill.close();
      }
    }
    for (SetState set : sets) {
      if (set.columns.length == 0 && set.isEmpty()) {
        GroupKey empty = GroupKey.of(new Object[0], set.columns);
        set.groups.put(empty, new Group(new Object[keys.size()], newAccumulators()));
      }
    }
    output = rows(sets, keys.size());
  }

  /**
   * Whether the one grouping set is every key, in the order the input holds them first and the
   * output too (a final aggregation of partial rows).
   */
  private static boolean keysFirst(SetState set, List<Integer> keys) {
    if (set.columns.length != keys.size()) {
      return false;
    }
    for (int j = 0; j < keys.size(); j++) {
      if (set.columns[j] != j || keys.get(j) != j) {
        return false;
      }
    }
    return true;
  }

  /** Counts a new group, asking the query's other operators to spill first when memory is full. */
  private void addGroup(AggregationMemory groupMemory, Object[] row, int[] columns) {
    try {
      groupMemory.addGroup(row, columns, node.calls().size());
    } catch (CairnException e) {
      if (e.errorCode() != ErrorCode.MEMORY_LIMIT_EXCEEDED || ctx.spill().revokeOthers(this) == 0) {
        throw e;
      }
      groupMemory.addGroup(row, columns, node.calls().size());
    }
  }

  /** The rows of the groups held, made one at a time. */
  private Iterator<Object[]> rows(List<SetState> sets, int keyCount) {
    return new Iterator<>() {
      private int set;
      private Iterator<Group> groups;
      private int seen;

      @Override
      public boolean hasNext() {
        while (groups == null || !groups.hasNext()) {
          if (set >= sets.size()) {
            return false;
          }
          groups = sets.get(set++).take();
        }
        return true;
      }

      @Override
      public Object[] next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        SetState state = sets.get(set - 1);
        Group group = groups.next();
        Accumulator[] accs = group.accumulators();
        Object[] out = new Object[keyCount + accs.length];
        System.arraycopy(group.values(), 0, out, 0, keyCount);
        for (int i = 0; i < accs.length; i++) {
          out[keyCount + i] =
              accs[i] == null ? grouping(node.calls().get(i), state) : accs[i].result();
        }
        if (++seen >= Operators.CHECK_INTERVAL) {
          seen = 0;
          ctx.control().check();
        }
        return out;
      }
    };
  }

  /** GROUPING(args): a bit per argument, most significant first, set when not grouped. */
  private static Object grouping(AggregateCall call, SetState set) {
    long bits = 0;
    for (int arg : call.arguments()) {
      boolean grouped = false;
      for (int c : set.columns) {
        grouped |= c == arg;
      }
      bits = (bits << 1) | (grouped ? 0 : 1);
    }
    return Operators.conform(bits, call.resultType());
  }

  @Override
  public Object[] next() {
    if (output == null) {
      run();
    }
    if (output.hasNext()) {
      return output.next();
    }
    memory.close();
    while (runs != null) {
      if (partitionAggregate != null) {
        Object[] row = partitionAggregate.next();
        if (row != null) {
          return row;
        }
        Aggregate done = partitionAggregate;
        partitionAggregate = null;
        done.close();
      }
      if (run >= runs.size()) {
        return null;
      }
      SpillRun next = runs.set(run++, null);
      if (next != null) {
        partitionAggregate = new Aggregate(node, new SpillScan(next), ctx, level + 1);
      }
    }
    return null;
  }

  @Override
  public void close() {
    output = List.<Object[]>of().iterator();
    List<AutoCloseable> resources = new ArrayList<>();
    resources.add(memory);
    if (partitionAggregate != null) {
      resources.add(partitionAggregate);
      partitionAggregate = null;
    }
    if (runs != null) {
      for (SpillRun r : runs) {
        if (r != null) {
          resources.add(r::delete);
        }
      }
      runs = List.of();
    }
    resources.add(input);
    Operators.closeAll(resources);
  }
}
