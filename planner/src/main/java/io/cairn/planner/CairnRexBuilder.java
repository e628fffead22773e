package io.cairn.planner;

import java.math.BigDecimal;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Calcite's RexBuilder, except that a CAST of a literal is folded into a literal only when the
 * value survives unchanged. Calcite folds {@code CAST(1.9 AS INTEGER)} to 1, {@code CAST(1.555 AS
 * DECIMAL(10,2))} to 1.55 and {@code CAST('abcdefgh' AS VARCHAR(5))} to {@code 'abcde'}; Cairn
 * keeps such casts, so that the evaluator applies its own rules (rounding HALF_UP, as CAST does at
 * run time) and store assignment, which removes the cast to the column type, checks the value and
 * fails with STRING_TOO_LONG or NUMERIC_OUT_OF_RANGE instead of storing a damaged value.
 */
final class CairnRexBuilder extends RexBuilder {
  CairnRexBuilder(RelDataTypeFactory typeFactory) {
    super(typeFactory);
  }

  @Override
  public RexNode makeCast(
      SqlParserPos pos,
      RelDataType type,
      RexNode exp,
      boolean matchNullability,
      boolean safe,
      RexLiteral format) {
    if (exp instanceof RexLiteral literal && !literal.isNull() && loses(type, value(literal))) {
      RelDataType target =
          matchNullability
              ? getTypeFactory().createTypeWithNullability(type, exp.getType().isNullable())
              : type;
      return makeAbstractCast(pos, target, exp, safe, format);
    }
    return super.makeCast(pos, type, exp, matchNullability, safe, format);
  }

  /** The literal's value; datetimes as Calcite's strings, which keep every fraction digit. */
  private static Comparable<?> value(RexLiteral literal) {
    return switch (literal.getTypeName()) {
      case TIMESTAMP -> literal.getValueAs(TimestampString.class);
      case TIME -> literal.getValueAs(TimeString.class);
      default -> literal.getValue();
    };
  }

  /** Whether converting {@code value} to {@code toType} would change it. */
  private static boolean loses(RelDataType toType, Comparable<?> value) {
    SqlTypeName to = toType.getSqlTypeName();
    int precision = toType.getPrecision();
    if (value instanceof NlsString text && SqlTypeUtil.isCharacter(toType)) {
      int length = text.getValue().codePointCount(0, text.getValue().length());
      return precision != RelDataType.PRECISION_NOT_SPECIFIED && length > precision;
    }
    if (value instanceof ByteString bytes && SqlTypeUtil.isBinary(toType)) {
      return precision != RelDataType.PRECISION_NOT_SPECIFIED && bytes.length() > precision;
    }
    if ((value instanceof TimestampString || value instanceof TimeString)
        && (to == SqlTypeName.TIMESTAMP || to == SqlTypeName.TIME)
        && precision != RelDataType.PRECISION_NOT_SPECIFIED) {
      String text = value.toString();
      int dot = text.lastIndexOf('.');
      return dot >= 0 && text.length() - dot - 1 > precision;
    }
    if (value instanceof BigDecimal number && SqlTypeUtil.isExactNumeric(toType)) {
      int scale = to == SqlTypeName.DECIMAL ? toType.getScale() : 0;
      BigDecimal stripped = number.signum() == 0 ? BigDecimal.ZERO : number.stripTrailingZeros();
      if (stripped.scale() > scale) {
        return true;
      }
      return to == SqlTypeName.DECIMAL
          && stripped.precision() - stripped.scale() > precision - scale;
    }
    return false;
  }
}
