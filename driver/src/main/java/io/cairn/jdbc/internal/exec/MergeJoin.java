package io.cairn.jdbc.internal.exec;

import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.expr.Values;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
import io.cairn.kv.SortKey;
import io.cairn.planner.plan.JoinNode;
import io.cairn.planner.plan.SortNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A sort-merge join (the USE_SORT_MERGE_JOIN hint): both inputs sorted by their join keys (each by
 * a {@link Sort}, which spills to disk past the query's memory), then merged in one pass, for every
 * join kind. Only the right rows of one key value are held at a time (reserved in the query's
 * pool), so a join of two inputs far bigger than memory completes unless one key's rows alone do
 * not fit. Keys compare as SQL values ({@link Values#compare}: numerically equal decimals match); a
 * NULL key matches nothing. {@code residual}, over the joined row, is part of the match condition.
 */
final class MergeJoin implements Operator {
  private final JoinNode node;
  private final Operator left;
  private final Operator right;
  private final ExecContext ctx;
  private final int[] leftKeys;
  private final int[] rightKeys;
  private final int leftWidth;
  private final int rightWidth;
  private final RowExpression residual;
  private final MemoryReservation memory;

  /** Output rows ready to return. */
  private final ArrayDeque<Object[]> out = new ArrayDeque<>();

  private boolean started;
  private Object[] leftRow;
  private Object[] rightRow;

  /** The right rows of the current key value, and which of them matched (RIGHT, FULL). */
  private final List<Object[]> group = new ArrayList<>();

  private boolean[] groupMatched;
  private long groupBytes;
  private int steps;

  MergeJoin(JoinNode node, Operator left, Operator right, ExecContext ctx) {
    this.node = node;
    this.leftKeys = node.leftKeys().stream().mapToInt(Integer::intValue).toArray();
    this.rightKeys = node.rightKeys().stream().mapToInt(Integer::intValue).toArray();
    this.left = sorted(node.left(), left, leftKeys, ctx);
    this.right = sorted(node.right(), right, rightKeys, ctx);
    this.ctx = ctx;
    this.leftWidth = node.left().outputTypes().size();
    this.rightWidth = node.right().outputTypes().size();
    this.residual = node.residual().map(ExprCompiler::compile).orElse(null);
    this.memory = ctx.memory().reservation("SORT-MERGE JOIN (right rows of one key)");
  }

  /** {@code input} sorted by {@code keys}, NULLs first. */
  private static Operator sorted(
      io.cairn.planner.plan.PlanNode plan, Operator input, int[] keys, ExecContext ctx) {
    List<SortKey> order = new ArrayList<>();
    for (int k : keys) {
      order.add(new SortKey(k, false, true));
    }
    return new Sort(new SortNode(plan, order, Optional.empty(), Optional.empty()), input, ctx);
  }

  @Override
  public Object[] next() {
    if (!started) {
      started = true;
      leftRow = left.next();
      rightRow = right.next();
    }
    while (out.isEmpty()) {
      if (!step()) {
        return null;
      }
      checkNow();
    }
    return out.poll();
  }

  /** Moves the merge on by one left row, one right row or one key group; false at the end. */
  private boolean step() {
    if (leftRow == null && rightRow == null) {
      return false;
    }
    if (leftRow != null && hasNull(leftRow, leftKeys)) {
      unmatchedLeft(leftRow);
      leftRow = left.next();
      return true;
    }
    if (rightRow != null && hasNull(rightRow, rightKeys)) {
      unmatchedRight(rightRow);
      rightRow = right.next();
      return true;
    }
    if (rightRow == null) {
      unmatchedLeft(leftRow);
      leftRow = left.next();
      return true;
    }
    if (leftRow == null) {
      unmatchedRight(rightRow);
      rightRow = right.next();
      return true;
    }
    int c = compareKeys(leftRow, rightRow);
    if (c < 0) {
      unmatchedLeft(leftRow);
      leftRow = left.next();
    } else if (c > 0) {
      unmatchedRight(rightRow);
      rightRow = right.next();
    } else {
      joinGroup();
    }
    return true;
  }

  /** The right rows of the current key, and every left row of that key joined with them. */
  private void joinGroup() {
    Object[] first = rightRow;
    while (rightRow != null && compareKeys(first, rightKeys, rightRow, rightKeys) == 0) {
      long bytes = RowSizes.row(rightRow) + Operators.SLOT_BYTES;
      memory.add(bytes);
      groupBytes += bytes;
      group.add(rightRow);
      rightRow = right.next();
      checkNow();
    }
    groupMatched = new boolean[group.size()];
    while (leftRow != null && compareKeys(leftRow, leftKeys, first, rightKeys) == 0) {
      probe(leftRow);
      leftRow = left.next();
      checkNow();
    }
    for (int i = 0; i < group.size(); i++) {
      if (!groupMatched[i]) {
        unmatchedRight(group.get(i));
      }
    }
    group.clear();
    memory.free(groupBytes);
    groupBytes = 0;
  }

  /** Checks for cancel now and then inside a group (a key of very many rows). */
  private void checkNow() {
    if (++steps >= Operators.CHECK_INTERVAL) {
      steps = 0;
      ctx.control().check();
    }
  }

  /** Joins one left row with the current group. */
  private void probe(Object[] l) {
    boolean any = false;
    for (int i = 0; i < group.size(); i++) {
      Object[] joined = concat(l, group.get(i));
      if (residual != null && !Boolean.TRUE.equals(residual.evaluate(joined, ctx.eval()))) {
        continue;
      }
      any = true;
      groupMatched[i] = true;
      switch (node.kind()) {
        case INNER, LEFT, RIGHT, FULL -> out.add(joined);
        case SEMI -> {
          out.add(l);
          return;
        }
        case ANTI -> {
          return;
        }
      }
    }
    if (!any) {
      unmatchedLeft(l);
    }
  }

  private void unmatchedLeft(Object[] l) {
    switch (node.kind()) {
      case LEFT, FULL -> out.add(concat(l, null));
      case ANTI -> out.add(l);
      default -> {}
    }
  }

  private void unmatchedRight(Object[] r) {
    if (node.kind() == JoinNode.Kind.RIGHT || node.kind() == JoinNode.Kind.FULL) {
      out.add(concat(null, r));
    }
  }

  private static boolean hasNull(Object[] row, int[] keys) {
    for (int k : keys) {
      if (row[k] == null) {
        return true;
      }
    }
    return false;
  }

  private int compareKeys(Object[] l, Object[] r) {
    return compareKeys(l, leftKeys, r, rightKeys);
  }

  private static int compareKeys(Object[] a, int[] aKeys, Object[] b, int[] bKeys) {
    for (int i = 0; i < aKeys.length; i++) {
      int c = Values.compare(a[aKeys[i]], b[bKeys[i]]);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  private Object[] concat(Object[] l, Object[] r) {
    Object[] joined = new Object[leftWidth + rightWidth];
    if (l != null) {
      System.arraycopy(l, 0, joined, 0, leftWidth);
    }
    if (r != null) {
      System.arraycopy(r, 0, joined, leftWidth, rightWidth);
    }
    return joined;
  }

  @Override
  public void close() {
    try {
      Operators.closeAll(List.of(left, right));
    } finally {
      memory.close();
    }
  }
}
