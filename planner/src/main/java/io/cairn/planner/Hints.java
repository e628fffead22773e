package io.cairn.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.hint.HintPredicates;
import org.apache.calcite.rel.hint.HintStrategyTable;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlHint;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.util.Litmus;

/**
 * Checks the {@code /*+ ... *}{@code /} hints of a statement. A hint is never ignored silently (a
 * Phoenix sharp edge): a hint this version cannot act on, or does not know, yields a warning that
 * the driver attaches to the statement as an SQLWarning.
 */
final class Hints {
  static final String NO_CACHE = "NO_CACHE";
  static final String SERIAL = "SERIAL";
  static final String INDEX = "INDEX";
  static final String NO_INDEX = "NO_INDEX";

  /** The query block's joins run on the client, not probed in the store (docs/sql.md, Joins). */
  static final String NO_SERVER_JOIN = "NO_SERVER_JOIN";

  /** The query block's equi-joins run as sort-merge joins in the driver (docs/sql.md, Joins). */
  static final String USE_SORT_MERGE_JOIN = "USE_SORT_MERGE_JOIN";

  /**
   * BROADCAST(table ...): an inner equi-join of the query block with a named table (by name or
   * alias) on one side and none on the other builds its hash table on that side (docs/sql.md,
   * Joins).
   */
  static final String BROADCAST = "BROADCAST";

  /**
   * Hints this version honours. NO_CACHE: the SELECT's table scans read data blocks missing from
   * the block cache without adding them (it reaches the store through each scan). SERIAL: the scans
   * run their chunks one at a time in key order. On UPSERT ... SELECT, DELETE and UPDATE, both
   * apply to every scan of the statement ({@link #statementHints}). INDEX(table index ...): the
   * scans of that table (by name or alias) in the query block read the cheapest of the named
   * indexes; NO_INDEX: the scans read no index (also as a DML statement's hint). NO_SERVER_JOIN,
   * USE_SORT_MERGE_JOIN and BROADCAST choose how the query block's joins run.
   */
  static final Set<String> HONOURED =
      Set.of(NO_CACHE, SERIAL, INDEX, NO_INDEX, NO_SERVER_JOIN, USE_SORT_MERGE_JOIN, BROADCAST);

  /**
   * How Calcite hands hints down the plan: NO_CACHE, SERIAL, INDEX and NO_INDEX on a SELECT reach
   * the table scans of that query block. Hints it does not know are reported by {@link #warnings},
   * not by Calcite.
   */
  static final HintStrategyTable STRATEGIES =
      HintStrategyTable.builder()
          .hintStrategy(NO_CACHE, HintPredicates.TABLE_SCAN)
          .hintStrategy(SERIAL, HintPredicates.TABLE_SCAN)
          .hintStrategy(INDEX, HintPredicates.TABLE_SCAN)
          .hintStrategy(NO_INDEX, HintPredicates.TABLE_SCAN)
          .hintStrategy(NO_SERVER_JOIN, HintPredicates.TABLE_SCAN)
          .hintStrategy(USE_SORT_MERGE_JOIN, HintPredicates.TABLE_SCAN)
          .hintStrategy(BROADCAST, HintPredicates.TABLE_SCAN)
          .errorHandler(Litmus.IGNORE)
          .build();

  /** Hints Cairn knows that take effect with later releases (joins, parallel scans). */
  static final Set<String> LATER =
      Set.of(
          "NO_STAR_JOIN",
          "SMALL",
          "RANGE_SCAN",
          "SKIP_SCAN",
          "NO_CHILD_PARENT_JOIN_OPTIMIZATION",
          "USE_PERSISTENT_CACHE");

  private Hints() {}

  static List<String> warnings(SqlNode statement) {
    List<String> warnings = new ArrayList<>();
    statement.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlCall call) {
            if (call instanceof SqlSelect select && select.hasHints()) {
              for (SqlNode node : select.getHints()) {
                check(((SqlHint) node).getName(), warnings);
              }
            }
            return super.visit(call);
          }
        });
    return warnings;
  }

  /**
   * Checks the hints of a DML statement's own hint comment ({@code UPSERT /*+ SERIAL *}{@code /
   * INTO ...}, {@code DELETE /*+ NO_CACHE *}{@code / FROM ...}) and returns the honoured ones,
   * upper case: they apply to every table scan of the statement.
   */
  static Set<String> statementHints(List<String> names, List<String> warnings) {
    Set<String> honoured = new java.util.HashSet<>();
    for (String name : names) {
      check(name, warnings);
      String upper = name.toUpperCase(Locale.ROOT);
      if (upper.equals(INDEX)) {
        warnings.add(
            "Hint [INDEX] in a DML statement's hint has no effect: give INDEX(table index) on the"
                + " SELECT that reads the table");
        continue;
      }
      if (HONOURED.contains(upper)) {
        honoured.add(upper);
      }
    }
    return Set.copyOf(honoured);
  }

  /**
   * The aliases of the statement's tables ({@code FROM LINEITEM L}: L to LINEITEM), upper case, so
   * that INDEX(L idx) names its table by alias as Phoenix allows. An alias used for two tables maps
   * to neither.
   */
  static java.util.Map<String, String> aliases(SqlNode statement) {
    java.util.Map<String, String> aliases = new java.util.HashMap<>();
    Set<String> ambiguous = new java.util.HashSet<>();
    statement.accept(
        new SqlBasicVisitor<Void>() {
          @Override
          public Void visit(SqlCall call) {
            if (call instanceof SqlSelect select && select.getFrom() != null) {
              from(select.getFrom(), aliases, ambiguous);
            }
            return super.visit(call);
          }
        });
    ambiguous.forEach(aliases::remove);
    return aliases;
  }

  private static void from(
      SqlNode from, java.util.Map<String, String> aliases, Set<String> ambiguous) {
    if (from instanceof org.apache.calcite.sql.SqlJoin join) {
      from(join.getLeft(), aliases, ambiguous);
      from(join.getRight(), aliases, ambiguous);
    } else if (from instanceof SqlCall call
        && call.getKind() == org.apache.calcite.sql.SqlKind.AS
        && call.operandCount() >= 2
        && call.operand(0) instanceof org.apache.calcite.sql.SqlIdentifier table
        && call.operand(1) instanceof org.apache.calcite.sql.SqlIdentifier alias) {
      String name = table.names.get(table.names.size() - 1);
      String previous = aliases.put(alias.getSimple(), name);
      if (previous != null && !previous.equals(name)) {
        ambiguous.add(alias.getSimple());
      }
    }
  }

  private static void check(String hint, List<String> warnings) {
    String name = hint.toUpperCase(Locale.ROOT);
    if (HONOURED.contains(name)) {
      return;
    }
    if (name.equals("NO_STAR_JOIN")) {
      warnings.add(
          "Hint [NO_STAR_JOIN] changes nothing: a Cairn scan probes one build side (a table joined"
              + " to several others probes them one join at a time, never as a star join)");
      return;
    }
    if (LATER.contains(name)) {
      warnings.add("Hint [" + name + "] has no effect in this version of Cairn");
      return;
    }
    List<String> known = new ArrayList<>(HONOURED);
    known.addAll(LATER);
    known.sort(null);
    warnings.add("Unknown hint [" + hint + "] ignored: expected one of " + known);
  }
}
