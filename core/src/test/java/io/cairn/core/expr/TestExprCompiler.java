package io.cairn.core.expr;

import static io.cairn.core.expr.ExprTesting.BIG;
import static io.cairn.core.expr.ExprTesting.BOOL;
import static io.cairn.core.expr.ExprTesting.CONTEXT;
import static io.cairn.core.expr.ExprTesting.DBL;
import static io.cairn.core.expr.ExprTesting.INT;
import static io.cairn.core.expr.ExprTesting.NOW;
import static io.cairn.core.expr.ExprTesting.VC;
import static io.cairn.core.expr.ExprTesting.call;
import static io.cairn.core.expr.ExprTesting.check;
import static io.cairn.core.expr.ExprTesting.checkError;
import static io.cairn.core.expr.ExprTesting.dec;
import static io.cairn.core.expr.ExprTesting.evalConstant;
import static io.cairn.core.expr.ExprTesting.lit;
import static io.cairn.core.expr.ExprTesting.nul;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TestExprCompiler {
  private static final Boolean T = Boolean.TRUE;
  private static final Boolean F = Boolean.FALSE;
  private static final Boolean N = null;

  static Stream<Arguments> threeValuedLogic() {
    // a, b, a AND b, a OR b
    return Stream.of(
        Arguments.of(T, T, T, T),
        Arguments.of(T, F, F, T),
        Arguments.of(T, N, N, T),
        Arguments.of(F, T, F, T),
        Arguments.of(F, F, F, F),
        Arguments.of(F, N, F, N),
        Arguments.of(N, T, N, T),
        Arguments.of(N, F, F, N),
        Arguments.of(N, N, N, N));
  }

  @ParameterizedTest
  @MethodSource
  void threeValuedLogic(Boolean a, Boolean b, Boolean and, Boolean or) {
    check(and, Op.AND, BOOL, lit(a, BOOL), lit(b, BOOL));
    check(or, Op.OR, BOOL, lit(a, BOOL), lit(b, BOOL));
    check(and, Op.AND, BOOL, lit(a, BOOL), lit(true), lit(b, BOOL));
    check(or, Op.OR, BOOL, lit(false), lit(a, BOOL), lit(b, BOOL));
  }

  static Stream<Arguments> booleanTests() {
    // value, NOT, IS TRUE, IS NOT TRUE, IS FALSE, IS NOT FALSE, IS NULL, IS NOT NULL
    return Stream.of(
        Arguments.of(T, F, T, F, F, T, F, T),
        Arguments.of(F, T, F, T, T, F, F, T),
        Arguments.of(N, N, F, T, F, T, T, F));
  }

  @ParameterizedTest
  @MethodSource
  void booleanTests(
      Boolean v,
      Boolean not,
      Boolean isTrue,
      Boolean isNotTrue,
      Boolean isFalse,
      Boolean isNotFalse,
      Boolean isNull,
      Boolean isNotNull) {
    Expr e = lit(v, BOOL);
    check(not, Op.NOT, BOOL, e);
    check(isTrue, Op.IS_TRUE, BOOL, e);
    check(isNotTrue, Op.IS_NOT_TRUE, BOOL, e);
    check(isFalse, Op.IS_FALSE, BOOL, e);
    check(isNotFalse, Op.IS_NOT_FALSE, BOOL, e);
    check(isNull, Op.IS_NULL, BOOL, e);
    check(isNotNull, Op.IS_NOT_NULL, BOOL, e);
  }

  @Test
  void andShortCircuitsOnFalse() {
    Expr boom = call(Op.DIVIDE, INT, new Expr.ColumnRef(0, INT), lit(0));
    RowExpression e =
        ExprCompiler.compile(call(Op.AND, BOOL, lit(false), call(Op.EQUALS, BOOL, boom, lit(1))));
    assertThat(e.evaluate(new Object[] {1}, CONTEXT)).isEqualTo(false);
  }

  static Stream<Arguments> comparisons() {
    // a, b, compare sign (null = unknown)
    return Stream.of(
        Arguments.of(1, 2, -1),
        Arguments.of(2, 2L, 0),
        Arguments.of(3L, 2, 1),
        Arguments.of(1, dec("1.00"), 0),
        Arguments.of(dec("1.5"), 1, 1),
        Arguments.of(1, 1.0, 0),
        Arguments.of(1.5, dec("1.5"), 0),
        Arguments.of(dec("0.1"), 0.1, -1), // 0.1 as a double is 0.1000000000000000055...
        Arguments.of(9007199254740993L, 9007199254740992.0, 1), // exact, not via double
        Arguments.of(Double.NaN, 1.0, 1),
        Arguments.of(Double.NaN, Double.NaN, 0),
        Arguments.of(-0.0, 0.0, 0),
        Arguments.of(1.0f, 1.0, 0),
        Arguments.of((byte) 1, (short) 2, -1),
        Arguments.of("a", "b", -1),
        Arguments.of("a", "a ", -1), // VARCHAR: trailing spaces count
        Arguments.of("b", "abc", 1),
        Arguments.of("\uFFFD", "\uD83D\uDE00", -1), // code point order, not UTF-16 order
        Arguments.of(false, true, -1),
        Arguments.of(true, true, 0),
        Arguments.of(LocalDate.of(2024, 1, 1), LocalDate.of(2023, 12, 31), 1),
        Arguments.of(LocalDate.of(2024, 1, 1), LocalDateTime.of(2024, 1, 1, 0, 0), 0),
        Arguments.of(LocalDate.of(2024, 1, 1), LocalDateTime.of(2024, 1, 1, 0, 1), -1),
        Arguments.of(LocalTime.of(10, 0), LocalTime.of(9, 59), 1),
        Arguments.of(new byte[] {1, 2}, new byte[] {1, (byte) 0xFF}, -1), // unsigned
        Arguments.of(new byte[] {1}, new byte[] {1, 0}, -1),
        Arguments.of(null, 1, null),
        Arguments.of(1, null, null));
  }

  @ParameterizedTest
  @MethodSource
  void comparisons(Object a, Object b, Integer sign) {
    Expr x = a == null ? nul(ExprTesting.typeOf(b)) : lit(a);
    Expr y = b == null ? nul(ExprTesting.typeOf(a)) : lit(b);
    check(sign == null ? null : sign == 0, Op.EQUALS, BOOL, x, y);
    check(sign == null ? null : sign != 0, Op.NOT_EQUALS, BOOL, x, y);
    check(sign == null ? null : sign < 0, Op.LESS_THAN, BOOL, x, y);
    check(sign == null ? null : sign <= 0, Op.LESS_THAN_OR_EQUAL, BOOL, x, y);
    check(sign == null ? null : sign > 0, Op.GREATER_THAN, BOOL, x, y);
    check(sign == null ? null : sign >= 0, Op.GREATER_THAN_OR_EQUAL, BOOL, x, y);
    check(sign == null ? true : sign != 0, Op.IS_DISTINCT_FROM, BOOL, x, y);
    check(sign == null ? false : sign == 0, Op.IS_NOT_DISTINCT_FROM, BOOL, x, y);
    if (a != null && b != null) {
      assertThat(Integer.signum(Values.compare(a, b))).isEqualTo(sign);
      assertThat(Integer.signum(Values.compare(b, a))).isEqualTo(-sign);
    }
  }

  @Test
  void charComparisonIgnoresTrailingSpaces() {
    DataType c5 = DataType.chars(5);
    check(true, Op.EQUALS, BOOL, lit("ab   ", c5), lit("ab"));
    check(true, Op.EQUALS, BOOL, lit("ab   ", c5), lit("ab ", DataType.chars(3)));
    check(false, Op.LESS_THAN, BOOL, lit("ab   ", c5), lit("ab"));
    check(false, Op.EQUALS, BOOL, lit("ab "), lit("ab"));
  }

  @Test
  void distinctFromNulls() {
    check(false, Op.IS_DISTINCT_FROM, BOOL, nul(INT), nul(INT));
    check(true, Op.IS_NOT_DISTINCT_FROM, BOOL, nul(INT), nul(INT));
    check(true, Op.IS_DISTINCT_FROM, BOOL, nul(INT), lit(1));
  }

  @Test
  void incomparableTypesFail() {
    checkError(
        ErrorCode.TYPE_MISMATCH,
        "[Boolean]",
        Op.EQUALS,
        BOOL,
        lit(true),
        lit(LocalDate.of(2020, 1, 1)));
  }

  static Stream<Arguments> arithmetic() {
    return Stream.of(
        // op, result type, a, b, expected
        Arguments.of(Op.PLUS, INT, 1, 2, 3),
        Arguments.of(Op.MINUS, INT, 1, 2, -1),
        Arguments.of(Op.TIMES, INT, -3, 7, -21),
        Arguments.of(Op.DIVIDE, INT, 7, 2, 3),
        Arguments.of(Op.DIVIDE, INT, -7, 2, -3), // truncates toward zero
        Arguments.of(Op.MOD, INT, -7, 2, -1), // sign of the dividend
        Arguments.of(Op.MOD, INT, 7, -2, 1),
        Arguments.of(Op.PLUS, BIG, 2147483647, 1, 2147483648L),
        Arguments.of(Op.PLUS, BIG, 1, 2L, 3L),
        Arguments.of(Op.TIMES, DataType.SMALLINT, (short) 100, (short) 300, (short) 30000),
        Arguments.of(Op.PLUS, DataType.TINYINT, (byte) 100, (byte) 27, (byte) 127),
        Arguments.of(Op.DIVIDE, BIG, Long.MIN_VALUE, 1L, Long.MIN_VALUE),
        Arguments.of(Op.MOD, BIG, Long.MIN_VALUE, -1L, 0L),
        Arguments.of(Op.PLUS, DataType.decimal(5, 2), dec("1.25"), dec("2.5"), dec("3.75")),
        Arguments.of(Op.PLUS, DataType.decimal(12, 2), dec("1.25"), 2, dec("3.25")),
        Arguments.of(Op.TIMES, DataType.decimal(10, 4), dec("1.25"), dec("2.25"), dec("2.8125")),
        Arguments.of(Op.TIMES, DataType.decimal(10, 3), dec("1.25"), dec("2.25"), dec("2.813")),
        Arguments.of(Op.DIVIDE, DataType.decimal(10, 6), dec("1"), dec("3"), dec("0.333333")),
        Arguments.of(Op.DIVIDE, DataType.decimal(10, 2), dec("2"), dec("3"), dec("0.67")),
        Arguments.of(Op.DIVIDE, DataType.decimal(10, 2), dec("-2"), dec("3"), dec("-0.67")),
        Arguments.of(Op.MOD, DataType.decimal(10, 1), dec("7.5"), dec("2"), dec("1.5")),
        Arguments.of(Op.MINUS, DataType.decimal(10, 2), dec("0.10"), dec("0.3"), dec("-0.20")),
        Arguments.of(Op.PLUS, DBL, 0.1, 0.2, 0.1 + 0.2),
        Arguments.of(Op.DIVIDE, DBL, 1.0, 4, 0.25),
        Arguments.of(Op.DIVIDE, DBL, 7, 2, 3.5),
        Arguments.of(Op.TIMES, DBL, Double.POSITIVE_INFINITY, 10.0, Double.POSITIVE_INFINITY),
        Arguments.of(Op.MOD, DBL, 7.5, 2.0, 1.5),
        Arguments.of(Op.PLUS, DataType.FLOAT, 1.5f, 1.0f, 2.5f),
        Arguments.of(Op.PLUS, BIG, null, 1L, null),
        Arguments.of(Op.DIVIDE, INT, 1, null, null),
        Arguments.of(Op.DIVIDE, INT, null, 0, null),
        Arguments.of(Op.PLUS, INT, dec("1.5"), 1, 3)); // non-integer operand: exact, then rounded
  }

  @ParameterizedTest
  @MethodSource
  void arithmetic(Op op, DataType type, Object a, Object b, Object expected) {
    Expr x = a == null ? nul(ExprTesting.typeOf(b)) : lit(a);
    Expr y = b == null ? nul(ExprTesting.typeOf(a)) : lit(b);
    check(expected, op, type, x, y);
  }

  static Stream<Arguments> overflow() {
    return Stream.of(
        Arguments.of(Op.PLUS, INT, 2147483647, 1, "[2147483647] + [1]"),
        Arguments.of(Op.MINUS, INT, -2147483648, 1, "[-2147483648] - [1]"),
        Arguments.of(Op.TIMES, INT, 65536, 65536, "[65536] * [65536]"),
        Arguments.of(Op.DIVIDE, INT, -2147483648, -1, "[-2147483648] / [-1]"),
        Arguments.of(Op.PLUS, BIG, Long.MAX_VALUE, 1L, "[9223372036854775807] + [1]"),
        Arguments.of(Op.TIMES, BIG, Long.MAX_VALUE, 2L, "[9223372036854775807] * [2]"),
        Arguments.of(Op.DIVIDE, BIG, Long.MIN_VALUE, -1L, "[-9223372036854775808] / [-1]"),
        Arguments.of(Op.PLUS, DataType.TINYINT, (byte) 127, (byte) 1, "[127] + [1]"),
        Arguments.of(Op.TIMES, DataType.SMALLINT, (short) 300, (short) 300, "[300] * [300]"),
        Arguments.of(Op.PLUS, DataType.decimal(3, 1), dec("99.9"), dec("0.1"), "[99.9] + [0.1]"),
        Arguments.of(
            Op.TIMES, DataType.decimal(4, 2), dec("10.00"), dec("10.00"), "[10.00] * [10.00]"),
        // finite doubles whose result does not fit: 22003 like POWER, not Infinity
        Arguments.of(Op.TIMES, DBL, 1e308, 10.0, "[1e+308] * [10] is out of range for DOUBLE"),
        Arguments.of(Op.PLUS, DBL, Double.MAX_VALUE, Double.MAX_VALUE, "out of range for DOUBLE"),
        Arguments.of(Op.DIVIDE, DBL, 1e300, 1e-300, "[1e+300] / [1e-300]"),
        Arguments.of(Op.TIMES, DataType.FLOAT, 3e38f, 10.0f, "out of range for FLOAT"));
  }

  @ParameterizedTest
  @MethodSource
  void overflow(Op op, DataType type, Object a, Object b, String message) {
    checkError(ErrorCode.NUMERIC_OUT_OF_RANGE, message, op, type, lit(a), lit(b));
  }

  static Stream<Arguments> divisionByZero() {
    return Stream.of(
        Arguments.of(Op.DIVIDE, INT, 1, 0),
        Arguments.of(Op.MOD, INT, 1, 0),
        Arguments.of(Op.DIVIDE, BIG, 1L, 0L),
        Arguments.of(Op.DIVIDE, DataType.decimal(10, 2), dec("1.5"), dec("0.00")),
        Arguments.of(Op.MOD, DataType.decimal(10, 2), dec("1.5"), 0),
        Arguments.of(Op.DIVIDE, DBL, 1.0, 0.0),
        Arguments.of(Op.DIVIDE, DBL, 1.0, -0.0),
        Arguments.of(Op.MOD, DBL, 1.0, 0.0),
        Arguments.of(Op.DIVIDE, DataType.FLOAT, 1.0f, 0.0f));
  }

  @ParameterizedTest
  @MethodSource
  void divisionByZero(Op op, DataType type, Object a, Object b) {
    checkError(ErrorCode.DIVISION_BY_ZERO, "Division by zero: [", op, type, lit(a), lit(b));
  }

  @Test
  void negate() {
    check(-5, Op.NEGATE, INT, lit(5));
    check(5L, Op.NEGATE, BIG, lit(-5L));
    check(dec("-1.50"), Op.NEGATE, DataType.decimal(5, 2), lit(dec("1.50")));
    check(-2.5, Op.NEGATE, DBL, lit(2.5));
    check(null, Op.NEGATE, INT, nul(INT));
    checkError(ErrorCode.NUMERIC_OUT_OF_RANGE, "-[-2147483648]", Op.NEGATE, INT, lit(-2147483648));
    checkError(
        ErrorCode.NUMERIC_OUT_OF_RANGE,
        "[-9223372036854775808]",
        Op.NEGATE,
        BIG,
        lit(Long.MIN_VALUE));
  }

  @Test
  void caseWhen() {
    Expr whenNull = nul(BOOL);
    check("b", Op.CASE, VC, lit(false), lit("a"), lit(true), lit("b"), lit("c"));
    check("c", Op.CASE, VC, lit(false), lit("a"), whenNull, lit("b"), lit("c"));
    check(null, Op.CASE, VC, lit(false), lit("a"), nul(VC));
    // branches of other types are widened to the result type
    check(1L, Op.CASE, BIG, lit(true), lit(1), lit(2L));
    check(dec("2.00"), Op.CASE, DataType.decimal(5, 2), lit(false), lit(dec("1.5")), lit(2));
  }

  @Test
  void caseEvaluatesOnlyTheTakenBranch() {
    Expr col = new Expr.ColumnRef(0, INT);
    Expr e =
        call(
            Op.CASE,
            INT,
            call(Op.EQUALS, BOOL, col, lit(0)),
            lit(-1),
            call(Op.DIVIDE, INT, lit(10), col));
    RowExpression r = ExprCompiler.compile(e);
    assertThat(r.evaluate(new Object[] {0}, CONTEXT)).isEqualTo(-1);
    assertThat(r.evaluate(new Object[] {5}, CONTEXT)).isEqualTo(2);
    // a constant 1/0 in a branch that is never taken is not an error either
    Expr constant = call(Op.CASE, INT, lit(true), lit(1), call(Op.DIVIDE, INT, lit(1), lit(0)));
    assertThat(evalConstant(constant)).isEqualTo(1);
  }

  @Test
  void coalesceAndNullif() {
    check(2, Op.COALESCE, INT, nul(INT), lit(2), lit(3));
    check(null, Op.COALESCE, INT, nul(INT), nul(INT));
    check(2L, Op.COALESCE, BIG, nul(INT), lit(2));
    check(null, Op.NULLIF, INT, lit(1), lit(1));
    check(1, Op.NULLIF, INT, lit(1), lit(2));
    check(1, Op.NULLIF, INT, lit(1), nul(INT));
    check(null, Op.NULLIF, INT, nul(INT), lit(1));
    check(null, Op.NULLIF, DataType.decimal(3, 1), lit(dec("1.0")), lit(1));
    check(dec("1.0"), Op.NULLIF, DataType.decimal(3, 1), lit(1), lit(dec("1.5")));
    check(null, Op.NULLIF, DataType.decimal(3, 1), lit(1), lit(dec("1.0")));
  }

  static Stream<Arguments> inList() {
    return Stream.of(
        Arguments.of(1, new Object[] {1, 2, 3}, true),
        Arguments.of(4, new Object[] {1, 2, 3}, false),
        Arguments.of(1, new Object[] {1, null}, true),
        Arguments.of(2, new Object[] {1, null}, null),
        Arguments.of(null, new Object[] {1, 2}, null),
        Arguments.of(2L, new Object[] {1, 2}, true),
        Arguments.of(2, new Object[] {dec("2.00"), dec("1.5")}, true),
        Arguments.of(dec("1.50"), new Object[] {dec("1.5")}, true),
        Arguments.of(2.0, new Object[] {1.0, 2.0}, true),
        Arguments.of(-0.0, new Object[] {0.0}, true),
        Arguments.of(2, new Object[] {1.0, 2.0}, true),
        Arguments.of("b", new Object[] {"a", "b"}, true),
        Arguments.of("b ", new Object[] {"a", "b"}, false),
        Arguments.of(LocalDate.of(2020, 1, 1), new Object[] {LocalDate.of(2020, 1, 1)}, true),
        Arguments.of(new byte[] {1, 2}, new Object[] {new byte[] {1, 2}}, true));
  }

  @ParameterizedTest
  @MethodSource
  void inList(Object value, Object[] items, Boolean expected) {
    Expr[] operands = new Expr[items.length + 1];
    operands[0] = value == null ? nul(INT) : lit(value);
    for (int i = 0; i < items.length; i++) {
      operands[i + 1] = items[i] == null ? nul(operands[0].type()) : lit(items[i]);
    }
    check(expected, Op.IN, BOOL, operands);
  }

  @Test
  void inListOfChar() {
    check(
        true,
        Op.IN,
        BOOL,
        lit("b  ", DataType.chars(3)),
        lit("a", DataType.chars(3)),
        lit("b", DataType.chars(3)));
  }

  @Test
  void greatestAndLeastIgnoreNulls() {
    check(3, Op.GREATEST, INT, lit(1), nul(INT), lit(3), lit(2));
    check(1, Op.LEAST, INT, lit(1), nul(INT), lit(3), lit(2));
    check(null, Op.GREATEST, INT, nul(INT), nul(INT));
    check(dec("2.50"), Op.GREATEST, DataType.decimal(5, 2), lit(2), lit(dec("2.5")), lit(1));
    check("b", Op.GREATEST, VC, lit("a"), lit("b"));
    check(2.5, Op.GREATEST, DBL, lit(2), lit(2.5));
  }

  @Test
  void columnsAndParameters() {
    RowExpression col = ExprCompiler.compile(new Expr.ColumnRef(1, VC));
    assertThat(col.evaluate(new Object[] {1, "a"}, CONTEXT)).isEqualTo("a");
    RowExpression param = ExprCompiler.compile(new Expr.Param(0, INT));
    assertThat(param.evaluate(new Object[0], CONTEXT)).isEqualTo(42);
    // a parameter bound with another Java class is converted to the declared type
    RowExpression widened = ExprCompiler.compile(new Expr.Param(0, BIG));
    assertThat(widened.evaluate(new Object[0], CONTEXT)).isEqualTo(42L);
    RowExpression plus =
        ExprCompiler.compile(
            call(Op.PLUS, INT, new Expr.Param(0, INT), new Expr.ColumnRef(0, INT)));
    assertThat(plus.evaluate(new Object[] {8}, CONTEXT)).isEqualTo(50);
    assertThat(plus.evaluate(new Object[] {null}, CONTEXT)).isNull();
  }

  @Test
  void missingParameter() {
    RowExpression param = ExprCompiler.compile(new Expr.Param(5, INT));
    assertThatThrownBy(() -> param.evaluate(new Object[0], CONTEXT))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PARAMETER_NOT_SET))
        .hasMessageContaining("[5]");
  }

  @Test
  void currentTimeComesFromTheContext() {
    assertThat(evalConstant(call(Op.CURRENT_DATE, DataType.DATE))).isEqualTo(NOW.toLocalDate());
    assertThat(evalConstant(call(Op.CURRENT_TIME, DataType.TIME))).isEqualTo(NOW.toLocalTime());
    assertThat(evalConstant(call(Op.CURRENT_TIMESTAMP, DataType.TIMESTAMP))).isEqualTo(NOW);
    assertThat(evalConstant(call(Op.LOCALTIMESTAMP, DataType.TIMESTAMP))).isEqualTo(NOW);
    DataType ts0 = new DataType(io.cairn.core.type.TypeName.TIMESTAMP, 0, 0, true);
    assertThat(evalConstant(call(Op.CURRENT_TIMESTAMP, ts0))).isEqualTo(NOW.withNano(0));
    // not folded: a second statement sees its own clock
    RowExpression e = ExprCompiler.compile(call(Op.CURRENT_DATE, DataType.DATE));
    EvalContext later = new EvalContext(new Object[0], LocalDateTime.of(2030, 1, 1, 0, 0));
    assertThat(e.evaluate(new Object[0], later)).isEqualTo(LocalDate.of(2030, 1, 1));
  }

  @Test
  void wrongArityIsAnInternalError() {
    assertThatThrownBy(() -> ExprCompiler.compile(call(Op.PLUS, INT, lit(1))))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR));
  }
}
