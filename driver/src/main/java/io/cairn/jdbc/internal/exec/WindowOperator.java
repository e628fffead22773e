package io.cairn.jdbc.internal.exec;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
import io.cairn.kv.SortKey;
import io.cairn.planner.plan.WindowNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

/**
 * Evaluates window functions: materialises the input, then per window group sorts row indexes by
 * (partition keys, order keys), walks each partition and computes every call over its frame. Frames
 * starting at UNBOUNDED PRECEDING are aggregated incrementally. The rows it holds are reserved in
 * the query's memory pool until the last one is out; sorting and every loop over a partition check
 * for cancellation as they go.
 */
final class WindowOperator implements Operator {
  /** The estimated bytes per row of a window group's sort order (a boxed index and its slot). */
  static final long ORDER_BYTES = 24;

  private final WindowNode node;
  private final Operator input;
  private final ExecContext ctx;
  private final MemoryReservation memory;
  private Iterator<Object[]> output;
  private int steps;

  WindowOperator(WindowNode node, Operator input, ExecContext ctx) {
    this.node = node;
    this.input = input;
    this.ctx = ctx;
    this.memory = ctx.memory().reservation("window functions (rows)");
  }

  @Override
  public Object[] next() {
    if (output == null) {
      output = run().iterator();
    }
    if (output.hasNext()) {
      return output.next();
    }
    memory.close();
    return null;
  }

  @Override
  public void close() {
    output = null;
    try {
      memory.close();
    } finally {
      input.close();
    }
  }

  /** Counts {@code n} steps of work, checking for cancellation every CHECK_INTERVAL. */
  private void step(int n) {
    steps += n;
    if (steps >= Operators.CHECK_INTERVAL) {
      steps = 0;
      ctx.control().check();
    }
  }

  private List<Object[]> run() {
    int width = node.input().outputTypes().size();
    int total = node.outputTypes().size();
    List<Object[]> rows = new ArrayList<>();
    int seen = 0;
    for (Object[] row = input.next(); row != null; row = input.next()) {
      Object[] copy = Arrays.copyOf(row, total);
      memory.add(RowSizes.row(copy) + Operators.SLOT_BYTES);
      rows.add(copy);
      if (++seen >= Operators.CHECK_INTERVAL) {
        seen = 0;
        ctx.control().check();
      }
    }
    int column = width;
    for (WindowNode.Group group : node.groups()) {
      evaluate(group, rows, column);
      column += group.calls().size();
      ctx.control().check();
    }
    return rows;
  }

  private void evaluate(WindowNode.Group group, List<Object[]> rows, int firstColumn) {
    List<SortKey> partitionKeys = new ArrayList<>();
    for (int k : group.partitionKeys()) {
      partitionKeys.add(new SortKey(k, false, true));
    }
    Comparator<Object[]> partitionOrder = SortKey.comparator(partitionKeys);
    Comparator<Object[]> peerOrder = SortKey.comparator(group.orderKeys());
    long orderBytes = ORDER_BYTES * rows.size();
    memory.add(orderBytes);
    Integer[] order = new Integer[rows.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Comparator<Object[]> rowOrder = partitionOrder.thenComparing(peerOrder);
    Arrays.sort(
        order, Operators.checked((a, b) -> rowOrder.compare(rows.get(a), rows.get(b)), ctx));
    int start = 0;
    while (start < order.length) {
      int end = start + 1;
      while (end < order.length
          && partitionOrder.compare(rows.get(order[start]), rows.get(order[end])) == 0) {
        end++;
      }
      Object[][] partition = new Object[end - start][];
      for (int i = start; i < end; i++) {
        partition[i - start] = rows.get(order[i]);
      }
      step(partition.length);
      partition(group, partition, peerOrder, firstColumn);
      start = end;
    }
    memory.free(orderBytes);
  }

  private void partition(
      WindowNode.Group group, Object[][] rows, Comparator<Object[]> peerOrder, int firstColumn) {
    int m = rows.length;
    int[] peerStart = new int[m];
    int[] peerEnd = new int[m];
    for (int j = 0; j < m; j++) {
      peerStart[j] = j > 0 && peerOrder.compare(rows[j - 1], rows[j]) == 0 ? peerStart[j - 1] : j;
    }
    for (int j = m - 1; j >= 0; j--) {
      peerEnd[j] = j < m - 1 && peerOrder.compare(rows[j], rows[j + 1]) == 0 ? peerEnd[j + 1] : j;
    }
    int[] lo = new int[m];
    int[] hi = new int[m];
    for (int j = 0; j < m; j++) {
      lo[j] = frameIndex(group, group.lower(), j, m, peerStart, peerEnd, true);
      hi[j] = frameIndex(group, group.upper(), j, m, peerStart, peerEnd, false);
    }
    for (int c = 0; c < group.calls().size(); c++) {
      WindowNode.Call call = group.calls().get(c);
      int column = firstColumn + c;
      switch (call.function()) {
        case ROW_NUMBER -> {
          for (int j = 0; j < m; j++) {
            rows[j][column] = Operators.conform((long) j + 1, call.type());
          }
        }
        case RANK -> {
          for (int j = 0; j < m; j++) {
            rows[j][column] = Operators.conform((long) peerStart[j] + 1, call.type());
          }
        }
        case DENSE_RANK -> {
          long rank = 0;
          for (int j = 0; j < m; j++) {
            if (peerStart[j] == j) {
              rank++;
            }
            rows[j][column] = Operators.conform(rank, call.type());
          }
        }
        case PERCENT_RANK -> {
          for (int j = 0; j < m; j++) {
            double value = m == 1 ? 0.0 : (double) peerStart[j] / (m - 1);
            rows[j][column] = Operators.conform(value, call.type());
          }
        }
        case CUME_DIST -> {
          for (int j = 0; j < m; j++) {
            rows[j][column] = Operators.conform((double) (peerEnd[j] + 1) / m, call.type());
          }
        }
        case NTILE -> ntile(call, rows, column);
        case LAG, LEAD -> shift(call, rows, column);
        case FIRST_VALUE, LAST_VALUE, NTH_VALUE -> {
          for (int j = 0; j < m; j++) {
            int at =
                switch (call.function()) {
                  case FIRST_VALUE -> lo[j];
                  case LAST_VALUE -> hi[j];
                  default -> lo[j] + (int) count(rows[j], call, 1) - 1;
                };
            Object value =
                lo[j] <= hi[j] && at >= lo[j] && at <= hi[j]
                    ? rows[at][call.arguments().get(0)]
                    : null;
            rows[j][column] = Operators.conform(value, call.type());
          }
        }
        default -> aggregate(call, rows, column, lo, hi);
      }
    }
  }

  private static int frameIndex(
      WindowNode.Group group,
      WindowNode.Bound bound,
      int j,
      int m,
      int[] peerStart,
      int[] peerEnd,
      boolean lower) {
    long index =
        switch (bound.kind()) {
          case UNBOUNDED_PRECEDING -> 0;
          case UNBOUNDED_FOLLOWING -> m - 1;
          case CURRENT_ROW -> group.rows() ? j : (lower ? peerStart[j] : peerEnd[j]);
          case PRECEDING, FOLLOWING -> {
            if (!group.rows()) {
              throw new CairnException(
                  ErrorCode.NOT_SUPPORTED,
                  "RANGE frames with an offset are not supported yet; use ROWS");
            }
            yield bound.kind() == WindowNode.Bound.Kind.PRECEDING
                ? j - bound.offset()
                : j + bound.offset();
          }
        };
    return (int) Math.max(-1, Math.min(m, index));
  }

  /** A positive count argument (NTILE buckets, LAG/LEAD offset, NTH_VALUE position). */
  private static long count(Object[] row, WindowNode.Call call, int argument) {
    if (call.arguments().size() <= argument) {
      return 1;
    }
    Object value = row[call.arguments().get(argument)];
    if (!(value instanceof Number n) || n.longValue() < 0) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          call.function() + " expects a non-negative count, found [" + value + "]");
    }
    return n.longValue();
  }

  private static void ntile(WindowNode.Call call, Object[][] rows, int column) {
    int m = rows.length;
    if (m == 0) {
      return;
    }
    long buckets = count(rows[0], call, 0);
    if (buckets <= 0) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT, "NTILE expects a positive bucket count, found [0]");
    }
    long size = m / buckets;
    long larger = m % buckets;
    int j = 0;
    for (long b = 1; b <= buckets && j < m; b++) {
      long n = size + (b <= larger ? 1 : 0);
      for (long k = 0; k < n && j < m; k++) {
        rows[j++][column] = Operators.conform(b, call.type());
      }
    }
  }

  private static void shift(WindowNode.Call call, Object[][] rows, int column) {
    int m = rows.length;
    // All values are read before any is written: the output column may be an argument's.
    Object[] values = new Object[m];
    for (int j = 0; j < m; j++) {
      long offset = count(rows[j], call, 1);
      long at = call.function() == WindowNode.Function.LAG ? j - offset : j + offset;
      Object value;
      if (at >= 0 && at < m) {
        value = rows[(int) at][call.arguments().get(0)];
      } else {
        value = call.arguments().size() > 2 ? rows[j][call.arguments().get(2)] : null;
      }
      values[j] = value;
    }
    for (int j = 0; j < m; j++) {
      rows[j][column] = Operators.conform(values[j], call.type());
    }
  }

  private void aggregate(WindowNode.Call call, Object[][] rows, int column, int[] lo, int[] hi) {
    AggregateKind kind =
        switch (call.function()) {
          case COUNT_STAR -> AggregateKind.COUNT_STAR;
          case COUNT -> AggregateKind.COUNT;
          case SUM -> AggregateKind.SUM;
          case SUM0 -> AggregateKind.SUM0;
          case MIN -> AggregateKind.MIN;
          case MAX -> AggregateKind.MAX;
          case AVG -> AggregateKind.AVG;
          default -> throw CairnException.internal("Not an aggregate: " + call.function());
        };
    AggregateCall aggregate =
        new AggregateCall(kind, call.arguments(), call.distinct(), call.type());
    int m = rows.length;
    Object[] results = new Object[m];
    boolean growing = true;
    for (int j = 0; j < m; j++) {
      if (lo[j] != 0 || (j > 0 && hi[j] < hi[j - 1])) {
        growing = false;
      }
    }
    if (growing) {
      Accumulator accumulator = Aggregates.create(aggregate);
      int added = 0;
      for (int j = 0; j < m; j++) {
        while (added <= hi[j] && added < m) {
          accumulator.add(rows[added++]);
        }
        results[j] = accumulator.result();
      }
    } else {
      for (int j = 0; j < m; j++) {
        Accumulator accumulator = Aggregates.create(aggregate);
        int from = Math.max(0, lo[j]);
        int to = Math.min(m - 1, hi[j]);
        for (int k = from; k <= to; k++) {
          accumulator.add(rows[k]);
        }
        step(Math.max(1, to - from + 1)); // a frame may be the whole partition: O(m^2) in all
        results[j] = accumulator.result();
      }
    }
    for (int j = 0; j < m; j++) {
      rows[j][column] = Operators.conform(results[j], call.type());
    }
  }
}
