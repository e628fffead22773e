package io.cairn.core.expr;

import static io.cairn.core.expr.ExprTesting.BIG;
import static io.cairn.core.expr.ExprTesting.DT;
import static io.cairn.core.expr.ExprTesting.INT;
import static io.cairn.core.expr.ExprTesting.YM;
import static io.cairn.core.expr.ExprTesting.check;
import static io.cairn.core.expr.ExprTesting.checkConstant;
import static io.cairn.core.expr.ExprTesting.checkError;
import static io.cairn.core.expr.ExprTesting.dec;
import static io.cairn.core.expr.ExprTesting.lit;
import static io.cairn.core.expr.ExprTesting.nul;
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

class TestDatetimeFunctions {
  private static final long DAY = 86_400_000L;
  private static final LocalDateTime TS = LocalDateTime.of(2024, 2, 29, 13, 45, 30, 250_000_000);

  static LocalDate date(int y, int m, int d) {
    return LocalDate.of(y, m, d);
  }

  static Stream<Arguments> plusMonths() {
    return Stream.of(
        Arguments.of(date(2024, 1, 31), 1L, date(2024, 2, 29)), // leap year: clamp to 29
        Arguments.of(date(2023, 1, 31), 1L, date(2023, 2, 28)),
        Arguments.of(date(2024, 2, 29), 12L, date(2025, 2, 28)),
        Arguments.of(date(2024, 2, 29), 48L, date(2028, 2, 29)),
        Arguments.of(date(2024, 3, 31), -1L, date(2024, 2, 29)),
        Arguments.of(date(2024, 5, 31), 1L, date(2024, 6, 30)),
        Arguments.of(date(2024, 12, 15), 1L, date(2025, 1, 15)),
        Arguments.of(date(2024, 1, 15), -13L, date(2022, 12, 15)));
  }

  @ParameterizedTest
  @MethodSource
  void plusMonths(LocalDate d, long months, LocalDate expected) {
    check(expected, Op.DATETIME_PLUS, DataType.DATE, lit(d), lit(months, YM));
    // d - (-n months) = d + n months
    check(expected, Op.DATETIME_MINUS, DataType.DATE, lit(d), lit(-months, YM));
  }

  @Test
  void minusMonthsIsNotAlwaysTheInverse() {
    // 2024-03-31 - 1 month = 2024-02-29 (clamped), + 1 month = 2024-03-29
    check(date(2024, 2, 29), Op.DATETIME_MINUS, DataType.DATE, lit(date(2024, 3, 31)), lit(1L, YM));
    check(date(2024, 3, 29), Op.DATETIME_PLUS, DataType.DATE, lit(date(2024, 2, 29)), lit(1L, YM));
  }

  @Test
  void plusDaysAndMillis() {
    check(
        date(2024, 3, 1),
        Op.DATETIME_PLUS,
        DataType.DATE,
        lit(date(2024, 2, 28)),
        lit(2 * DAY, DT));
    check(date(2023, 3, 1), Op.DATETIME_PLUS, DataType.DATE, lit(date(2023, 2, 28)), lit(DAY, DT));
    check(
        date(2024, 12, 31),
        Op.DATETIME_PLUS,
        DataType.DATE,
        lit(date(2024, 1, 1)),
        lit(365 * DAY, DT));
    check(
        date(2024, 2, 28),
        Op.DATETIME_MINUS,
        DataType.DATE,
        lit(date(2024, 3, 1)),
        lit(2 * DAY, DT));
    // interval first
    check(date(2024, 3, 1), Op.DATETIME_PLUS, DataType.DATE, lit(DAY, DT), lit(date(2024, 2, 29)));
    // DATE + hours as TIMESTAMP
    check(
        LocalDateTime.of(2024, 2, 29, 6, 0),
        Op.DATETIME_PLUS,
        DataType.TIMESTAMP,
        lit(date(2024, 2, 29)),
        lit(6 * 3_600_000L, DT));
    check(
        LocalDateTime.of(2024, 3, 1, 0, 0, 0, 250_000_000),
        Op.DATETIME_PLUS,
        DataType.TIMESTAMP,
        lit(LocalDateTime.of(2024, 2, 29, 23, 59, 59, 250_000_000)),
        lit(1000L, DT));
    check(
        LocalDateTime.of(2024, 2, 29, 23, 59, 59),
        Op.DATETIME_MINUS,
        DataType.TIMESTAMP,
        lit(LocalDateTime.of(2024, 3, 1, 0, 0)),
        lit(1000L, DT));
    check(
        LocalDateTime.of(2024, 2, 29, 10, 0),
        Op.DATETIME_PLUS,
        DataType.TIMESTAMP,
        lit(LocalDateTime.of(2024, 1, 31, 10, 0)),
        lit(1L, YM));
    // TIME wraps around midnight
    check(
        LocalTime.of(1, 0),
        Op.DATETIME_PLUS,
        DataType.TIME,
        lit(LocalTime.of(23, 0)),
        lit(2 * 3_600_000L, DT));
    check(
        LocalTime.of(23, 0),
        Op.DATETIME_MINUS,
        DataType.TIME,
        lit(LocalTime.of(1, 0)),
        lit(2 * 3_600_000L, DT));
    // PLUS/MINUS with a datetime result type route to the same code
    check(date(2024, 2, 29), Op.PLUS, DataType.DATE, lit(date(2024, 1, 29)), lit(1L, YM));
    check(date(2024, 1, 29), Op.MINUS, DataType.DATE, lit(date(2024, 2, 29)), lit(1L, YM));
    check(null, Op.DATETIME_PLUS, DataType.DATE, nul(DataType.DATE), lit(1L, YM));
    check(null, Op.DATETIME_PLUS, DataType.DATE, lit(date(2024, 1, 1)), nul(YM));
  }

  @Test
  void datetimeOutOfRange() {
    checkError(
        ErrorCode.DATETIME_OUT_OF_RANGE,
        "[9999-12-31] + [1]",
        Op.DATETIME_PLUS,
        DataType.DATE,
        lit(date(9999, 12, 31)),
        lit(1L, YM));
    checkError(
        ErrorCode.DATETIME_OUT_OF_RANGE,
        "[2024-01-01] + [" + Long.MAX_VALUE / 2 + "]",
        Op.DATETIME_PLUS,
        DataType.DATE,
        lit(date(2024, 1, 1)),
        lit(Long.MAX_VALUE / 2, YM));
  }

  @Test
  void diff() {
    check(2 * DAY, Op.DATETIME_DIFF, DT, lit(date(2024, 3, 1)), lit(date(2024, 2, 28)));
    check(DAY, Op.DATETIME_DIFF, DT, lit(date(2023, 3, 1)), lit(date(2023, 2, 28)));
    check(-1500L, Op.DATETIME_DIFF, DT, lit(TS), lit(TS.plusNanos(1_500_000_000L)));
    check(1L, Op.DATETIME_DIFF, YM, lit(date(2024, 2, 29)), lit(date(2024, 1, 29)));
    check(0L, Op.DATETIME_DIFF, YM, lit(date(2024, 2, 28)), lit(date(2024, 1, 29)));
    check(12L, Op.DATETIME_DIFF, YM, lit(date(2025, 2, 28)), lit(date(2024, 2, 28)));
    check(366, Op.DATETIME_DIFF, INT, lit(date(2025, 1, 1)), lit(date(2024, 1, 1)));
    check(3_600_000L, Op.DATETIME_DIFF, DT, lit(LocalTime.of(11, 0)), lit(LocalTime.of(10, 0)));
    check(DAY, Op.MINUS, DT, lit(date(2024, 3, 1)), lit(date(2024, 2, 29)));
    check(null, Op.DATETIME_DIFF, DT, lit(date(2024, 3, 1)), nul(DataType.DATE));
  }

  static Stream<Arguments> extract() {
    LocalDate sunday = date(2024, 3, 3);
    return Stream.of(
        Arguments.of("YEAR", TS, 2024L),
        Arguments.of("QUARTER", TS, 1L),
        Arguments.of("QUARTER", date(2024, 12, 31), 4L),
        Arguments.of("MONTH", TS, 2L),
        Arguments.of("WEEK", date(2024, 1, 1), 1L),
        Arguments.of("WEEK", date(2021, 1, 3), 53L), // ISO week of 2020
        Arguments.of("DAY", TS, 29L),
        Arguments.of("DOY", date(2024, 12, 31), 366L),
        Arguments.of("DOY", date(2023, 12, 31), 365L),
        Arguments.of("DOW", sunday, 0L),
        Arguments.of("DOW", date(2024, 3, 9), 6L),
        Arguments.of("HOUR", TS, 13L),
        Arguments.of("MINUTE", TS, 45L),
        Arguments.of("SECOND", TS, 30L),
        Arguments.of("MILLISECOND", TS, 30250L),
        Arguments.of("EPOCH", LocalDateTime.of(1970, 1, 2, 0, 0, 1), 86401L),
        Arguments.of("EPOCH", date(1969, 12, 31), -86400L),
        Arguments.of("HOUR", LocalTime.of(7, 8, 9), 7L),
        Arguments.of("EPOCH", LocalTime.of(0, 1, 1), 61L),
        Arguments.of("HOUR", date(2024, 1, 1), 0L));
  }

  @ParameterizedTest
  @MethodSource
  void extract(String unit, Object value, long expected) {
    Expr v = lit(value);
    checkConstant(expected, Op.EXTRACT, BIG, lit(unit), v);
    checkConstant((int) expected, Op.EXTRACT, INT, lit(unit.toLowerCase(java.util.Locale.ROOT)), v);
    // value from a row
    Expr e = ExprTesting.call(Op.EXTRACT, BIG, lit(unit), new Expr.ColumnRef(0, v.type()));
    ExprTesting.assertValue(
        ExprCompiler.compile(e).evaluate(new Object[] {value}, ExprTesting.CONTEXT),
        expected,
        unit);
  }

  @Test
  void extractFromIntervals() {
    long millis = ((2 * 24 + 3) * 60 + 4) * 60_000L + 5_006L; // 2 days 03:04:05.006
    checkConstant(2L, Op.EXTRACT, BIG, lit("DAY"), lit(millis, DT));
    checkConstant(3L, Op.EXTRACT, BIG, lit("HOUR"), lit(millis, DT));
    checkConstant(4L, Op.EXTRACT, BIG, lit("MINUTE"), lit(millis, DT));
    checkConstant(5L, Op.EXTRACT, BIG, lit("SECOND"), lit(millis, DT));
    checkConstant(5006L, Op.EXTRACT, BIG, lit("MILLISECOND"), lit(millis, DT));
    checkConstant(-2L, Op.EXTRACT, BIG, lit("DAY"), lit(-millis, DT));
    checkConstant(1L, Op.EXTRACT, BIG, lit("YEAR"), lit(14L, YM));
    checkConstant(2L, Op.EXTRACT, BIG, lit("MONTH"), lit(14L, YM));
    checkConstant(-2L, Op.EXTRACT, BIG, lit("MONTH"), lit(-14L, YM));
  }

  @Test
  void extractFractionalSeconds() {
    checkConstant(dec("30.250"), Op.EXTRACT, DataType.decimal(8, 3), lit("SECOND"), lit(TS));
    checkConstant(30.25, Op.EXTRACT, DataType.DOUBLE, lit("SECOND"), lit(TS));
    checkConstant(null, Op.EXTRACT, BIG, lit("YEAR"), nul(DataType.DATE));
  }

  @Test
  void badUnits() {
    assertThatThrownBy(
            () ->
                ExprCompiler.compile(
                    ExprTesting.call(Op.EXTRACT, BIG, lit("YEAR"), lit(LocalTime.NOON))))
        .isInstanceOfSatisfying(
            CairnException.class,
            e ->
                org.assertj.core.api.Assertions.assertThat(e.errorCode())
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("[YEAR]");
    assertThatThrownBy(
            () ->
                ExprCompiler.compile(ExprTesting.call(Op.EXTRACT, BIG, lit("FORTNIGHT"), lit(TS))))
        .hasMessageContaining("[FORTNIGHT]");
  }

  static Stream<Arguments> floorCeil() {
    LocalDateTime t = LocalDateTime.of(2024, 2, 29, 13, 45, 30, 250_000_000);
    return Stream.of(
        Arguments.of(
            "YEAR", t, LocalDateTime.of(2024, 1, 1, 0, 0), LocalDateTime.of(2025, 1, 1, 0, 0)),
        Arguments.of(
            "QUARTER", t, LocalDateTime.of(2024, 1, 1, 0, 0), LocalDateTime.of(2024, 4, 1, 0, 0)),
        Arguments.of(
            "MONTH", t, LocalDateTime.of(2024, 2, 1, 0, 0), LocalDateTime.of(2024, 3, 1, 0, 0)),
        Arguments.of(
            "WEEK", t, LocalDateTime.of(2024, 2, 26, 0, 0), LocalDateTime.of(2024, 3, 4, 0, 0)),
        Arguments.of(
            "DAY", t, LocalDateTime.of(2024, 2, 29, 0, 0), LocalDateTime.of(2024, 3, 1, 0, 0)),
        Arguments.of(
            "HOUR", t, LocalDateTime.of(2024, 2, 29, 13, 0), LocalDateTime.of(2024, 2, 29, 14, 0)),
        Arguments.of(
            "MINUTE",
            t,
            LocalDateTime.of(2024, 2, 29, 13, 45),
            LocalDateTime.of(2024, 2, 29, 13, 46)),
        Arguments.of(
            "SECOND",
            t,
            LocalDateTime.of(2024, 2, 29, 13, 45, 30),
            LocalDateTime.of(2024, 2, 29, 13, 45, 31)),
        Arguments.of(
            "MONTH",
            LocalDateTime.of(2024, 3, 1, 0, 0),
            LocalDateTime.of(2024, 3, 1, 0, 0),
            LocalDateTime.of(2024, 3, 1, 0, 0)),
        Arguments.of("MONTH", date(2024, 2, 29), date(2024, 2, 1), date(2024, 3, 1)),
        Arguments.of("YEAR", date(2024, 1, 1), date(2024, 1, 1), date(2024, 1, 1)),
        Arguments.of("WEEK", date(2024, 3, 3), date(2024, 2, 26), date(2024, 3, 4)),
        Arguments.of("DAY", date(2024, 3, 3), date(2024, 3, 3), date(2024, 3, 3)),
        Arguments.of("HOUR", LocalTime.of(10, 30), LocalTime.of(10, 0), LocalTime.of(11, 0)));
  }

  @ParameterizedTest
  @MethodSource
  void floorCeil(String unit, Object value, Object floor, Object ceil) {
    DataType type = ExprTesting.typeOf(value);
    checkConstant(floor, Op.FLOOR_DATETIME, type, lit(value), lit(unit));
    checkConstant(ceil, Op.CEIL_DATETIME, type, lit(value), lit(unit));
    Expr e = ExprTesting.call(Op.CEIL_DATETIME, type, new Expr.ColumnRef(0, type), lit(unit));
    ExprTesting.assertValue(
        ExprCompiler.compile(e).evaluate(new Object[] {value}, ExprTesting.CONTEXT), ceil, unit);
  }
}
