package io.cairn.jdbc.internal.exec;

import io.cairn.core.agg.GroupKey;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.io.Closeables;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.type.DataType;
import io.cairn.jdbc.internal.exec.spill.SpillReader;
import io.cairn.jdbc.internal.exec.spill.SpillRun;
import io.cairn.jdbc.internal.exec.spill.SpillWriter;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.planner.plan.JoinProbe;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.SortNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A broadcast join whose build side does not fit the query's memory, probed in the store in passes
 * (Trino's and Impala's answer is a partitioned join; this one keeps the probe next to the data):
 * the build rows are written to {@value HashProbe#PARTITIONS} spill files by the partition of their
 * key ({@link HashProbe#partitionOf}), the partitions packed into passes that each fit the memory
 * the join had, and each pass scans the probe table once with a program that probes that pass's
 * hash table and skips the rows of other partitions. Every probe row is joined in exactly one pass
 * (rows with a NULL key in the pass of partition 0), so every kind stays correct; partial
 * aggregates of the passes merge like those of more chunks, and a sorted or limited scan's passes
 * (each keeping its top offset + limit) are sorted again here ({@link Sort}, which spills).
 *
 * <p>Fails with 53200 only when the rows of one partition alone do not fit (one key with very many
 * rows). Spill files are deleted as their pass reads them, and all on {@link #close()}.
 */
final class ProbePasses implements Operator {
  /** A pass packs partitions up to this share of the memory the whole build side passed. */
  private static final double PASS_SHARE = 0.75;

  private final ScanNode node;
  private final ExecContext ctx;
  private final JoinProbe join;
  private final List<SpillRun> runs;

  /** The passes not run yet, as masks of partitions. */
  private final java.util.ArrayDeque<Long> masks;

  private int passesRun;
  private final boolean hasNullKey;
  private MemoryReservation memory;

  /** The current pass's scan, or null between passes. */
  private ProbingScan scan;

  private ProbePasses(
      ScanNode node, ExecContext ctx, List<SpillRun> runs, List<Long> masks, boolean hasNullKey) {
    this.node = node;
    this.ctx = ctx;
    this.join = node.probe().orElseThrow();
    this.runs = runs;
    this.masks = new java.util.ArrayDeque<>(masks);
    this.hasNullKey = hasNullKey;
  }

  /** The bytes a pass may hold when the build side passed the memory at {@code fitBytes}. */
  static long passBudget(long fitBytes) {
    return Math.max(1, (long) (fitBytes * PASS_SHARE));
  }

  /**
   * Spills the build side, the rows {@code held} and the rest of {@code build}, and returns the
   * passes that probe it, as one operator with the output of {@code node}.
   *
   * @param passBudget the estimated bytes of build rows one pass may hold
   * @param why why the build side is not probed at once, for the warning ("does not fit ...")
   * @param heldWritten frees the memory of the rows held, once they are on disk
   */
  static Operator spill(
      ScanNode node,
      ExecContext ctx,
      JoinHashTable.Builder heldRows,
      Operator build,
      long passBudget,
      String why,
      Runnable heldWritten) {
    JoinProbe join = node.probe().orElseThrow();
    int[] keys = join.buildKeys().stream().mapToInt(Integer::intValue).toArray();
    SpillWriter[] writers = new SpillWriter[HashProbe.PARTITIONS];
    long[] bytes = new long[HashProbe.PARTITIONS];
    JoinHashTable held = heldRows.build();
    boolean hasNullKey = held.hasNullKey();
    long rows = 0;
    List<SpillRun> runs = new ArrayList<>(HashProbe.PARTITIONS);
    try {
      for (List<Object[]> group : held.rowsByKey()) {
        for (Object[] row : group) {
          write(writers, bytes, GroupKey.of(row, keys), row, keys.length, ctx);
          rows++;
        }
      }
      held = null;
      heldWritten.run();
      int steps = 0;
      for (Object[] row = build.next(); row != null; row = build.next()) {
        GroupKey key = GroupKey.of(row, keys);
        if (key.hasNull()) {
          hasNullKey = true; // matches nothing; only its existence counts (NOT IN)
        } else {
          write(writers, bytes, key, row, keys.length, ctx);
          rows++;
        }
        if (++steps >= Operators.CHECK_INTERVAL) {
          steps = 0;
          ctx.control().check();
        }
      }
      for (SpillWriter w : writers) {
        runs.add(w == null ? null : w.finish());
      }
    } catch (RuntimeException | Error e) {
      Closeables.closeAllUnchecked(java.util.Arrays.asList(writers));
      runs.forEach(r -> deleteQuietly(r));
      throw e;
    }
    List<Long> masks = pack(bytes, passBudget);
    long total = 0;
    for (long b : bytes) {
      total += b;
    }
    String warning =
        "Join of ["
            + node.table().qualifiedName()
            + "]: its build side of ["
            + rows
            + "] rows (about ["
            + total
            + "] bytes) "
            + why
            + ": it was written to disk and is probed in the store in ["
            + masks.size()
            + "] passes over ["
            + node.table().qualifiedName()
            + "]";
    ctx.spill().note(warning);
    return sortedAgain(node, ctx, new ProbePasses(passNode(node), ctx, runs, masks, hasNullKey));
  }

  private static void write(
      SpillWriter[] writers,
      long[] bytes,
      GroupKey key,
      Object[] row,
      int keyCount,
      ExecContext ctx) {
    int p = HashProbe.partitionOf(key);
    if (writers[p] == null) {
      writers[p] = new SpillWriter(ctx.spill().newFile("probe-build-p" + p));
    }
    writers[p].write(row);
    bytes[p] += JoinHashTable.estimatedBytes(row, keyCount);
  }

  /**
   * The partitions packed into passes of at most {@code budget} estimated bytes each (a partition
   * bigger than that alone), as masks; the empty partitions join the first pass, so that every pass
   * holds rows (a NOT IN probe of an empty table would keep NULL keys).
   */
  static List<Long> pack(long[] bytes, long budget) {
    List<Long> masks = new ArrayList<>();
    long mask = 0;
    long size = 0;
    long empty = 0;
    for (int p = 0; p < bytes.length; p++) {
      if (bytes[p] == 0) {
        empty |= 1L << p;
        continue;
      }
      if (mask != 0 && size + bytes[p] > budget) {
        masks.add(mask);
        mask = 0;
        size = 0;
      }
      mask |= 1L << p;
      size += bytes[p];
    }
    if (mask != 0) {
      masks.add(mask);
    }
    if (masks.isEmpty()) {
      masks.add(empty);
    } else {
      masks.set(0, masks.get(0) | empty);
    }
    return masks;
  }

  /**
   * The scan each pass runs: {@code node} keeping, when sorted or limited, its top offset + limit
   * rows of the pass (the offset is skipped once all passes are sorted together).
   */
  private static ScanNode passNode(ScanNode node) {
    if (node.orderBy().isEmpty() && node.limit() < 0 && node.offset() == 0) {
      return node;
    }
    long limit = node.limit() < 0 ? -1 : node.offset() + node.limit();
    return node.withOrder(node.orderBy(), 0, limit);
  }

  /** The passes' rows, sorted and cut again when {@code node} is sorted or limited. */
  private static Operator sortedAgain(ScanNode node, ExecContext ctx, ProbePasses passes) {
    if (node.orderBy().isEmpty() && node.limit() < 0 && node.offset() == 0) {
      return passes;
    }
    Optional<Expr> offset =
        node.offset() == 0
            ? Optional.empty()
            : Optional.of(new Expr.Literal(node.offset(), DataType.BIGINT));
    Optional<Expr> fetch =
        node.limit() < 0
            ? Optional.empty()
            : Optional.of(new Expr.Literal(node.limit(), DataType.BIGINT));
    return new Sort(new SortNode(node, node.orderBy(), offset, fetch), passes, ctx);
  }

  @Override
  public Object[] next() {
    while (true) {
      if (scan != null) {
        Object[] row = scan.next();
        if (row != null) {
          return row;
        }
        endPass();
      }
      if (masks.isEmpty()) {
        return null;
      }
      ctx.control().check();
      startPass(masks.poll());
    }
  }

  /**
   * Reads the partitions of {@code mask} into a hash table and starts the scan probing it. When
   * they do not fit (the memory of the operators above grows as the passes go), the pass is split
   * in two, run one after the other.
   */
  private void startPass(long mask) {
    passesRun++;
    memory =
        ctx.memory()
            .reservation(
                "BROADCAST JOIN (build side, pass "
                    + passesRun
                    + " of "
                    + (passesRun + masks.size())
                    + ")");
    JoinHashTable.Builder builder =
        JoinHashTable.builder(join.build().outputTypes().size(), join.buildKeys());
    if (hasNullKey) {
      builder.markNullKey();
    }
    try {
      for (int p = 0; p < runs.size(); p++) {
        SpillRun run = runs.get(p);
        if ((mask & (1L << p)) == 0 || run == null) {
          continue;
        }
        try (SpillReader reader = run.openReader()) {
          for (Object[] row = reader.next(); row != null; row = reader.next()) {
            memory.add(builder.add(row));
          }
        }
      }
    } catch (CairnException e) {
      memory.close();
      memory = null;
      if (e.errorCode() != ErrorCode.MEMORY_LIMIT_EXCEEDED) {
        throw e;
      }
      long[] halves = split(mask);
      if (halves == null) {
        throw new CairnException(
            ErrorCode.MEMORY_LIMIT_EXCEEDED,
            "JOIN of ["
                + node.table().qualifiedName()
                + "]: the build side's rows of one hash partition alone do not fit in memory,"
                + " even probed in passes (very many rows of a few join keys): "
                + e.getMessage(),
            e);
      }
      passesRun--;
      masks.addFirst(halves[1]);
      masks.addFirst(halves[0]);
      startPass(masks.poll());
      return;
    }
    for (int p = 0; p < runs.size(); p++) {
      if ((mask & (1L << p)) != 0 && runs.get(p) != null) {
        runs.set(p, null).delete();
      }
    }
    String id = UUID.randomUUID().toString();
    HashProbe probe = BroadcastJoin.hashProbe(node, id).inPass(id, mask);
    scan = ProbingScan.open(node, ctx, probe, builder.build());
  }

  /**
   * {@code mask}'s partitions in two masks of about half its rows each (the empty partitions with
   * the first); null when it has one partition with rows.
   */
  private long[] split(long mask) {
    long withRows = 0;
    for (int p = 0; p < runs.size(); p++) {
      if ((mask & (1L << p)) != 0 && runs.get(p) != null) {
        withRows |= 1L << p;
      }
    }
    int count = Long.bitCount(withRows);
    if (count < 2) {
      return null;
    }
    long first = mask & ~withRows; // the empty ones
    long rest = withRows;
    for (int i = 0; i < count / 2; i++) {
      long lowest = Long.lowestOneBit(rest);
      first |= lowest;
      rest &= ~lowest;
    }
    return new long[] {first, rest};
  }

  /** Closes the pass's scan (which removes its cache) and frees its memory. */
  private void endPass() {
    ProbingScan s = scan;
    MemoryReservation m = memory;
    scan = null;
    memory = null;
    Closeables.closeAllUnchecked(java.util.Arrays.asList(s, m));
  }

  @Override
  public void close() {
    try {
      endPass();
    } finally {
      for (int p = 0; p < runs.size(); p++) {
        deleteQuietly(runs.set(p, null));
      }
    }
  }

  private static void deleteQuietly(SpillRun run) {
    if (run != null) {
      try {
        run.delete();
      } catch (RuntimeException e) {
        // the spill space deletes its directory when the statement ends
      }
    }
  }
}
