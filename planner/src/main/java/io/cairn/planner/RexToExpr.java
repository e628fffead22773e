package io.cairn.planner;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.expr.Op;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/** Translates Calcite row expressions into Cairn's expression IR. */
final class RexToExpr {
  private static final Map<SqlKind, Op> SIMPLE_KINDS =
      Map.ofEntries(
          Map.entry(SqlKind.TIMES, Op.TIMES),
          Map.entry(SqlKind.DIVIDE, Op.DIVIDE),
          Map.entry(SqlKind.MOD, Op.MOD),
          Map.entry(SqlKind.MINUS_PREFIX, Op.NEGATE),
          Map.entry(SqlKind.EQUALS, Op.EQUALS),
          Map.entry(SqlKind.NOT_EQUALS, Op.NOT_EQUALS),
          Map.entry(SqlKind.LESS_THAN, Op.LESS_THAN),
          Map.entry(SqlKind.LESS_THAN_OR_EQUAL, Op.LESS_THAN_OR_EQUAL),
          Map.entry(SqlKind.GREATER_THAN, Op.GREATER_THAN),
          Map.entry(SqlKind.GREATER_THAN_OR_EQUAL, Op.GREATER_THAN_OR_EQUAL),
          Map.entry(SqlKind.IS_DISTINCT_FROM, Op.IS_DISTINCT_FROM),
          Map.entry(SqlKind.IS_NOT_DISTINCT_FROM, Op.IS_NOT_DISTINCT_FROM),
          Map.entry(SqlKind.AND, Op.AND),
          Map.entry(SqlKind.OR, Op.OR),
          Map.entry(SqlKind.NOT, Op.NOT),
          Map.entry(SqlKind.IS_NULL, Op.IS_NULL),
          Map.entry(SqlKind.IS_NOT_NULL, Op.IS_NOT_NULL),
          Map.entry(SqlKind.IS_TRUE, Op.IS_TRUE),
          Map.entry(SqlKind.IS_NOT_TRUE, Op.IS_NOT_TRUE),
          Map.entry(SqlKind.IS_FALSE, Op.IS_FALSE),
          Map.entry(SqlKind.IS_NOT_FALSE, Op.IS_NOT_FALSE),
          Map.entry(SqlKind.CASE, Op.CASE),
          Map.entry(SqlKind.CAST, Op.CAST),
          Map.entry(SqlKind.SAFE_CAST, Op.CAST),
          Map.entry(SqlKind.REINTERPRET, Op.CAST),
          Map.entry(SqlKind.COALESCE, Op.COALESCE),
          Map.entry(SqlKind.NULLIF, Op.NULLIF),
          Map.entry(SqlKind.GREATEST, Op.GREATEST),
          Map.entry(SqlKind.LEAST, Op.LEAST),
          Map.entry(SqlKind.TRIM, Op.TRIM),
          Map.entry(SqlKind.LTRIM, Op.LTRIM),
          Map.entry(SqlKind.RTRIM, Op.RTRIM),
          Map.entry(SqlKind.POSITION, Op.POSITION),
          Map.entry(SqlKind.EXTRACT, Op.EXTRACT),
          Map.entry(SqlKind.REVERSE, Op.REVERSE),
          Map.entry(SqlKind.IN, Op.IN));

  private static final Map<String, Op> FUNCTIONS =
      Map.ofEntries(
          Map.entry("||", Op.CONCAT),
          Map.entry("CONCAT", Op.CONCAT),
          Map.entry("UPPER", Op.UPPER),
          Map.entry("LOWER", Op.LOWER),
          Map.entry("SUBSTRING", Op.SUBSTRING),
          Map.entry("CHAR_LENGTH", Op.CHAR_LENGTH),
          Map.entry("CHARACTER_LENGTH", Op.CHAR_LENGTH),
          Map.entry("LENGTH", Op.CHAR_LENGTH),
          Map.entry("REPLACE", Op.REPLACE),
          Map.entry("INITCAP", Op.INITCAP),
          Map.entry("LPAD", Op.LPAD),
          Map.entry("RPAD", Op.RPAD),
          Map.entry("LEFT", Op.LEFT),
          Map.entry("RIGHT", Op.RIGHT),
          Map.entry("REPEAT", Op.REPEAT),
          Map.entry("ABS", Op.ABS),
          Map.entry("ROUND", Op.ROUND),
          Map.entry("TRUNCATE", Op.TRUNCATE),
          Map.entry("POWER", Op.POWER),
          Map.entry("SQRT", Op.SQRT),
          Map.entry("EXP", Op.EXP),
          Map.entry("LN", Op.LN),
          Map.entry("LOG10", Op.LOG10),
          Map.entry("SIGN", Op.SIGN),
          Map.entry("CURRENT_DATE", Op.CURRENT_DATE),
          Map.entry("CURRENT_TIME", Op.CURRENT_TIME),
          Map.entry("CURRENT_TIMESTAMP", Op.CURRENT_TIMESTAMP),
          Map.entry("LOCALTIMESTAMP", Op.LOCALTIMESTAMP),
          Map.entry("LOCALTIME", Op.CURRENT_TIME));

  /**
   * The deepest expression a statement may have: the store and the driver evaluate expressions
   * recursively on threads with ordinary stacks, which run 1,000 levels (e.g. chained {@code +})
   * comfortably. Deeper ones fail to plan with STATEMENT_TOO_COMPLEX.
   */
  static final int MAX_DEPTH = 1_200;

  private static final Set<SqlKind> COMPARISONS =
      EnumSet.of(
          SqlKind.EQUALS,
          SqlKind.NOT_EQUALS,
          SqlKind.LESS_THAN,
          SqlKind.LESS_THAN_OR_EQUAL,
          SqlKind.GREATER_THAN,
          SqlKind.GREATER_THAN_OR_EQUAL,
          SqlKind.IS_DISTINCT_FROM,
          SqlKind.IS_NOT_DISTINCT_FROM);

  private final RexBuilder rexBuilder;
  private int depth;

  RexToExpr(RexBuilder rexBuilder) {
    this.rexBuilder = rexBuilder;
  }

  List<Expr> convertAll(List<? extends RexNode> nodes) {
    List<Expr> result = new ArrayList<>(nodes.size());
    for (RexNode n : nodes) {
      result.add(convert(n));
    }
    return result;
  }

  Expr convert(RexNode node) {
    DataType type = Types.toDataType(node.getType());
    if (node instanceof RexInputRef ref) {
      return new Expr.ColumnRef(ref.getIndex(), type);
    }
    if (node instanceof RexLiteral literal) {
      return literal(literal);
    }
    if (node instanceof RexDynamicParam param) {
      return new Expr.Param(param.getIndex(), type);
    }
    if (node instanceof RexCall call) {
      if (++depth > MAX_DEPTH) {
        depth = 0;
        throw new CairnException(
            ErrorCode.STATEMENT_TOO_COMPLEX,
            "Statement too complex: expression nested deeper than ["
                + MAX_DEPTH
                + "] levels; split it or use IN lists, CASE or helper columns");
      }
      try {
        return call(call, type);
      } finally {
        depth = Math.max(0, depth - 1);
      }
    }
    throw new CairnException(
        ErrorCode.NOT_SUPPORTED,
        "Expression [" + node + "] is not supported yet (correlated references, window functions)");
  }

  private Expr call(RexCall call, DataType type) {
    SqlKind kind = call.getKind();
    if (kind == SqlKind.SEARCH) {
      return convert(RexUtil.expandSearch(rexBuilder, null, call));
    }
    if (kind == SqlKind.PLUS_PREFIX) {
      return convert(call.getOperands().get(0));
    }
    if (kind == SqlKind.LIKE) {
      Expr like = new Expr.Call(Op.LIKE, convertAll(call.getOperands()), type);
      boolean negated = call.getOperator() instanceof SqlLikeOperator likeOp && likeOp.isNegated();
      return negated ? new Expr.Call(Op.NOT, List.of(like), type) : like;
    }
    if (kind == SqlKind.PLUS || kind == SqlKind.MINUS) {
      return arithmetic(call, type, kind == SqlKind.PLUS);
    }
    if (kind == SqlKind.FLOOR || kind == SqlKind.CEIL) {
      boolean datetime = call.getOperands().size() == 2;
      Op op =
          datetime
              ? (kind == SqlKind.FLOOR ? Op.FLOOR_DATETIME : Op.CEIL_DATETIME)
              : (kind == SqlKind.FLOOR ? Op.FLOOR : Op.CEIL);
      return new Expr.Call(op, convertAll(call.getOperands()), type);
    }
    Op op = SIMPLE_KINDS.get(kind);
    if (op == null) {
      op = FUNCTIONS.get(call.getOperator().getName().toUpperCase(Locale.ROOT));
    }
    if (op == null) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "Function or operator [" + call.getOperator().getName() + "] is not supported yet");
    }
    if (op == Op.CAST && call.getOperands().get(0).getType().equals(call.getType())) {
      return convert(call.getOperands().get(0));
    }
    if (COMPARISONS.contains(kind)) {
      List<Expr> operands = new ArrayList<>(call.getOperands().size());
      for (RexNode operand : call.getOperands()) {
        operands.add(convert(padded(operand)));
      }
      return new Expr.Call(op, operands, type);
    }
    List<Expr> operands = convertAll(call.getOperands());
    return new Expr.Call(op, operands, varying(op, type, operands));
  }

  /**
   * The type of a call Calcite typed CHAR(n): VARCHAR(n) for a concatenation and for a call whose
   * operands are not CHAR (literals are VARCHAR); a CAST to CHAR and a call over a CHAR column stay
   * CHAR. Calcite types {@code 'a' || ' '} and {@code UPPER('a ')} CHAR; PostgreSQL makes them
   * text, so their blanks stay significant.
   */
  private static DataType varying(Op op, DataType type, List<Expr> operands) {
    if (type.name() != TypeName.CHAR || op == Op.CAST) {
      return type;
    }
    if (op != Op.CONCAT) {
      for (Expr operand : operands) {
        if (operand.type().name() == TypeName.CHAR) {
          return type;
        }
      }
    }
    return new DataType(TypeName.VARCHAR, type.precision(), 0, type.nullable());
  }

  /**
   * A CHAR operand of a comparison that Calcite cast to VARCHAR, without the cast: CHAR compared
   * with VARCHAR uses PAD SPACE ({@code CAST('ab' AS CHAR(3)) = 'ab'} is true, as in PostgreSQL and
   * Phoenix), which the evaluator applies when either side is CHAR.
   */
  private static RexNode padded(RexNode operand) {
    if (operand instanceof RexCall cast
        && cast.getKind() == SqlKind.CAST
        && cast.getType().getSqlTypeName() == SqlTypeName.VARCHAR
        && cast.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.CHAR
        && !(cast.getOperands().get(0) instanceof RexLiteral)) {
      return cast.getOperands().get(0);
    }
    return operand;
  }

  private Expr arithmetic(RexCall call, DataType type, boolean plus) {
    RexNode left = call.getOperands().get(0);
    RexNode right = call.getOperands().get(1);
    boolean leftDatetime = SqlTypeFamily.DATETIME.contains(left.getType());
    boolean rightDatetime = SqlTypeFamily.DATETIME.contains(right.getType());
    List<Expr> operands = convertAll(call.getOperands());
    if (leftDatetime && rightDatetime) {
      return new Expr.Call(Op.DATETIME_DIFF, operands, type);
    }
    if (leftDatetime || rightDatetime) {
      if (rightDatetime) {
        operands = List.of(operands.get(1), operands.get(0));
      }
      return new Expr.Call(plus ? Op.DATETIME_PLUS : Op.DATETIME_MINUS, operands, type);
    }
    return new Expr.Call(plus ? Op.PLUS : Op.MINUS, operands, type);
  }

  static Expr.Literal literal(RexLiteral literal) {
    DataType type = Types.toDataType(literal.getType());
    if (type.name() == TypeName.CHAR) {
      // a character literal is VARCHAR (PostgreSQL, Phoenix, H2): its blanks are significant
      // ('a' || ' ' || 'b' is 'a b'); Calcite types it CHAR(n), whose padding CONCAT drops
      type = new DataType(TypeName.VARCHAR, type.precision(), 0, type.nullable());
    }
    return new Expr.Literal(literalValue(literal, type), type);
  }

  static Object literalValue(RexLiteral literal, DataType type) {
    if (literal.isNull()) {
      return null;
    }
    SqlTypeName typeName = literal.getTypeName();
    return switch (type.name()) {
      case BOOLEAN -> literal.getValueAs(Boolean.class);
      case TINYINT -> literal.getValueAs(BigDecimal.class).byteValueExact();
      case SMALLINT -> literal.getValueAs(BigDecimal.class).shortValueExact();
      case INTEGER -> literal.getValueAs(BigDecimal.class).intValueExact();
      case BIGINT -> literal.getValueAs(BigDecimal.class).longValueExact();
      case FLOAT -> literal.getValueAs(BigDecimal.class).floatValue();
      case DOUBLE -> literal.getValueAs(Double.class);
      case DECIMAL ->
          literal
              .getValueAs(BigDecimal.class)
              .setScale(type.scale(), java.math.RoundingMode.HALF_UP);
      case CHAR, VARCHAR ->
          typeName == SqlTypeName.SYMBOL
              ? String.valueOf(literal.getValue())
              : literal.getValueAs(NlsString.class) == null
                  ? literal.getValueAs(String.class)
                  : literal.getValueAs(NlsString.class).getValue();
      case VARBINARY -> literal.getValueAs(ByteString.class).getBytes();
      case DATE ->
          io.cairn.core.expr.Values.checkDate(
              LocalDate.ofEpochDay(literal.getValueAs(DateString.class).getDaysSinceEpoch()));
      case TIME -> LocalTime.parse(literal.getValueAs(TimeString.class).toString());
      case TIMESTAMP ->
          io.cairn.core.expr.Values.checkTimestamp(
              LocalDateTime.parse(
                  literal.getValueAs(TimestampString.class).toString().replace(' ', 'T')));
      case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME ->
          literal.getValueAs(BigDecimal.class).longValueExact();
      case NULL -> null;
    };
  }
}
