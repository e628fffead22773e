package io.cairn.planner;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.KeySetFilter;
import io.cairn.kv.SortKey;
import io.cairn.planner.plan.AggregateNode;
import io.cairn.planner.plan.FilterNode;
import io.cairn.planner.plan.IndexScan;
import io.cairn.planner.plan.JoinNode;
import io.cairn.planner.plan.JoinProbe;
import io.cairn.planner.plan.KeyBounds;
import io.cairn.planner.plan.LeftRowsNode;
import io.cairn.planner.plan.MarkJoinNode;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ProjectNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.SetOpNode;
import io.cairn.planner.plan.SharedSubplans;
import io.cairn.planner.plan.SortNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.planner.plan.ValuesNode;
import io.cairn.planner.plan.WindowNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Prints a physical plan, one line per operator, outermost first, in the spirit of Phoenix's
 * EXPLAIN: {@code SERVER} lines run inside the store's scanner, {@code CLIENT} lines in the driver.
 *
 * <p>A scan's head line depends on the execution (its chunks come from the table's statistics when
 * the statement runs, not from the cached plan): {@link #explain(StatementPlan, Function)} takes
 * what the executor knows of each scan ({@link ScanInfo}) and prints, e.g., {@code CLIENT PARALLEL
 * 4-WAY 23-CHUNK FULL SCAN OVER PUBLIC.LINEITEM (EST 6,001,215 ROWS, 742 MB)}; {@link
 * #explain(StatementPlan)} prints the plan alone, the head line starting with {@code SERVER}.
 */
public final class Explainer {
  private Explainer() {}

  /**
   * What one execution of a scan would do, for its EXPLAIN head line.
   *
   * @param chunks how many requests (chunks) the scan runs
   * @param parallelism how many of them run at once
   * @param rows estimated rows of the chunks read, -1 when unknown
   * @param bytes estimated bytes of the chunks read, -1 when unknown
   * @param withoutParameters whether the chunks were found without the parameters' values (key
   *     bounds using a parameter widened)
   */
  public record ScanInfo(
      int chunks, int parallelism, long rows, long bytes, boolean withoutParameters) {}

  /** The plan alone, without execution information. */
  public static List<String> explain(StatementPlan plan) {
    return explain(plan, scan -> null);
  }

  /**
   * The plan with each scan's execution information from {@code scanInfo} (which may answer null:
   * the plan alone).
   */
  public static List<String> explain(StatementPlan plan, Function<ScanNode, ScanInfo> scanInfo) {
    List<String> lines = new ArrayList<>();
    new Printer(scanInfo).statement(plan, lines);
    return lines;
  }

  private static final class Printer {
    private final Function<ScanNode, ScanInfo> scanInfo;

    /** The statement's shared subplans ({@link SharedSubplans}) and how often each runs. */
    private Map<PlanNode, Integer> shared = Map.of();

    private final Set<PlanNode> printed = new HashSet<>();

    Printer(Function<ScanNode, ScanInfo> scanInfo) {
      this.scanInfo = scanInfo;
    }

    void statement(StatementPlan plan, List<String> lines) {
      if (plan instanceof StatementPlan.Query q) {
        shared = SharedSubplans.of(q.root());
        node(q.root(), 0, lines);
      } else if (plan instanceof StatementPlan.Upsert u) {
        lines.add(
            (u.insert() ? "INSERT INTO " : "UPSERT INTO ")
                + u.table().qualifiedName()
                + (u.targetsAllColumns() ? "" : " " + columnNames(u.table(), u.targetColumns()))
                + u.onDuplicateKey().map(d -> onDuplicateKey(u.table(), d)).orElse(""));
        shared = SharedSubplans.of(u.source());
        node(u.source(), 1, lines);
      } else if (plan instanceof StatementPlan.Delete d) {
        lines.add("DELETE FROM " + d.table().qualifiedName());
        shared = SharedSubplans.of(d.source());
        node(d.source(), 1, lines);
      } else if (plan instanceof StatementPlan.AlterTableOptions a) {
        List<String> options = new ArrayList<>();
        a.options().forEach((name, value) -> options.add(name + "=" + value));
        lines.add(
            "ALTER TABLE "
                + a.schemaName()
                + "."
                + a.tableName()
                + " SET "
                + String.join(", ", options));
      } else if (plan instanceof StatementPlan.FlushTable f) {
        lines.add("FLUSH TABLE " + f.schemaName() + "." + f.tableName());
      } else if (plan instanceof StatementPlan.UpdateStatistics u) {
        lines.add("UPDATE STATISTICS " + u.schemaName() + "." + u.tableName());
      } else if (plan instanceof StatementPlan.SplitTable t) {
        lines.add("SPLIT TABLE " + t.schemaName() + "." + t.tableName());
      } else if (plan instanceof StatementPlan.CompactTable c) {
        lines.add(
            (c.major() ? "MAJOR_COMPACT TABLE " : "COMPACT TABLE ")
                + c.schemaName()
                + "."
                + c.tableName());
      } else {
        lines.add(plan.getClass().getSimpleName().toUpperCase(Locale.ROOT));
      }
    }

    /** {@code ON DUPLICATE KEY IGNORE} or {@code ... UPDATE N = N + 1, ...} (existing values). */
    private static String onDuplicateKey(
        TableDescriptor table, StatementPlan.OnDuplicateKey clause) {
      if (clause.ignore()) {
        return " ON DUPLICATE KEY IGNORE";
      }
      IntFunction<String> names = i -> table.columns().get(i).name();
      List<String> assignments = new ArrayList<>();
      for (StatementPlan.OnDuplicateKey.Assignment a : clause.assignments()) {
        assignments.add(names.apply(a.column()) + " = " + ExprPrinter.print(a.value(), names));
      }
      return " ON DUPLICATE KEY UPDATE " + String.join(", ", assignments);
    }

    private String columnNames(TableDescriptor table, List<Integer> columns) {
      List<String> names = new ArrayList<>();
      for (int c : columns) {
        names.add(table.columns().get(c).name());
      }
      return "(" + String.join(", ", names) + ")";
    }

    private void line(List<String> lines, int depth, String text) {
      lines.add("    ".repeat(depth) + text);
    }

    private void node(PlanNode node, int depth, List<String> lines) {
      Integer runs = shared.isEmpty() ? null : shared.get(node);
      if (runs != null) {
        if (!printed.add(node)) {
          line(lines, depth, "CLIENT SHARED ROWS (COMPUTED ABOVE)");
          return;
        }
        line(lines, depth, "CLIENT SHARED ROWS (COMPUTED ONCE, READ " + runs + " TIMES)");
        depth++;
      }
      IntFunction<String> positional = i -> "$" + i;
      if (node instanceof ScanNode scan) {
        if (!scan.orderBy().isEmpty()) {
          // the chunks of a sorted scan come sorted and are merged
          line(lines, depth, "CLIENT MERGE SORT");
          scan(scan, depth + 1, lines);
        } else {
          scan(scan, depth, lines);
        }
        return;
      }
      if (node instanceof FilterNode f) {
        line(lines, depth, "CLIENT FILTER BY " + ExprPrinter.print(f.condition(), positional));
      } else if (node instanceof ProjectNode p) {
        line(lines, depth, "CLIENT PROJECT " + ExprPrinter.printAll(p.expressions(), positional));
      } else if (node instanceof AggregateNode a && a.step() == AggregateNode.Step.FINAL) {
        if (a.groupKeys().isEmpty()) {
          line(lines, depth, "CLIENT MERGE AGGREGATE INTO SINGLE ROW");
        } else {
          IntFunction<String> keyNames = positional;
          if (a.input() instanceof ScanNode scan && scan.groupBy().size() == a.groupKeys().size()) {
            keyNames =
                i -> ExprPrinter.print(scan.projection().get(scan.groupBy().get(i)), names(scan));
          }
          List<String> keys = new ArrayList<>();
          for (int k : a.groupKeys()) {
            keys.add(keyNames.apply(k));
          }
          line(lines, depth, "CLIENT MERGE AGGREGATE INTO DISTINCT ROWS BY " + keys);
        }
      } else if (node instanceof AggregateNode a) {
        List<String> calls = new ArrayList<>();
        for (AggregateCall c : a.calls()) {
          calls.add(ExprPrinter.aggregate(c, positional));
        }
        String groups =
            a.groupKeys().isEmpty()
                ? "INTO SINGLE ROW"
                : "GROUP BY "
                    + String.join(", ", a.groupKeys().stream().map(i -> "$" + i).toList());
        line(lines, depth, "CLIENT AGGREGATE " + groups + " COMPUTE " + String.join(", ", calls));
      } else if (node instanceof SortNode s) {
        StringBuilder text = new StringBuilder();
        if (!s.keys().isEmpty()) {
          List<String> keys = new ArrayList<>();
          for (SortKey k : s.keys()) {
            keys.add(
                "$"
                    + k.column()
                    + (k.descending() ? " DESC" : " ASC")
                    + (k.nullsFirst() ? " NULLS FIRST" : " NULLS LAST"));
          }
          text.append(s.fetch().isPresent() ? "CLIENT TOP-N SORT BY " : "CLIENT SORT BY ");
          text.append(String.join(", ", keys));
        } else {
          text.append("CLIENT");
        }
        s.offset().ifPresent(o -> text.append(" OFFSET ").append(ExprPrinter.print(o, positional)));
        s.fetch().ifPresent(f -> text.append(" LIMIT ").append(ExprPrinter.print(f, positional)));
        line(lines, depth, text.toString());
      } else if (node instanceof JoinNode j) {
        line(
            lines,
            depth,
            join(
                j, j.leftKeys().isEmpty() ? "NESTED LOOP" : j.sortMerge() ? "SORT-MERGE" : "HASH"));
      } else if (node instanceof MarkJoinNode m) {
        // the left rows are the build side; the right's scan probes them in the store
        line(lines, depth, join(m.join(), "MARK") + " (build: left, probed in the store)");
      } else if (node instanceof LeftRowsNode r) {
        line(
            lines,
            depth,
            "CLIENT LEFT ROWS "
                + String.join(", ", r.columns().stream().map(c -> "$" + c).toList())
                + " NUMBERED");
      } else if (node instanceof SetOpNode s) {
        line(lines, depth, "CLIENT " + s.kind() + (s.all() ? " ALL" : ""));
      } else if (node instanceof WindowNode w) {
        List<String> calls = new ArrayList<>();
        for (WindowNode.Group g : w.groups()) {
          for (WindowNode.Call c : g.calls()) {
            String args = String.join(", ", c.arguments().stream().map(i -> "$" + i).toList());
            calls.add(
                c.function()
                    + "("
                    + args
                    + ") OVER (PARTITION BY "
                    + g.partitionKeys().stream().map(i -> "$" + i).toList()
                    + " ORDER BY "
                    + g.orderKeys().stream()
                        .map(k -> "$" + k.column() + (k.descending() ? " DESC" : ""))
                        .toList()
                    + ")");
          }
        }
        line(lines, depth, "CLIENT WINDOW " + String.join(", ", calls));
      } else if (node instanceof ValuesNode v) {
        line(
            lines,
            depth,
            "CLIENT VALUES " + v.rows().size() + " ROW" + (v.rows().size() == 1 ? "" : "S"));
      }
      for (PlanNode input : node.inputs()) {
        node(input, depth + 1, lines);
      }
    }

    /** The line of a join: method, kind, keys ($i positions) and residual. */
    private static String join(JoinNode j, String method) {
      IntFunction<String> positional = i -> "$" + i;
      StringBuilder text = new StringBuilder("CLIENT " + method + " " + j.kind() + " JOIN");
      if (!j.leftKeys().isEmpty()) {
        List<String> keys = new ArrayList<>();
        int leftWidth = j.left().outputTypes().size();
        for (int i = 0; i < j.leftKeys().size(); i++) {
          keys.add("$" + j.leftKeys().get(i) + " = $" + (leftWidth + j.rightKeys().get(i)));
        }
        text.append(" ON ").append(String.join(" AND ", keys));
      }
      j.residual().ifPresent(r -> text.append(" FILTER ").append(ExprPrinter.print(r, positional)));
      return text.toString();
    }

    /** Names of the table's columns (and the row key pseudo-column) for a scan's expressions. */
    private static IntFunction<String> names(ScanNode scan) {
      TableDescriptor table = scan.table();
      int width = table.columns().size();
      // a probing scan's joined row: then the build side's columns, $B0, $B1, ...
      return i ->
          i < width
              ? table.columns().get(i).name()
              : i == width ? "ROW_KEY" : "$B" + (i - width - 1);
    }

    private void scan(ScanNode scan, int depth, List<String> lines) {
      IntFunction<String> names = names(scan);
      line(lines, depth, head(scan, scanInfo.apply(scan)));
      scan.filter()
          .ifPresent(
              f -> line(lines, depth + 1, "SERVER FILTER BY " + ExprPrinter.print(f, names)));
      if (scan.probe().isPresent()) {
        JoinProbe probe = scan.probe().get();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < probe.probeKeys().size(); i++) {
          keys.add(
              ExprPrinter.print(probe.probeKeys().get(i), names)
                  + " = $B"
                  + probe.buildKeys().get(i));
        }
        StringBuilder text =
            new StringBuilder(
                "SERVER HASH JOIN PROBE "
                    + (probe.nullAware() ? "NOT IN " : "")
                    + probe.kind()
                    + " ON "
                    + String.join(" AND ", keys));
        probe
            .residual()
            .ifPresent(r -> text.append(" FILTER ").append(ExprPrinter.print(r, names)));
        line(lines, depth + 1, text.append(" (build:)").toString());
        node(probe.build(), depth + 2, lines);
        Expr first = probe.probeKeys().get(0);
        if ((probe.kind() == JoinNode.Kind.INNER || probe.kind() == JoinNode.Kind.SEMI)
            && first instanceof Expr.ColumnRef ref
            && ref.index() < scan.table().columns().size()
            && KeySetFilter.applies(first, scan.table().columns().get(ref.index()).type())) {
          // what coprocessor.ProgramRows tests before probing (KeySetFilter)
          line(
              lines,
              depth + 1,
              "SERVER DYNAMIC FILTER " + ExprPrinter.print(first, names) + " IN (build keys)");
        }
        if (probe.looksUpKeys(scan.table().layout())) {
          // what exec.LookupKeys does when the build side has few keys
          line(
              lines,
              depth + 1,
              "SERVER LOOKUP BY " + ExprPrinter.print(first, names) + " IN (build keys) WHEN FEW");
        }
      }
      // the lines below the head say what the store runs over the rows, in Phoenix's words
      IntFunction<String> projected = i -> ExprPrinter.print(scan.projection().get(i), names);
      if (scan.hasAggregates()) {
        // the projection only feeds the calls and keys: print their arguments in place
        List<String> calls = new ArrayList<>();
        for (AggregateCall c : scan.aggregates()) {
          calls.add(ExprPrinter.aggregate(c, projected));
        }
        String into =
            scan.groupBy().isEmpty()
                ? "INTO SINGLE ROW"
                : (scan.groupsFromIndex()
                        ? "INTO ORDERED DISTINCT ROWS BY "
                        : "INTO DISTINCT ROWS BY ")
                    + scan.groupBy().stream().map(projected::apply).toList();
        line(lines, depth + 1, "SERVER AGGREGATE " + into + " COMPUTE " + String.join(", ", calls));
        if (scan.having().isPresent()) {
          int keys = scan.groupBy().size();
          IntFunction<String> groupRow =
              i -> i < keys ? projected.apply(scan.groupBy().get(i)) : calls.get(i - keys);
          line(
              lines,
              depth + 1,
              "SERVER FILTER COMPLETE GROUPS BY "
                  + ExprPrinter.print(scan.having().get(), groupRow));
        }
        return;
      }
      line(lines, depth + 1, "SERVER PROJECT " + ExprPrinter.printAll(scan.projection(), names));
      if (!scan.orderBy().isEmpty()) {
        List<String> keys = new ArrayList<>();
        for (SortKey k : scan.orderBy()) {
          keys.add(
              projected.apply(k.column())
                  + (k.descending() ? " DESC" : "")
                  // Cairn's default: NULLs first ascending, last descending
                  + (k.nullsFirst() != k.descending()
                      ? ""
                      : k.nullsFirst() ? " NULLS FIRST" : " NULLS LAST"));
        }
        if (scan.orderFromIndex()) {
          // the store streams each request's rows in the index's order; no sort
          line(lines, depth + 1, "SERVER ORDER BY " + keys + " (index order)");
          if (scan.offset() > 0) {
            line(lines, depth + 1, "SERVER OFFSET " + scan.offset());
          }
          if (scan.limit() >= 0) {
            line(lines, depth + 1, "SERVER " + scan.limit() + " ROW LIMIT");
          }
          return;
        }
        line(
            lines,
            depth + 1,
            scan.limit() >= 0
                ? "SERVER TOP "
                    + scan.limit()
                    + " ROW"
                    + (scan.limit() == 1 ? "" : "S")
                    + " SORTED BY "
                    + keys
                : "SERVER SORTED BY " + keys);
        if (scan.offset() > 0) {
          line(lines, depth + 1, "SERVER OFFSET " + scan.offset());
        }
        return;
      }
      if (scan.offset() > 0) {
        line(lines, depth + 1, "SERVER OFFSET " + scan.offset());
      }
      if (scan.limit() >= 0) {
        line(lines, depth + 1, "SERVER " + scan.limit() + " ROW LIMIT");
      }
    }

    /** The scan's first line: how it reads the table, with the execution's chunks when known. */
    private static String head(ScanNode scan, ScanInfo info) {
      TableDescriptor table = scan.table();
      String over = " OVER " + table.qualifiedName();
      String kind;
      if (scan.index().isPresent()) {
        kind = indexKind(scan.index().get(), table);
      } else if (scan.isFullScan()) {
        kind = "FULL SCAN" + over;
      } else if (scan.keys().size() == 1) {
        KeyBounds b = scan.keys().get(0);
        boolean point =
            b.lower().isEmpty()
                && b.upper().isEmpty()
                && b.equalPrefix().size() == table.primaryKey().size();
        kind = (point ? "POINT LOOKUP" : "RANGE SCAN") + over + " " + bounds(b);
      } else {
        kind = "SKIP SCAN ON " + scan.keys().size() + " RANGES" + over;
      }
      List<String> hints = new ArrayList<>();
      if (!scan.cacheBlocks()) {
        hints.add("NO_CACHE");
      }
      if (scan.serial()) {
        hints.add("SERIAL");
      }
      String hinted = hints.isEmpty() ? "" : " (" + String.join(", ", hints) + ")";
      if (info == null) {
        return "SERVER " + kind + hinted;
      }
      StringBuilder head = new StringBuilder("CLIENT ");
      if (info.chunks() > 1) {
        head.append(
            info.parallelism() > 1 ? "PARALLEL " + info.parallelism() + "-WAY " : "SERIAL ");
      }
      head.append(info.chunks()).append("-CHUNK ").append(kind).append(hinted);
      List<String> estimates = new ArrayList<>();
      if (info.rows() >= 0) {
        estimates.add(String.format(Locale.ROOT, "%,d ROWS", info.rows()));
      }
      if (info.bytes() >= 0) {
        estimates.add(bytes(info.bytes()));
      }
      String estimate = estimates.isEmpty() ? "" : "EST " + String.join(", ", estimates);
      if (info.withoutParameters()) {
        estimate += (estimate.isEmpty() ? "" : "; ") + "CHUNKS WITHOUT PARAMETER VALUES";
      }
      if (!estimate.isEmpty()) {
        head.append(" (").append(estimate).append(')');
      }
      return head.toString();
    }

    /**
     * How a scan reads a local index: {@code SCAN INDEX I ON S.T (covered|lookup)} then {@code
     * RANGE [bounds]}, {@code SKIP n RANGES} or {@code FULL}.
     */
    private static String indexKind(IndexScan read, TableDescriptor table) {
      String head =
          "SCAN INDEX "
              + read.index().name()
              + " ON "
              + table.qualifiedName()
              + (read.covered() ? " (covered)" : " (lookup)");
      if (read.isFullScan()) {
        return head + " FULL";
      }
      if (read.keys().size() == 1) {
        return head + " RANGE " + bounds(read.keys().get(0));
      }
      return head + " SKIP " + read.keys().size() + " RANGES";
    }

    private static String bytes(long bytes) {
      String[] units = {"BYTES", "KB", "MB", "GB", "TB"};
      double value = bytes;
      int unit = 0;
      while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit++;
      }
      return unit == 0
          ? String.format(Locale.ROOT, "%,d BYTES", bytes)
          : String.format(Locale.ROOT, "%,.0f %s", value, units[unit]);
    }

    private static String bounds(KeyBounds b) {
      IntFunction<String> none = i -> "$" + i;
      List<String> prefix = new ArrayList<>();
      for (Expr e : b.equalPrefix()) {
        prefix.add(ExprPrinter.print(e, none));
      }
      if (b.lower().isEmpty() && b.upper().isEmpty()) {
        return prefix.toString();
      }
      String head = prefix.isEmpty() ? "" : String.join(",", prefix) + ",";
      String low =
          b.lower()
              .map(l -> (l.inclusive() ? "[" : "(") + head + ExprPrinter.print(l.value(), none))
              .orElse("[" + head + "*");
      String high =
          b.upper()
              .map(u -> head + ExprPrinter.print(u.value(), none) + (u.inclusive() ? "]" : ")"))
              .orElse(head + "*]");
      return low + " - " + high;
    }
  }
}
