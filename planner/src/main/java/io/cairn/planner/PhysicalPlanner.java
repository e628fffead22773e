package io.cairn.planner;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.kv.SortKey;
import io.cairn.planner.plan.AggregateNode;
import io.cairn.planner.plan.FilterNode;
import io.cairn.planner.plan.JoinNode;
import io.cairn.planner.plan.JoinProbe;
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
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexSimplify;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.calcite.sql.SqlKind;

/**
 * Turns an optimised Calcite logical plan into Cairn's physical plan. Filters and projections
 * directly over a table scan go into the {@link ScanNode} (server side), with key ranges derived
 * from the filter; an ORDER BY over a scan becomes the scan's sort (with its OFFSET and FETCH when
 * they are literals: a top-N per chunk), and OFFSET/FETCH without ORDER BY the scan's offset and
 * limit; an aggregation over a scan, without GROUP BY or with a plain one, computes partial states
 * in the scan (per group), merged by the client.
 */
final class PhysicalPlanner {
  private final RexBuilder rexBuilder;
  private final RexToExpr rex;

  /** The statement's own hints (upper case), applying to every table scan. */
  private final Set<String> statementHints;

  /** Where warnings about hints go (the statement's SQLWarnings). */
  private final List<String> warnings;

  /** Table aliases of the statement, for INDEX hints that name their table by alias. */
  private final java.util.Map<String, String> aliases;

  /** Each table scan's index choice (see {@link IndexChoice}). */
  private final java.util.IdentityHashMap<TableScan, IndexChoice.Site> sites =
      new java.util.IdentityHashMap<>();

  /** The tables INDEX hints named (by name or alias) that some scan read. */
  private final Set<String> hintTargetsFound = new java.util.HashSet<>();

  /** The tables INDEX hints named, in the order met. */
  private final Set<String> hintTargets = new java.util.LinkedHashSet<>();

  /** The tables BROADCAST hints named, in the order met, and those a join read. */
  private final Set<String> broadcastTargets = new java.util.LinkedHashSet<>();

  private final Set<String> broadcastTargetsFound = new java.util.HashSet<>();

  PhysicalPlanner(
      RexBuilder rexBuilder,
      Set<String> statementHints,
      List<String> warnings,
      java.util.Map<String, String> aliases) {
    this.rexBuilder = rexBuilder;
    this.rex = new RexToExpr(rexBuilder);
    this.statementHints = Set.copyOf(statementHints);
    this.warnings = warnings;
    this.aliases = java.util.Map.copyOf(aliases);
  }

  /**
   * Warns of INDEX hints whose table no scan of their query block read (called once the statement
   * is converted).
   */
  void finishHints() {
    for (String target : hintTargets) {
      if (!hintTargetsFound.contains(target)) {
        warn("Hint INDEX names table [" + target + "] that its query does not read");
      }
    }
    for (String target : broadcastTargets) {
      if (!broadcastTargetsFound.contains(target)) {
        warn("Hint BROADCAST names table [" + target + "] that none of its query's joins reads");
      }
    }
  }

  private void warn(String warning) {
    if (!warnings.contains(warning)) {
      warnings.add(warning);
    }
  }

  /** Whether {@code hint} applies to the scan: on its query block, or on the whole statement. */
  private boolean hinted(TableScan scan, String hint) {
    return statementHints.contains(hint)
        || scan.getHints().stream().anyMatch(h -> h.hintName.equalsIgnoreCase(hint));
  }

  /**
   * The physical plan of {@code rel}. A scan is planned with its local-index choice made again at
   * each step that changes it (filter, projection, aggregation, sort), so that the final choice
   * sees all the scan needs.
   */
  PlanNode convert(RelNode rel) {
    PlanNode node = convertNode(rel);
    IndexChoice.Site site = site(rel);
    return site == null ? node : chooseIndex(node, site);
  }

  /** The index choice of the table scan under {@code rel} through single-input operators. */
  private IndexChoice.Site site(RelNode rel) {
    RelNode r = rel;
    while (!(r instanceof TableScan)) {
      if (r.getInputs().size() != 1
          || !(r instanceof Filter
              || r instanceof Project
              || r instanceof Aggregate
              || r instanceof Sort)) {
        return null;
      }
      r = r.getInput(0);
    }
    return sites.get(r);
  }

  /** {@code node} with the index choice of the scan at the end of its single-input chain redone. */
  private static PlanNode chooseIndex(PlanNode node, IndexChoice.Site site) {
    if (node instanceof ScanNode scan) {
      return site.choose(scan);
    }
    if (node instanceof AggregateNode a) {
      PlanNode input = chooseIndex(a.input(), site);
      return input == a.input()
          ? a
          : new AggregateNode(
              input, a.groupKeys(), a.groupSets(), a.calls(), a.filterColumns(), a.step());
    }
    if (node instanceof ProjectNode p) {
      PlanNode input = chooseIndex(p.input(), site);
      return input == p.input() ? p : new ProjectNode(input, p.expressions());
    }
    if (node instanceof SortNode s) {
      PlanNode input = chooseIndex(s.input(), site);
      return input == s.input() ? s : new SortNode(input, s.keys(), s.offset(), s.fetch());
    }
    if (node instanceof FilterNode f) {
      PlanNode input = chooseIndex(f.input(), site);
      return input == f.input() ? f : new FilterNode(input, f.condition());
    }
    return node;
  }

  private PlanNode convertNode(RelNode rel) {
    if (rel instanceof TableScan scan) {
      ScanNode node =
          scan(scan.getTable())
              .withCacheBlocks(!hinted(scan, Hints.NO_CACHE))
              .withSerial(hinted(scan, Hints.SERIAL));
      sites.put(scan, site(scan, node.table()));
      for (org.apache.calcite.rel.hint.RelHint hint : scan.getHints()) {
        if (hint.hintName.equalsIgnoreCase(Hints.BROADCAST)) {
          if (hint.listOptions.isEmpty()) {
            warn("Hint BROADCAST: expected BROADCAST(table ...), found no table");
          }
          broadcastTargets.addAll(hint.listOptions); // found by the joins (finishHints)
        }
      }
      return node;
    }
    if (rel instanceof Filter filter) {
      return filter(filter);
    }
    if (rel instanceof Project project) {
      return project(project);
    }
    if (rel instanceof Aggregate aggregate) {
      return aggregate(aggregate);
    }
    if (rel instanceof Sort sort) {
      return sort(sort);
    }
    if (rel instanceof Join join) {
      return join(join);
    }
    if (rel instanceof SetOp setOp) {
      return setOp(setOp);
    }
    if (rel instanceof Values values) {
      return values(values);
    }
    if (rel instanceof Window window) {
      return window(window);
    }
    if (rel instanceof Correlate) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "This correlated subquery cannot be decorrelated; rewrite it as a join");
    }
    throw new CairnException(
        ErrorCode.NOT_SUPPORTED,
        "Plan operator [" + rel.getRelTypeName() + "] is not supported yet");
  }

  /** The index hints that apply to {@code scan} of {@code table}, with warnings for bad names. */
  private IndexChoice.Site site(TableScan scan, TableDescriptor table) {
    double rows = scan.getTable().getRowCount();
    if (hinted(scan, Hints.NO_INDEX)) {
      return new IndexChoice.Site(table, rows, true, false, List.of());
    }
    List<IndexDescriptor> forced = new ArrayList<>();
    for (org.apache.calcite.rel.hint.RelHint hint : scan.getHints()) {
      if (!hint.hintName.equalsIgnoreCase(Hints.INDEX)) {
        continue;
      }
      if (hint.listOptions.size() < 2) {
        warn("Hint INDEX: expected INDEX(table index ...), found " + hint.listOptions);
        continue;
      }
      String target = hint.listOptions.get(0);
      hintTargets.add(target);
      if (!namesTable(target, table)) {
        continue;
      }
      hintTargetsFound.add(target);
      for (String name : hint.listOptions.subList(1, hint.listOptions.size())) {
        Optional<IndexDescriptor> index = index(table, name);
        if (index.isEmpty()) {
          warn(
              "Hint INDEX names index ["
                  + name
                  + "] that table ["
                  + table.qualifiedName()
                  + "] does not have");
        } else if (index.get().state() != IndexDescriptor.State.ACTIVE) {
          warn(
              "Hint INDEX names index ["
                  + name
                  + "] of table ["
                  + table.qualifiedName()
                  + "], which is "
                  + index.get().state()
                  + ": not used");
        } else if (!forced.contains(index.get())) {
          forced.add(index.get());
        }
      }
    }
    return new IndexChoice.Site(table, rows, false, !forced.isEmpty(), forced);
  }

  /** Whether a hint's table name (a name or an alias) is {@code table}. */
  private boolean namesTable(String target, TableDescriptor table) {
    String name = aliases.getOrDefault(target, aliases.getOrDefault(upper(target), target));
    return name.equals(table.tableName())
        || name.equalsIgnoreCase(table.tableName())
        || target.equalsIgnoreCase(table.qualifiedName());
  }

  private static Optional<IndexDescriptor> index(TableDescriptor table, String name) {
    Optional<IndexDescriptor> exact = table.index(name);
    if (exact.isPresent()) {
      return exact;
    }
    return table.indexes().stream().filter(i -> i.name().equalsIgnoreCase(name)).findFirst();
  }

  private static String upper(String s) {
    return s.toUpperCase(java.util.Locale.ROOT);
  }

  static TableDescriptor descriptor(RelOptTable table) {
    CairnCalciteSchema.CairnTable t = table.unwrap(CairnCalciteSchema.CairnTable.class);
    if (t == null) {
      throw CairnException.internal("Not a Cairn table: " + table.getQualifiedName());
    }
    return t.descriptor();
  }

  private ScanNode scan(RelOptTable table) {
    TableDescriptor descriptor = descriptor(table);
    return new ScanNode(descriptor, List.of(), Optional.empty(), descriptor.columnRefs(), -1);
  }

  private PlanNode filter(Filter filter) {
    PlanNode input = convert(filter.getInput());
    Expr condition = rex.convert(filter.getCondition());
    if (input instanceof ScanNode scan && scan.probe().isPresent()) {
      return probeFilter(scan, condition);
    }
    if (input instanceof ScanNode scan
        && scan.limit() < 0
        && scan.offset() == 0
        && !scan.hasAggregates()) {
      // Filter over a scan (sorted or not: the sort comes after the filter): rewrite the condition
      // over the table row and push it down.
      Expr pushed = Exprs.inline(condition, scan.projection());
      Expr combined = scan.filter().map(f -> Exprs.and(f, pushed)).orElse(pushed);
      List<RexNode> tableConjuncts =
          scan.filter().isEmpty() && isIdentity(scan)
              ? org.apache.calcite.plan.RelOptUtil.conjunctions(simplify(filter.getCondition()))
              : List.of();
      KeyRanges.Result ranges =
          KeyRanges.extract(scan.table(), tableConjuncts, rexBuilder, scan.keys());
      IndexChoice.Site site = site(filter.getInput());
      if (site != null && !tableConjuncts.isEmpty()) {
        for (IndexDescriptor index : site.candidates()) {
          site.setBounds(index, KeyRanges.extractIndex(index, tableConjuncts, rexBuilder, rex));
        }
      }
      return scan.withKeysAndFilter(ranges.bounds(), Optional.of(combined));
    }
    if (input instanceof AggregateNode a
        && a.step() == AggregateNode.Step.FINAL
        && a.input() instanceof ScanNode scan
        && scan.having().isEmpty()
        && groupsByKeyPrefix(scan)) {
      // HAVING over groups of the table's first key columns: the store may drop the groups it
      // knows complete that fail it (the merge applies it too)
      AggregateNode hinted =
          new AggregateNode(
              scan.withHaving(Optional.of(condition)),
              a.groupKeys(),
              a.groupSets(),
              a.calls(),
              a.filterColumns(),
              a.step());
      return new FilterNode(hinted, condition);
    }
    return new FilterNode(input, condition);
  }

  /**
   * Whether {@code scan} groups its table's rows by the table's first key columns (in any order),
   * so that the rows of a group come together: a grouping scan of the rows, not of an index, whose
   * keys are plain columns.
   */
  private static boolean groupsByKeyPrefix(ScanNode scan) {
    List<Integer> groupBy = scan.groupBy();
    if (!scan.hasAggregates() || scan.index().isPresent() || scan.probe().isPresent()) {
      return false;
    }
    int[] columns = new int[groupBy.size()];
    for (int k = 0; k < columns.length; k++) {
      if (!(scan.projection().get(groupBy.get(k)) instanceof Expr.ColumnRef ref)) {
        return false;
      }
      columns[k] = ref.index();
    }
    return scan.table().layout().isKeyPrefix(columns);
  }

  /**
   * A filter over a probing scan (its projection is over the joined row): a condition on the
   * table's columns only joins the scan's filter, before the probe (every kind keeps its probe
   * row's values); one on build columns joins an INNER probe's residual; else it stays on the
   * client.
   */
  private static PlanNode probeFilter(ScanNode scan, Expr condition) {
    if (scan.limit() >= 0 || scan.offset() != 0 || scan.hasAggregates()) {
      return new FilterNode(scan, condition);
    }
    Expr pushed = Exprs.inline(condition, scan.projection());
    int tableWidth = scan.table().columns().size();
    if (maxColumn(pushed) < tableWidth) {
      Expr combined = scan.filter().map(f -> Exprs.and(f, pushed)).orElse(pushed);
      return scan.withKeysAndFilter(scan.keys(), Optional.of(combined));
    }
    JoinProbe probe = scan.probe().orElseThrow();
    if (probe.kind() == JoinNode.Kind.INNER) {
      Expr residual = probe.residual().map(r -> Exprs.and(r, pushed)).orElse(pushed);
      return scan.withProbe(
          Optional.of(
              new JoinProbe(
                  probe.build(),
                  probe.buildKeys(),
                  probe.probeKeys(),
                  probe.kind(),
                  Optional.of(residual),
                  probe.nullAware())));
    }
    return new FilterNode(scan, condition);
  }

  /** The highest column index {@code expr} reads, -1 for none. */
  private static int maxColumn(Expr expr) {
    if (expr instanceof Expr.ColumnRef ref) {
      return ref.index();
    }
    int max = -1;
    if (expr instanceof Expr.Call call) {
      for (Expr operand : call.operands()) {
        max = Math.max(max, maxColumn(operand));
      }
    }
    return max;
  }

  /**
   * Conditions with more OR terms than this are not given to RexSimplify, whose work grows with the
   * square of the terms (a 10,000-value IN list took minutes); their OR of equalities still becomes
   * a SEARCH.
   */
  static final int MAX_SIMPLIFIED_TERMS = 500;

  /** Normalises a condition for key-range extraction (IN lists and OR of points to SEARCH). */
  private RexNode simplify(RexNode condition) {
    List<RexNode> conjuncts = new ArrayList<>();
    int terms = 0;
    for (RexNode conjunct : org.apache.calcite.plan.RelOptUtil.conjunctions(condition)) {
      RexNode c = searchOfPoints(conjunct);
      terms += c.getKind() == SqlKind.OR ? ((org.apache.calcite.rex.RexCall) c).operandCount() : 1;
      conjuncts.add(c);
    }
    RexNode normalised = RexUtil.composeConjunction(rexBuilder, conjuncts);
    if (terms > MAX_SIMPLIFIED_TERMS) {
      return normalised;
    }
    return new RexSimplify(rexBuilder, RelOptPredicateList.EMPTY, new CairnRexExecutor())
        .simplifyUnknownAsFalse(normalised);
  }

  /**
   * {@code c = v1 OR c = v2 OR ...} over one column and literals as one SEARCH (what an IN list
   * becomes), built in one pass; other conditions unchanged.
   */
  private RexNode searchOfPoints(RexNode condition) {
    if (condition.getKind() != SqlKind.OR
        || !(condition instanceof org.apache.calcite.rex.RexCall or)
        || or.operandCount() <= MAX_SIMPLIFIED_TERMS) {
      return condition;
    }
    RexNode column = null;
    List<RexNode> values = new ArrayList<>();
    for (RexNode term : or.getOperands()) {
      if (term.getKind() != SqlKind.EQUALS
          || !(term instanceof org.apache.calcite.rex.RexCall equals)) {
        return condition;
      }
      RexNode a = equals.getOperands().get(0);
      RexNode b = equals.getOperands().get(1);
      if (b instanceof RexInputRef && a instanceof RexLiteral) {
        RexNode t = a;
        a = b;
        b = t;
      }
      if (!(a instanceof RexInputRef)
          || !(b instanceof RexLiteral literal)
          || literal.isNull()
          || (column != null && !column.equals(a))
          || (!values.isEmpty() && !values.get(0).getType().equals(literal.getType()))) {
        return condition;
      }
      column = a;
      values.add(literal);
    }
    return rexBuilder.makeIn(column, values);
  }

  private static boolean isIdentity(ScanNode scan) {
    List<Expr> p = scan.projection();
    if (p.size() != scan.table().columns().size()) {
      return false;
    }
    for (int i = 0; i < p.size(); i++) {
      if (!(p.get(i) instanceof Expr.ColumnRef ref) || ref.index() != i) {
        return false;
      }
    }
    return true;
  }

  private PlanNode project(Project project) {
    PlanNode input = convert(project.getInput());
    List<Expr> expressions = rex.convertAll(project.getProjects());
    if (!(input instanceof ScanNode) && isIdentity(expressions, input.outputTypes().size())) {
      return input;
    }
    return Exprs.project(input, expressions);
  }

  private static boolean isIdentity(List<Expr> expressions, int inputWidth) {
    if (expressions.size() != inputWidth) {
      return false;
    }
    for (int i = 0; i < expressions.size(); i++) {
      if (!(expressions.get(i) instanceof Expr.ColumnRef ref) || ref.index() != i) {
        return false;
      }
    }
    return true;
  }

  private PlanNode aggregate(Aggregate aggregate) {
    PlanNode input = convert(aggregate.getInput());
    // Input columns the aggregate reads; a scan below it projects only those (COUNT(*) reads
    // none, so the store decodes nothing).
    java.util.TreeSet<Integer> used = new java.util.TreeSet<>(aggregate.getGroupSet().asList());
    for (org.apache.calcite.rel.core.AggregateCall call : aggregate.getAggCallList()) {
      used.addAll(call.getArgList());
      if (call.filterArg >= 0) {
        used.add(call.filterArg);
      }
    }
    int[] remap = new int[input.outputTypes().size()];
    for (int i = 0; i < remap.length; i++) {
      remap[i] = i;
    }
    if (input instanceof ScanNode scan
        && !scan.hasAggregates()
        && scan.orderBy().isEmpty()
        && used.size() < scan.projection().size()) {
      List<Expr> projection = new ArrayList<>();
      for (int column : used) {
        remap[column] = projection.size();
        projection.add(scan.projection().get(column));
      }
      input = scan.withProjection(projection);
    }
    List<Integer> groupKeys = remapAll(aggregate.getGroupSet().asList(), remap);
    List<AggregateCall> calls = new ArrayList<>();
    List<Integer> filters = new ArrayList<>();
    List<Expr> constants = new ArrayList<>();
    int width = input.outputTypes().size();
    for (org.apache.calcite.rel.core.AggregateCall call : aggregate.getAggCallList()) {
      filters.add(call.filterArg < 0 ? -1 : remap[call.filterArg]);
      if (call.getAggregation().getKind() == SqlKind.LITERAL_AGG) {
        // LITERAL_AGG(literal) yields its literal for every group: ANY_VALUE over an appended
        // constant column.
        Expr literal = rex.convert(call.rexList.get(0));
        constants.add(literal);
        calls.add(
            new AggregateCall(
                AggregateKind.ANY_VALUE,
                List.of(width + constants.size() - 1),
                false,
                Types.toDataType(call.getType())));
        continue;
      }
      calls.add(
          new AggregateCall(
              aggregateKind(call),
              remapAll(call.getArgList(), remap),
              call.isDistinct(),
              Types.toDataType(call.getType())));
    }
    if (!constants.isEmpty()) {
      List<Expr> exprs = new ArrayList<>();
      for (int i = 0; i < width; i++) {
        exprs.add(new Expr.ColumnRef(i, input.outputTypes().get(i)));
      }
      exprs.addAll(constants);
      input = new ProjectNode(input, exprs);
    }
    List<List<Integer>> groupSets = new ArrayList<>();
    for (var set : aggregate.getGroupSets()) {
      groupSets.add(remapAll(set.asList(), remap));
    }
    return intoScan(new AggregateNode(input, groupKeys, groupSets, calls, filters));
  }

  /**
   * Moves an aggregation into the scan below it when the store can compute it: no GROUP BY or a
   * plain one (one grouping set of all keys; the keys are scan projection entries), a scan without
   * limit, offset or order, and every call splittable (no DISTINCT) and without FILTER. The scan
   * then emits partial states (after each group's key values), which a final aggregation merges;
   * otherwise {@code aggregate} is returned as it is. A GROUP BY without calls (SELECT DISTINCT)
   * runs a COUNT(*) in the scan, dropped after the merge.
   */
  private static PlanNode intoScan(AggregateNode aggregate) {
    List<Integer> keys = aggregate.groupKeys();
    if (!(aggregate.input() instanceof ScanNode scan)
        || scan.limit() >= 0
        || scan.offset() != 0
        || !scan.orderBy().isEmpty()
        || scan.hasAggregates()
        || !aggregate.groupSets().equals(List.of(keys))
        || (aggregate.calls().isEmpty() && keys.isEmpty())) {
      return aggregate;
    }
    for (int i = 0; i < aggregate.calls().size(); i++) {
      if (aggregate.filterColumns().get(i) >= 0
          || !Aggregates.isSplittable(aggregate.calls().get(i))) {
        return aggregate;
      }
    }
    List<AggregateCall> calls = aggregate.calls();
    boolean distinctOnly = calls.isEmpty();
    if (distinctOnly) {
      calls =
          List.of(
              new AggregateCall(
                  AggregateKind.COUNT_STAR, List.of(), false, DataType.BIGINT.withNullable(false)));
    }
    ScanNode partial = scan.withAggregates(keys, calls);
    List<Integer> finalKeys = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      finalKeys.add(i);
    }
    List<Integer> noFilters = new ArrayList<>();
    for (int i = 0; i < calls.size(); i++) {
      noFilters.add(-1);
    }
    AggregateNode merge =
        new AggregateNode(
            partial, finalKeys, List.of(finalKeys), calls, noFilters, AggregateNode.Step.FINAL);
    if (!distinctOnly) {
      return merge;
    }
    List<Expr> groups = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      groups.add(new Expr.ColumnRef(i, merge.outputTypes().get(i)));
    }
    return new ProjectNode(merge, groups);
  }

  private static List<Integer> remapAll(List<Integer> columns, int[] remap) {
    List<Integer> result = new ArrayList<>(columns.size());
    for (int c : columns) {
      result.add(remap[c]);
    }
    return result;
  }

  private static AggregateKind aggregateKind(org.apache.calcite.rel.core.AggregateCall call) {
    SqlKind kind = call.getAggregation().getKind();
    return switch (kind) {
      case COUNT -> call.getArgList().isEmpty() ? AggregateKind.COUNT_STAR : AggregateKind.COUNT;
      case SUM -> AggregateKind.SUM;
      case SUM0 -> AggregateKind.SUM0;
      case MIN -> AggregateKind.MIN;
      case MAX -> AggregateKind.MAX;
      case AVG -> AggregateKind.AVG;
      case SINGLE_VALUE -> AggregateKind.SINGLE_VALUE;
      case ANY_VALUE -> AggregateKind.ANY_VALUE;
      case GROUPING, GROUPING_ID -> AggregateKind.GROUPING;
      default -> {
        String name = call.getAggregation().getName();
        if (name.equals("BOOL_AND") || name.equals("EVERY")) {
          yield AggregateKind.BOOL_AND;
        }
        if (name.equals("BOOL_OR") || name.equals("SOME")) {
          yield AggregateKind.BOOL_OR;
        }
        throw new CairnException(
            ErrorCode.NOT_SUPPORTED, "Aggregate function [" + name + "] is not supported yet");
      }
    };
  }

  private PlanNode window(Window window) {
    PlanNode input = convert(window.getInput());
    int width = input.outputTypes().size();
    if (!window.constants.isEmpty()) {
      List<Expr> exprs = new ArrayList<>();
      for (int i = 0; i < width; i++) {
        exprs.add(new Expr.ColumnRef(i, input.outputTypes().get(i)));
      }
      for (RexLiteral constant : window.constants) {
        exprs.add(RexToExpr.literal(constant));
      }
      input = new ProjectNode(input, exprs);
    }
    List<WindowNode.Group> groups = new ArrayList<>();
    int output = width;
    for (Window.Group group : window.groups) {
      List<WindowNode.Call> calls = new ArrayList<>();
      for (Window.RexWinAggCall call : group.aggCalls) {
        List<Integer> args = new ArrayList<>();
        for (RexNode operand : call.getOperands()) {
          if (!(operand instanceof RexInputRef ref)) {
            throw new CairnException(
                ErrorCode.NOT_SUPPORTED,
                "Window function argument [" + operand + "] is not supported");
          }
          args.add(ref.getIndex());
        }
        DataType type =
            Types.toDataType(window.getRowType().getFieldList().get(output++).getType());
        calls.add(new WindowNode.Call(windowFunction(call, args), args, call.distinct, type));
      }
      List<SortKey> order = new ArrayList<>();
      for (RelFieldCollation f : group.orderKeys.getFieldCollations()) {
        order.add(sortKey(f));
      }
      groups.add(
          new WindowNode.Group(
              group.keys.asList(),
              order,
              group.isRows,
              bound(group.lowerBound, window, width),
              bound(group.upperBound, window, width),
              calls));
    }
    WindowNode node = new WindowNode(input, groups);
    if (window.constants.isEmpty()) {
      return node;
    }
    // Drop the constant columns appended for the calls' arguments: Calcite's window row type is
    // the input's columns followed by the calls'.
    List<DataType> types = node.outputTypes();
    List<Expr> exprs = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      if (i < width || i >= width + window.constants.size()) {
        exprs.add(new Expr.ColumnRef(i, types.get(i)));
      }
    }
    return new ProjectNode(node, exprs);
  }

  private static WindowNode.Function windowFunction(Window.RexWinAggCall call, List<Integer> args) {
    SqlKind kind = call.getOperator().getKind();
    return switch (kind) {
      case ROW_NUMBER -> WindowNode.Function.ROW_NUMBER;
      case RANK -> WindowNode.Function.RANK;
      case DENSE_RANK -> WindowNode.Function.DENSE_RANK;
      case PERCENT_RANK -> WindowNode.Function.PERCENT_RANK;
      case CUME_DIST -> WindowNode.Function.CUME_DIST;
      case NTILE -> WindowNode.Function.NTILE;
      case LAG -> WindowNode.Function.LAG;
      case LEAD -> WindowNode.Function.LEAD;
      case FIRST_VALUE -> WindowNode.Function.FIRST_VALUE;
      case LAST_VALUE -> WindowNode.Function.LAST_VALUE;
      case NTH_VALUE -> WindowNode.Function.NTH_VALUE;
      case COUNT -> args.isEmpty() ? WindowNode.Function.COUNT_STAR : WindowNode.Function.COUNT;
      case SUM -> WindowNode.Function.SUM;
      case SUM0 -> WindowNode.Function.SUM0;
      case MIN -> WindowNode.Function.MIN;
      case MAX -> WindowNode.Function.MAX;
      case AVG -> WindowNode.Function.AVG;
      default ->
          throw new CairnException(
              ErrorCode.NOT_SUPPORTED,
              "Window function [" + call.getOperator().getName() + "] is not supported yet");
    };
  }

  private static WindowNode.Bound bound(RexWindowBound bound, Window window, int width) {
    if (bound.isCurrentRow()) {
      return new WindowNode.Bound(WindowNode.Bound.Kind.CURRENT_ROW, 0);
    }
    if (bound.isUnbounded()) {
      return new WindowNode.Bound(
          bound.isPreceding()
              ? WindowNode.Bound.Kind.UNBOUNDED_PRECEDING
              : WindowNode.Bound.Kind.UNBOUNDED_FOLLOWING,
          0);
    }
    RexNode offset = bound.getOffset();
    if (offset instanceof RexInputRef ref && ref.getIndex() >= width) {
      offset = window.constants.get(ref.getIndex() - width);
    }
    if (!(offset instanceof RexLiteral literal)
        || !(RexToExpr.literal(literal).value() instanceof Number number)) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED, "Window frame offset [" + offset + "] is not supported");
    }
    return new WindowNode.Bound(
        bound.isPreceding() ? WindowNode.Bound.Kind.PRECEDING : WindowNode.Bound.Kind.FOLLOWING,
        number.longValue());
  }

  private static SortKey sortKey(RelFieldCollation f) {
    boolean descending = f.getDirection().isDescending();
    boolean nullsFirst =
        switch (f.nullDirection) {
          case FIRST -> true;
          case LAST -> false;
          case UNSPECIFIED -> !descending;
        };
    return new SortKey(f.getFieldIndex(), descending, nullsFirst);
  }

  /**
   * ORDER BY, OFFSET and FETCH. Over a plain scan (no limit, offset, order or aggregates yet) they
   * go into it: the sort keys always, OFFSET and FETCH when they are literals (the store then keeps
   * a top offset + limit per chunk); parameters stay in a client SortNode without keys over the
   * sorted scan.
   */
  private PlanNode sort(Sort sort) {
    PlanNode input = convert(sort.getInput());
    RelCollation collation = sort.getCollation();
    List<SortKey> keys = new ArrayList<>();
    for (RelFieldCollation f : collation.getFieldCollations()) {
      keys.add(sortKey(f));
    }
    Optional<Expr> offset = Optional.ofNullable(sort.offset).map(rex::convert);
    Optional<Expr> fetch = Optional.ofNullable(sort.fetch).map(rex::convert);
    if (keys.isEmpty() && offset.isEmpty() && fetch.isEmpty()) {
      return input;
    }
    if (input instanceof ScanNode scan
        && scan.limit() < 0
        && scan.offset() == 0
        && scan.orderBy().isEmpty()
        && !scan.hasAggregates()) {
      long literalOffset = offset.isEmpty() ? 0 : count(sort.offset);
      long literalFetch = fetch.isEmpty() ? -1 : count(sort.fetch);
      if (literalOffset >= 0 && (fetch.isEmpty() || literalFetch >= 0)) {
        return scan.withOrder(keys, literalOffset, literalFetch);
      }
      if (!keys.isEmpty()) {
        return new SortNode(scan.withOrder(keys, 0, -1), List.of(), offset, fetch);
      }
    }
    return new SortNode(input, keys, offset, fetch);
  }

  /** The value of an OFFSET or FETCH that is a literal count; -1 for a parameter or expression. */
  private static long count(RexNode node) {
    if (node instanceof RexLiteral literal
        && RexToExpr.literal(literal).value() instanceof Number number
        && number.longValue() >= 0) {
      return number.longValue();
    }
    return -1;
  }

  private PlanNode join(Join join) {
    PlanNode left = convert(join.getLeft());
    PlanNode right = convert(join.getRight());
    JoinNode.Kind kind =
        switch (join.getJoinType()) {
          case INNER -> JoinNode.Kind.INNER;
          case LEFT -> JoinNode.Kind.LEFT;
          case RIGHT -> JoinNode.Kind.RIGHT;
          case FULL -> JoinNode.Kind.FULL;
          case SEMI -> JoinNode.Kind.SEMI;
          case ANTI -> JoinNode.Kind.ANTI;
          default ->
              throw new CairnException(
                  ErrorCode.NOT_SUPPORTED,
                  "Join type [" + join.getJoinType() + "] is not supported");
        };
    JoinInfo info = join.analyzeCondition();
    Optional<Expr> residual = Optional.empty();
    RexNode remaining = info.getRemaining(rexBuilder);
    if (!remaining.isAlwaysTrue()) {
      residual = Optional.of(rex.convert(remaining));
    }
    boolean sortMerge = !info.leftKeys.isEmpty() && sortMergeHinted(join);
    JoinNode node =
        new JoinNode(left, right, kind, info.leftKeys, info.rightKeys, residual, sortMerge);
    boolean leftBuilt = broadcastHinted(join.getLeft());
    boolean rightBuilt = broadcastHinted(join.getRight()); // both looked at: the targets met
    if (!sortMerge && leftBuilt && !rightBuilt) {
      if (kind == JoinNode.Kind.INNER && !info.leftKeys.isEmpty()) {
        return swapped(node, join.getRight());
      }
      warn(
          "Hint BROADCAST names a table on the preserved side of a "
              + kind
              + " join, which cannot be its build side: the other side is built");
    }
    if (sortMerge) {
      return node;
    }
    return marked(node, join).or(() -> probing(node, join.getLeft())).orElse(node);
  }

  /**
   * A mark join is planned when its left input is estimated to have at most this share of the rows
   * of its right input.
   */
  static final double MARK_SHARE = 0.25;

  /**
   * A SEMI or ANTI join whose right input is a plain scan of a table and whose left input is
   * estimated far smaller ({@link #MARK_SHARE}) as a mark join ({@link MarkJoinNode}): the right's
   * scan probes the left's rows in the store, with the join's residual, and returns the numbers of
   * those it matches. Not with the NO_SERVER_JOIN hint on a table of either input (its scans belong
   * to both query blocks), nor when the right's scan reads a local index.
   */
  private Optional<PlanNode> marked(JoinNode join, Join rel) {
    if ((join.kind() != JoinNode.Kind.SEMI && join.kind() != JoinNode.Kind.ANTI)
        || join.leftKeys().isEmpty()
        || !(join.right() instanceof ScanNode scan)
        || scan.probe().isPresent()
        || scan.index().isPresent()
        || scan.hasAggregates()
        || scan.limit() >= 0
        || scan.offset() != 0
        || !scan.orderBy().isEmpty()
        || noServerJoinUnder(rel)) {
      return Optional.empty();
    }
    RelMetadataQuery mq = rel.getCluster().getMetadataQuery();
    Double leftEstimate = mq.getRowCount(rel.getLeft());
    Double rightEstimate = mq.getRowCount(rel.getRight());
    if (leftEstimate == null
        || rightEstimate == null
        || leftEstimate > rightEstimate * MARK_SHARE) {
      return Optional.empty();
    }
    // the build rows: the left columns the keys and the residual read, then the row's number
    List<DataType> leftTypes = join.left().outputTypes();
    java.util.BitSet read = new java.util.BitSet();
    join.leftKeys().forEach(read::set);
    join.residual().ifPresent(r -> Exprs.columns(r, read));
    List<Integer> columns = new ArrayList<>();
    List<DataType> columnTypes = new ArrayList<>();
    for (int c = read.nextSetBit(0); c >= 0 && c < leftTypes.size(); c = read.nextSetBit(c + 1)) {
      columns.add(c);
      columnTypes.add(leftTypes.get(c));
    }
    // the probing scan's joined row: the table's columns, the row key, then the build columns
    int tableWidth = scan.table().columns().size();
    List<Expr> joined = new ArrayList<>();
    for (int c = 0; c < leftTypes.size(); c++) {
      int position = columns.indexOf(c);
      joined.add(
          position < 0
              ? new Expr.Literal(null, leftTypes.get(c)) // never read
              : new Expr.ColumnRef(tableWidth + 1 + position, leftTypes.get(c)));
    }
    joined.addAll(scan.projection());
    List<Integer> buildKeys = new ArrayList<>();
    for (int k : join.leftKeys()) {
      buildKeys.add(columns.indexOf(k));
    }
    List<Expr> probeKeys = new ArrayList<>();
    for (int k : join.rightKeys()) {
      probeKeys.add(scan.projection().get(k));
    }
    LeftRowsNode leftRows = new LeftRowsNode(columns, columnTypes);
    JoinProbe probe =
        new JoinProbe(
                leftRows,
                buildKeys,
                probeKeys,
                JoinNode.Kind.INNER,
                join.residual().map(r -> Exprs.inline(r, joined)),
                false)
            .withPrimaryKeyFirst(scan.table().layout());
    Expr number =
        new Expr.ColumnRef(
            tableWidth + 1 + leftRows.numberColumn(), leftRows.outputTypes().get(columns.size()));
    ScanNode probing = scan.withProjection(List.of(number)).withProbe(Optional.of(probe));
    return Optional.of(new MarkJoinNode(join, probing));
  }

  /**
   * The inner join {@code join} with its inputs swapped (the left input becomes the build side, as
   * the BROADCAST hint asks), its columns projected back into the join's order.
   */
  private PlanNode swapped(JoinNode join, RelNode newLeftRel) {
    List<DataType> leftTypes = join.left().outputTypes();
    List<DataType> rightTypes = join.right().outputTypes();
    int leftWidth = leftTypes.size();
    int rightWidth = rightTypes.size();
    // the swapped join's row is (right, left): where each original column is in it
    List<Expr> original = new ArrayList<>();
    for (int i = 0; i < leftWidth; i++) {
      original.add(new Expr.ColumnRef(rightWidth + i, leftTypes.get(i)));
    }
    for (int i = 0; i < rightWidth; i++) {
      original.add(new Expr.ColumnRef(i, rightTypes.get(i)));
    }
    JoinNode swapped =
        new JoinNode(
            join.right(),
            join.left(),
            JoinNode.Kind.INNER,
            join.rightKeys(),
            join.leftKeys(),
            join.residual().map(r -> Exprs.inline(r, original)));
    PlanNode planned = probing(swapped, newLeftRel).orElse(swapped);
    if (planned instanceof ScanNode scan) {
      // the probing scan projects the columns back itself, so what is above can run in it too
      List<Expr> projection = new ArrayList<>();
      for (Expr e : original) {
        projection.add(Exprs.inline(e, scan.projection()));
      }
      return scan.withProjection(projection);
    }
    return new ProjectNode(planned, original);
  }

  /**
   * Whether a table scan under {@code rel} is named by a BROADCAST hint of its query block (the
   * join input holding it is built).
   */
  private boolean broadcastHinted(RelNode rel) {
    if (broadcastTargets.isEmpty()) {
      return false; // no scan of the statement had the hint (scans are converted before joins)
    }
    if (rel instanceof TableScan scan) {
      TableDescriptor table = descriptor(scan.getTable());
      for (org.apache.calcite.rel.hint.RelHint hint : scan.getHints()) {
        if (!hint.hintName.equalsIgnoreCase(Hints.BROADCAST)) {
          continue;
        }
        for (String target : hint.listOptions) {
          if (table != null && namesTable(target, table)) {
            broadcastTargetsFound.add(target);
            return true;
          }
        }
      }
      return false;
    }
    for (RelNode input : rel.getInputs()) {
      if (broadcastHinted(input)) {
        return true;
      }
    }
    return false;
  }

  /**
   * An equi-join whose left (probe) input is a plain scan of a table's rows, as that scan probing
   * the right (build) input in the store ({@link JoinProbe}), so that what the statement does above
   * the join (filters, projections, splittable aggregates, a sort) can run in the same scan. INNER,
   * LEFT, SEMI and ANTI joins; not with the NO_SERVER_JOIN hint, nor when the probe scan reads a
   * local index. A build side may itself probe (its join runs, and its cache is removed, before
   * this one's table is handed to the store). The executor still runs the join on the client when
   * the build side passes its budget.
   */
  private Optional<PlanNode> probing(JoinNode join, RelNode leftRel) {
    if (!(join.left() instanceof ScanNode scan)
        || join.leftKeys().isEmpty()
        || join.kind() == JoinNode.Kind.RIGHT
        || join.kind() == JoinNode.Kind.FULL
        || scan.probe().isPresent()
        || scan.index().isPresent() // a chosen index read stays: its program is over its entries
        || scan.hasAggregates()
        || scan.limit() >= 0
        || scan.offset() != 0
        || !scan.orderBy().isEmpty()
        || noServerJoin(leftRel)) {
      return Optional.empty();
    }
    int tableWidth = scan.table().columns().size();
    List<DataType> buildTypes = join.right().outputTypes();
    List<Expr> joined = new ArrayList<>(scan.projection());
    for (int j = 0; j < buildTypes.size(); j++) {
      DataType type = buildTypes.get(j);
      joined.add(
          new Expr.ColumnRef(
              tableWidth + 1 + j,
              join.kind() == JoinNode.Kind.LEFT ? type.withNullable(true) : type));
    }
    List<Expr> probeKeys = new ArrayList<>();
    for (int k : join.leftKeys()) {
      probeKeys.add(scan.projection().get(k));
    }
    Optional<Expr> residual = join.residual().map(r -> Exprs.inline(r, joined));
    boolean semiOrAnti = join.kind() == JoinNode.Kind.SEMI || join.kind() == JoinNode.Kind.ANTI;
    List<Expr> projection = semiOrAnti ? scan.projection() : joined;
    JoinProbe probe =
        new JoinProbe(join.right(), join.rightKeys(), probeKeys, join.kind(), residual, false)
            .withPrimaryKeyFirst(scan.table().layout());
    return Optional.of(scan.withProjection(projection).withProbe(Optional.of(probe)));
  }

  /**
   * Whether some table scan under {@code rel} has NO_SERVER_JOIN (a mark join reads the tables of
   * both its inputs' query blocks: the hint on either keeps it in the driver).
   */
  private boolean noServerJoinUnder(RelNode rel) {
    if (rel instanceof TableScan scan) {
      return hinted(scan, Hints.NO_SERVER_JOIN);
    }
    for (RelNode input : rel.getInputs()) {
      if (noServerJoinUnder(input)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a table scan of the join's query block has the USE_SORT_MERGE_JOIN hint. */
  private boolean sortMergeHinted(RelNode rel) {
    if (rel instanceof TableScan scan) {
      return hinted(scan, Hints.USE_SORT_MERGE_JOIN);
    }
    for (RelNode input : rel.getInputs()) {
      if (sortMergeHinted(input)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the table scan under {@code rel} (through single-input operators) has NO_SERVER_JOIN.
   */
  private boolean noServerJoin(RelNode rel) {
    RelNode r = rel;
    while (!(r instanceof TableScan)) {
      if (r.getInputs().size() != 1) {
        return true;
      }
      r = r.getInput(0);
    }
    return hinted((TableScan) r, Hints.NO_SERVER_JOIN);
  }

  private PlanNode setOp(SetOp setOp) {
    SetOpNode.Kind kind;
    if (setOp instanceof Union) {
      kind = SetOpNode.Kind.UNION;
    } else if (setOp instanceof Intersect) {
      kind = SetOpNode.Kind.INTERSECT;
    } else if (setOp instanceof Minus) {
      kind = SetOpNode.Kind.EXCEPT;
    } else {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Set operation [" + setOp.getRelTypeName() + "] is not supported");
    }
    List<PlanNode> inputs = new ArrayList<>();
    for (RelNode input : setOp.getInputs()) {
      inputs.add(convert(input));
    }
    List<DataType> types =
        setOp.getRowType().getFieldList().stream().map(f -> Types.toDataType(f.getType())).toList();
    return new SetOpNode(kind, setOp.all, inputs, types);
  }

  private PlanNode values(Values values) {
    List<DataType> types =
        values.getRowType().getFieldList().stream()
            .map(f -> Types.toDataType(f.getType()))
            .toList();
    List<List<Expr>> rows = new ArrayList<>();
    for (List<RexLiteral> tuple : values.getTuples()) {
      List<Expr> row = new ArrayList<>();
      for (int i = 0; i < tuple.size(); i++) {
        Expr.Literal literal = RexToExpr.literal(tuple.get(i));
        DataType target = types.get(i);
        row.add(
            literal.type().equals(target) || literal.value() == null
                ? new Expr.Literal(literal.value(), target)
                : new Expr.Call(io.cairn.core.expr.Op.CAST, List.of(literal), target));
      }
      rows.add(row);
    }
    return new ValuesNode(rows, types);
  }
}
