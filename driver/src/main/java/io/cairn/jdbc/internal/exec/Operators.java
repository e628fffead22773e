package io.cairn.jdbc.internal.exec;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.agg.GroupKey;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.RowExpression;
import io.cairn.core.expr.Values;
import io.cairn.jdbc.internal.ConnectionUrl;
import io.cairn.kv.SortKey;
import io.cairn.planner.plan.AggregateNode;
import io.cairn.planner.plan.FilterNode;
import io.cairn.planner.plan.JoinNode;
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
import java.util.PriorityQueue;

/** Builds and holds the executor's operators, one small class per plan node. */
public final class Operators {
  /** How often (in rows) operators check for cancellation and timeout. */
  static final int CHECK_INTERVAL = 1024;

  private Operators() {}

  /** Builds the operator tree of {@code node}. */
  static Operator build(PlanNode node, ExecContext ctx) {
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
      return new Join(j, build(j.left(), ctx), build(j.right(), ctx), ctx);
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

  static void closeAll(List<? extends AutoCloseable> resources) {
    RuntimeException failure = null;
    for (AutoCloseable r : resources) {
      try {
        r.close();
      } catch (Exception e) {
        if (failure == null) {
          failure = e instanceof RuntimeException re ? re : new IllegalStateException(e);
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
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
   * Hash aggregation; at step FINAL it merges the partial states that scans computed (any number of
   * rows: one per scan or chunk, or one per group and chunk after the group's key values). The
   * groups' memory is counted against the connection's {@code aggregateMaxBytes}.
   */
  static final class Aggregate implements Operator {
    private final AggregateNode node;
    private final Operator input;
    private final ExecContext ctx;
    private Iterator<Object[]> output;

    Aggregate(AggregateNode node, Operator input, ExecContext ctx) {
      this.node = node;
      this.input = input;
      this.ctx = ctx;
    }

    private Accumulator[] newAccumulators() {
      Accumulator[] accumulators = new Accumulator[node.calls().size()];
      for (int i = 0; i < accumulators.length; i++) {
        AggregateCall call = node.calls().get(i);
        accumulators[i] = call.kind() == AggregateKind.GROUPING ? null : Aggregates.create(call);
      }
      return accumulators;
    }

    /** The groups of one grouping set, in first-seen order. */
    private static final class SetState {
      final int[] columns;
      final Map<GroupKey, Accumulator[]> groups = new LinkedHashMap<>();
      final Map<GroupKey, Object[]> values = new HashMap<>();

      SetState(int[] columns) {
        this.columns = columns;
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
        sets.add(new SetState(set.stream().mapToInt(Integer::intValue).toArray()));
      }
      AggregationMemory memory =
          new AggregationMemory(
              ctx.aggregateMaxBytes(),
              ConnectionUrl.AGGREGATE_MAX_BYTES + " (connection property)",
              "in the driver");
      int seen = 0;
      for (Object[] row = input.next(); row != null; row = input.next()) {
        for (SetState set : sets) {
          GroupKey key = GroupKey.of(row, set.columns);
          Accumulator[] accs = set.groups.get(key);
          if (accs == null) {
            memory.addGroup(row, set.columns, node.calls().size());
            accs = newAccumulators();
            set.groups.put(key, accs);
            Object[] values = new Object[keys.size()];
            for (int c : set.columns) {
              values[keys.indexOf(c)] = row[c];
            }
            set.values.put(key, values);
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
        if (++seen >= CHECK_INTERVAL) {
          seen = 0;
          ctx.control().check();
        }
      }
      List<Object[]> rows = new ArrayList<>();
      for (SetState set : sets) {
        if (set.columns.length == 0 && set.groups.isEmpty()) {
          GroupKey empty = GroupKey.of(new Object[0], set.columns);
          set.groups.put(empty, newAccumulators());
          set.values.put(empty, new Object[keys.size()]);
        }
        for (Map.Entry<GroupKey, Accumulator[]> e : set.groups.entrySet()) {
          Accumulator[] accs = e.getValue();
          Object[] out = new Object[keys.size() + accs.length];
          System.arraycopy(set.values.get(e.getKey()), 0, out, 0, keys.size());
          for (int i = 0; i < accs.length; i++) {
            out[keys.size() + i] =
                accs[i] == null ? grouping(node.calls().get(i), set) : accs[i].result();
          }
          rows.add(out);
        }
      }
      output = rows.iterator();
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
      return conform(bits, call.resultType());
    }

    @Override
    public Object[] next() {
      if (output == null) {
        run();
      }
      return output.hasNext() ? output.next() : null;
    }

    @Override
    public void close() {
      input.close();
    }
  }

  /** ORDER BY with OFFSET/FETCH; a top-N heap when FETCH is known. */
  static final class Sort implements Operator {
    private final SortNode node;
    private final Operator input;
    private final ExecContext ctx;
    private Iterator<Object[]> output;
    private long remaining;

    Sort(SortNode node, Operator input, ExecContext ctx) {
      this.node = node;
      this.input = input;
      this.ctx = ctx;
    }

    private void run() {
      long offset = node.offset().map(o -> evalCount(o, ctx, "OFFSET")).orElse(0L);
      long fetch = node.fetch().map(f -> evalCount(f, ctx, "FETCH/LIMIT")).orElse(-1L);
      offset = Math.max(offset, 0);
      remaining = fetch < 0 ? Long.MAX_VALUE : fetch;
      if (node.keys().isEmpty()) {
        for (long i = 0; i < offset && input.next() != null; i++) {
          // skip
        }
        output = null;
        return;
      }
      Comparator<Object[]> cmp = SortKey.comparator(node.keys());
      List<Object[]> rows;
      int seen = 0;
      if (fetch >= 0 && offset + fetch < Integer.MAX_VALUE / 2) {
        int capacity = (int) (offset + fetch);
        PriorityQueue<Object[]> heap = new PriorityQueue<>(Math.max(1, capacity), cmp.reversed());
        for (Object[] row = input.next(); row != null; row = input.next()) {
          if (capacity == 0) {
            break;
          }
          if (heap.size() < capacity) {
            heap.add(row);
          } else if (cmp.compare(row, heap.peek()) < 0) {
            heap.poll();
            heap.add(row);
          }
          if (++seen >= CHECK_INTERVAL) {
            seen = 0;
            ctx.control().check();
          }
        }
        rows = new ArrayList<>(heap);
      } else {
        rows = new ArrayList<>();
        for (Object[] row = input.next(); row != null; row = input.next()) {
          rows.add(row);
          if (++seen >= CHECK_INTERVAL) {
            seen = 0;
            ctx.control().check();
          }
        }
      }
      rows.sort(cmp);
      int from = (int) Math.min(offset, rows.size());
      output = rows.subList(from, rows.size()).iterator();
    }

    private boolean started;

    @Override
    public Object[] next() {
      if (!started) {
        started = true;
        run();
      }
      if (remaining <= 0) {
        return null;
      }
      Object[] row = output == null ? input.next() : output.hasNext() ? output.next() : null;
      if (row != null) {
        remaining--;
      }
      return row;
    }

    @Override
    public void close() {
      input.close();
    }
  }

  /** Hash join (equi keys) or nested loop, for every join kind. */
  static final class Join implements Operator {
    private final JoinNode node;
    private final Operator left;
    private final Operator right;
    private final ExecContext ctx;
    private final RowExpression residual;
    private final int leftWidth;
    private final int rightWidth;
    private List<Object[]> buildRows;
    private Map<GroupKey, List<Integer>> buildIndex;
    private boolean[] matched;
    private final List<Object[]> pending = new ArrayList<>();
    private int pendingPos;
    private boolean leftDone;
    private int unmatchedPos;

    Join(JoinNode node, Operator left, Operator right, ExecContext ctx) {
      this.node = node;
      this.left = left;
      this.right = right;
      this.ctx = ctx;
      this.residual = node.residual().map(ExprCompiler::compile).orElse(null);
      this.leftWidth = node.left().outputTypes().size();
      this.rightWidth = node.right().outputTypes().size();
    }

    private void build() {
      buildRows = new ArrayList<>();
      int seen = 0;
      for (Object[] row = right.next(); row != null; row = right.next()) {
        buildRows.add(row);
        if (++seen >= CHECK_INTERVAL) {
          seen = 0;
          ctx.control().check();
        }
      }
      matched = new boolean[buildRows.size()];
      if (!node.rightKeys().isEmpty()) {
        int[] keys = node.rightKeys().stream().mapToInt(Integer::intValue).toArray();
        buildIndex = new HashMap<>();
        for (int i = 0; i < buildRows.size(); i++) {
          GroupKey key = GroupKey.of(buildRows.get(i), keys);
          if (!key.hasNull()) {
            buildIndex.computeIfAbsent(key, k -> new ArrayList<>(1)).add(i);
          }
        }
      }
    }

    private List<Integer> candidates(Object[] leftRow, int[] leftKeys) {
      if (buildIndex == null) {
        return null;
      }
      GroupKey key = GroupKey.of(leftRow, leftKeys);
      if (key.hasNull()) {
        return List.of();
      }
      return buildIndex.getOrDefault(key, List.of());
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

    private void probe(Object[] leftRow, int[] leftKeys) {
      List<Integer> candidates = candidates(leftRow, leftKeys);
      int count = candidates == null ? buildRows.size() : candidates.size();
      boolean any = false;
      for (int c = 0; c < count; c++) {
        int index = candidates == null ? c : candidates.get(c);
        Object[] joined = concat(leftRow, buildRows.get(index));
        if (!matches(joined)) {
          continue;
        }
        any = true;
        matched[index] = true;
        switch (node.kind()) {
          case SEMI, ANTI -> {
            c = count;
          }
          default -> pending.add(joined);
        }
      }
      switch (node.kind()) {
        case SEMI -> {
          if (any) {
            pending.add(leftRow);
          }
        }
        case ANTI -> {
          if (!any) {
            pending.add(leftRow);
          }
        }
        case LEFT, FULL -> {
          if (!any) {
            pending.add(concat(leftRow, null));
          }
        }
        default -> {}
      }
    }

    @Override
    public Object[] next() {
      if (buildRows == null) {
        build();
      }
      int[] leftKeys = node.leftKeys().stream().mapToInt(Integer::intValue).toArray();
      int seen = 0;
      while (true) {
        if (pendingPos < pending.size()) {
          return pending.get(pendingPos++);
        }
        pending.clear();
        pendingPos = 0;
        if (!leftDone) {
          Object[] leftRow = left.next();
          if (leftRow == null) {
            leftDone = true;
          } else {
            probe(leftRow, leftKeys);
            if (++seen >= CHECK_INTERVAL) {
              seen = 0;
              ctx.control().check();
            }
            continue;
          }
        }
        if (node.kind() == JoinNode.Kind.RIGHT || node.kind() == JoinNode.Kind.FULL) {
          while (unmatchedPos < buildRows.size()) {
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
      closeAll(List.of(left, right));
    }
  }

  /** UNION / INTERSECT / EXCEPT, ALL or DISTINCT. */
  static final class SetOp implements Operator {
    private final SetOpNode node;
    private final List<Operator> inputs;
    private final ExecContext ctx;
    private int current;
    private Iterator<Object[]> output;
    private final java.util.Set<GroupKey> seenKeys = new java.util.HashSet<>();

    SetOp(SetOpNode node, List<Operator> inputs, ExecContext ctx) {
      this.node = node;
      this.inputs = inputs;
      this.ctx = ctx;
    }

    private Object[] coerce(Object[] row) {
      Object[] out = new Object[row.length];
      for (int i = 0; i < row.length; i++) {
        out[i] = row[i] == null ? null : Values.cast(row[i], node.outputTypes().get(i));
      }
      return out;
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
          row = coerce(row);
          if (node.all() || seenKeys.add(GroupKey.ofRow(row))) {
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
        row = coerce(row);
        GroupKey key = GroupKey.ofRow(row);
        firstRows.putIfAbsent(key, row);
        counts.merge(key, 1L, Long::sum);
      }
      for (int i = 1; i < inputs.size(); i++) {
        Map<GroupKey, Long> other = new HashMap<>();
        Operator in = inputs.get(i);
        for (Object[] row = in.next(); row != null; row = in.next()) {
          other.merge(GroupKey.ofRow(coerce(row)), 1L, Long::sum);
        }
        ctx.control().check();
        for (Map.Entry<GroupKey, Long> e : counts.entrySet()) {
          long o = other.getOrDefault(e.getKey(), 0L);
          long n = e.getValue();
          long result =
              node.kind() == SetOpNode.Kind.INTERSECT
                  ? (node.all() ? Math.min(n, o) : (o > 0 && n > 0 ? 1 : 0))
                  : (node.all() ? Math.max(0, n - o) : (o == 0 && n > 0 ? 1 : 0));
          e.setValue(result);
        }
      }
      List<Object[]> rows = new ArrayList<>();
      for (Map.Entry<GroupKey, Long> e : counts.entrySet()) {
        long n = node.all() ? e.getValue() : Math.min(1, e.getValue());
        rows.addAll(Collections.nCopies((int) n, firstRows.get(e.getKey())));
      }
      return rows;
    }

    @Override
    public void close() {
      closeAll(inputs);
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
    private final ValuesNode node;
    private final ExecContext ctx;
    private final List<RowExpression[]> rows;
    private int next;

    ValuesOp(ValuesNode node, ExecContext ctx) {
      this.node = node;
      this.ctx = ctx;
      this.rows = new ArrayList<>(node.rows().size());
      for (List<Expr> row : node.rows()) {
        rows.add(compileAll(row));
      }
    }

    @Override
    public Object[] next() {
      if (next >= rows.size()) {
        return null;
      }
      RowExpression[] exprs = rows.get(next++);
      Object[] row = new Object[exprs.length];
      for (int i = 0; i < row.length; i++) {
        row[i] = conform(exprs[i].evaluate(NO_INPUT, ctx.eval()), node.outputTypes().get(i));
      }
      return row;
    }

    @Override
    public void close() {}
  }
}
