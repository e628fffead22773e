package io.cairn.jdbc.internal.exec;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
import io.cairn.jdbc.internal.exec.spill.SpillRun;
import io.cairn.jdbc.internal.exec.spill.SpillSpace;
import io.cairn.jdbc.internal.exec.spill.SpillWriter;
import io.cairn.kv.SortKey;
import io.cairn.planner.plan.SortNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * ORDER BY with OFFSET/FETCH; a top-N heap when FETCH is known. The rows it holds are reserved in
 * the query's memory pool until the last one is out. A full sort whose rows pass the query's memory
 * (a reservation fails with 53200) sorts what it holds and writes it to a spill file (a sorted
 * run), then goes on with an empty buffer; at the end the runs and the rows still held are merged
 * ({@link MergedRuns}), at most {@value #MERGE_FAN_IN} at a time (more runs are merged into longer
 * runs first). While it reads its input it also spills its buffer when another operator of the
 * query (a join's build side, a grouping below it) needs the memory. A top-N heap stays in memory.
 */
final class Sort implements Operator, SpillSpace.Revocable {
  /** The largest initial capacity of a top-N heap (it grows as rows come). */
  private static final int MAX_INITIAL_HEAP = 1024;

  /** The most runs merged at once (each holds a read buffer). */
  static final int MERGE_FAN_IN = 64;

  private final SortNode node;
  private final Operator input;
  private final ExecContext ctx;
  private final MemoryReservation memory;
  private Iterator<Object[]> output;
  private final List<SpillRun> runs = new ArrayList<>();
  private Operator merged;

  /** A full sort's rows while it reads its input (null otherwise), and their order. */
  private List<Object[]> buffer;

  private Comparator<Object[]> order;

  /** Why it spilled, or null while it did not. */
  private String spilledBy;

  private long remaining;
  private boolean started;

  Sort(SortNode node, Operator input, ExecContext ctx) {
    this.node = node;
    this.input = input;
    this.ctx = ctx;
    this.memory = ctx.memory().reservation("ORDER BY (rows to sort)");
  }

  private void run() {
    long offset = node.offset().map(o -> Operators.evalCount(o, ctx, "OFFSET")).orElse(0L);
    long fetch = node.fetch().map(f -> Operators.evalCount(f, ctx, "FETCH/LIMIT")).orElse(-1L);
    offset = Math.max(offset, 0);
    remaining = fetch < 0 ? Long.MAX_VALUE : fetch;
    if (node.keys().isEmpty()) {
      for (long i = 0; i < offset && input.next() != null; i++) {
        // skip
      }
      output = null;
      return;
    }
    Comparator<Object[]> cmp = Operators.checked(SortKey.comparator(node.keys()), ctx);
    List<Object[]> rows;
    int seen = 0;
    if (fetch >= 0 && offset + fetch < Integer.MAX_VALUE / 2) {
      int capacity = (int) (offset + fetch);
      PriorityQueue<Object[]> heap =
          new PriorityQueue<>(Math.max(1, Math.min(capacity, MAX_INITIAL_HEAP)), cmp.reversed());
      for (Object[] row = input.next(); row != null; row = input.next()) {
        if (capacity == 0) {
          break;
        }
        if (heap.size() < capacity) {
          memory.add(RowSizes.row(row) + Operators.SLOT_BYTES);
          heap.add(row);
        } else if (cmp.compare(row, heap.peek()) < 0) {
          memory.free(RowSizes.row(heap.poll()) + Operators.SLOT_BYTES);
          memory.add(RowSizes.row(row) + Operators.SLOT_BYTES);
          heap.add(row);
        }
        if (++seen >= Operators.CHECK_INTERVAL) {
          seen = 0;
          ctx.control().check();
        }
      }
      rows = new ArrayList<>(heap);
    } else {
      order = cmp;
      buffer = new ArrayList<>();
      ctx.spill().register(this);
      try {
        for (Object[] row = input.next(); row != null; row = input.next()) {
          reserve(RowSizes.row(row) + Operators.SLOT_BYTES);
          buffer.add(row);
          if (++seen >= Operators.CHECK_INTERVAL) {
            seen = 0;
            ctx.control().check();
          }
        }
      } finally {
        ctx.spill().unregister(this);
      }
      rows = buffer;
      buffer = null;
      if (spilledBy != null) {
        rows.sort(cmp);
        merge(rows, cmp);
        for (long i = 0; i < offset && merged.next() != null; i++) {
          // skip
        }
        return;
      }
    }
    rows.sort(cmp);
    int from = (int) Math.min(offset, rows.size());
    output = rows.subList(from, rows.size()).iterator();
  }

  /**
   * Reserves {@code bytes} for a row of a full sort: past the query's memory, asks its other
   * operators to spill, else spills the buffer as a sorted run (rethrowing when it is empty).
   */
  private void reserve(long bytes) {
    try {
      memory.add(bytes);
    } catch (CairnException e) {
      if (e.errorCode() != ErrorCode.MEMORY_LIMIT_EXCEEDED) {
        throw e;
      }
      if (Operators.addAfterRevoking(ctx, this, memory, bytes, e)) {
        return;
      }
      if (buffer.isEmpty()) {
        throw e;
      }
      if (spilledBy == null) {
        spilledBy = e.getMessage();
      }
      spillBuffer();
      memory.add(bytes);
    }
  }

  /** Writes the buffered rows as a sorted run and gives their memory back. */
  private void spillBuffer() {
    buffer.sort(order);
    runs.add(write(buffer));
    buffer = new ArrayList<>();
    memory.close();
  }

  @Override
  public long revoke() {
    if (buffer == null || buffer.isEmpty()) {
      return 0;
    }
    long bytes = memory.reserved();
    if (spilledBy == null) {
      spilledBy = "another operator of the query needed the memory";
    }
    spillBuffer();
    return bytes;
  }

  private SpillRun write(List<Object[]> rows) {
    try (SpillWriter writer = new SpillWriter(ctx.spill().newFile("sort-run"))) {
      int seen = 0;
      for (Object[] row : rows) {
        writer.write(row);
        if (++seen >= Operators.CHECK_INTERVAL) {
          seen = 0;
          ctx.control().check();
        }
      }
      return writer.finish();
    }
  }

  /** Sets {@link #merged} to the merge of the runs and {@code held}, the rows in memory. */
  private void merge(List<Object[]> held, Comparator<Object[]> cmp) {
    long bytes = 0;
    int written = runs.size();
    for (SpillRun run : runs) {
      bytes += run.bytes();
    }
    while (runs.size() + 1 > MERGE_FAN_IN) {
      List<SpillRun> group = new ArrayList<>(runs.subList(0, MERGE_FAN_IN));
      runs.subList(0, MERGE_FAN_IN).clear();
      List<Operator> sources = new ArrayList<>();
      for (SpillRun run : group) {
        sources.add(new SpillScan(run));
      }
      try (MergedRuns merge = new MergedRuns(sources, cmp);
          SpillWriter writer = new SpillWriter(ctx.spill().newFile("sort-merge"))) {
        for (Object[] row = merge.next(); row != null; row = merge.next()) {
          writer.write(row);
        }
        SpillRun longer = writer.finish();
        bytes += longer.bytes();
        written++;
        runs.add(longer);
      }
    }
    List<Operator> sources = new ArrayList<>();
    for (SpillRun run : runs) {
      sources.add(new SpillScan(run));
    }
    runs.clear();
    Iterator<Object[]> inMemory = held.iterator();
    sources.add(
        new Operator() {
          @Override
          public Object[] next() {
            return inMemory.hasNext() ? inMemory.next() : null;
          }

          @Override
          public void close() {}
        });
    merged = new MergedRuns(sources, cmp);
    ctx.spill()
        .note(
            "sort spilled "
                + written
                + " sorted runs to disk, "
                + (bytes >> 20)
                + " MB, past its memory: "
                + spilledBy);
  }

  @Override
  public Object[] next() {
    if (!started) {
      started = true;
      run();
    }
    if (remaining <= 0) {
      return null;
    }
    Object[] row =
        merged != null
            ? merged.next()
            : output == null ? input.next() : output.hasNext() ? output.next() : null;
    if (row != null) {
      remaining--;
    } else {
      memory.close();
    }
    return row;
  }

  @Override
  public void close() {
    buffer = null;
    ctx.spill().unregister(this);
    List<AutoCloseable> resources = new ArrayList<>();
    resources.add(memory);
    if (merged != null) {
      resources.add(merged);
    }
    for (SpillRun run : runs) {
      resources.add(run::delete);
    }
    runs.clear();
    resources.add(input);
    Operators.closeAll(resources);
  }
}
