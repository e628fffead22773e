package io.cairn.planner;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.sql.grammar.ClassifiedStatement;
import io.cairn.sql.grammar.StatementClassifier;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumSet;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Rejects statements nested too deeply before the expensive work on them: parentheses before
 * parsing (Calcite's parser recurses, and looks ahead, per level), counted by {@link
 * StatementClassifier} in its one walk over the statement's tokens, and the expressions' nesting in
 * the parse tree before validation (which recurses per level, and spent seconds on a few thousand
 * levels to fail in the end). Both limits are {@link RexToExpr#MAX_DEPTH}, the depth an expression
 * may have to run; past them STATEMENT_TOO_COMPLEX (54001) at once. The parse tree's walk is
 * iterative: it never exhausts a stack.
 */
final class StatementDepth {
  /**
   * Calls that do not count as a level: AND and OR chains are flattened when converted (2,000 ORed
   * terms run), queries and set operations nest queries, not expressions, and an alias adds none.
   */
  private static final Set<SqlKind> NOT_A_LEVEL =
      EnumSet.of(
          SqlKind.AND,
          SqlKind.OR,
          SqlKind.AS,
          SqlKind.SELECT,
          SqlKind.UNION,
          SqlKind.INTERSECT,
          SqlKind.EXCEPT,
          SqlKind.ORDER_BY,
          SqlKind.WITH,
          SqlKind.WITH_ITEM,
          SqlKind.JOIN,
          SqlKind.VALUES,
          SqlKind.INSERT,
          SqlKind.UPDATE,
          SqlKind.DELETE,
          SqlKind.MERGE,
          SqlKind.EXPLAIN);

  private StatementDepth() {}

  /**
   * Throws STATEMENT_TOO_COMPLEX when parentheses outside quotes and comments nest too deeply
   * before offset {@code limit} of {@code statement} (as {@link StatementClassifier} counted them).
   */
  static void checkParentheses(ClassifiedStatement statement, int limit) {
    if (statement.nestsDeeperThan(RexToExpr.MAX_DEPTH, limit)) {
      throw tooDeep("parentheses");
    }
  }

  /** Throws STATEMENT_TOO_COMPLEX when an expression of {@code statement} nests too deeply. */
  static void checkExpressions(SqlNode statement) {
    Deque<SqlNode> nodes = new ArrayDeque<>();
    Deque<Integer> depths = new ArrayDeque<>();
    nodes.push(statement);
    depths.push(0);
    while (!nodes.isEmpty()) {
      SqlNode node = nodes.pop();
      int depth = depths.pop();
      if (node instanceof SqlNodeList list) {
        for (SqlNode child : list) {
          if (child != null) {
            nodes.push(child);
            depths.push(depth);
          }
        }
      } else if (node instanceof SqlCall call) {
        int level = NOT_A_LEVEL.contains(call.getKind()) ? depth : depth + 1;
        if (level > RexToExpr.MAX_DEPTH) {
          throw tooDeep("expression");
        }
        for (SqlNode child : call.getOperandList()) {
          if (child != null) {
            nodes.push(child);
            depths.push(level);
          }
        }
      }
    }
  }

  private static CairnException tooDeep(String what) {
    return new CairnException(
        ErrorCode.STATEMENT_TOO_COMPLEX,
        "Statement too complex: "
            + what
            + " nested deeper than ["
            + RexToExpr.MAX_DEPTH
            + "] levels; split it or use IN lists, CASE or helper columns");
  }
}
