package io.cairn.jdbc.internal.exec;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.planner.plan.JoinNode;
import io.cairn.planner.plan.LeftRowsNode;
import io.cairn.planner.plan.MarkJoinNode;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.UUID;

/**
 * A mark join ({@link MarkJoinNode}): a SEMI or ANTI join built on its left side. At the first
 * {@link #next()} it reads the left rows, counted in the query's memory pool, and hashes each one's
 * key and residual columns with its number into a {@link JoinHashTable}; the right input's scan
 * probes that table in the store ({@link ProbingScan}, as {@link BroadcastJoin} does: a lookup join
 * when it has few keys, the key filter, passes past a server's {@code hashJoinMaxBytes}, the driver
 * for a transaction's own writes) and returns the number of the left row each of its matches marks.
 * Then it outputs the left rows marked (SEMI) or not (ANTI), in the order read. A left row with a
 * NULL key is never marked.
 *
 * <p>When the left rows do not fit the query's memory, it runs the join in the driver instead
 * ({@link Join}, which builds the right input and spills): the left rows read so far, then the
 * rest.
 */
final class MarkJoin implements Operator {
  private final MarkJoinNode node;
  private final Operator left;
  private final ExecContext ctx;
  private final boolean semi;
  private MemoryReservation memory;

  /** The left rows, in the order read (each set to null once output); null until open. */
  private List<Object[]> rows;

  private BitSet marked;
  private int position;

  /** The join run in the driver when the left rows did not fit; else null. */
  private Operator fallback;

  MarkJoin(MarkJoinNode node, Operator left, ExecContext ctx) {
    this.node = node;
    this.left = left;
    this.ctx = ctx;
    this.semi = node.join().kind() == JoinNode.Kind.SEMI;
  }

  @Override
  public Object[] next() {
    if (rows == null && fallback == null) {
      ctx.control().check();
      open();
    }
    if (fallback != null) {
      return fallback.next();
    }
    while (position < rows.size()) {
      int i = position++;
      Object[] row = rows.set(i, null);
      if (marked.get(i) == semi) {
        return row;
      }
    }
    if (memory != null) {
      memory.close(); // the last row is out
      memory = null;
    }
    return null;
  }

  private void open() {
    LeftRowsNode leftRows = node.leftRows();
    int[] columns = leftRows.columns().stream().mapToInt(Integer::intValue).toArray();
    memory = ctx.memory().reservation("MARK JOIN (left side rows)");
    List<Object[]> held = new ArrayList<>();
    JoinHashTable.Builder builder =
        JoinHashTable.builder(columns.length + 1, node.probe().probe().orElseThrow().buildKeys());
    int steps = 0;
    for (Object[] row = left.next(); row != null; row = left.next()) {
      Object[] build = new Object[columns.length + 1];
      for (int c = 0; c < columns.length; c++) {
        build[c] = row[columns[c]];
      }
      build[columns.length] = (long) held.size();
      long bytes = RowSizes.row(row) + Operators.SLOT_BYTES + builder.add(build);
      held.add(row);
      try {
        memory.add(bytes);
      } catch (CairnException e) {
        if (!Operators.addAfterRevoking(ctx, this, memory, bytes, e)) {
          if (e.errorCode() != ErrorCode.MEMORY_LIMIT_EXCEEDED) {
            throw e;
          }
          runInTheDriver(held);
          return;
        }
      }
      if (++steps >= Operators.CHECK_INTERVAL) {
        steps = 0;
        ctx.control().check();
      }
    }
    rows = held;
    marked = new BitSet(held.size());
    if (builder.estimatedBytes() > 0) { // else no left row has a key that can match
      mark(builder);
    }
  }

  /** Runs the probe of the right input's table and marks the left rows its matches number. */
  private void mark(JoinHashTable.Builder builder) {
    Operator scan;
    if (ctx.store().copiesHashCaches() && builder.estimatedBytes() > ctx.hashJoinMaxBytes()) {
      String why =
          "is over ["
              + ExecContext.HASH_JOIN_MAX_BYTES_PROPERTY
              + "] ["
              + ctx.hashJoinMaxBytes()
              + "] bytes that a server holds";
      scan =
          ProbePasses.spill(
              node.probe(), ctx, builder, Operators.NONE, ctx.hashJoinMaxBytes(), why, () -> {});
    } else {
      JoinHashTable table = builder.build();
      BroadcastJoin.Probing probing =
          BroadcastJoin.probing(
              node.probe(),
              node.probe().probe().orElseThrow(),
              table,
              UUID.randomUUID().toString(),
              ctx);
      // only which left rows match counts: each joined to its first match, the others passed over
      HashProbe probe = probing.probe();
      scan =
          ProbingScan.open(
              probing.node(),
              ctx,
              probe.kind() == HashProbe.Kind.INNER ? probe.marking() : probe,
              table);
    }
    try (Operator matches = scan) {
      int steps = 0;
      for (Object[] match = matches.next(); match != null; match = matches.next()) {
        marked.set((int) (long) (Long) match[0]);
        if (++steps >= Operators.CHECK_INTERVAL) {
          steps = 0;
          ctx.control().check();
        }
      }
    }
  }

  /**
   * The left rows do not fit: the join runs in the driver ({@link Join} over the rows {@code held},
   * then the rest of the left input, and the right input's plain scan).
   */
  private void runInTheDriver(List<Object[]> held) {
    memory.close();
    memory = null;
    Operator replayed =
        new Operator() {
          private int next;

          @Override
          public Object[] next() {
            if (next < held.size()) {
              return held.set(next++, null);
            }
            return left.next();
          }

          @Override
          public void close() {
            left.close();
          }
        };
    ctx.spill()
        .note(
            "mark join: its left side's rows do not fit in memory; it runs as a hash join of the"
                + " right side's rows in the driver");
    JoinNode join = node.join();
    fallback = new Join(join, replayed, Operators.build(join.right(), ctx), ctx);
  }

  @Override
  public void close() {
    List<AutoCloseable> closing = new ArrayList<>();
    closing.add(fallback != null ? fallback : left); // the fallback closes the left input
    closing.add(memory);
    rows = null;
    Operators.closeAll(closing);
  }
}
