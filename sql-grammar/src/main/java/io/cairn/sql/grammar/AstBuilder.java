package io.cairn.sql.grammar;

import io.cairn.sql.Identifiers;
import io.cairn.sql.tree.AlterIndex;
import io.cairn.sql.tree.AlterTableSet;
import io.cairn.sql.tree.CheckIndex;
import io.cairn.sql.tree.ColumnDefinition;
import io.cairn.sql.tree.CompactTable;
import io.cairn.sql.tree.CreateIndex;
import io.cairn.sql.tree.CreateTable;
import io.cairn.sql.tree.DropIndex;
import io.cairn.sql.tree.DropTable;
import io.cairn.sql.tree.FlushTable;
import io.cairn.sql.tree.IndexPart;
import io.cairn.sql.tree.KeyPart;
import io.cairn.sql.tree.Nullability;
import io.cairn.sql.tree.Ordering;
import io.cairn.sql.tree.PrimaryKey;
import io.cairn.sql.tree.QualifiedName;
import io.cairn.sql.tree.SplitTable;
import io.cairn.sql.tree.Statement;
import io.cairn.sql.tree.TableOption;
import io.cairn.sql.tree.TypeSpec;
import io.cairn.sql.tree.UpdateStatistics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.misc.Interval;

/**
 * Builds {@link io.cairn.sql.tree} records from a parse tree and runs the checks that are cheap at
 * this point (duplicate names, two primary keys). One {@code visitXxx} per statement alternative.
 */
final class AstBuilder extends CairnSqlBaseBaseVisitor<Statement> {
  /** Tokens that end a value; a NULL right after one is not part of an expression. */
  private static final Set<Integer> VALUE_END_TOKENS =
      Set.of(
          CairnSqlBaseLexer.INTEGER_VALUE,
          CairnSqlBaseLexer.DECIMAL_VALUE,
          CairnSqlBaseLexer.DOUBLE_VALUE,
          CairnSqlBaseLexer.STRING,
          CairnSqlBaseLexer.QUOTED_IDENTIFIER,
          CairnSqlBaseLexer.RPAREN,
          CairnSqlBaseLexer.TRUE,
          CairnSqlBaseLexer.FALSE,
          CairnSqlBaseLexer.NULL);

  @Override
  public Statement visitSingleStatement(CairnSqlBaseParser.SingleStatementContext ctx) {
    return visit(ctx.statement());
  }

  @Override
  public Statement visitCreate(CairnSqlBaseParser.CreateContext ctx) {
    return visit(ctx.createObject());
  }

  @Override
  public Statement visitDrop(CairnSqlBaseParser.DropContext ctx) {
    return visit(ctx.dropObject());
  }

  @Override
  public Statement visitAlter(CairnSqlBaseParser.AlterContext ctx) {
    return visit(ctx.alterObject());
  }

  @Override
  public Statement visitCreateTable(CairnSqlBaseParser.CreateTableContext ctx) {
    List<ColumnDefinition> columns = new ArrayList<>();
    Set<String> columnNames = new HashSet<>();
    CairnSqlBaseParser.ColumnDefinitionContext inlineKeyColumn = null;
    for (CairnSqlBaseParser.ColumnDefinitionContext column : ctx.columnDefinition()) {
      ColumnDefinition definition = columnDefinition(column);
      if (!columnNames.add(definition.name())) {
        throw invalid(column.identifier(), "duplicate column name [" + definition.name() + "]");
      }
      if (definition.inlinePrimaryKey().isPresent()) {
        if (inlineKeyColumn != null) {
          throw invalid(
              column.inlinePrimaryKey(),
              "column ["
                  + definition.name()
                  + "] is a second inline PRIMARY KEY; use a table-level PRIMARY KEY (...) for"
                  + " a composite key");
        }
        inlineKeyColumn = column;
      }
      columns.add(definition);
    }

    Optional<PrimaryKey> primaryKey = Optional.empty();
    CairnSqlBaseParser.PrimaryKeyConstraintContext constraint = ctx.primaryKeyConstraint();
    if (constraint != null) {
      if (inlineKeyColumn != null) {
        throw invalid(
            constraint,
            "table-level PRIMARY KEY conflicts with the inline PRIMARY KEY on column ["
                + identifier(inlineKeyColumn.identifier())
                + "]");
      }
      primaryKey = Optional.of(primaryKey(constraint, columnNames));
    }

    List<TableOption> options = tableOptions(ctx.tableOption());

    List<String> splitPoints = new ArrayList<>();
    for (CairnSqlBaseParser.ExpressionContext splitPoint : ctx.expression()) {
      splitPoints.add(sourceText(splitPoint));
    }

    return new CreateTable(
        qualifiedName(ctx.qualifiedName()),
        ctx.EXISTS() != null,
        columns,
        primaryKey,
        options,
        splitPoints);
  }

  @Override
  public Statement visitDropTable(CairnSqlBaseParser.DropTableContext ctx) {
    return new DropTable(qualifiedName(ctx.qualifiedName()), ctx.EXISTS() != null);
  }

  @Override
  public Statement visitAlterTableSet(CairnSqlBaseParser.AlterTableSetContext ctx) {
    return new AlterTableSet(qualifiedName(ctx.qualifiedName()), tableOptions(ctx.tableOption()));
  }

  @Override
  public Statement visitFlushTable(CairnSqlBaseParser.FlushTableContext ctx) {
    return new FlushTable(qualifiedName(ctx.qualifiedName()));
  }

  @Override
  public Statement visitUpdateStatistics(CairnSqlBaseParser.UpdateStatisticsContext ctx) {
    return new UpdateStatistics(qualifiedName(ctx.qualifiedName()));
  }

  @Override
  public Statement visitSplitTable(CairnSqlBaseParser.SplitTableContext ctx) {
    return new SplitTable(qualifiedName(ctx.qualifiedName()));
  }

  @Override
  public Statement visitCompactTable(CairnSqlBaseParser.CompactTableContext ctx) {
    return new CompactTable(qualifiedName(ctx.qualifiedName()), false);
  }

  @Override
  public Statement visitMajorCompactTable(CairnSqlBaseParser.MajorCompactTableContext ctx) {
    return new CompactTable(qualifiedName(ctx.qualifiedName()), true);
  }

  @Override
  public Statement visitCreateIndex(CairnSqlBaseParser.CreateIndexContext ctx) {
    List<CairnSqlBaseParser.QualifiedNameContext> names = ctx.qualifiedName();
    List<IndexPart> parts = new ArrayList<>();
    for (CairnSqlBaseParser.IndexPartContext part : ctx.indexPart()) {
      parts.add(new IndexPart(sourceText(part.indexExpression()), ordering(part.ordering())));
    }
    // the INCLUDE list is the only place of identifiers other than the method's
    List<String> include = new ArrayList<>();
    Set<String> included = new HashSet<>();
    for (CairnSqlBaseParser.IdentifierContext column : ctx.identifier()) {
      if (column == ctx.method) {
        continue;
      }
      String name = identifier(column);
      if (!included.add(name)) {
        throw invalid(column, "column [" + name + "] appears twice in INCLUDE");
      }
      include.add(name);
    }
    List<String> splitPoints = new ArrayList<>();
    for (CairnSqlBaseParser.ExpressionContext splitPoint : ctx.expression()) {
      if (splitPoint != ctx.where) {
        splitPoints.add(sourceText(splitPoint));
      }
    }
    return new CreateIndex(
        qualifiedName(names.get(0)),
        qualifiedName(names.get(1)),
        ctx.EXISTS() != null,
        ctx.UNIQUE() != null,
        ctx.LOCAL() != null,
        Optional.ofNullable(ctx.method).map(AstBuilder::identifier),
        parts,
        include,
        ctx.ASYNC() != null,
        tableOptions(ctx.tableOption()),
        splitPoints,
        Optional.ofNullable(ctx.where).map(AstBuilder::sourceText));
  }

  @Override
  public Statement visitDropIndex(CairnSqlBaseParser.DropIndexContext ctx) {
    List<CairnSqlBaseParser.QualifiedNameContext> names = ctx.qualifiedName();
    return new DropIndex(
        qualifiedName(names.get(0)),
        names.size() > 1 ? Optional.of(qualifiedName(names.get(1))) : Optional.empty(),
        ctx.EXISTS() != null);
  }

  @Override
  public Statement visitAlterIndex(CairnSqlBaseParser.AlterIndexContext ctx) {
    List<CairnSqlBaseParser.QualifiedNameContext> names = ctx.qualifiedName();
    List<String> words = new ArrayList<>();
    for (int i = 0; i < ctx.alterIndexAction().getChildCount(); i++) {
      String word = ctx.alterIndexAction().getChild(i).getText();
      words.add(word.startsWith("\"") ? word : word.toUpperCase(Locale.ROOT));
    }
    return new AlterIndex(
        qualifiedName(names.get(0)),
        names.size() > 1 ? Optional.of(qualifiedName(names.get(1))) : Optional.empty(),
        ctx.EXISTS() != null,
        String.join(" ", words));
  }

  @Override
  public Statement visitCheckIndex(CairnSqlBaseParser.CheckIndexContext ctx) {
    List<CairnSqlBaseParser.QualifiedNameContext> names = ctx.qualifiedName();
    return new CheckIndex(
        qualifiedName(names.get(0)),
        names.size() > 1 ? Optional.of(qualifiedName(names.get(1))) : Optional.empty());
  }

  private static List<TableOption> tableOptions(
      List<CairnSqlBaseParser.TableOptionContext> contexts) {
    List<TableOption> options = new ArrayList<>();
    Set<String> optionNames = new HashSet<>();
    for (CairnSqlBaseParser.TableOptionContext option : contexts) {
      TableOption tableOption = tableOption(option);
      if (!optionNames.add(tableOption.name())) {
        throw invalid(option.identifier(), "duplicate table option [" + tableOption.name() + "]");
      }
      options.add(tableOption);
    }
    return options;
  }

  private ColumnDefinition columnDefinition(CairnSqlBaseParser.ColumnDefinitionContext ctx) {
    Nullability nullability = Nullability.UNSPECIFIED;
    if (ctx.nullability() != null) {
      nullability = ctx.nullability().NOT() != null ? Nullability.NOT_NULL : Nullability.NULL;
    }
    Optional<Ordering> inlinePrimaryKey =
        Optional.ofNullable(ctx.inlinePrimaryKey()).map(key -> ordering(key.ordering()));
    Optional<String> defaultExpression = Optional.empty();
    if (ctx.expression() != null) {
      checkNoTrailingNullability(ctx.expression());
      defaultExpression = Optional.of(sourceText(ctx.expression()));
    }
    return new ColumnDefinition(
        identifier(ctx.identifier()),
        typeSpec(ctx.dataType()),
        nullability,
        inlinePrimaryKey,
        defaultExpression);
  }

  /**
   * A DEFAULT expression runs to the next top-level ',' or ')', so {@code DEFAULT 0 NOT NULL} would
   * swallow the constraint into the expression text. Reject that here rather than leave it to
   * Calcite's less specific error; {@code x IS NOT NULL} stays a valid expression.
   */
  private static void checkNoTrailingNullability(CairnSqlBaseParser.ExpressionContext ctx) {
    List<CairnSqlBaseParser.ExpressionTokenContext> tokens = ctx.expressionToken();
    int count = tokens.size();
    if (count < 2 || tokens.get(count - 1).start.getType() != CairnSqlBaseLexer.NULL) {
      return;
    }
    Token previous = tokens.get(count - 2).start;
    boolean notNull =
        previous.getType() == CairnSqlBaseLexer.NOT
            && !(count >= 3 && "IS".equalsIgnoreCase(tokens.get(count - 3).getText()));
    boolean afterValue = VALUE_END_TOKENS.contains(tokens.get(count - 2).stop.getType());
    if (notNull || afterValue) {
      Token offending = notNull ? previous : tokens.get(count - 1).start;
      throw invalid(
          offending,
          (notNull ? "NOT NULL" : "NULL") + " must come before DEFAULT in a column definition");
    }
  }

  private static PrimaryKey primaryKey(
      CairnSqlBaseParser.PrimaryKeyConstraintContext ctx, Set<String> columnNames) {
    Optional<String> constraintName =
        Optional.ofNullable(ctx.identifier()).map(AstBuilder::identifier);
    List<KeyPart> parts = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (CairnSqlBaseParser.KeyPartContext part : ctx.keyPart()) {
      String column = identifier(part.identifier());
      if (!columnNames.contains(column)) {
        throw invalid(part.identifier(), "PRIMARY KEY column [" + column + "] is not defined");
      }
      if (!seen.add(column)) {
        throw invalid(part.identifier(), "column [" + column + "] appears twice in PRIMARY KEY");
      }
      parts.add(new KeyPart(column, ordering(part.ordering())));
    }
    return new PrimaryKey(constraintName, parts);
  }

  private static TableOption tableOption(CairnSqlBaseParser.TableOptionContext ctx) {
    String name = Identifiers.normalizeUnquoted(identifierText(ctx.identifier()));
    CairnSqlBaseParser.OptionValueContext value = ctx.optionValue();
    if (value instanceof CairnSqlBaseParser.StringOptionValueContext) {
      String literal = ((CairnSqlBaseParser.StringOptionValueContext) value).STRING().getText();
      return new TableOption(name, unquoteString(literal), TableOption.ValueKind.STRING);
    }
    if (value instanceof CairnSqlBaseParser.NumericOptionValueContext) {
      return new TableOption(name, value.getText(), TableOption.ValueKind.NUMBER);
    }
    if (value instanceof CairnSqlBaseParser.BooleanOptionValueContext) {
      boolean isTrue = ((CairnSqlBaseParser.BooleanOptionValueContext) value).TRUE() != null;
      return new TableOption(name, isTrue ? "TRUE" : "FALSE", TableOption.ValueKind.BOOLEAN);
    }
    CairnSqlBaseParser.IdentifierContext identifier =
        ((CairnSqlBaseParser.IdentifierOptionValueContext) value).identifier();
    return new TableOption(name, identifier(identifier), TableOption.ValueKind.IDENTIFIER);
  }

  private static TypeSpec typeSpec(CairnSqlBaseParser.DataTypeContext ctx) {
    if (ctx instanceof CairnSqlBaseParser.BooleanTypeContext) {
      return TypeSpec.of("BOOLEAN");
    }
    if (ctx instanceof CairnSqlBaseParser.TinyintTypeContext) {
      return TypeSpec.of("TINYINT");
    }
    if (ctx instanceof CairnSqlBaseParser.SmallintTypeContext) {
      return TypeSpec.of("SMALLINT");
    }
    if (ctx instanceof CairnSqlBaseParser.IntegerTypeContext) {
      return TypeSpec.of("INTEGER");
    }
    if (ctx instanceof CairnSqlBaseParser.BigintTypeContext) {
      return TypeSpec.of("BIGINT");
    }
    if (ctx instanceof CairnSqlBaseParser.FloatTypeContext) {
      return TypeSpec.of("FLOAT");
    }
    if (ctx instanceof CairnSqlBaseParser.DoubleTypeContext) {
      return TypeSpec.of("DOUBLE");
    }
    if (ctx instanceof CairnSqlBaseParser.DecimalTypeContext) {
      CairnSqlBaseParser.DecimalTypeContext decimal = (CairnSqlBaseParser.DecimalTypeContext) ctx;
      OptionalInt precision = positiveInt(decimal.precision, "precision");
      OptionalInt scale = nonNegativeInt(decimal.scale, "scale");
      if (scale.isPresent() && scale.getAsInt() > precision.getAsInt()) {
        throw invalid(
            decimal.scale,
            "scale ["
                + scale.getAsInt()
                + "] is greater than precision ["
                + precision.getAsInt()
                + "]");
      }
      return new TypeSpec("DECIMAL", precision, scale);
    }
    if (ctx instanceof CairnSqlBaseParser.CharTypeContext) {
      return withLength("CHAR", ((CairnSqlBaseParser.CharTypeContext) ctx).length);
    }
    if (ctx instanceof CairnSqlBaseParser.VarcharTypeContext) {
      return withLength("VARCHAR", ((CairnSqlBaseParser.VarcharTypeContext) ctx).length);
    }
    if (ctx instanceof CairnSqlBaseParser.DateTypeContext) {
      return TypeSpec.of("DATE");
    }
    if (ctx instanceof CairnSqlBaseParser.TimeTypeContext) {
      return TypeSpec.of("TIME");
    }
    if (ctx instanceof CairnSqlBaseParser.TimestampTypeContext) {
      return new TypeSpec(
          "TIMESTAMP",
          nonNegativeInt(((CairnSqlBaseParser.TimestampTypeContext) ctx).precision, "precision"),
          OptionalInt.empty());
    }
    if (ctx instanceof CairnSqlBaseParser.VarbinaryTypeContext) {
      return withLength("VARBINARY", ((CairnSqlBaseParser.VarbinaryTypeContext) ctx).length);
    }
    throw new IllegalStateException("unhandled type alternative: " + ctx.getClass().getName());
  }

  private static TypeSpec withLength(String name, Token length) {
    return new TypeSpec(name, positiveInt(length, "length"), OptionalInt.empty());
  }

  private static OptionalInt positiveInt(Token token, String what) {
    OptionalInt value = nonNegativeInt(token, what);
    if (value.isPresent() && value.getAsInt() == 0) {
      throw invalid(token, what + " must be at least 1, found [0]");
    }
    return value;
  }

  private static OptionalInt nonNegativeInt(Token token, String what) {
    if (token == null) {
      return OptionalInt.empty();
    }
    try {
      return OptionalInt.of(Integer.parseInt(token.getText()));
    } catch (NumberFormatException e) {
      throw invalid(token, what + " [" + token.getText() + "] is out of range");
    }
  }

  private static Ordering ordering(CairnSqlBaseParser.OrderingContext ctx) {
    return ctx != null && ctx.DESC() != null ? Ordering.DESC : Ordering.ASC;
  }

  private static QualifiedName qualifiedName(CairnSqlBaseParser.QualifiedNameContext ctx) {
    List<CairnSqlBaseParser.IdentifierContext> parts = ctx.identifier();
    if (parts.size() == 1) {
      return QualifiedName.of(identifier(parts.get(0)));
    }
    return QualifiedName.of(identifier(parts.get(0)), identifier(parts.get(1)));
  }

  private static String identifier(CairnSqlBaseParser.IdentifierContext ctx) {
    String text = identifierText(ctx);
    if (ctx.QUOTED_IDENTIFIER() != null) {
      String name = Identifiers.unquote(text);
      if (name.isEmpty()) {
        throw invalid(ctx, "zero-length delimited identifier");
      }
      return name;
    }
    return Identifiers.normalizeUnquoted(text);
  }

  private static String identifierText(CairnSqlBaseParser.IdentifierContext ctx) {
    return ctx.getText();
  }

  private static String unquoteString(String literal) {
    return literal.substring(1, literal.length() - 1).replace("''", "'");
  }

  /** The exact source text from the first to the last token, comments inside included. */
  private static String sourceText(ParserRuleContext ctx) {
    Interval interval = Interval.of(ctx.start.getStartIndex(), ctx.stop.getStopIndex());
    return ctx.start.getInputStream().getText(interval);
  }

  private static ParsingException invalid(ParserRuleContext ctx, String message) {
    return invalid(ctx.start, message);
  }

  private static ParsingException invalid(Token token, String message) {
    return ParsingException.invalidStatement(
        message,
        token.getLine(),
        token.getCharPositionInLine() + 1,
        ThrowingErrorListener.describeFound(token));
  }
}
