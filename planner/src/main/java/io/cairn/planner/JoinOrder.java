package io.cairn.planner;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMdUtil;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Orders the inputs of a {@link MultiJoin} of inner joins by estimated cardinalities, and builds
 * every join on its smaller input (the right one, the build side of the driver's hash join), or, of
 * two single tables of similar estimates, on the one reading the smaller table ({@link
 * #probeSide}).
 *
 * <p>Columns equated by equi-join conditions form equivalence classes (a = b and b = c also join a
 * with c), so two inputs with columns of one class can join directly, on one equality, and the
 * estimates do not count an implied condition twice. The rows of a set of inputs: their rows (each
 * input's from Calcite's metadata, {@link Cardinalities}: column statistics when the tables have
 * them) times, per class, 1/NDV for each of its columns in the set but the one of fewest distinct
 * values (each NDV its input's, capped at the input's rows; the NDVs that divide at one input for
 * columns kept at one other input multiplied and capped at its rows, as a composite key's), times
 * Calcite's guess for every other condition inside the set.
 *
 * <p>Up to {@value #EXHAUSTIVE_INPUTS} inputs, the tree of least cost (the rows every join makes,
 * C_out) over every bushy split of every set is found by dynamic programming over subsets (3^n
 * splits: 59,049 at 10); beyond, greedy operator ordering (Fegaras' GOO): the two parts whose join
 * has the fewest rows are joined until one is left, parts nothing connects joined last, smallest
 * first. Both check for cancel as they go.
 *
 * <p>Multi-joins with outer joins, or of more than {@value #MAX_INPUTS} inputs, are left to
 * Calcite's LoptOptimizeJoinRule.
 */
final class JoinOrder {
  /** Up to this many inputs, every bushy join tree is considered; greedy beyond. */
  static final int EXHAUSTIVE_INPUTS = 10;

  private final RelBuilder builder;
  private final RelMetadataQuery mq;
  private final AtomicBoolean cancel;

  JoinOrder(RelBuilder builder, RelMetadataQuery mq, AtomicBoolean cancel) {
    this.builder = builder;
    this.mq = mq;
    this.cancel = cancel;
  }

  /**
   * The most inputs ordered here (sets of inputs are bits of an int); more go to Calcite's rule.
   */
  static final int MAX_INPUTS = 30;

  /**
   * Whether {@link #order} takes {@code join}: inner joins of at most {@value #MAX_INPUTS} inputs.
   */
  static boolean orders(MultiJoin join) {
    int inputs = join.getInputs().size();
    if (join.isFullOuterJoin() || inputs < 2 || inputs > MAX_INPUTS) {
      return false;
    }
    for (JoinRelType t : join.getJoinTypes()) {
      if (t != JoinRelType.INNER) {
        return false;
      }
    }
    for (RexNode c : join.getOuterJoinConditions()) {
      if (c != null && !c.isAlwaysTrue()) {
        return false;
      }
    }
    return true;
  }

  /** A set of inputs joined so far. */
  private record Part(RelNode rel, List<Integer> fields, int inputs, double rows) {}

  /** A condition other than an equi-join of two columns, with the inputs it reads. */
  private record Condition(RexNode rex, int inputs, double selectivity) {}

  /** A column equated with others, its input and its distinct values there. */
  private record Member(int field, int input, double distinct) {}

  // per multi-join
  private int[] inputOfField;
  private int[] start;
  private final List<RelNode> inputRels = new ArrayList<>();
  private final Map<List<Object>, Boolean> unique = new HashMap<>();
  private List<RelDataTypeField> fieldTypes;
  private final List<Condition> conditions = new ArrayList<>();
  private final List<List<Member>> classes = new ArrayList<>();

  RelNode order(MultiJoin join) {
    List<RelNode> inputs = join.getInputs();
    int n = inputs.size();
    fieldTypes = join.getRowType().getFieldList();
    ColumnClasses equated = ColumnClasses.of(join);
    inputOfField = equated.inputOf;
    start = equated.start;
    List<Part> parts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      RelNode rel = inputs.get(i);
      List<Integer> fields = new ArrayList<>();
      for (int f = 0; f < rel.getRowType().getFieldCount(); f++) {
        fields.add(start[i] + f);
      }
      parts.add(new Part(rel, fields, 1 << i, Math.max(1, rows(rel))));
    }
    // equi-joins of two inputs' columns make classes; the rest are conditions
    List<RexNode> constant = new ArrayList<>();
    List<RexNode> others = new ArrayList<>();
    for (RexNode c : RelOptUtil.conjunctions(join.getJoinFilter())) {
      if (c.isAlwaysTrue()) {
        continue;
      }
      int reads = reads(c);
      if (reads == 0) {
        constant.add(c);
        continue;
      }
      if (!equated.unite(c)) {
        others.add(c);
      }
    }
    int[] size = new int[inputOfField.length];
    for (int f = 0; f < size.length; f++) {
      size[equated.find(f)]++;
    }
    Map<Integer, List<Member>> byRoot = new HashMap<>();
    for (int f = 0; f < size.length; f++) {
      int root = equated.find(f);
      if (size[root] > 1) {
        PlanningThreads.check(cancel); // each asks the statistics of a table
        int input = inputOfField[f];
        Double d =
            mq.getDistinctRowCount(inputs.get(input), ImmutableBitSet.of(f - start[input]), null);
        double rows = parts.get(input).rows();
        double distinct = d == null ? -1 : Math.max(1, Math.min(d, rows));
        byRoot.computeIfAbsent(root, k -> new ArrayList<>()).add(new Member(f, input, distinct));
      }
    }
    classes.addAll(byRoot.values());
    for (RexNode c : others) {
      conditions.add(new Condition(c, reads(c), RelMdUtil.guessSelectivity(c)));
    }
    // columns of one class in one input are equal there: a filter of that input
    RexBuilder rexBuilder = join.getCluster().getRexBuilder();
    for (List<Member> members : classes) {
      Map<Integer, Member> first = new HashMap<>();
      for (Member m : members) {
        Member f = first.putIfAbsent(m.input(), m);
        if (f != null) {
          RexNode same = equal(rexBuilder, f, m);
          conditions.add(new Condition(same, 1 << m.input(), 1));
        }
      }
    }
    // conditions on one input filter it first
    for (int i = 0; i < n; i++) {
      List<RexNode> own = take(1 << i);
      if (!own.isEmpty()) {
        Part p = parts.get(i);
        builder.push(p.rel()).filter(rewrite(own, p.fields()));
        RelNode rel = builder.build();
        parts.set(i, new Part(rel, p.fields(), p.inputs(), Math.max(1, rows(rel))));
      }
    }
    for (Part p : parts) {
      inputRels.add(p.rel());
    }
    Part whole = n <= EXHAUSTIVE_INPUTS ? exhaustive(parts) : greedy(parts);
    builder.push(whole.rel());
    List<RexNode> rest = new ArrayList<>(constant);
    rest.addAll(rewrite(take(-1), whole.fields()));
    if (!rest.isEmpty()) {
      builder.filter(rest);
    }
    // back to the multi-join's field order
    List<RexNode> projection = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (int f = 0; f < fieldTypes.size(); f++) {
      projection.add(builder.field(whole.fields().indexOf(f)));
      names.add(fieldTypes.get(f).getName());
    }
    builder.project(projection, names, true);
    if (join.getPostJoinFilter() != null && !join.getPostJoinFilter().isAlwaysTrue()) {
      builder.filter(join.getPostJoinFilter());
    }
    return builder.build();
  }

  /** The inputs {@code c} reads, as a bit set. */
  private int reads(RexNode c) {
    int reads = 0;
    for (int f : RelOptUtil.InputFinder.bits(c)) {
      reads |= 1 << inputOfField[f];
    }
    return reads;
  }

  private double rows(RelNode rel) {
    Double r = mq.getRowCount(rel);
    return r == null ? 100 : r;
  }

  /** The estimated rows of the inputs in {@code set} joined ({@code inputRows} by input). */
  private double rows(int set, double[] inputRows) {
    double r = 1;
    for (int i = 0; i < inputRows.length; i++) {
      if ((set & (1 << i)) != 0) {
        r *= inputRows[i];
      }
    }
    // per pair of inputs (the one whose column divides, the one whose column of the class is
    // kept), the product of the NDVs that divide, capped at the dividing input's rows: a composite
    // key is no more distinct than its rows, so two classes joining the same two inputs
    // (PARTSUPP's key with LINEITEM in TPC-H Q9) do not count as independent (which estimated 2
    // rows where there are 6,000,000); classes joining an input with different inputs still do
    Map<Integer, Double> divisors = new HashMap<>();
    Map<Integer, ImmutableBitSet> dividing = new HashMap<>(); // per input, its columns that divide
    Map<Integer, Integer> joinedByAll = new HashMap<>(); // per input, inputs in all its classes
    for (List<Member> members : classes) {
      Member kept = null;
      int seen = 0;
      for (Member m : members) {
        if ((set & (1 << m.input())) == 0 || (seen & (1 << m.input())) != 0) {
          continue; // a column of an input already counted: equal within the input
        }
        seen |= 1 << m.input();
        // the fewest distinct values; of equals, the input of most rows (the other one more
        // likely holds the key)
        if (kept == null
            || distinct(m) < distinct(kept)
            || (distinct(m) == distinct(kept) && inputRows[m.input()] > inputRows[kept.input()])) {
          kept = m;
        }
      }
      if (Integer.bitCount(seen) < 2) {
        continue;
      }
      int counted = 0;
      for (Member m : members) {
        int bit = 1 << m.input();
        if ((set & bit) == 0 || (counted & bit) != 0) {
          continue;
        }
        counted |= bit;
        if (m != kept) {
          divisors.merge(m.input() * 64 + kept.input(), distinct(m), (a, b) -> a * b);
          dividing.merge(
              m.input(), ImmutableBitSet.of(m.field() - start[m.input()]), ImmutableBitSet::union);
          joinedByAll.merge(m.input(), seen & ~bit, (a, b) -> a & b);
        }
      }
    }
    // an input whose dividing columns hold a unique key and all equal columns of one other input
    // (PARTSUPP's PS_PARTKEY and PS_SUPPKEY, both LINEITEM's, one also PART's, in TPC-H Q9) matches
    // at most one row per row of that input: all its NDVs multiplied, capped at its rows (columns
    // joining different inputs, SUPPLIER's key with LINEITEM and its nation with CUSTOMER's, stay
    // independent)
    Map<Integer, Double> byInput = new HashMap<>();
    for (Map.Entry<Integer, Double> d : divisors.entrySet()) {
      int input = d.getKey() / 64;
      double cap = Math.max(1, inputRows[input]);
      if (joinedByAll.get(input) != 0 && unique(input, dividing.get(input))) {
        byInput.merge(input, d.getValue(), (a, b) -> a * b);
      } else {
        r /= Math.min(d.getValue(), cap);
      }
    }
    for (Map.Entry<Integer, Double> d : byInput.entrySet()) {
      r /= Math.min(d.getValue(), Math.max(1, inputRows[d.getKey()]));
    }
    for (Condition c : conditions) {
      if ((c.inputs() & ~set) == 0) {
        r *= c.selectivity();
      }
    }
    return Math.max(1, r);
  }

  /** Whether {@code columns} of input {@code input} are unique there (known once asked). */
  private boolean unique(int input, ImmutableBitSet columns) {
    if (columns.cardinality() < 2) {
      return false; // one column: capped at its rows already
    }
    return unique.computeIfAbsent(
        List.of(input, columns),
        k -> Boolean.TRUE.equals(mq.areColumnsUnique(inputRels.get(input), columns)));
  }

  /** A member's distinct values; unknown: 10 (Calcite's guess of 0.1 for an equality). */
  private static double distinct(Member m) {
    return m.distinct() < 0 ? 10 : m.distinct();
  }

  /** Whether a class or a condition connects {@code a} and {@code b}. */
  private boolean connected(int a, int b) {
    for (List<Member> members : classes) {
      boolean inA = false;
      boolean inB = false;
      for (Member m : members) {
        inA |= (a & (1 << m.input())) != 0;
        inB |= (b & (1 << m.input())) != 0;
      }
      if (inA && inB) {
        return true;
      }
    }
    for (Condition c : conditions) {
      if ((c.inputs() & ~(a | b)) == 0 && (c.inputs() & a) != 0 && (c.inputs() & b) != 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The join tree of least cost over every split of every set of inputs (dynamic programming over
   * subsets); a set's cost is its rows plus its two sides' costs.
   */
  private Part exhaustive(List<Part> parts) {
    int n = parts.size();
    double[] inputRows = new double[n];
    for (int i = 0; i < n; i++) {
      inputRows[i] = parts.get(i).rows();
    }
    int full = (1 << n) - 1;
    double[] rows = new double[full + 1];
    double[] cost = new double[full + 1];
    int[] split = new int[full + 1];
    for (int set = 1; set <= full; set++) {
      rows[set] = rows(set, inputRows);
      if (Integer.bitCount(set) == 1) {
        continue;
      }
      PlanningThreads.check(cancel);
      double best = Double.MAX_VALUE;
      int low = Integer.lowestOneBit(set);
      for (int a = (set - 1) & set; a > 0; a = (a - 1) & set) {
        if ((a & low) == 0) {
          continue; // each split once: the side holding the set's lowest input
        }
        double c = cost[a] + cost[set & ~a] + rows[set];
        if (c < best) {
          best = c;
          split[set] = a;
        }
      }
      cost[set] = best;
    }
    return build(full, split, rows, parts);
  }

  private Part build(int set, int[] split, double[] rows, List<Part> parts) {
    if (Integer.bitCount(set) == 1) {
      return parts.get(Integer.numberOfTrailingZeros(set));
    }
    Part a = build(split[set], split, rows, parts);
    Part b = build(set & ~split[set], split, rows, parts);
    return join(a, b, rows[set]);
  }

  /** Greedy operator ordering: the cheapest connected pair of parts first. */
  private Part greedy(List<Part> start) {
    List<Part> parts = new ArrayList<>(start);
    double[] inputRows = new double[start.size()];
    for (int i = 0; i < start.size(); i++) {
      inputRows[i] = start.get(i).rows();
    }
    while (parts.size() > 1) {
      PlanningThreads.check(cancel);
      int bestA = -1;
      int bestB = -1;
      double best = Double.MAX_VALUE;
      for (int a = 0; a < parts.size(); a++) {
        for (int b = a + 1; b < parts.size(); b++) {
          int x = parts.get(a).inputs();
          int y = parts.get(b).inputs();
          if (!connected(x, y)) {
            continue;
          }
          double r = rows(x | y, inputRows);
          if (r < best) {
            best = r;
            bestA = a;
            bestB = b;
          }
        }
      }
      if (bestA < 0) { // nothing connects the parts left: cross products, smallest first
        parts.sort((p, q) -> Double.compare(p.rows(), q.rows()));
        bestA = 0;
        bestB = 1;
        best = rows(parts.get(0).inputs() | parts.get(1).inputs(), inputRows);
      }
      Part a = parts.get(bestA);
      Part b = parts.get(bestB);
      parts.remove(bestB);
      parts.remove(bestA);
      parts.add(join(a, b, best));
    }
    return parts.get(0);
  }

  /**
   * The part that probes: the one of more estimated rows, except that of two single tables whose
   * estimates are within {@link #CLOSE_ROWS} of each other, the one reading a table at least that
   * many times larger probes (TPC-H Q14: a month of LINEITEM, 75,000 rows, probes PART's 200,000):
   * its scan runs in parallel chunks in the store, with what is above the join, while a build
   * side's rows are read in one scan, travel to the driver and are hashed there.
   */
  private Part probeSide(Part a, Part b) {
    Part larger = a.rows() >= b.rows() ? a : b;
    Part smaller = larger == a ? b : a;
    if (larger.rows() <= smaller.rows() * CLOSE_ROWS) {
      double largerTable = tableRows(larger);
      double smallerTable = tableRows(smaller);
      if (largerTable > 0 && smallerTable >= largerTable * CLOSE_ROWS) {
        return smaller;
      }
    }
    return larger;
  }

  /** Estimates this close (a factor) count as similar when choosing the probe side. */
  private static final double CLOSE_ROWS = 4;

  /** The rows of the one table {@code part} reads through filters and projections; -1 otherwise. */
  private double tableRows(Part part) {
    if (Integer.bitCount(part.inputs()) != 1) {
      return -1;
    }
    RelNode node = part.rel();
    while (node instanceof org.apache.calcite.rel.core.Filter
        || node instanceof org.apache.calcite.rel.core.Project) {
      node = node.getInput(0);
    }
    if (!(node instanceof org.apache.calcite.rel.core.TableScan)) {
      return -1;
    }
    Double rows = mq.getRowCount(node);
    return rows == null ? -1 : rows;
  }

  /**
   * Joins two parts, the larger on the left and the smaller on the right (the build side), on one
   * equality per class with columns on both sides and the conditions that become whole.
   */
  private Part join(Part a, Part b, double estimate) {
    Part left = probeSide(a, b);
    Part right = left == a ? b : a;
    int inputs = left.inputs() | right.inputs();
    List<Integer> fields = new ArrayList<>(left.fields());
    fields.addAll(right.fields());
    RexBuilder rex = left.rel().getCluster().getRexBuilder();
    List<RexNode> on = new ArrayList<>();
    for (List<Member> members : classes) {
      Member l = null;
      Member r = null;
      for (Member m : members) {
        if (l == null && (left.inputs() & (1 << m.input())) != 0) {
          l = m;
        }
        if (r == null && (right.inputs() & (1 << m.input())) != 0) {
          r = m;
        }
      }
      if (l != null && r != null) {
        on.add(equal(rex, l, r));
      }
    }
    on.addAll(take(inputs));
    builder.push(left.rel()).push(right.rel());
    builder.join(JoinRelType.INNER, RexUtil.composeConjunction(rex, rewrite(on, fields)));
    return new Part(builder.build(), fields, inputs, Math.max(1, estimate));
  }

  private RexNode equal(RexBuilder rex, Member a, Member b) {
    return rex.makeCall(
        org.apache.calcite.sql.fun.SqlStdOperatorTable.EQUALS,
        new RexInputRef(a.field(), fieldTypes.get(a.field()).getType()),
        new RexInputRef(b.field(), fieldTypes.get(b.field()).getType()));
  }

  /** Removes and returns the conditions that read only inputs in {@code within}. */
  private List<RexNode> take(int within) {
    List<RexNode> out = new ArrayList<>();
    conditions.removeIf(
        c -> {
          if ((c.inputs() & ~within) == 0) {
            out.add(c.rex());
            return true;
          }
          return false;
        });
    return out;
  }

  /** Conditions over the multi-join's fields, rewritten over a part's ({@code fields}). */
  private static List<RexNode> rewrite(List<RexNode> conditions, List<Integer> fields) {
    Map<Integer, Integer> position = new HashMap<>();
    for (int i = 0; i < fields.size(); i++) {
      position.put(fields.get(i), i);
    }
    RexShuttle shuttle =
        new RexShuttle() {
          @Override
          public RexNode visitInputRef(RexInputRef ref) {
            return new RexInputRef(position.get(ref.getIndex()), ref.getType());
          }
        };
    List<RexNode> out = new ArrayList<>(conditions.size());
    for (RexNode c : conditions) {
      out.add(c.accept(shuttle));
    }
    return out;
  }
}
