package io.cairn.core.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;

/** Builders and checks for expression tests. */
final class ExprTesting {
  static final LocalDateTime NOW = LocalDateTime.of(2024, 2, 29, 13, 45, 30, 123_000_000);
  static final EvalContext CONTEXT = new EvalContext(new Object[] {42, "x"}, NOW);
  static final DataType INT = DataType.INTEGER;
  static final DataType BIG = DataType.BIGINT;
  static final DataType DBL = DataType.DOUBLE;
  static final DataType VC = DataType.VARCHAR;
  static final DataType BOOL = DataType.BOOLEAN;
  static final DataType YM = DataType.of(TypeName.INTERVAL_YEAR_MONTH);
  static final DataType DT = DataType.of(TypeName.INTERVAL_DAY_TIME);

  private ExprTesting() {}

  static DataType typeOf(Object v) {
    if (v == null) {
      return DataType.NULL;
    }
    if (v instanceof Boolean) {
      return BOOL;
    }
    if (v instanceof Byte) {
      return DataType.TINYINT;
    }
    if (v instanceof Short) {
      return DataType.SMALLINT;
    }
    if (v instanceof Integer) {
      return INT;
    }
    if (v instanceof Long) {
      return BIG;
    }
    if (v instanceof Float) {
      return DataType.FLOAT;
    }
    if (v instanceof Double) {
      return DBL;
    }
    if (v instanceof BigDecimal d) {
      return DataType.decimal(Math.max(d.precision(), d.scale() + 1), d.scale());
    }
    if (v instanceof String) {
      return VC;
    }
    if (v instanceof byte[]) {
      return DataType.VARBINARY;
    }
    if (v instanceof LocalDate) {
      return DataType.DATE;
    }
    if (v instanceof LocalTime) {
      return DataType.TIME;
    }
    if (v instanceof LocalDateTime) {
      return DataType.TIMESTAMP;
    }
    throw new IllegalArgumentException(String.valueOf(v));
  }

  static Expr lit(Object v) {
    return new Expr.Literal(v, typeOf(v));
  }

  static Expr lit(Object v, DataType type) {
    return new Expr.Literal(v, type);
  }

  static Expr nul(DataType type) {
    return new Expr.Literal(null, type);
  }

  static Expr call(Op op, DataType type, Expr... operands) {
    return new Expr.Call(op, List.of(operands), type);
  }

  static BigDecimal dec(String s) {
    return new BigDecimal(s);
  }

  /** Evaluates with literals (folded at compile time). */
  static Object evalConstant(Expr e) {
    return ExprCompiler.compile(e).evaluate(new Object[0], CONTEXT);
  }

  /** Replaces every literal operand by a column reference to a row holding its value. */
  static Object evalRow(Expr.Call call) {
    Object[] row = new Object[call.operands().size()];
    Expr[] refs = new Expr[row.length];
    for (int i = 0; i < row.length; i++) {
      Expr operand = call.operands().get(i);
      if (operand instanceof Expr.Literal l) {
        row[i] = l.value();
        refs[i] = new Expr.ColumnRef(i, l.type());
      } else {
        refs[i] = operand;
      }
    }
    Expr e = new Expr.Call(call.op(), Arrays.asList(refs), call.type());
    return ExprCompiler.compile(e).evaluate(row, CONTEXT);
  }

  /** Checks the value with constant operands and with operands read from a row. */
  static void check(Object expected, Op op, DataType type, Expr... operands) {
    Expr.Call c = (Expr.Call) call(op, type, operands);
    assertValue(evalConstant(c), expected, c + " (constant)");
    assertValue(evalRow(c), expected, c + " (row)");
  }

  /** Checks with constant operands only (for operands that must be literals, e.g. units). */
  static void checkConstant(Object expected, Op op, DataType type, Expr... operands) {
    Expr c = call(op, type, operands);
    assertValue(evalConstant(c), expected, c.toString());
  }

  static void assertValue(Object actual, Object expected, String description) {
    if (expected instanceof byte[] b) {
      assertThat((byte[]) actual).as(description).isEqualTo(b);
      return;
    }
    assertThat(actual).as(description).isEqualTo(expected);
    if (expected != null) {
      assertThat(actual).as(description).isExactlyInstanceOf(expected.getClass());
    }
  }

  static void checkError(
      ErrorCode code, String messagePart, Op op, DataType type, Expr... operands) {
    Expr.Call c = (Expr.Call) call(op, type, operands);
    assertThatThrownBy(() -> evalConstant(c))
        .as(c.toString())
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(code))
        .hasMessageContaining(messagePart);
    assertThatThrownBy(() -> evalRow(c))
        .as(c.toString())
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(code))
        .hasMessageContaining(messagePart);
  }
}
