package io.cairn.core.expr;

import static io.cairn.core.expr.ExprTesting.BIG;
import static io.cairn.core.expr.ExprTesting.DBL;
import static io.cairn.core.expr.ExprTesting.INT;
import static io.cairn.core.expr.ExprTesting.check;
import static io.cairn.core.expr.ExprTesting.checkError;
import static io.cairn.core.expr.ExprTesting.dec;
import static io.cairn.core.expr.ExprTesting.lit;
import static io.cairn.core.expr.ExprTesting.nul;

import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TestNumericFunctions {
  static Stream<Arguments> unary() {
    DataType d52 = DataType.decimal(5, 2);
    DataType d50 = DataType.decimal(5, 0);
    return Stream.of(
        Arguments.of(Op.ABS, INT, -3, 3),
        Arguments.of(Op.ABS, BIG, -3L, 3L),
        Arguments.of(Op.ABS, d52, dec("-1.25"), dec("1.25")),
        Arguments.of(Op.ABS, DBL, -2.5, 2.5),
        Arguments.of(Op.CEIL, d50, dec("1.01"), dec("2")),
        Arguments.of(Op.CEIL, d50, dec("-1.99"), dec("-1")),
        Arguments.of(Op.CEIL, DBL, 1.2, 2.0),
        Arguments.of(Op.CEIL, INT, 7, 7),
        Arguments.of(Op.FLOOR, d50, dec("-1.01"), dec("-2")),
        Arguments.of(Op.FLOOR, d52, dec("1.99"), dec("1.00")),
        Arguments.of(Op.FLOOR, DBL, -1.5, -2.0),
        Arguments.of(Op.FLOOR, BIG, 7, 7L),
        Arguments.of(Op.SQRT, DBL, 16, 4.0),
        Arguments.of(Op.SQRT, DBL, 2.25, 1.5),
        Arguments.of(Op.SQRT, DBL, dec("0.25"), 0.5),
        Arguments.of(Op.EXP, DBL, 0, 1.0),
        Arguments.of(Op.LN, DBL, 1.0, 0.0),
        Arguments.of(Op.LN, DBL, Math.E, 1.0),
        Arguments.of(Op.LOG10, DBL, 1000, 3.0),
        Arguments.of(Op.SIGN, INT, -7, -1),
        Arguments.of(Op.SIGN, INT, 0, 0),
        Arguments.of(Op.SIGN, DataType.decimal(1, 0), dec("2.5"), dec("1")),
        Arguments.of(Op.SIGN, DBL, -0.5, -1.0),
        Arguments.of(Op.SIGN, DBL, 0.0, 0.0));
  }

  @ParameterizedTest
  @MethodSource
  void unary(Op op, DataType type, Object in, Object out) {
    check(out, op, type, lit(in));
    check(null, op, type, nul(ExprTesting.typeOf(in)));
  }

  static Stream<Arguments> rounding() {
    DataType d = DataType.of(io.cairn.core.type.TypeName.DECIMAL);
    return Stream.of(
        // op, type, value, digits (null = none), expected
        Arguments.of(Op.ROUND, DataType.decimal(5, 0), dec("2.5"), null, dec("3")),
        Arguments.of(Op.ROUND, DataType.decimal(5, 0), dec("-2.5"), null, dec("-3")),
        Arguments.of(Op.ROUND, DataType.decimal(6, 3), dec("2.567"), 1, dec("2.600")),
        Arguments.of(Op.ROUND, d, dec("2.567"), 2, dec("2.57")),
        Arguments.of(Op.ROUND, d, dec("1250"), -2, dec("1300")),
        Arguments.of(Op.ROUND, INT, 1250, -2, 1300),
        Arguments.of(Op.ROUND, INT, -1250, -2, -1300),
        Arguments.of(Op.ROUND, INT, 1249, -2, 1200),
        Arguments.of(Op.ROUND, INT, 17, 1, 17),
        Arguments.of(Op.ROUND, DBL, 2.5, null, 3.0),
        Arguments.of(Op.ROUND, DBL, -2.5, null, -3.0),
        Arguments.of(Op.ROUND, DBL, 2.675, 2, 2.68),
        Arguments.of(Op.ROUND, DBL, 1234.5, -2, 1200.0),
        Arguments.of(Op.TRUNCATE, d, dec("2.567"), 2, dec("2.56")),
        Arguments.of(Op.TRUNCATE, d, dec("-2.567"), 1, dec("-2.5")),
        Arguments.of(Op.TRUNCATE, DataType.decimal(5, 0), dec("-2.9"), null, dec("-2")),
        Arguments.of(Op.TRUNCATE, INT, 1299, -2, 1200),
        Arguments.of(Op.TRUNCATE, DBL, -2.99, null, -2.0),
        Arguments.of(Op.TRUNCATE, DBL, 2.999, 2, 2.99));
  }

  @ParameterizedTest
  @MethodSource
  void rounding(Op op, DataType type, Object value, Integer digits, Object expected) {
    if (digits == null) {
      check(expected, op, type, lit(value));
    } else {
      check(expected, op, type, lit(value), lit(digits));
      check(null, op, type, lit(value), nul(INT));
    }
  }

  @Test
  void power() {
    check(8.0, Op.POWER, DBL, lit(2), lit(3));
    check(0.5, Op.POWER, DBL, lit(2), lit(-1));
    check(-8.0, Op.POWER, DBL, lit(-2), lit(3));
    check(1.0, Op.POWER, DBL, lit(0), lit(0));
    check(null, Op.POWER, DBL, lit(2), nul(INT));
    checkError(ErrorCode.INVALID_ARGUMENT, "[0], [-1]", Op.POWER, DBL, lit(0), lit(-1));
    checkError(ErrorCode.INVALID_ARGUMENT, "[-8], [0.5]", Op.POWER, DBL, lit(-8), lit(0.5));
    checkError(ErrorCode.NUMERIC_OUT_OF_RANGE, "[10] ^ [400]", Op.POWER, DBL, lit(10), lit(400));
  }

  static Stream<Arguments> functionErrors() {
    return Stream.of(
        Arguments.of(
            Op.SQRT,
            DBL,
            -1,
            ErrorCode.INVALID_ARGUMENT,
            "SQRT: expected a non-negative number, found [-1]"),
        Arguments.of(Op.LN, DBL, 0, ErrorCode.INVALID_ARGUMENT, "found [0]"),
        Arguments.of(Op.LN, DBL, -1.5, ErrorCode.INVALID_ARGUMENT, "found [-1.5]"),
        Arguments.of(Op.LOG10, DBL, dec("0.00"), ErrorCode.INVALID_ARGUMENT, "[0.00]"),
        Arguments.of(Op.EXP, DBL, 1000, ErrorCode.NUMERIC_OUT_OF_RANGE, "[1000]"),
        Arguments.of(
            Op.ABS, INT, Integer.MIN_VALUE, ErrorCode.NUMERIC_OUT_OF_RANGE, "[-2147483648]"),
        Arguments.of(
            Op.ABS, BIG, Long.MIN_VALUE, ErrorCode.NUMERIC_OUT_OF_RANGE, "[-9223372036854775808]"));
  }

  @ParameterizedTest
  @MethodSource
  void functionErrors(Op op, DataType type, Object in, ErrorCode code, String message) {
    checkError(code, message, op, type, lit(in));
  }
}
