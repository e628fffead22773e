package io.cairn.jdbc.internal.exec;

import io.cairn.core.agg.GroupKey;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
import io.cairn.jdbc.internal.exec.spill.SpillPartitions;
import io.cairn.jdbc.internal.exec.spill.SpillRun;
import io.cairn.planner.plan.JoinNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Hash join (equi keys) or nested loop, for every join kind. The right input is the build side: its
 * rows (and their hash index) are reserved in the query's memory pool until the join is closed. The
 * probe of one left row walks its candidates one at a time, returning each match as it is found,
 * and checks for cancellation every {@value Operators#CHECK_INTERVAL} candidates, so that a nested
 * loop over a big build side stops within a second too.
 *
 * <p>When the build side of a hash join does not fit the query's memory (a reservation fails with
 * 53200), the join turns into a grace hash join: both sides are written to {@value
 * SpillPartitions#FANOUT} spill files each by a hash of their join key, and each pair of partitions
 * is joined by a join of its own (a build partition still too big is partitioned again with another
 * hash seed, up to {@value #MAX_LEVEL} levels). Every kind stays correct, since rows of equal keys
 * share a partition and the rows with a NULL key, which match nothing, are joined with partition 0.
 * Before spilling it asks the query's other operators that can (a sort buffering its input) to
 * spill theirs. It fails with 53200 only when the rows of one key alone do not fit in a partition's
 * join. A nested loop (no equi keys) does not spill.
 */
final class Join implements Operator {
  /** The estimated bytes of one entry of the build side's hash index, besides its key values. */
  static final long INDEX_ENTRY_BYTES = 96;

  /** The deepest level of re-partitioning (each level reads and writes its rows once more). */
  static final int MAX_LEVEL = 4;

  private final JoinNode node;
  private final Operator left;
  private final Operator right;
  private final ExecContext ctx;
  private final int level;
  private final RowExpression residual;
  private final int leftWidth;
  private final int rightWidth;
  private final int[] leftKeys;
  private final int[] rightKeys;
  private final MemoryReservation memory;
  private List<Object[]> buildRows;

  /** The build rows' hash index, or null (a nested loop). */
  private JoinIndex buildIndex;

  private boolean[] matched;
  private boolean leftDone;
  private int unmatchedPos;
  private int steps;

  /** The left row being probed, or null between rows. */
  private Object[] leftRow;

  /**
   * Its next candidate in {@link #buildRows} (-1: none left) through the index, or, for a nested
   * loop (no index), the position of the next build row.
   */
  private int candidate;

  private boolean anyMatch;

  /** After a spill: the partitions of each side (null where empty), the next one, its join. */
  private List<SpillRun> buildRuns;

  private List<SpillRun> probeRuns;
  private int partition;
  private Join partitionJoin;

  Join(JoinNode node, Operator left, Operator right, ExecContext ctx) {
    this(node, left, right, ctx, 0);
  }

  private Join(JoinNode node, Operator left, Operator right, ExecContext ctx, int level) {
    this.node = node;
    this.left = left;
    this.right = right;
    this.ctx = ctx;
    this.level = level;
    this.residual = node.residual().map(ExprCompiler::compile).orElse(null);
    this.leftWidth = node.left().outputTypes().size();
    this.rightWidth = node.right().outputTypes().size();
    this.leftKeys = node.leftKeys().stream().mapToInt(Integer::intValue).toArray();
    this.rightKeys = node.rightKeys().stream().mapToInt(Integer::intValue).toArray();
    this.memory = ctx.memory().reservation("JOIN (build side rows)");
  }

  /** Counts one step of work, checking for cancellation every {@value #CHECK_INTERVAL}. */
  private void step() {
    if (++steps >= Operators.CHECK_INTERVAL) {
      steps = 0;
      ctx.control().check();
    }
  }

  private boolean keepsUnmatchedBuildRows() {
    return node.kind() == JoinNode.Kind.RIGHT || node.kind() == JoinNode.Kind.FULL;
  }

  /** Whether a probe row without a match is output (or, for ANTI, only such rows are). */
  private boolean keepsUnmatchedProbeRows() {
    return switch (node.kind()) {
      case LEFT, FULL, ANTI -> true;
      default -> false;
    };
  }

  private void build() {
    buildRows = new ArrayList<>();
    boolean hashed = rightKeys.length > 0;
    GroupKey oneKey = null; // the key of every row so far, while they all have the same one
    boolean severalKeys = false;
    for (Object[] row = right.next(); row != null; row = right.next()) {
      step();
      if (hashed) {
        GroupKey key = GroupKey.of(row, rightKeys);
        if (key.hasNull()) {
          if (!keepsUnmatchedBuildRows()) {
            continue; // matches nothing and is never output
          }
        } else if (oneKey == null) {
          oneKey = key;
        } else if (!severalKeys && !oneKey.equals(key)) {
          severalKeys = true;
        }
      }
      long bytes = RowSizes.row(row) + Operators.SLOT_BYTES + 1; // row, slot, matched flag
      try {
        memory.add(bytes);
      } catch (CairnException e) {
        if (!Operators.addAfterRevoking(ctx, this, memory, bytes, e)) {
          spillOrThrow(e, row, severalKeys);
          return;
        }
      }
      buildRows.add(row);
    }
    matched = new boolean[buildRows.size()];
    if (hashed) {
      for (Object[] row : buildRows) {
        if (!anyNull(row, rightKeys)) {
          long bytes = INDEX_ENTRY_BYTES + Operators.SLOT_BYTES * rightKeys.length;
          try {
            memory.add(bytes);
          } catch (CairnException e) {
            if (!Operators.addAfterRevoking(ctx, this, memory, bytes, e)) {
              spillOrThrow(e, null, severalKeys);
              return;
            }
          }
        }
        step();
      }
      buildIndex = JoinIndex.of(buildRows, rightKeys);
    }
  }

  private static boolean anyNull(Object[] row, int[] columns) {
    for (int c : columns) {
      if (row[c] == null) {
        return true;
      }
    }
    return false;
  }

  /**
   * The build side does not fit: partitions both sides to spill files (the rows held, {@code
   * pending} if not null, the rest of both inputs), or rethrows {@code e} when that cannot help.
   */
  private void spillOrThrow(CairnException e, Object[] pending, boolean severalKeys) {
    if (e.errorCode() != ErrorCode.MEMORY_LIMIT_EXCEEDED || rightKeys.length == 0) {
      throw e;
    }
    // At the first level the memory may be held by the operators below (they give it back once
    // read to the end); below it, the rows of the partition are all this join holds.
    if ((!severalKeys && level > 0) || level >= MAX_LEVEL) {
      throw new CairnException(
          ErrorCode.MEMORY_LIMIT_EXCEEDED,
          "JOIN: the build side's rows of "
              + (severalKeys ? "a few join keys" : "one join key")
              + " alone do not fit in memory, even after partitioning to disk ["
              + level
              + "] times: "
              + e.getMessage(),
          e);
    }
    List<Object[]> held = buildRows;
    buildRows = null;
    buildIndex = null;
    memory.close();
    long rows = 0;
    long bytes = 0;
    try (SpillPartitions build = new SpillPartitions(ctx.spill(), "join-build", level)) {
      for (Object[] row : held) {
        build.write(GroupKey.of(row, rightKeys), row);
        rows++;
        step();
      }
      held = null;
      if (pending != null) {
        build.write(GroupKey.of(pending, rightKeys), pending);
        rows++;
      }
      for (Object[] row = right.next(); row != null; row = right.next()) {
        GroupKey key = GroupKey.of(row, rightKeys);
        if (!key.hasNull() || keepsUnmatchedBuildRows()) {
          build.write(key, row);
          rows++;
        }
        step();
      }
      bytes += build.bytes();
      buildRuns = build.finish();
    }
    try (SpillPartitions probe = new SpillPartitions(ctx.spill(), "join-probe", level)) {
      boolean onlyMatches = !keepsUnmatchedProbeRows();
      for (Object[] row = left.next(); row != null; row = left.next()) {
        step();
        GroupKey key = GroupKey.of(row, leftKeys);
        if (onlyMatches && (key.hasNull() || buildRuns.get(probe.partition(key)) == null)) {
          continue; // a row that matches nothing and is not output
        }
        probe.write(key, row);
      }
      bytes += probe.bytes();
      probeRuns = probe.finish();
    }
    ctx.spill()
        .note(
            (level == 0 ? "hash join" : "hash join (a partition again, level " + level + ")")
                + " spilled "
                + SpillPartitions.FANOUT
                + " partitions to disk, "
                + (bytes >> 20)
                + " MB ("
                + rows
                + " build rows) past its memory: "
                + e.getMessage());
  }

  private Object[] concat(Object[] l, Object[] r) {
    Object[] out = new Object[leftWidth + rightWidth];
    if (l != null) {
      System.arraycopy(l, 0, out, 0, leftWidth);
    }
    if (r != null) {
      System.arraycopy(r, 0, out, leftWidth, rightWidth);
    }
    return out;
  }

  private boolean matches(Object[] joined) {
    return residual == null || Boolean.TRUE.equals(residual.evaluate(joined, ctx.eval()));
  }

  /**
   * The next output row of the left row being probed, or null when its probe is over (then {@link
   * #leftRow} is null).
   */
  private Object[] probeNext() {
    while (candidate >= 0) {
      step();
      int index = candidate;
      if (buildIndex != null) {
        candidate = buildIndex.next(index);
      } else {
        candidate = index + 1 < buildRows.size() ? index + 1 : -1;
      }
      Object[] joined = concat(leftRow, buildRows.get(index));
      if (!matches(joined)) {
        continue;
      }
      anyMatch = true;
      matched[index] = true;
      switch (node.kind()) {
        case SEMI -> {
          Object[] row = leftRow;
          leftRow = null;
          return row;
        }
        case ANTI -> candidate = -1; // the row is out
        default -> {
          return joined;
        }
      }
    }
    Object[] row = leftRow;
    leftRow = null;
    if (!anyMatch) {
      switch (node.kind()) {
        case ANTI -> {
          return row;
        }
        case LEFT, FULL -> {
          return concat(row, null);
        }
        default -> {}
      }
    }
    return null;
  }

  /** The next row of the partitions' joins, one partition after the other. */
  private Object[] nextPartitioned() {
    while (true) {
      if (partitionJoin != null) {
        Object[] row = partitionJoin.next();
        if (row != null) {
          return row;
        }
        Join done = partitionJoin;
        partitionJoin = null;
        done.close();
        partition++;
      }
      if (partition >= buildRuns.size()) {
        return null;
      }
      SpillRun build = buildRuns.set(partition, null);
      SpillRun probe = probeRuns.set(partition, null);
      if ((build == null && !keepsUnmatchedProbeRows())
          || (probe == null && !keepsUnmatchedBuildRows())) {
        Operators.closeAll(List.of(new SpillScan(build), new SpillScan(probe)));
        partition++;
        continue; // joins to nothing
      }
      partitionJoin = new Join(node, new SpillScan(probe), new SpillScan(build), ctx, level + 1);
    }
  }

  @Override
  public Object[] next() {
    if (buildRows == null && buildRuns == null) {
      build();
    }
    if (buildRuns != null) {
      return nextPartitioned();
    }
    while (true) {
      if (leftRow != null) {
        Object[] out = probeNext();
        if (out != null) {
          return out;
        }
        continue;
      }
      if (!leftDone) {
        Object[] row = left.next();
        if (row == null) {
          leftDone = true;
        } else {
          leftRow = row;
          if (buildIndex != null) {
            candidate = buildIndex.first(row, leftKeys);
          } else {
            candidate = buildRows.isEmpty() ? -1 : 0;
          }
          anyMatch = false;
          step();
          continue;
        }
      }
      if (keepsUnmatchedBuildRows()) {
        while (unmatchedPos < buildRows.size()) {
          step();
          int i = unmatchedPos++;
          if (!matched[i]) {
            return concat(null, buildRows.get(i));
          }
        }
      }
      return null;
    }
  }

  @Override
  public void close() {
    buildRows = List.of();
    buildIndex = null;
    List<AutoCloseable> resources = new ArrayList<>();
    resources.add(memory);
    if (partitionJoin != null) {
      resources.add(partitionJoin);
      partitionJoin = null;
    }
    for (List<SpillRun> runs : List.of(listOrEmpty(buildRuns), listOrEmpty(probeRuns))) {
      for (SpillRun run : runs) {
        if (run != null) {
          resources.add(run::delete);
        }
      }
    }
    buildRuns = buildRuns == null ? null : new ArrayList<>();
    probeRuns = probeRuns == null ? null : new ArrayList<>();
    resources.add(left);
    resources.add(right);
    Operators.closeAll(resources);
  }

  private static List<SpillRun> listOrEmpty(List<SpillRun> runs) {
    return runs == null ? List.of() : runs;
  }
}
