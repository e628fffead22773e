package io.cairn.jdbc.internal.exec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A k-way merge of sorted inputs (spill runs, the rows still in memory) into one sorted stream;
 * closing it closes every input (a spill run's file is deleted).
 */
final class MergedRuns implements Operator {
  private record Head(Object[] row, int source) {}

  private final List<Operator> sources;
  private final PriorityQueue<Head> heads;
  private boolean started;

  MergedRuns(List<Operator> sources, Comparator<Object[]> order) {
    this.sources = new ArrayList<>(sources);
    this.heads =
        new PriorityQueue<>(
            Math.max(1, sources.size()),
            (a, b) -> {
              int c = order.compare(a.row(), b.row());
              return c != 0 ? c : Integer.compare(a.source(), b.source());
            });
  }

  @Override
  public Object[] next() {
    if (!started) {
      started = true;
      for (int i = 0; i < sources.size(); i++) {
        Object[] row = sources.get(i).next();
        if (row != null) {
          heads.add(new Head(row, i));
        }
      }
    }
    Head head = heads.poll();
    if (head == null) {
      return null;
    }
    Object[] following = sources.get(head.source()).next();
    if (following != null) {
      heads.add(new Head(following, head.source()));
    }
    return head.row();
  }

  @Override
  public void close() {
    heads.clear();
    Operators.closeAll(sources);
  }
}
