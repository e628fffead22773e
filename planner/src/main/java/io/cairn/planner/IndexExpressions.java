package io.cairn.planner;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.SystemViews;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.KeyEncoding;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.Op;
import io.cairn.planner.plan.AggregateNode;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.ProjectNode;
import io.cairn.planner.plan.ScanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.sql.grammar.StatementClassifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlNameMatchers;

/**
 * The key parts of CREATE INDEX as expressions over the table's row: a plain column becomes a
 * column reference of the column's type; any other part is planned as the query {@code SELECT
 * (part) FROM table} (over a copy of the table without its indexes, so that no index serves it) and
 * taken from the plan's projection, so that it is the very expression a query with the same text
 * plans to, which is what lets the planner match a query's expression with an index's. Parts must
 * depend on the row alone: no parameters, aggregates, window functions, subqueries or functions
 * whose value changes (RAND, CURRENT_TIMESTAMP, ...), at least one column, and a type that can be
 * part of a key.
 */
final class IndexExpressions implements DdlTranslator.RowExpressions {
  private final AtomicBoolean cancel;

  IndexExpressions(AtomicBoolean cancel) {
    this.cancel = cancel;
  }

  @Override
  public Expr compile(TableDescriptor table, String source, String what) {
    SqlNode parsed;
    try {
      parsed = SqlParser.create(source, CairnPlanner.PARSER_CONFIG).parseExpression();
    } catch (SqlParseException e) {
      CairnException error = Errors.syntax(e, source);
      throw new CairnException(error.errorCode(), what + ": " + error.getMessage(), e);
    }
    String refused = refused(parsed);
    if (refused != null) {
      throw new CairnException(
          ErrorCode.VALIDATION_ERROR,
          what + ": expected an expression over the table's row, found " + refused);
    }
    Expr expr;
    if (parsed instanceof SqlIdentifier identifier
        && identifier.isSimple()
        && table.columnIndex(identifier.getSimple()).isPresent()) {
      int column = table.columnIndex(identifier.getSimple()).orElseThrow();
      expr = new Expr.ColumnRef(column, table.columns().get(column).type());
    } else if (parsed instanceof SqlIdentifier identifier
        && identifier.isSimple()
        && functions(identifier).isEmpty()) {
      throw new CairnException(
          ErrorCode.COLUMN_NOT_FOUND,
          what
              + ": expected a column of table ["
              + table.qualifiedName()
              + "], found ["
              + identifier.getSimple()
              + "], which it does not have");
    } else {
      expr = planned(table, source, what);
      if (expr instanceof Expr.ColumnRef ref) {
        // a column written another way (T.NAME): the column, typed as the table declares it
        expr = new Expr.ColumnRef(ref.index(), table.columns().get(ref.index()).type());
      }
    }
    check(expr, what);
    return expr;
  }

  /** The part planned as {@code SELECT (source) FROM table}, over the table without indexes. */
  private Expr planned(TableDescriptor table, String source, String what) {
    TableDescriptor alone = table.withIndexes(List.of());
    List<String> schemas = List.of(Catalog.DEFAULT_SCHEMA, SystemViews.SCHEMA, table.schemaName());
    var schema =
        CairnCalciteSchema.create(List.of(alone), schemas.stream().distinct().toList(), t -> -1);
    String select =
        "SELECT ("
            + source
            + "\n) FROM "
            + quoted(table.schemaName())
            + "."
            + quoted(table.tableName());
    StatementPlan plan;
    try {
      plan =
          new QueryPlanner(schema, new CairnPlanner.Uses(), cancel)
              .plan(StatementClassifier.classify(select), new ArrayList<>());
    } catch (CairnException e) {
      if (e.errorCode() == ErrorCode.QUERY_CANCELED) {
        throw e;
      }
      throw new CairnException(e.errorCode(), what + ": " + e.getMessage(), e);
    }
    if (!(plan instanceof StatementPlan.Query query)) {
      throw CairnException.internal(what + ": expected a query plan, found " + plan);
    }
    return rowExpression(query.root())
        .orElseThrow(
            () ->
                new CairnException(
                    ErrorCode.VALIDATION_ERROR,
                    what
                        + ": expected an expression over the table's row, found one that "
                        + (contains(query.root(), AggregateNode.class)
                            ? "aggregates rows"
                            : "does not compute per row")));
  }

  /** The projection of a plain scan, or of a projection over one, as an expression of the row. */
  private static Optional<Expr> rowExpression(PlanNode root) {
    if (root instanceof ScanNode scan && plain(scan) && scan.projection().size() == 1) {
      return Optional.of(scan.projection().get(0));
    }
    if (root instanceof ProjectNode project
        && project.expressions().size() == 1
        && project.input() instanceof ScanNode scan
        && plain(scan)) {
      return Optional.of(substitute(project.expressions().get(0), scan.projection()));
    }
    return Optional.empty();
  }

  private static boolean plain(ScanNode scan) {
    return scan.filter().isEmpty()
        && scan.keys().isEmpty()
        && !scan.hasAggregates()
        && scan.limit() < 0
        && scan.offset() == 0
        && scan.orderBy().isEmpty();
  }

  /** {@code expr} with each input reference replaced by that input's expression. */
  private static Expr substitute(Expr expr, List<Expr> inputs) {
    if (expr instanceof Expr.ColumnRef ref) {
      return inputs.get(ref.index());
    }
    if (expr instanceof Expr.Call call) {
      List<Expr> operands = new ArrayList<>(call.operands().size());
      for (Expr operand : call.operands()) {
        operands.add(substitute(operand, inputs));
      }
      return new Expr.Call(call.op(), operands, call.type());
    }
    return expr;
  }

  private static boolean contains(PlanNode node, Class<? extends PlanNode> type) {
    if (type.isInstance(node) || (node instanceof ScanNode scan && scan.hasAggregates())) {
      return true;
    }
    for (PlanNode input : node.inputs()) {
      if (contains(input, type)) {
        return true;
      }
    }
    return false;
  }

  /** The checks on the compiled part: of the row, deterministic, a key type, evaluable. */
  private static void check(Expr expr, String what) {
    if (!readsColumn(expr)) {
      throw new CairnException(
          ErrorCode.VALIDATION_ERROR,
          what + ": expected an expression over the table's columns, found a constant");
    }
    String changing = changing(expr);
    if (changing != null) {
      throw new CairnException(
          ErrorCode.VALIDATION_ERROR,
          what
              + ": expected a deterministic expression (its value a function of the row), found ["
              + changing
              + "]");
    }
    if (!KeyEncoding.isKeyType(expr.type().name())) {
      throw new CairnException(
          ErrorCode.INVALID_TABLE_DEFINITION,
          what
              + ": expected a type that can be part of a key (not an interval or NULL), found ["
              + expr.type().sql()
              + "]");
    }
    ExprCompiler.compile(expr); // fails now rather than in the store's build
  }

  private static boolean readsColumn(Expr expr) {
    if (expr instanceof Expr.ColumnRef) {
      return true;
    }
    if (expr instanceof Expr.Call call) {
      for (Expr operand : call.operands()) {
        if (readsColumn(operand)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The first function in {@code expr} whose value changes over time, or null. */
  private static String changing(Expr expr) {
    if (expr instanceof Expr.Call call) {
      if (call.op() == Op.CURRENT_DATE
          || call.op() == Op.CURRENT_TIME
          || call.op() == Op.CURRENT_TIMESTAMP
          || call.op() == Op.LOCALTIMESTAMP) {
        return call.op().name();
      }
      for (Expr operand : call.operands()) {
        String found = changing(operand);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /**
   * What in the parsed part an index cannot have, described for a message, or null: a parameter, a
   * subquery, a window function, an aggregate, a function whose value changes (by Calcite's
   * operators: RAND, CURRENT_TIMESTAMP, ...).
   */
  private static String refused(SqlNode node) {
    if (node == null) {
      return null;
    }
    if (node instanceof SqlDynamicParam) {
      return "a parameter [?] (DDL takes no parameters)";
    }
    if (node instanceof SqlSelect || node.getKind().belongsTo(SqlKind.QUERY)) {
      return "a subquery";
    }
    if (node.getKind() == SqlKind.OVER) {
      return "a window function";
    }
    if (node instanceof SqlIdentifier identifier && identifier.isSimple()) {
      // CURRENT_TIMESTAMP and the like parse as names; the validator finds them functions
      for (SqlOperator function : functions(identifier)) {
        if (!function.isDeterministic() || function.isDynamicFunction()) {
          return "["
              + function.getName()
              + "], whose value changes (expected a deterministic function of the row)";
        }
      }
      return null;
    }
    if (node instanceof SqlNodeList list) {
      for (SqlNode item : list) {
        String found = refused(item);
        if (found != null) {
          return found;
        }
      }
      return null;
    }
    if (node instanceof SqlCall call) {
      for (SqlOperator operator : candidates(call.getOperator())) {
        if (operator.isAggregator()) {
          return "an aggregate function [" + operator.getName() + "]";
        }
        if (!operator.isDeterministic() || operator.isDynamicFunction()) {
          return "["
              + operator.getName()
              + "], whose value changes (expected a deterministic function of the row)";
        }
      }
      for (SqlNode operand : call.getOperandList()) {
        String found = refused(operand);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /** The functions called without parentheses that {@code name} stands for (CURRENT_DATE, ...). */
  private static List<SqlOperator> functions(SqlIdentifier name) {
    List<SqlOperator> functions = new ArrayList<>();
    SqlStdOperatorTable.instance()
        .lookupOperatorOverloads(
            name, null, SqlSyntax.FUNCTION_ID, functions, SqlNameMatchers.withCaseSensitive(false));
    return functions;
  }

  /** The operator, or those a function name not yet resolved stands for. */
  private static List<SqlOperator> candidates(SqlOperator operator) {
    List<SqlOperator> candidates = new ArrayList<>();
    if (operator instanceof SqlUnresolvedFunction unresolved) {
      SqlStdOperatorTable.instance()
          .lookupOperatorOverloads(
              unresolved.getNameAsId(),
              null,
              SqlSyntax.FUNCTION,
              candidates,
              SqlNameMatchers.withCaseSensitive(false));
    } else {
      candidates.add(operator);
    }
    return candidates;
  }

  private static String quoted(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
