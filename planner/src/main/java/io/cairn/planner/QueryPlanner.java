package io.cairn.planner;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.ExprCompiler;
import io.cairn.core.expr.Values;
import io.cairn.core.type.DataType;
import io.cairn.planner.plan.PlanNode;
import io.cairn.planner.plan.StatementPlan;
import io.cairn.sql.grammar.ClassifiedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.metadata.ProxyingMetadataHandlerProvider;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorImpl;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.implicit.AbstractTypeCoercion;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * The planning of one query or DML statement through Calcite: parse, validate against the catalog's
 * Calcite schema and convert to relational algebra here; the rule phases in {@link
 * LogicalOptimizer} (subqueries, decorrelation, trimming, filter pushdown, join order); then the
 * physical plan ({@link PhysicalPlanner}, and {@link DmlTranslator} for a table modification). Also
 * evaluates constant expressions (SPLIT ON points) and plans ON DUPLICATE KEY UPDATE's expressions.
 * One instance per statement, used by one thread; {@link CairnPlanner} is the facade that
 * classifies the text and caches plans.
 */
final class QueryPlanner {
  private static final SqlOperatorTable OPERATORS =
      SqlOperatorTables.chain(
          SqlStdOperatorTable.instance(),
          SqlOperatorTables.of(
              SqlLibraryOperators.LPAD,
              SqlLibraryOperators.RPAD,
              SqlLibraryOperators.LEFT,
              SqlLibraryOperators.RIGHT,
              SqlLibraryOperators.REPEAT,
              SqlLibraryOperators.REVERSE,
              SqlLibraryOperators.GREATEST,
              SqlLibraryOperators.LEAST,
              SqlLibraryOperators.LTRIM,
              SqlLibraryOperators.RTRIM,
              SqlLibraryOperators.CONCAT_FUNCTION,
              SqlLibraryOperators.LENGTH,
              SqlLibraryOperators.BOOL_AND,
              SqlLibraryOperators.BOOL_OR));

  private final JavaTypeFactoryImpl typeFactory = new JavaTypeFactoryImpl(CairnTypeSystem.INSTANCE);
  private final CalciteCatalogReader reader;
  private final SqlValidator validator;
  private final RelOptCluster cluster;
  private final CairnPlanner.Uses uses;
  private final AtomicBoolean cancel;

  QueryPlanner(CalciteSchema schema, CairnPlanner.Uses uses, AtomicBoolean cancel) {
    this.uses = uses;
    this.cancel = cancel;
    Properties properties = new Properties();
    properties.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
    properties.setProperty(CalciteConnectionProperty.UNQUOTED_CASING.camelName(), "TO_UPPER");
    properties.setProperty(CalciteConnectionProperty.QUOTED_CASING.camelName(), "UNCHANGED");
    reader =
        new CalciteCatalogReader(
            schema,
            List.of(Catalog.DEFAULT_SCHEMA),
            typeFactory,
            new CalciteConnectionConfigImpl(properties));
    validator =
        new CairnValidator(
            OPERATORS,
            reader,
            typeFactory,
            SqlValidator.Config.DEFAULT
                .withConformance(SqlConformanceEnum.LENIENT)
                .withDefaultNullCollation(NullCollation.LOW)
                .withIdentifierExpansion(true)
                // No rewriting of COALESCE/NULLIF into CASE: each level would copy its first
                // operand, so nested COALESCE grew exponentially (2^20 nodes at 20 levels).
                // RexToExpr runs COALESCE and NULLIF directly.
                .withCallRewrite(false),
            cancel);
    RexBuilder rexBuilder = new CairnRexBuilder(typeFactory);
    HepPlanner planner = new HepPlanner(LogicalOptimizer.subqueryProgram());
    planner.setExecutor(new CairnRexExecutor());
    cluster = RelOptCluster.create(planner, rexBuilder);
    cluster.setMetadataQuerySupplier(
        () -> new RelMetadataQuery(new ProxyingMetadataHandlerProvider(Cardinalities.PROVIDER)));
  }

  StatementPlan plan(ClassifiedStatement statement, List<String> warnings) {
    String text = statement.text();
    Set<String> statementHints = Set.of();
    var hint = statement.statementHint();
    if (hint.isPresent()) {
      int start = hint.get().start();
      int end = hint.get().end();
      // blanked, so error positions stay right
      text = text.substring(0, start) + " ".repeat(end - start) + text.substring(end);
      statementHints = Hints.statementHints(hint.get().names(), warnings);
    }
    int rewritable = text.length();
    OnDuplicateKeyClause.Found onDuplicateKey = OnDuplicateKeyClause.strip(text, statement);
    if (onDuplicateKey != null) {
      text = onDuplicateKey.statement();
      rewritable = onDuplicateKey.start();
    }
    StatementDepth.checkParentheses(statement, rewritable);
    SqlNode parsed = parse(text, statement.rewritten(text, rewritable));
    PlanningThreads.check(cancel);
    rejectDynamicColumns(parsed);
    warnings.addAll(Hints.warnings(parsed));
    SqlNode validated;
    if (parsed instanceof SqlInsert insert) {
      Assignments.checkLiterals(insert, reader);
    }
    try {
      validated = validator.validate(parsed);
    } catch (CalciteContextException e) {
      throw Errors.validation(e);
    }
    PlanningThreads.check(cancel);
    List<DataType> parameterTypes = new ArrayList<>();
    for (RelDataTypeField f : validator.getParameterRowType(validated).getFieldList()) {
      parameterTypes.add(Types.toDataType(f.getType()));
    }
    SqlToRelConverter converter =
        converter(
            SqlToRelConverter.config()
                .withExpand(false)
                .withHintStrategyTable(Hints.STRATEGIES)
                .withInSubQueryThreshold(Integer.MAX_VALUE)
                .withTrimUnusedFields(false));
    RelRoot root = converter.convertQuery(validated, false, true);
    PlanningThreads.check(cancel);
    RelNode rel = new LogicalOptimizer(cluster, reader, validator, cancel).optimize(root.rel);
    PlanningThreads.check(cancel);
    for (RelOptTable table : RelOptUtil.findAllTables(rel)) {
      uses.read.add(PhysicalPlanner.descriptor(table));
    }
    PhysicalPlanner physical =
        new PhysicalPlanner(
            cluster.getRexBuilder(), statementHints, warnings, Hints.aliases(parsed));
    SqlKind kind = validated.getKind();
    if (rel instanceof TableModify modify) {
      StatementPlan plan =
          DmlTranslator.translate(modify, validated, physical, parameterTypes, uses);
      physical.finishHints();
      return onDuplicateKey == null
          ? plan
          : OnDuplicateKeyClause.apply(
              (StatementPlan.Upsert) plan,
              ((SqlInsert) parsed).getSource().getKind() == SqlKind.VALUES,
              onDuplicateKey,
              CairnPlanner.PARSER_CONFIG,
              this::rowExpressions);
    }
    if (kind == SqlKind.INSERT || kind == SqlKind.DELETE || kind == SqlKind.UPDATE) {
      throw CairnException.internal("Expected a table modification for " + kind);
    }
    PlanNode node = physical.convert(rel);
    physical.finishHints();
    node = projectFields(node, root);
    return new StatementPlan.Query(node, resultColumns(validated, root), parameterTypes);
  }

  /**
   * Evaluates a constant expression given as source text (a SPLIT ON point) and assigns it to a
   * column of type {@code target}: parsed by Calcite's expression parser, validated as {@code
   * SELECT expression}, accepted when INSERT would accept it for that column (assignable, or
   * implicitly coercible), evaluated once and checked by the same store assignment as INSERT
   * (length, range).
   */
  Object assignConstant(String source, DataType target, String column, String what) {
    SqlNode expression;
    try {
      expression = SqlParser.create(source, CairnPlanner.PARSER_CONFIG).parseExpression();
    } catch (SqlParseException e) {
      CairnException error = Errors.syntax(e, source);
      throw new CairnException(error.errorCode(), what + ": " + error.getMessage(), e);
    }
    if (expression instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.NULL) {
      return null;
    }
    String nonConstant = nonConstant(expression);
    if (nonConstant != null) {
      throw new CairnException(
          ErrorCode.VALIDATION_ERROR,
          what + ": expected a constant expression, found " + nonConstant);
    }
    SqlSelect select = (SqlSelect) parse("SELECT 1");
    select.setSelectList(new SqlNodeList(List.of(expression), SqlParserPos.ZERO));
    SqlNode validated = validate(select, what);
    SqlToRelConverter converter = converter(SqlToRelConverter.config().withExpand(false));
    RelNode rel = converter.convertQuery(validated, false, true).rel;
    RexNode rex;
    if (rel instanceof Project project && project.getProjects().size() == 1) {
      rex = project.getProjects().get(0);
    } else if (rel instanceof org.apache.calcite.rel.core.Values values
        && values.getTuples().size() == 1
        && values.getTuples().get(0).size() == 1) {
      rex = values.getTuples().get(0).get(0); // a literal alone becomes VALUES
    } else {
      throw CairnException.internal(what + ": expected one value, found " + rel);
    }
    if (!RexUtil.isConstant(rex)) {
      throw new CairnException(
          ErrorCode.VALIDATION_ERROR,
          what
              + ": expected a constant expression, found one whose value changes"
              + " (a time or non-deterministic function)");
    }
    RelDataType targetType = Types.toRelType(typeFactory, target);
    RelDataType sourceType = rex.getType();
    if (sourceType.getSqlTypeName() != SqlTypeName.NULL
        && !SqlTypeUtil.canAssignFrom(targetType, sourceType)
        && !implicitlyCoercible(sourceType, targetType)) {
      throw new CairnException(
          ErrorCode.TYPE_MISMATCH,
          what
              + ": expected a value of type ["
              + target.sql()
              + "] for key column ["
              + column
              + "], found ["
              + Types.toDataType(sourceType).sql()
              + "]");
    }
    Expr expr = new RexToExpr(cluster.getRexBuilder()).convert(rex);
    try {
      Object value = ExprCompiler.compile(expr).evaluate(new Object[0], EvalContext.EMPTY);
      return Values.assign(value, target, column);
    } catch (CairnException e) {
      throw new CairnException(e.errorCode(), what + ": " + e.getMessage(), e);
    }
  }

  /**
   * Expressions over {@code table}'s row (ON DUPLICATE KEY UPDATE's assignments, see {@link
   * OnDuplicateKeyClause.ExpressionPlanner}): validated and converted as {@code SELECT expressions
   * FROM table}, each checked to be assignable to its column as UPDATE would.
   */
  private List<Expr> rowExpressions(
      TableDescriptor table,
      List<Integer> columns,
      List<SqlNode> expressions,
      List<DataType> parameterTypes) {
    String what = "ON DUPLICATE KEY UPDATE";
    List<SqlNode> typed = new ArrayList<>();
    for (int i = 0; i < expressions.size(); i++) {
      SqlNode e = expressions.get(i);
      if (containsQuery(e)) {
        throw new CairnException(
            ErrorCode.NOT_SUPPORTED, what + ": expected expressions of the row, found a subquery");
      }
      if (e instanceof SqlDynamicParam) {
        // a parameter alone takes its column's type (as in UPDATE); the cast goes again below
        RelDataType type = Types.toRelType(typeFactory, table.columns().get(columns.get(i)).type());
        e =
            SqlStdOperatorTable.CAST.createCall(
                e.getParserPosition(), e, SqlTypeUtil.convertTypeToSpec(type));
      }
      typed.add(e);
    }
    SqlSelect select =
        (SqlSelect)
            parse("SELECT 1 FROM " + quoted(table.schemaName()) + "." + quoted(table.tableName()));
    select.setSelectList(new SqlNodeList(typed, SqlParserPos.ZERO));
    SqlNode validated = validate(select, what);
    for (RelDataTypeField f : validator.getParameterRowType(validated).getFieldList()) {
      parameterTypes.add(Types.toDataType(f.getType()));
    }
    SqlToRelConverter converter = converter(SqlToRelConverter.config().withExpand(false));
    RelNode rel = converter.convertQuery(validated, false, true).rel;
    if (!(rel instanceof Project project)
        || !(project.getInput() instanceof org.apache.calcite.rel.core.TableScan)) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          what
              + ": expected expressions of the row's columns, found an aggregate or window"
              + " function");
    }
    List<Expr> result = new ArrayList<>();
    RexToExpr toExpr = new RexToExpr(cluster.getRexBuilder());
    for (int i = 0; i < columns.size(); i++) {
      RexNode rex = project.getProjects().get(i);
      var column = table.columns().get(columns.get(i));
      RelDataType targetType = Types.toRelType(typeFactory, column.type());
      RelDataType sourceType = rex.getType();
      if (sourceType.getSqlTypeName() != SqlTypeName.NULL
          && !SqlTypeUtil.canAssignFrom(targetType, sourceType)
          && !implicitlyCoercible(sourceType, targetType)) {
        throw new CairnException(
            ErrorCode.TYPE_MISMATCH,
            what
                + ": expected a value of type ["
                + column.type().sql()
                + "] for column ["
                + column.name()
                + "], found ["
                + Types.toDataType(sourceType).sql()
                + "]");
      }
      Expr value = toExpr.convert(rex);
      if (expressions.get(i) instanceof SqlDynamicParam
          && value instanceof Expr.Call cast
          && cast.operands().size() == 1
          && cast.operands().get(0) instanceof Expr.Param param) {
        value = param; // the store assignment checks its value, not a cast
      }
      result.add(value);
    }
    return result;
  }

  private static String quoted(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  private static boolean containsQuery(SqlNode node) {
    if (node == null) {
      return false;
    }
    if (node instanceof SqlSelect || node.getKind().belongsTo(SqlKind.QUERY)) {
      return true;
    }
    if (node instanceof SqlNodeList list) {
      for (SqlNode item : list) {
        if (containsQuery(item)) {
          return true;
        }
      }
    } else if (node instanceof SqlCall call) {
      for (SqlNode operand : call.getOperandList()) {
        if (containsQuery(operand)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether INSERT's implicit type coercion would convert {@code from} to {@code to}. */
  private boolean implicitlyCoercible(RelDataType from, RelDataType to) {
    return validator.getTypeCoercion() instanceof AbstractTypeCoercion coercion
        && coercion.implicitCast(from, to.getSqlTypeName().getFamily()) != null;
  }

  /** A description of the first part of {@code node} that is not constant, or null. */
  private static String nonConstant(SqlNode node) {
    if (node instanceof SqlIdentifier identifier) {
      return "a column reference [" + identifier + "]";
    }
    if (node instanceof SqlDynamicParam) {
      return "a parameter [?]";
    }
    if (node instanceof SqlSelect || node.getKind().belongsTo(SqlKind.QUERY)) {
      return "a subquery";
    }
    if (node instanceof SqlNodeList list) {
      for (SqlNode item : list) {
        String found = item == null ? null : nonConstant(item);
        if (found != null) {
          return found;
        }
      }
    } else if (node instanceof SqlCall call) {
      for (SqlNode operand : call.getOperandList()) {
        String found = operand == null ? null : nonConstant(operand);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /**
   * Phoenix's dynamic columns ({@code UPSERT INTO t (k, v, newcol VARCHAR) ...}, {@code SELECT ...
   * FROM t (newcol VARCHAR)}), which Calcite parses as EXTEND, are not supported: NOT_SUPPORTED.
   */
  private static void rejectDynamicColumns(SqlNode parsed) {
    SqlNode target = parsed instanceof SqlInsert insert ? insert.getTargetTable() : null;
    boolean dynamic = target != null && target.getKind() == SqlKind.EXTEND;
    if (!dynamic) {
      try {
        parsed.accept(
            new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
              @Override
              public Void visit(SqlCall call) {
                if (call.getKind() == SqlKind.EXTEND) {
                  throw new org.apache.calcite.util.Util.FoundOne(call);
                }
                return super.visit(call);
              }
            });
      } catch (org.apache.calcite.util.Util.FoundOne e) {
        dynamic = true;
      }
    }
    if (dynamic) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Dynamic columns (a column declared in the statement, as in UPSERT INTO t (k, v, newcol"
              + " VARCHAR) or FROM t (newcol VARCHAR)) are not supported; declare the column in"
              + " CREATE TABLE");
    }
  }

  /** Parses one of the planner's own statements (no user text: nothing to rewrite or to count). */
  private SqlNode parse(String text) {
    return parse(text, text);
  }

  /**
   * Parses {@code forCalcite}, {@code text} rewritten for Calcite's parser ({@link
   * ClassifiedStatement#rewritten}); error words are judged on {@code text}. The caller checked the
   * parentheses' depth ({@link StatementDepth#checkParentheses}) where the text is the user's.
   */
  private SqlNode parse(String text, String forCalcite) {
    SqlNode parsed;
    try {
      parsed = SqlParser.create(forCalcite, CairnPlanner.PARSER_CONFIG).parseStmt();
    } catch (SqlParseException e) {
      throw Errors.syntax(e, text);
    }
    StatementDepth.checkExpressions(parsed);
    return parsed;
  }

  /** Applies RelRoot's field mapping (ORDER BY on unselected columns adds hidden fields). */
  private static PlanNode projectFields(PlanNode node, RelRoot root) {
    if (root.isRefTrivial()) {
      return node;
    }
    List<Expr> exprs = new ArrayList<>();
    for (var field : root.fields) {
      int index = field.getKey();
      exprs.add(new Expr.ColumnRef(index, node.outputTypes().get(index)));
    }
    return Exprs.project(node, exprs);
  }

  private List<StatementPlan.ResultColumn> resultColumns(SqlNode validated, RelRoot root) {
    RelDataType rowType = root.validatedRowType;
    List<List<String>> origins = validator.getFieldOrigins(validated);
    List<StatementPlan.ResultColumn> columns = new ArrayList<>();
    List<RelDataTypeField> fields = rowType.getFieldList();
    for (int i = 0; i < fields.size(); i++) {
      RelDataTypeField f = fields.get(i);
      List<String> origin = i < origins.size() ? origins.get(i) : null;
      String schemaName = "";
      String tableName = "";
      String columnName = "";
      if (origin != null && origin.size() >= 3) {
        schemaName = origin.get(origin.size() - 3);
        tableName = origin.get(origin.size() - 2);
        columnName = origin.get(origin.size() - 1);
      }
      columns.add(
          new StatementPlan.ResultColumn(
              f.getName(), columnName, schemaName, tableName, Types.toDataType(f.getType())));
    }
    return columns;
  }

  /** A converter of this planning's validated statements to relational algebra. */
  private SqlToRelConverter converter(SqlToRelConverter.Config config) {
    return new SqlToRelConverter(
        (rowType, queryString, schemaPath, viewPath) -> {
          throw new CairnException(ErrorCode.NOT_SUPPORTED, "Views are not supported");
        },
        validator,
        reader,
        cluster,
        this::convertlet,
        config);
  }

  /**
   * Calcite's convertlet for {@code call}, checking for cancellation first (each call converted: a
   * cancel stops a conversion in the background soon) and unwrapping what it throws: Calcite
   * invokes convertlets reflectively and wraps a failure in "While converting CALL" at every level,
   * so that a failure deep in a nested expression came out wrapped hundreds of times, each wrapper
   * quoting the SQL text of its level (millions of characters); here it goes up as it was thrown.
   */
  private SqlRexConvertlet convertlet(SqlCall call) {
    PlanningThreads.check(cancel);
    SqlRexConvertlet convertlet = StandardConvertletTable.INSTANCE.get(call);
    if (convertlet == null) {
      return null;
    }
    return (cx, c) -> {
      try {
        return convertlet.convertCall(cx, c);
      } catch (RuntimeException e) {
        throw unwrapConversion(e);
      }
    };
  }

  /** Validates {@code select}, a validation error prefixed with {@code what}. */
  private SqlNode validate(SqlNode select, String what) {
    try {
      return validator.validate(select);
    } catch (CalciteContextException e) {
      CairnException error = Errors.validation(e);
      throw new CairnException(error.errorCode(), what + ": " + error.getMessage(), e);
    }
  }

  /**
   * Calcite's validator, except that a parameter whose type is not inferred yet has the unknown
   * type when an enclosing expression's type is derived first: {@code CASE WHEN a = ? THEN 1 ELSE 0
   * END = 1} derives the CASE's type (for the outer comparison) before it infers the type of {@code
   * ?} from {@code a}, which Calcite reported as an internal error; the parameter gets its type
   * from {@code a} right after.
   */
  private static final class CairnValidator extends SqlValidatorImpl {
    private final AtomicBoolean cancel;

    CairnValidator(
        SqlOperatorTable operators,
        CalciteCatalogReader reader,
        JavaTypeFactoryImpl typeFactory,
        SqlValidator.Config config,
        AtomicBoolean cancel) {
      super(operators, reader, typeFactory, config);
      this.cancel = cancel;
    }

    /**
     * Derives a node's type, after checking for cancellation: every expression node comes here, so
     * that a cancelled validation of a huge statement stops soon in the background.
     */
    @Override
    public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
      PlanningThreads.check(cancel);
      return super.deriveType(scope, expr);
    }

    @Override
    public RelDataType getValidatedNodeType(SqlNode node) {
      if (node instanceof SqlDynamicParam && getValidatedNodeTypeIfKnown(node) == null) {
        return getUnknownType();
      }
      return super.getValidatedNodeType(node);
    }
  }

  /**
   * What a convertlet threw, without Calcite's "While converting" wrappers (see {@link
   * #convertlet}): a RuntimeException or Error thrown as is, another exception wrapped once with a
   * bounded message.
   */
  static RuntimeException unwrapConversion(RuntimeException e) {
    Throwable t = e;
    while (t instanceof RuntimeException
        && t.getClass() == RuntimeException.class
        && t.getMessage() != null
        && t.getMessage().startsWith("While converting ")
        && t.getCause() != null) {
      t = t.getCause();
      if (t instanceof java.lang.reflect.InvocationTargetException && t.getCause() != null) {
        t = t.getCause();
      }
    }
    if (t == e) {
      return e;
    }
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error error) {
      throw error;
    }
    return new IllegalStateException(
        "Converting an expression failed: " + PlanningThreads.bounded(String.valueOf(t)), t);
  }
}
