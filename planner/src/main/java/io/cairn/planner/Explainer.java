package io.cairn.planner;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.expr.Expr;
import io.cairn.planner.plan.AggregateNode;
import io.cairn.planner.plan.FilterNode;
import io.cairn.planner.plan.JoinNode;
import io.cairn.planner.plan.KeyBounds;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ProjectNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.SetOpNode;
import io.cairn.planner.plan.SortNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.planner.plan.ValuesNode;
import io.cairn.planner.plan.WindowNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Prints a physical plan, one line per operator, outermost first, in the spirit of Phoenix's
 * EXPLAIN: {@code SERVER} lines run inside the store's scanner, {@code CLIENT} lines in the driver.
 */
public final class Explainer {
  private Explainer() {}

  public static List<String> explain(StatementPlan plan) {
    List<String> lines = new ArrayList<>();
    if (plan instanceof StatementPlan.Query q) {
      node(q.root(), 0, lines);
    } else if (plan instanceof StatementPlan.Upsert u) {
      lines.add(
          (u.insert() ? "INSERT INTO " : "UPSERT INTO ")
              + u.table().qualifiedName()
              + (u.targetsAllColumns() ? "" : " " + columnNames(u.table(), u.targetColumns())));
      node(u.source(), 1, lines);
    } else if (plan instanceof StatementPlan.Delete d) {
      lines.add("DELETE FROM " + d.table().qualifiedName());
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
    return lines;
  }

  private static String columnNames(TableDescriptor table, List<Integer> columns) {
    List<String> names = new ArrayList<>();
    for (int c : columns) {
      names.add(table.columns().get(c).name());
    }
    return "(" + String.join(", ", names) + ")";
  }

  private static void line(List<String> lines, int depth, String text) {
    lines.add("    ".repeat(depth) + text);
  }

  private static void node(PlanNode node, int depth, List<String> lines) {
    IntFunction<String> positional = i -> "$" + i;
    if (node instanceof ScanNode scan) {
      scan(scan, depth, lines);
      return;
    }
    if (node instanceof FilterNode f) {
      line(lines, depth, "CLIENT FILTER BY " + ExprPrinter.print(f.condition(), positional));
    } else if (node instanceof ProjectNode p) {
      line(lines, depth, "CLIENT PROJECT " + ExprPrinter.printAll(p.expressions(), positional));
    } else if (node instanceof AggregateNode a && a.step() == AggregateNode.Step.FINAL) {
      line(lines, depth, "CLIENT MERGE AGGREGATE INTO SINGLE ROW");
    } else if (node instanceof AggregateNode a) {
      List<String> calls = new ArrayList<>();
      for (AggregateCall c : a.calls()) {
        calls.add(ExprPrinter.aggregate(c, positional));
      }
      String groups =
          a.groupKeys().isEmpty()
              ? "INTO SINGLE ROW"
              : "GROUP BY " + String.join(", ", a.groupKeys().stream().map(i -> "$" + i).toList());
      line(lines, depth, "CLIENT AGGREGATE " + groups + " COMPUTE " + String.join(", ", calls));
    } else if (node instanceof SortNode s) {
      StringBuilder text = new StringBuilder();
      if (!s.keys().isEmpty()) {
        List<String> keys = new ArrayList<>();
        for (SortNode.SortKey k : s.keys()) {
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
      String method = j.leftKeys().isEmpty() ? "NESTED LOOP" : "HASH";
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
      line(lines, depth, text.toString());
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

  private static void scan(ScanNode scan, int depth, List<String> lines) {
    TableDescriptor table = scan.table();
    IntFunction<String> names =
        i -> i < table.columns().size() ? table.columns().get(i).name() : "ROW_KEY";
    String over = " OVER " + table.qualifiedName();
    String head;
    if (scan.isFullScan()) {
      head = "SERVER FULL SCAN" + over;
    } else if (scan.keys().size() == 1) {
      KeyBounds b = scan.keys().get(0);
      boolean point =
          b.lower().isEmpty()
              && b.upper().isEmpty()
              && b.equalPrefix().size() == table.primaryKey().size();
      head = (point ? "SERVER POINT LOOKUP" : "SERVER RANGE SCAN") + over + " " + bounds(b);
    } else {
      head = "SERVER SKIP SCAN ON " + scan.keys().size() + " RANGES" + over;
    }
    if (!scan.cacheBlocks()) {
      head += " (NO_CACHE)";
    }
    line(lines, depth, head);
    scan.filter()
        .ifPresent(f -> line(lines, depth + 1, "SERVER FILTER BY " + ExprPrinter.print(f, names)));
    if (scan.hasAggregates()) {
      // the projection only feeds the calls: print their arguments in place
      IntFunction<String> arguments = i -> ExprPrinter.print(scan.projection().get(i), names);
      List<String> calls = new ArrayList<>();
      for (AggregateCall c : scan.aggregates()) {
        calls.add(ExprPrinter.aggregate(c, arguments));
      }
      line(
          lines, depth + 1, "SERVER AGGREGATE INTO SINGLE ROW COMPUTE " + String.join(", ", calls));
      return;
    }
    line(lines, depth + 1, "SERVER PROJECT " + ExprPrinter.printAll(scan.projection(), names));
    if (scan.limit() >= 0) {
      line(lines, depth + 1, "SERVER " + scan.limit() + " ROW LIMIT");
    }
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
