package io.cairn.jdbc.internal.exec;

import io.cairn.core.agg.GroupKey;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.expr.Values;
import io.cairn.core.io.Closeables;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
import io.cairn.planner.plan.AggregateNode;
import io.cairn.planner.plan.FilterNode;
import io.cairn.planner.plan.JoinNode;
import io.cairn.planner.plan.LeftRowsNode;
import io.cairn.planner.plan.MarkJoinNode;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ProjectNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.SetOpNode;
import io.cairn.planner.plan.SortNode;
import io.cairn.planner.plan.ValuesNode;
import io.cairn.planner.plan.WindowNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds and holds the executor's operators, one small class per plan node. */
public final class Operators {
  /**
   * How often (in rows, or in steps of an inner loop such as a join's probe) operators check for
   * cancellation and timeout.
   */
  static final int CHECK_INTERVAL = 1024;

  /** How often (in comparisons) a sort checks for cancellation and timeout. */
  static final int COMPARISONS_PER_CHECK = 1 << 16;

  /** The estimated bytes of a reference to a row in a list or array. */
  static final long SLOT_BYTES = 8;

  /**
   * {@code order} checking {@code control} every {@value #COMPARISONS_PER_CHECK} comparisons, so
   * that a long sort stops within a second of a cancel or its timeout.
   */
  static <T> Comparator<T> checked(Comparator<T> order, ExecContext ctx) {
    return new Comparator<>() {
      private int comparisons;

      @Override
      public int compare(T a, T b) {
        if (++comparisons >= COMPARISONS_PER_CHECK) {
          comparisons = 0;
          ctx.control().check();
        }
        return order.compare(a, b);
      }
    };
  }

  private Operators() {}

  /** An operator of no rows. */
  static final Operator NONE =
      new Operator() {
        @Override
        public Object[] next() {
          return null;
        }

        @Override
        public void close() {}
      };

  /**
   * Builds the operator tree of {@code node}; a subplan the statement runs more than once reads
   * rows computed once ({@link SharedResults}).
   */
  static Operator build(PlanNode node, ExecContext ctx) {
    return ctx.shared().isEmpty()
        ? buildUnshared(node, ctx)
        : ctx.shared().operator(node, ctx, () -> buildUnshared(node, ctx));
  }

  private static Operator buildUnshared(PlanNode node, ExecContext ctx) {
    if (node instanceof ScanNode scan && scan.probe().isPresent()) {
      return new BroadcastJoin(scan, ctx);
    }
    if (node instanceof ScanNode scan) {
      return new TableScan(scan, ctx);
    }
    if (node instanceof FilterNode f) {
      return new Filter(build(f.input(), ctx), ExprCompiler.compile(f.condition()), ctx);
    }
    if (node instanceof ProjectNode p) {
      return new Project(build(p.input(), ctx), compileAll(p.expressions()), ctx);
    }
    if (node instanceof AggregateNode a) {
      return new Aggregate(a, build(a.input(), ctx), ctx);
    }
    if (node instanceof SortNode s) {
      return new Sort(s, build(s.input(), ctx), ctx);
    }
    if (node instanceof JoinNode j) {
      return j.sortMerge()
          ? new MergeJoin(j, build(j.left(), ctx), build(j.right(), ctx), ctx)
          : new Join(j, build(j.left(), ctx), build(j.right(), ctx), ctx);
    }
    if (node instanceof MarkJoinNode m) {
      return new MarkJoin(m, build(m.join().left(), ctx), ctx);
    }
    if (node instanceof LeftRowsNode) {
      throw CairnException.internal("The left rows of a mark join are read by their join only");
    }
    if (node instanceof SetOpNode s) {
      List<Operator> inputs = new ArrayList<>();
      for (PlanNode input : s.inputs()) {
        inputs.add(build(input, ctx));
      }
      return new SetOp(s, inputs, ctx);
    }
    if (node instanceof ValuesNode v) {
      return new ValuesOp(v, ctx);
    }
    if (node instanceof WindowNode w) {
      return new WindowOperator(w, build(w.input(), ctx), ctx);
    }
    throw CairnException.internal("Unknown plan node " + node.getClass().getSimpleName());
  }

  /** The input of expressions that read no columns (VALUES, OFFSET, FETCH). */
  private static final Object[] NO_INPUT = new Object[0];

  static RowExpression[] compileAll(List<Expr> exprs) {
    RowExpression[] compiled = new RowExpression[exprs.size()];
    for (int i = 0; i < compiled.length; i++) {
      compiled[i] = ExprCompiler.compile(exprs.get(i));
    }
    return compiled;
  }

  static long evalCount(Expr expr, ExecContext ctx, String what) {
    Object v = ExprCompiler.compile(expr).evaluate(NO_INPUT, ctx.eval());
    if (v == null) {
      return -1;
    }
    long n = ((Number) v).longValue();
    if (n < 0) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT, what + " must not be negative: found [" + n + "]");
    }
    return n;
  }

  /**
   * After {@code failure} of {@code memory.add(bytes)}: when the query's memory is full, asks its
   * other operators that can spill ({@link
   * io.cairn.jdbc.internal.exec.spill.SpillSpace#revokeOthers}) to give theirs back and tries
   * again.
   *
   * @return whether the bytes are now reserved
   */
  static boolean addAfterRevoking(
      ExecContext ctx,
      Object asking,
      MemoryReservation memory,
      long bytes,
      CairnException failure) {
    if (failure.errorCode() != ErrorCode.MEMORY_LIMIT_EXCEEDED
        || ctx.spill().revokeOthers(asking) == 0) {
      return false;
    }
    try {
      memory.add(bytes);
      return true;
    } catch (CairnException again) {
      if (again.errorCode() != ErrorCode.MEMORY_LIMIT_EXCEEDED) {
        throw again;
      }
      return false;
    }
  }

  static void closeAll(List<? extends AutoCloseable> resources) {
    Closeables.closeAllUnchecked(resources);
  }

  /** Keeps rows whose condition is TRUE. */
  static final class Filter implements Operator {
    private final Operator input;
    private final RowExpression condition;
    private final ExecContext ctx;

    Filter(Operator input, RowExpression condition, ExecContext ctx) {
      this.input = input;
      this.condition = condition;
      this.ctx = ctx;
    }

    @Override
    public Object[] next() {
      int seen = 0;
      for (Object[] row = input.next(); row != null; row = input.next()) {
        if (Boolean.TRUE.equals(condition.evaluate(row, ctx.eval()))) {
          return row;
        }
        if (++seen >= CHECK_INTERVAL) {
          seen = 0;
          ctx.control().check();
        }
      }
      return null;
    }

    @Override
    public void close() {
      input.close();
    }
  }

  /** Computes expressions over each row. */
  static final class Project implements Operator {
    private final Operator input;
    private final RowExpression[] exprs;
    private final ExecContext ctx;

    Project(Operator input, RowExpression[] exprs, ExecContext ctx) {
      this.input = input;
      this.exprs = exprs;
      this.ctx = ctx;
    }

    @Override
    public Object[] next() {
      Object[] row = input.next();
      if (row == null) {
        return null;
      }
      Object[] out = new Object[exprs.length];
      for (int i = 0; i < exprs.length; i++) {
        out[i] = exprs[i].evaluate(row, ctx.eval());
      }
      return out;
    }

    @Override
    public void close() {
      input.close();
    }
  }

  /**
   * UNION / INTERSECT / EXCEPT, ALL or DISTINCT. The rows it keeps (UNION DISTINCT's rows seen,
   * INTERSECT's and EXCEPT's rows and counts) are reserved in the query's memory pool until it is
   * closed.
   */
  static final class SetOp implements Operator {
    /** The estimated bytes of a row's entry in a set or map, besides the row. */
    static final long ENTRY_BYTES = 64;

    private final SetOpNode node;
    private final List<Operator> inputs;
    private final ExecContext ctx;
    private final MemoryReservation memory;
    private int current;
    private int steps;
    private Iterator<Object[]> output;
    private final java.util.Set<GroupKey> seenKeys = new java.util.HashSet<>();

    SetOp(SetOpNode node, List<Operator> inputs, ExecContext ctx) {
      this.node = node;
      this.inputs = inputs;
      this.ctx = ctx;
      this.memory = ctx.memory().reservation(node.kind() + " (distinct rows)");
    }

    private Object[] coerce(Object[] row) {
      Object[] out = new Object[row.length];
      for (int i = 0; i < row.length; i++) {
        out[i] = row[i] == null ? null : Values.cast(row[i], node.outputTypes().get(i));
      }
      return out;
    }

    /** Counts one row read, checking for cancellation every {@value #CHECK_INTERVAL}. */
    private void step() {
      if (++steps >= CHECK_INTERVAL) {
        steps = 0;
        ctx.control().check();
      }
    }

    @Override
    public Object[] next() {
      if (node.kind() == SetOpNode.Kind.UNION) {
        while (current < inputs.size()) {
          Object[] row = inputs.get(current).next();
          if (row == null) {
            current++;
            continue;
          }
          step();
          row = coerce(row);
          if (node.all()) {
            return row;
          }
          if (seenKeys.add(GroupKey.ofRow(row))) {
            memory.add(RowSizes.row(row) + ENTRY_BYTES);
            return row;
          }
        }
        return null;
      }
      if (output == null) {
        output = intersectOrExcept().iterator();
      }
      return output.hasNext() ? output.next() : null;
    }

    private List<Object[]> intersectOrExcept() {
      Map<GroupKey, Object[]> firstRows = new LinkedHashMap<>();
      Map<GroupKey, Long> counts = new LinkedHashMap<>();
      for (Object[] row = inputs.get(0).next(); row != null; row = inputs.get(0).next()) {
        step();
        row = coerce(row);
        GroupKey key = GroupKey.ofRow(row);
        if (firstRows.putIfAbsent(key, row) == null) {
          memory.add(RowSizes.row(row) + 2 * ENTRY_BYTES);
        }
        counts.merge(key, 1L, Long::sum);
      }
      for (int i = 1; i < inputs.size(); i++) {
        Map<GroupKey, Long> other = new HashMap<>();
        long otherBytes = 0;
        Operator in = inputs.get(i);
        for (Object[] row = in.next(); row != null; row = in.next()) {
          step();
          GroupKey key = GroupKey.ofRow(coerce(row));
          if (other.merge(key, 1L, Long::sum) == 1L) {
            long bytes = RowSizes.row(row) + ENTRY_BYTES;
            memory.add(bytes);
            otherBytes += bytes;
          }
        }
        ctx.control().check();
        for (Map.Entry<GroupKey, Long> e : counts.entrySet()) {
          step();
          long o = other.getOrDefault(e.getKey(), 0L);
          long n = e.getValue();
          long result =
              node.kind() == SetOpNode.Kind.INTERSECT
                  ? (node.all() ? Math.min(n, o) : (o > 0 && n > 0 ? 1 : 0))
                  : (node.all() ? Math.max(0, n - o) : (o == 0 && n > 0 ? 1 : 0));
          e.setValue(result);
        }
        memory.free(otherBytes); // the other input's counts are garbage now
      }
      List<Object[]> rows = new ArrayList<>();
      for (Map.Entry<GroupKey, Long> e : counts.entrySet()) {
        step();
        long n = node.all() ? e.getValue() : Math.min(1, e.getValue());
        memory.add(n * SLOT_BYTES);
        rows.addAll(Collections.nCopies((int) n, firstRows.get(e.getKey())));
      }
      return rows;
    }

    @Override
    public void close() {
      seenKeys.clear();
      output = null;
      try {
        memory.close();
      } finally {
        closeAll(inputs);
      }
    }
  }

  /**
   * Converts {@code value} to the Java class of {@code type} when it has another class; values
   * already of that class are kept as they are (no truncation or rounding: store assignment checks
   * them when they are written).
   */
  static Object conform(Object value, io.cairn.core.type.DataType type) {
    if (value == null) {
      return null;
    }
    boolean sameClass =
        switch (type.name()) {
          case CHAR, VARCHAR -> value instanceof String;
          case DECIMAL -> value instanceof java.math.BigDecimal;
          default -> false;
        };
    return sameClass ? value : Values.cast(value, type);
  }

  /** Constant rows; each expression is compiled once, when the operator is built. */
  static final class ValuesOp implements Operator {
    private final ValuesRows rows;
    private final ExecContext ctx;
    private int next;

    ValuesOp(ValuesNode node, ExecContext ctx) {
      this.rows = new ValuesRows(node);
      this.ctx = ctx;
    }

    @Override
    public Object[] next() {
      return next >= rows.size() ? null : rows.row(next++, ctx.eval());
    }

    @Override
    public void close() {}
  }
}
