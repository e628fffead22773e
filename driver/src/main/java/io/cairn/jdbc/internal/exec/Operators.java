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
import io.cairn.core.io.Closeables;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
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

  /** Builds the operator tree of {@code node}. */
  static Operator build(PlanNode node, ExecContext ctx) {
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
   * Hash aggregation; at step FINAL it merges the partial states that scans computed (any number of
   * rows: one per scan or chunk, or one per group and chunk after the group's key values). The
   * groups' memory is counted against the connection's {@code aggregateMaxBytes} and reserved in
   * the query's memory pool, with the rows made of them, until the last row is out.
   */
  static final class Aggregate implements Operator {
    private final AggregateNode node;
    private final Operator input;
    private final ExecContext ctx;
    private final MemoryReservation memory;
    private Iterator<Object[]> output;

    Aggregate(AggregateNode node, Operator input, ExecContext ctx) {
      this.node = node;
      this.input = input;
      this.ctx = ctx;
      this.memory = ctx.memory().reservation("GROUP BY (groups)");
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
      AggregationMemory groupMemory =
          new AggregationMemory(
              ctx.aggregateMaxBytes(),
              ExecContext.AGGREGATE_MAX_BYTES_PROPERTY + " (connection property)",
              "in the driver",
              memory);
      int seen = 0;
      for (Object[] row = input.next(); row != null; row = input.next()) {
        for (SetState set : sets) {
          GroupKey key = GroupKey.of(row, set.columns);
          Accumulator[] accs = set.groups.get(key);
          if (accs == null) {
            groupMemory.addGroup(row, set.columns, node.calls().size());
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
          memory.add(RowSizes.row(out) + SLOT_BYTES);
          rows.add(out);
          if (++seen >= CHECK_INTERVAL) {
            seen = 0;
            ctx.control().check();
          }
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
      if (output.hasNext()) {
        return output.next();
      }
      memory.close();
      return null;
    }

    @Override
    public void close() {
      try {
        memory.close();
      } finally {
        input.close();
      }
    }
  }

  /**
   * ORDER BY with OFFSET/FETCH; a top-N heap when FETCH is known. The rows it holds are reserved in
   * the query's memory pool until the last one is out.
   */
  static final class Sort implements Operator {
    /** The largest initial capacity of a top-N heap (it grows as rows come). */
    private static final int MAX_INITIAL_HEAP = 1024;

    private final SortNode node;
    private final Operator input;
    private final ExecContext ctx;
    private final MemoryReservation memory;
    private Iterator<Object[]> output;
    private long remaining;

    Sort(SortNode node, Operator input, ExecContext ctx) {
      this.node = node;
      this.input = input;
      this.ctx = ctx;
      this.memory = ctx.memory().reservation("ORDER BY (rows to sort)");
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
      Comparator<Object[]> cmp = checked(SortKey.comparator(node.keys()), ctx);
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
            memory.add(RowSizes.row(row) + SLOT_BYTES);
            heap.add(row);
          } else if (cmp.compare(row, heap.peek()) < 0) {
            memory.free(RowSizes.row(heap.poll()) + SLOT_BYTES);
            memory.add(RowSizes.row(row) + SLOT_BYTES);
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
          memory.add(RowSizes.row(row) + SLOT_BYTES);
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
      } else {
        memory.close();
      }
      return row;
    }

    @Override
    public void close() {
      try {
        memory.close();
      } finally {
        input.close();
      }
    }
  }

  /**
   * Hash join (equi keys) or nested loop, for every join kind. The right input is the build side:
   * its rows (and their hash index) are reserved in the query's memory pool until the join is
   * closed. The probe of one left row walks its candidates one at a time, returning each match as
   * it is found, and checks for cancellation every {@value #CHECK_INTERVAL} candidates, so that a
   * nested loop over a big build side stops within a second too.
   */
  static final class Join implements Operator {
    /** The estimated bytes of one entry of the build side's hash index, besides its key values. */
    static final long INDEX_ENTRY_BYTES = 96;

    private final JoinNode node;
    private final Operator left;
    private final Operator right;
    private final ExecContext ctx;
    private final RowExpression residual;
    private final int leftWidth;
    private final int rightWidth;
    private final int[] leftKeys;
    private final MemoryReservation memory;
    private List<Object[]> buildRows;
    private Map<GroupKey, List<Integer>> buildIndex;
    private boolean[] matched;
    private boolean leftDone;
    private int unmatchedPos;
    private int steps;

    /** The left row being probed, or null between rows. */
    private Object[] leftRow;

    /** Its candidates in {@link #buildRows}; null: every build row (nested loop). */
    private List<Integer> candidates;

    private int candidateCount;
    private int candidatePos;
    private boolean anyMatch;

    Join(JoinNode node, Operator left, Operator right, ExecContext ctx) {
      this.node = node;
      this.left = left;
      this.right = right;
      this.ctx = ctx;
      this.residual = node.residual().map(ExprCompiler::compile).orElse(null);
      this.leftWidth = node.left().outputTypes().size();
      this.rightWidth = node.right().outputTypes().size();
      this.leftKeys = node.leftKeys().stream().mapToInt(Integer::intValue).toArray();
      this.memory = ctx.memory().reservation("JOIN (build side rows)");
    }

    /** Counts one step of work, checking for cancellation every {@value #CHECK_INTERVAL}. */
    private void step() {
      if (++steps >= CHECK_INTERVAL) {
        steps = 0;
        ctx.control().check();
      }
    }

    private void build() {
      buildRows = new ArrayList<>();
      for (Object[] row = right.next(); row != null; row = right.next()) {
        memory.add(RowSizes.row(row) + SLOT_BYTES + 1); // the row, its slot, its matched flag
        buildRows.add(row);
        step();
      }
      matched = new boolean[buildRows.size()];
      if (!node.rightKeys().isEmpty()) {
        int[] keys = node.rightKeys().stream().mapToInt(Integer::intValue).toArray();
        buildIndex = new HashMap<>();
        for (int i = 0; i < buildRows.size(); i++) {
          GroupKey key = GroupKey.of(buildRows.get(i), keys);
          if (!key.hasNull()) {
            memory.add(INDEX_ENTRY_BYTES + SLOT_BYTES * keys.length);
            buildIndex.computeIfAbsent(key, k -> new ArrayList<>(1)).add(i);
          }
          step();
        }
      }
    }

    private List<Integer> candidates(Object[] row) {
      if (buildIndex == null) {
        return null;
      }
      GroupKey key = GroupKey.of(row, leftKeys);
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

    /**
     * The next output row of the left row being probed, or null when its probe is over (then {@link
     * #leftRow} is null).
     */
    private Object[] probeNext() {
      while (candidatePos < candidateCount) {
        step();
        int index = candidates == null ? candidatePos : candidates.get(candidatePos);
        candidatePos++;
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
          case ANTI -> candidatePos = candidateCount; // the row is out
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

    @Override
    public Object[] next() {
      if (buildRows == null) {
        build();
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
            candidates = candidates(row);
            candidateCount = candidates == null ? buildRows.size() : candidates.size();
            candidatePos = 0;
            anyMatch = false;
            step();
            continue;
          }
        }
        if (node.kind() == JoinNode.Kind.RIGHT || node.kind() == JoinNode.Kind.FULL) {
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
      try {
        memory.close();
      } finally {
        closeAll(List.of(left, right));
      }
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
