package io.cairn.jdbc.internal.exec;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.SharedSubplans;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The rows of equal subplans that one statement runs more than once ({@link SharedSubplans}),
 * computed once and read by each: the first reader computes the rows and keeps them in the
 * statement's memory pool, the others read them; they go when every reader is closed, or when the
 * statement ends. When they do not fit the pool, or a reader comes after they went, that reader
 * computes the subplan itself, as it would without sharing.
 */
public final class SharedResults implements AutoCloseable {
  /** A statement without repeated subplans. */
  static final SharedResults NONE = new SharedResults(Map.of());

  private final Map<PlanNode, Result> results;

  private SharedResults(Map<PlanNode, Result> results) {
    this.results = results;
  }

  /** The subplans of {@code plan} that it runs more than once ({@link SharedSubplans}). */
  static SharedResults of(PlanNode plan) {
    Map<PlanNode, Integer> counts = SharedSubplans.of(plan);
    if (counts.isEmpty()) {
      return NONE;
    }
    Map<PlanNode, Result> out = new HashMap<>();
    counts.forEach((node, n) -> out.put(node, new Result(n)));
    return new SharedResults(out);
  }

  boolean isEmpty() {
    return results.isEmpty();
  }

  /**
   * The operator of {@code node}: a reader of its shared rows when it is shared, else {@code
   * build}'s.
   */
  Operator operator(PlanNode node, ExecContext ctx, Supplier<Operator> build) {
    Result result = results.get(node);
    return result == null ? build.get() : new Reader(result, ctx, build);
  }

  /** Releases the rows still kept (the statement ended before every reader was closed). */
  @Override
  public void close() {
    for (Result r : results.values()) {
      r.release();
    }
  }

  /** Rows in the order the subplan makes them, for {@code readers} readers. */
  private static final class Result {
    private final int readers;
    private int closed;
    private List<Object[]> rows;
    private MemoryReservation memory;

    /** Released, or too large to keep: readers from now on compute their own rows. */
    private boolean gone;

    Result(int readers) {
      this.readers = readers;
    }

    /** The rows, computed by {@code build} on the first call; null when they are not kept. */
    synchronized List<Object[]> rows(ExecContext ctx, Supplier<Operator> build) {
      if (gone || rows != null) {
        return rows;
      }
      MemoryReservation reserved =
          ctx.memory().reservation("the rows of a subquery read more than once");
      List<Object[]> out = new ArrayList<>();
      try (Operator op = build.get()) {
        for (Object[] row = op.next(); row != null; row = op.next()) {
          reserved.add(RowSizes.row(row) + Operators.SLOT_BYTES);
          out.add(row);
        }
      } catch (RuntimeException | Error e) {
        reserved.close();
        if (e instanceof CairnException c && c.errorCode() == ErrorCode.MEMORY_LIMIT_EXCEEDED) {
          gone = true; // each reader computes its own, streaming, as without sharing
          return null;
        }
        throw e;
      }
      rows = out;
      memory = reserved;
      return rows;
    }

    synchronized void readerClosed() {
      if (++closed >= readers) {
        release();
      }
    }

    synchronized void release() {
      gone = true;
      rows = null;
      if (memory != null) {
        memory.close();
        memory = null;
      }
    }
  }

  /** One reader of a shared result: a copy of each row, or its own operator when not kept. */
  private static final class Reader implements Operator {
    private final Result result;
    private final ExecContext ctx;
    private final Supplier<Operator> build;
    private List<Object[]> rows;
    private Operator own;
    private int at;
    private boolean closed;

    Reader(Result result, ExecContext ctx, Supplier<Operator> build) {
      this.result = result;
      this.ctx = ctx;
      this.build = build;
    }

    @Override
    public Object[] next() {
      if (own != null) {
        return own.next();
      }
      if (rows == null) {
        rows = result.rows(ctx, build);
        if (rows == null) {
          own = build.get();
          return own.next();
        }
      }
      return at < rows.size() ? rows.get(at++).clone() : null;
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      rows = null;
      try {
        if (own != null) {
          own.close();
        }
      } finally {
        result.readerClosed();
      }
    }
  }
}
