package io.cairn.planner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.rules.MultiJoin;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Aggregations over inner joins whose groups are rows of whole "dimension" tables, computed over
 * the other ("fact") tables before the dimensions are joined (eager aggregation). TPC-H Q10 groups
 * revenue by a customer's key and columns: {@code GROUP BY c_custkey, c_name, ..., n_name} over
 * CUSTOMER, ORDERS, LINEITEM and NATION. Joined first, every matching LINEITEM row carries the
 * customer's seven columns into a group key of seven values, and CUSTOMER's 150,000 wide rows
 * become a hash table. Grouped first, ORDERS and LINEITEM are summed per {@code o_custkey} (a long
 * group key, in the store), and CUSTOMER and NATION are joined to one row per customer.
 *
 * <p>Taken when:
 *
 * <ul>
 *   <li>the aggregate reads a multi-join of inner joins (through a projection), its calls read only
 *       fact inputs and its group keys are plain columns;
 *   <li>the dimension inputs (those holding a group key and no call argument, and those joined only
 *       to dimensions) are whole tables, no filter: a filtered dimension reduces the facts, which
 *       its join then does best in the store, before any grouping (TPC-H Q3, Q5);
 *   <li>the conditions between the two sides are equalities of a dimension column with a fact
 *       column, the dimension columns all of one dimension table and unique there; every other
 *       dimension is joined through equalities on a unique key of its own, so a fact row matches at
 *       most one row of the dimensions' join;
 *   <li>each of those equalities has one of its columns among the group keys: a group is then one
 *       row of the dimensions (with the fact columns grouped), and the facts' groups by the join
 *       columns and their own group keys are the query's groups one for one.
 * </ul>
 *
 * <p>So every call, whatever its function (DISTINCT and FILTER too), sees the same rows in its
 * group before and after the rewrite: it is copied as it is.
 */
final class InnerJoinAggregates {
  private InnerJoinAggregates() {}

  private enum Role {
    FACT,
    DIMENSION,
    FREE
  }

  static RelNode rewrite(RelNode rel, RelBuilder relBuilder, RelMetadataQuery mq) {
    return eachAggregate(rel, aggregate -> eager(aggregate, relBuilder, mq));
  }

  /**
   * {@code rel} with each aggregate, from the leaves up, replaced by what {@code rewrite} makes of
   * it (null: kept).
   */
  static RelNode eachAggregate(RelNode rel, Function<Aggregate, RelNode> rewrite) {
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode node = super.visit(other);
            if (node instanceof Aggregate aggregate) {
              RelNode rewritten = rewrite.apply(aggregate);
              if (rewritten != null) {
                return rewritten;
              }
            }
            return node;
          }
        });
  }

  private static RelNode eager(Aggregate aggregate, RelBuilder b, RelMetadataQuery mq) {
    if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || aggregate.getGroupCount() == 0) {
      return null;
    }
    Project project = aggregate.getInput() instanceof Project p ? p : null;
    RelNode below = project == null ? aggregate.getInput() : project.getInput();
    if (!(below instanceof MultiJoin join)
        || !JoinOrder.orders(join)
        || (join.getPostJoinFilter() != null && !join.getPostJoinFilter().isAlwaysTrue())) {
      return null;
    }
    List<RelNode> inputs = join.getInputs();
    int n = inputs.size();
    ColumnClasses columns = ColumnClasses.of(join);
    int[] inputOf = columns.inputOf;
    int[] start = columns.start;
    // the group keys as the join's fields; the fields the calls read
    int[] groupFields = new int[aggregate.getGroupCount()];
    ImmutableBitSet groups = aggregate.getGroupSet();
    for (int k = 0; k < groupFields.length; k++) {
      if (!(expression(aggregate, project, groups.nth(k)) instanceof RexInputRef ref)) {
        return null;
      }
      groupFields[k] = ref.getIndex();
    }
    ImmutableBitSet.Builder read = ImmutableBitSet.builder();
    for (AggregateCall call : aggregate.getAggCallList()) {
      if (!call.getCollation().getFieldCollations().isEmpty()) {
        return null;
      }
      for (int arg : call.getArgList()) {
        read.addAll(RelOptUtil.InputFinder.bits(expression(aggregate, project, arg)));
      }
      if (call.hasFilter()) {
        read.addAll(RelOptUtil.InputFinder.bits(expression(aggregate, project, call.filterArg)));
      }
    }
    Role[] role = new Role[n];
    Arrays.fill(role, Role.FREE);
    for (int field : read.build()) {
      role[inputOf[field]] = Role.FACT;
    }
    for (int field : groupFields) {
      if (role[inputOf[field]] == Role.FREE) {
        role[inputOf[field]] = Role.DIMENSION;
      }
    }
    List<RexNode> conjuncts = RelOptUtil.conjunctions(join.getJoinFilter());
    // an input neither grouped nor read is a dimension when joined to dimensions only
    for (int i = 0; i < n; i++) {
      if (role[i] == Role.FREE) {
        role[i] = joinedOnlyToDimensions(i, conjuncts, inputOf, role) ? Role.DIMENSION : Role.FACT;
      }
    }
    List<Integer> facts = new ArrayList<>();
    List<Integer> dimensions = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      (role[i] == Role.FACT ? facts : dimensions).add(i);
      if (role[i] == Role.DIMENSION && !wholeTable(inputs.get(i))) {
        return null;
      }
    }
    if (facts.isEmpty() || dimensions.isEmpty()) {
      return null;
    }
    // the conditions: of the facts, of the dimensions, and equalities between the two
    List<RexNode> factConditions = new ArrayList<>();
    List<RexNode> dimensionConditions = new ArrayList<>();
    List<int[]> pairs = new ArrayList<>(); // {dimension field, fact field}
    for (RexNode conjunct : conjuncts) {
      boolean fact = false;
      boolean dimension = false;
      for (int field : RelOptUtil.InputFinder.bits(conjunct)) {
        fact |= role[inputOf[field]] == Role.FACT;
        dimension |= role[inputOf[field]] == Role.DIMENSION;
      }
      if (!dimension) {
        factConditions.add(conjunct);
      } else if (!fact) {
        dimensionConditions.add(conjunct);
      } else {
        int[] pair = equatedFields(conjunct);
        if (pair == null || role[inputOf[pair[0]]] == role[inputOf[pair[1]]]) {
          return null;
        }
        pairs.add(role[inputOf[pair[0]]] == Role.DIMENSION ? pair : new int[] {pair[1], pair[0]});
      }
    }
    if (pairs.isEmpty()
        || !matchesOneDimensionRow(
            pairs, dimensions, dimensionConditions, inputs, start, inputOf, mq)) {
      return null;
    }
    ImmutableBitSet groupSet = ImmutableBitSet.of(groupFields);
    for (int[] pair : pairs) {
      if (!groupSet.get(pair[0]) && !groupSet.get(pair[1])) {
        return null;
      }
    }
    // the facts grouped by their join columns and their own group keys
    List<Integer> factKeys = new ArrayList<>();
    for (int[] pair : pairs) {
      if (!factKeys.contains(pair[1])) {
        factKeys.add(pair[1]);
      }
    }
    for (int field : groupFields) {
      if (role[inputOf[field]] == Role.FACT && !factKeys.contains(field)) {
        factKeys.add(field);
      }
    }
    RexBuilder rex = b.getRexBuilder();
    int[] position = new int[inputOf.length];
    joined(b, inputs, facts, factConditions, start, inputOf, position);
    RexShuttle moved = moved(position);
    List<RexNode> projected = new ArrayList<>();
    for (int field : factKeys) {
      projected.add(rex.makeInputRef(b.peek(), position[field]));
    }
    List<AggregateCall> calls = new ArrayList<>();
    for (AggregateCall call : aggregate.getAggCallList()) {
      List<Integer> args = new ArrayList<>();
      for (int arg : call.getArgList()) {
        args.add(projected.size());
        projected.add(expression(aggregate, project, arg).accept(moved));
      }
      int filterArg = -1;
      if (call.hasFilter()) {
        filterArg = projected.size();
        projected.add(expression(aggregate, project, call.filterArg).accept(moved));
      }
      calls.add(call.copy(args, filterArg, call.getCollation()));
    }
    b.project(projected, List.of(), true);
    RelNode grouped =
        aggregate.copy(
            aggregate.getTraitSet(),
            b.build(),
            ImmutableBitSet.range(factKeys.size()),
            null,
            calls);
    int[] dimensionPosition = new int[inputOf.length];
    joined(b, inputs, dimensions, dimensionConditions, start, inputOf, dimensionPosition);
    int dimensionWidth = b.peek().getRowType().getFieldCount();
    b.push(grouped);
    List<RexNode> equalities = new ArrayList<>();
    for (int[] pair : pairs) {
      equalities.add(
          b.equals(
              b.field(2, 0, dimensionPosition[pair[0]]), b.field(2, 1, factKeys.indexOf(pair[1]))));
    }
    b.join(JoinRelType.INNER, equalities);
    List<RexNode> outputs = new ArrayList<>();
    for (int field : groupFields) {
      outputs.add(
          b.field(
              role[inputOf[field]] == Role.DIMENSION
                  ? dimensionPosition[field]
                  : dimensionWidth + factKeys.indexOf(field)));
    }
    for (int i = 0; i < calls.size(); i++) {
      outputs.add(b.field(dimensionWidth + factKeys.size() + i));
    }
    List<RelDataTypeField> fields = aggregate.getRowType().getFieldList();
    for (int i = 0; i < outputs.size(); i++) {
      outputs.set(i, rex.ensureType(fields.get(i).getType(), outputs.get(i), true));
    }
    b.project(outputs, aggregate.getRowType().getFieldNames(), true);
    return b.build();
  }

  /** The aggregate's input field {@code field} as an expression over the join's fields. */
  private static RexNode expression(Aggregate aggregate, Project project, int field) {
    return project == null
        ? RexInputRef.of(field, aggregate.getInput().getRowType())
        : project.getProjects().get(field);
  }

  /**
   * Whether input {@code i}'s conditions join it to dimension inputs only (and to one at least).
   */
  private static boolean joinedOnlyToDimensions(
      int i, List<RexNode> conjuncts, int[] inputOf, Role[] role) {
    boolean joined = false;
    for (RexNode conjunct : conjuncts) {
      ImmutableBitSet fields = RelOptUtil.InputFinder.bits(conjunct);
      boolean touches = false;
      for (int field : fields) {
        touches |= inputOf[field] == i;
      }
      if (!touches) {
        continue;
      }
      for (int field : fields) {
        int other = inputOf[field];
        if (other != i) {
          if (role[other] != Role.DIMENSION) {
            return false;
          }
          joined = true;
        }
      }
    }
    return joined;
  }

  /** Whether {@code rel} is a table's rows, unfiltered (through projections of its columns). */
  private static boolean wholeTable(RelNode rel) {
    RelNode node = rel;
    while (node instanceof Project project) {
      for (RexNode e : project.getProjects()) {
        if (!(e instanceof RexInputRef)) {
          return false;
        }
      }
      node = project.getInput();
    }
    return node instanceof TableScan;
  }

  /** The two fields of {@code a = b} between two plain columns; null for any other condition. */
  private static int[] equatedFields(RexNode conjunct) {
    if (conjunct.getKind() == SqlKind.EQUALS
        && conjunct instanceof RexCall call
        && call.getOperands().get(0) instanceof RexInputRef left
        && call.getOperands().get(1) instanceof RexInputRef right) {
      return new int[] {left.getIndex(), right.getIndex()};
    }
    return null;
  }

  /**
   * Whether a fact row matches at most one row of the dimensions' join: the dimension columns of
   * the {@code pairs} are a unique key of one dimension input, and every other dimension input is
   * joined to those reached before on a unique key of its own.
   */
  private static boolean matchesOneDimensionRow(
      List<int[]> pairs,
      List<Integer> dimensions,
      List<RexNode> dimensionConditions,
      List<RelNode> inputs,
      int[] start,
      int[] inputOf,
      RelMetadataQuery mq) {
    int root = inputOf[pairs.get(0)[0]];
    ImmutableBitSet.Builder rootKey = ImmutableBitSet.builder();
    for (int[] pair : pairs) {
      if (inputOf[pair[0]] != root) {
        return false;
      }
      rootKey.set(pair[0] - start[root]);
    }
    if (!Boolean.TRUE.equals(mq.areColumnsUnique(inputs.get(root), rootKey.build()))) {
      return false;
    }
    List<Integer> reached = new ArrayList<>(List.of(root));
    boolean grew = true;
    while (grew && reached.size() < dimensions.size()) {
      grew = false;
      for (int d : dimensions) {
        if (reached.contains(d)) {
          continue;
        }
        ImmutableBitSet.Builder key = ImmutableBitSet.builder();
        for (RexNode condition : dimensionConditions) {
          int[] pair = equatedFields(condition);
          if (pair == null) {
            continue;
          }
          if (inputOf[pair[0]] == d && reached.contains(inputOf[pair[1]])) {
            key.set(pair[0] - start[d]);
          } else if (inputOf[pair[1]] == d && reached.contains(inputOf[pair[0]])) {
            key.set(pair[1] - start[d]);
          }
        }
        ImmutableBitSet columns = key.build();
        if (!columns.isEmpty()
            && Boolean.TRUE.equals(mq.areColumnsUnique(inputs.get(d), columns))) {
          reached.add(d);
          grew = true;
        }
      }
    }
    return reached.size() == dimensions.size();
  }

  /**
   * Pushes onto {@code b} the inner join of {@code chosen} inputs under the {@code conditions}
   * among them, each input joined next to one it has a condition with where it can; {@code
   * position} receives each of their join fields' position in the result.
   */
  private static void joined(
      RelBuilder b,
      List<RelNode> inputs,
      List<Integer> chosen,
      List<RexNode> conditions,
      int[] start,
      int[] inputOf,
      int[] position) {
    List<Integer> left = new ArrayList<>(chosen);
    List<RexNode> pending = new ArrayList<>(conditions);
    List<Integer> placed = new ArrayList<>();
    RexShuttle moved = moved(position); // reads the positions as they are filled in
    int width = 0;
    while (!left.isEmpty()) {
      int next = left.get(0);
      for (int candidate : left) {
        if (placed.isEmpty() || connected(candidate, placed, pending, inputOf)) {
          next = candidate;
          break;
        }
      }
      left.remove(Integer.valueOf(next));
      int fields = inputs.get(next).getRowType().getFieldCount();
      for (int f = 0; f < fields; f++) {
        position[start[next] + f] = width + f;
      }
      width += fields;
      b.push(inputs.get(next));
      placed.add(next);
      List<RexNode> ready = new ArrayList<>();
      for (RexNode condition : List.copyOf(pending)) {
        boolean placeable = true;
        for (int field : RelOptUtil.InputFinder.bits(condition)) {
          placeable &= placed.contains(inputOf[field]);
        }
        if (placeable) {
          ready.add(condition.accept(moved));
          pending.remove(condition);
        }
      }
      if (placed.size() > 1) {
        b.join(JoinRelType.INNER, RexUtil.composeConjunction(b.getRexBuilder(), ready));
      } else if (!ready.isEmpty()) {
        b.filter(ready);
      }
    }
  }

  private static boolean connected(
      int candidate, List<Integer> placed, List<RexNode> conditions, int[] inputOf) {
    for (RexNode condition : conditions) {
      boolean touches = false;
      boolean toPlaced = false;
      for (int field : RelOptUtil.InputFinder.bits(condition)) {
        touches |= inputOf[field] == candidate;
        toPlaced |= placed.contains(inputOf[field]);
      }
      if (touches && toPlaced) {
        return true;
      }
    }
    return false;
  }

  /** References to the join's fields moved to their {@code position}. */
  private static RexShuttle moved(int[] position) {
    return new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return new RexInputRef(position[ref.getIndex()], ref.getType());
      }
    };
  }
}
