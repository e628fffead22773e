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

  /**
   * Hints this version honours. NO_CACHE: the SELECT's table scans read data blocks missing from
   * the block cache without adding them (it reaches the store through each scan). SERIAL: the scans
   * run their chunks one at a time in key order. On UPSERT ... SELECT, DELETE and UPDATE, both
   * apply to every scan of the statement ({@link #statementHints}).
   */
  static final Set<String> HONOURED = Set.of(NO_CACHE, SERIAL);

  /**
   * How Calcite hands hints down the plan: NO_CACHE and SERIAL on a SELECT reach the table scans of
   * that query block. Hints it does not know are reported by {@link #warnings}, not by Calcite.
   */
  static final HintStrategyTable STRATEGIES =
      HintStrategyTable.builder()
          .hintStrategy(NO_CACHE, HintPredicates.TABLE_SCAN)
          .hintStrategy(SERIAL, HintPredicates.TABLE_SCAN)
          .errorHandler(Litmus.IGNORE)
          .build();

  /** Hints Cairn knows that take effect with later releases (indexes, joins, parallel scans). */
  static final Set<String> LATER =
      Set.of(
          "INDEX",
          "NO_INDEX",
          "USE_SORT_MERGE_JOIN",
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
      if (HONOURED.contains(upper)) {
        honoured.add(upper);
      }
    }
    return Set.copyOf(honoured);
  }

  private static void check(String hint, List<String> warnings) {
    String name = hint.toUpperCase(Locale.ROOT);
    if (HONOURED.contains(name)) {
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
