package io.cairn.planner;

import static java.util.Objects.requireNonNull;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.sql.grammar.ClassifiedStatement;
import io.cairn.sql.grammar.StatementClassifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Phoenix's {@code UPSERT INTO t (columns) VALUES (...) ON DUPLICATE KEY UPDATE column = expression
 * [, ...]} and {@code ... ON DUPLICATE KEY IGNORE}, which Calcite's grammar lacks: {@link
 * StatementClassifier} finds the clause at the end of the statement (outside literals, quoted
 * names, comments and parentheses) and {@link #strip} blanks it, so Calcite plans the UPSERT alone
 * with its error positions right; the assignments are parsed as those of an UPDATE and planned as
 * expressions over the table's row ({@link ExpressionPlanner}).
 *
 * <p>Only UPSERT ... VALUES takes the clause (as in Phoenix): INSERT and UPSERT ... SELECT fail
 * with NOT_SUPPORTED (0A000), and so does a table without a primary key (it has no duplicate keys).
 * A primary-key column cannot be assigned, nor a column twice.
 */
final class OnDuplicateKeyClause {
  /**
   * The clause found in a statement.
   *
   * @param statement the statement with the clause blanked out
   * @param start where the clause starts
   * @param ignore ON DUPLICATE KEY IGNORE
   * @param assignments for UPDATE, the text of the assignments: the statement with everything
   *     before them blanked (so positions in errors are the statement's)
   */
  record Found(String statement, int start, boolean ignore, String assignments) {
    Found {
      requireNonNull(statement, "statement is null");
      requireNonNull(assignments, "assignments is null");
    }
  }

  /** Plans expressions over a table's row. */
  interface ExpressionPlanner {
    /**
     * {@code expressions} as Cairn expressions over {@code table}'s columns (column references are
     * table column indexes), validated as a {@code SELECT} of them from the table, each assignable
     * to the column of {@code table} at the same position of {@code columns}; their parameters are
     * numbered from 0 in order, with their types appended to {@code parameterTypes}.
     */
    List<Expr> plan(
        TableDescriptor table,
        List<Integer> columns,
        List<SqlNode> expressions,
        List<DataType> parameterTypes);
  }

  private OnDuplicateKeyClause() {}

  /**
   * The clause {@link StatementClassifier} found in {@code statement} ({@link
   * ClassifiedStatement#onDuplicateKey}) blanked out of {@code text}, the statement's text or a
   * copy of it of the same length (its statement hint blanked); null when there is none.
   *
   * @throws CairnException SYNTAX_ERROR when neither UPDATE nor IGNORE follows ON DUPLICATE KEY, or
   *     something follows IGNORE
   */
  static Found strip(String text, ClassifiedStatement statement) {
    ClassifiedStatement.OnDuplicateKey clause = statement.onDuplicateKey().orElse(null);
    if (clause == null) {
      return null;
    }
    int start = clause.start();
    String blanked = text.substring(0, start) + blank(text.substring(start));
    switch (clause.action()) {
      case IGNORE -> {
        int end = clause.actionEnd();
        if (end < text.length()) {
          throw new CairnException(
              ErrorCode.SYNTAX_ERROR,
              "Syntax error after ON DUPLICATE KEY IGNORE: expected the end of the statement,"
                  + " found ["
                  + text.substring(end)
                  + "]");
        }
        return new Found(blanked, start, true, "");
      }
      case UPDATE -> {
        int from = clause.actionEnd();
        return new Found(
            blanked, start, false, blank(text.substring(0, from)) + text.substring(from));
      }
      default -> {
        int i = clause.actionStart();
        throw new CairnException(
            ErrorCode.SYNTAX_ERROR,
            "Syntax error after ON DUPLICATE KEY: expected [UPDATE] or [IGNORE], found ["
                + (i < text.length() ? text.substring(i) : "the end of the statement")
                + "]");
      }
    }
  }

  /**
   * {@code upsert} with the clause: checks where it may be ({@code valuesSource}: the UPSERT's
   * source is VALUES), parses the assignments and plans them over the table.
   */
  static StatementPlan.Upsert apply(
      StatementPlan.Upsert upsert,
      boolean valuesSource,
      Found found,
      SqlParser.Config parserConfig,
      ExpressionPlanner planner) {
    TableDescriptor table = upsert.table();
    if (upsert.insert()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "ON DUPLICATE KEY is not supported with INSERT (which fails on a duplicate key): use"
              + " UPSERT INTO ... VALUES ... ON DUPLICATE KEY");
    }
    if (!valuesSource) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "ON DUPLICATE KEY is supported with UPSERT ... VALUES only, as in Phoenix: found an"
              + " UPSERT ... SELECT into ["
              + table.qualifiedName()
              + "]");
    }
    if (table.hiddenRowId()) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "ON DUPLICATE KEY needs a primary key: table ["
              + table.qualifiedName()
              + "] has none, so its rows never have duplicate keys");
    }
    if (found.ignore()) {
      return withClause(upsert, StatementPlan.OnDuplicateKey.IGNORE, List.of());
    }
    SqlUpdate update = parseAssignments(found.assignments(), parserConfig);
    List<Integer> columns = new ArrayList<>();
    for (SqlNode target : update.getTargetColumnList()) {
      SqlIdentifier id = (SqlIdentifier) target;
      String name = id.names.get(id.names.size() - 1);
      int column =
          table
              .columnIndex(name)
              .orElseThrow(
                  () ->
                      new CairnException(
                          ErrorCode.COLUMN_NOT_FOUND,
                          "ON DUPLICATE KEY UPDATE: column ["
                              + name
                              + "] not found in ["
                              + table.qualifiedName()
                              + "]"));
      if (table.isPrimaryKeyColumn(column)) {
        throw new CairnException(
            ErrorCode.NOT_SUPPORTED,
            "ON DUPLICATE KEY UPDATE cannot change primary key column ["
                + name
                + "] of ["
                + table.qualifiedName()
                + "]: the row would move to another key");
      }
      if (columns.contains(column)) {
        throw new CairnException(
            ErrorCode.VALIDATION_ERROR,
            "ON DUPLICATE KEY UPDATE: column [" + name + "] is assigned more than once");
      }
      columns.add(column);
    }
    List<DataType> parameterTypes = new ArrayList<>();
    List<Expr> values =
        planner.plan(table, columns, update.getSourceExpressionList(), parameterTypes);
    int shift = upsert.parameterTypes().size();
    List<StatementPlan.OnDuplicateKey.Assignment> assignments = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      assignments.add(
          new StatementPlan.OnDuplicateKey.Assignment(
              columns.get(i), shiftParameters(values.get(i), shift)));
    }
    return withClause(upsert, new StatementPlan.OnDuplicateKey(false, assignments), parameterTypes);
  }

  private static StatementPlan.Upsert withClause(
      StatementPlan.Upsert upsert,
      StatementPlan.OnDuplicateKey clause,
      List<DataType> moreParameters) {
    List<DataType> parameters = new ArrayList<>(upsert.parameterTypes());
    parameters.addAll(moreParameters);
    return new StatementPlan.Upsert(
        upsert.table(),
        upsert.source(),
        upsert.targetColumns(),
        false,
        parameters,
        Optional.of(clause),
        false);
  }

  /** The assignments as those of {@code UPDATE X SET assignments} (X is never looked at). */
  private static SqlUpdate parseAssignments(String assignments, SqlParser.Config config) {
    String head = "UPDATE X SET ";
    int firstLine = assignments.indexOf('\n');
    String text =
        assignments.length() > head.length()
                && (firstLine < 0 || firstLine >= head.length())
                && assignments.substring(0, head.length()).isBlank()
            ? head + assignments.substring(head.length())
            : head + assignments;
    try {
      SqlNode parsed = SqlParser.create(text, config).parseStmt();
      if (!(parsed instanceof SqlUpdate update) || update.getCondition() != null) {
        throw new CairnException(
            ErrorCode.SYNTAX_ERROR,
            "Syntax error in ON DUPLICATE KEY UPDATE: expected column = expression [, ...], found ["
                + assignments.strip()
                + "]");
      }
      return update;
    } catch (SqlParseException e) {
      throw Errors.syntax(e, text);
    }
  }

  /** {@code expr} with every parameter index moved up by {@code shift}. */
  static Expr shiftParameters(Expr expr, int shift) {
    if (shift == 0) {
      return expr;
    }
    if (expr instanceof Expr.Param p) {
      return new Expr.Param(p.index() + shift, p.type());
    }
    if (expr instanceof Expr.Call call) {
      List<Expr> operands = new ArrayList<>(call.operands().size());
      for (Expr operand : call.operands()) {
        operands.add(shiftParameters(operand, shift));
      }
      return new Expr.Call(call.op(), operands, call.type());
    }
    return expr;
  }

  private static String blank(String text) {
    StringBuilder b = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      b.append(c == '\n' || c == '\r' ? c : ' ');
    }
    return b.toString();
  }
}
