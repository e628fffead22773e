package io.cairn.core.expr;

import static io.cairn.core.expr.ExprTesting.dec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TestValues {
  private static final DataType TS3 = new DataType(TypeName.TIMESTAMP, 3, 0, true);

  static Stream<Arguments> casts() {
    return Stream.of(
        // numeric <-> numeric
        Arguments.of(1, DataType.BIGINT, 1L),
        Arguments.of(300L, DataType.SMALLINT, (short) 300),
        Arguments.of(dec("2.5"), DataType.INTEGER, 3),
        Arguments.of(dec("-2.5"), DataType.INTEGER, -3),
        Arguments.of(dec("2.49"), DataType.INTEGER, 2),
        Arguments.of(2.5, DataType.INTEGER, 3),
        Arguments.of(-2.5, DataType.BIGINT, -3L),
        Arguments.of(1.9f, DataType.TINYINT, (byte) 2),
        Arguments.of(0.49999999999999994, DataType.INTEGER, 0),
        Arguments.of(-0.5, DataType.INTEGER, -1),
        Arguments.of(7, DataType.DOUBLE, 7.0),
        Arguments.of(dec("0.1"), DataType.DOUBLE, 0.1),
        Arguments.of(0.1, DataType.FLOAT, 0.1f),
        Arguments.of(1.5f, DataType.DOUBLE, 1.5),
        Arguments.of(7, DataType.decimal(5, 2), dec("7.00")),
        Arguments.of(dec("1.005"), DataType.decimal(5, 2), dec("1.01")),
        Arguments.of(dec("-1.005"), DataType.decimal(5, 2), dec("-1.01")),
        Arguments.of(0.1, DataType.decimal(5, 3), dec("0.100")),
        Arguments.of(0.1f, DataType.decimal(5, 3), dec("0.100")),
        Arguments.of(dec("999.994"), DataType.decimal(5, 2), dec("999.99")),
        Arguments.of(dec("1.5"), DataType.of(TypeName.DECIMAL), dec("1.5")),
        Arguments.of(true, DataType.INTEGER, 1),
        Arguments.of(0, DataType.BOOLEAN, false),
        Arguments.of(5L, DataType.BOOLEAN, true),
        // string -> x (trimmed)
        Arguments.of(" 42 ", DataType.INTEGER, 42),
        Arguments.of("-7", DataType.BIGINT, -7L),
        Arguments.of("+7", DataType.SMALLINT, (short) 7),
        Arguments.of(" 1.25 ", DataType.decimal(5, 1), dec("1.3")),
        Arguments.of("1e3", DataType.decimal(6, 0), dec("1000")),
        Arguments.of("1.5e2", DataType.DOUBLE, 150.0),
        Arguments.of(".5", DataType.DOUBLE, 0.5),
        Arguments.of("-Infinity", DataType.DOUBLE, Double.NEGATIVE_INFINITY),
        Arguments.of("NaN", DataType.DOUBLE, Double.NaN),
        Arguments.of(" TRUE ", DataType.BOOLEAN, true),
        Arguments.of("f", DataType.BOOLEAN, false),
        Arguments.of("off", DataType.BOOLEAN, false),
        Arguments.of("2024-02-29", DataType.DATE, LocalDate.of(2024, 2, 29)),
        Arguments.of(" 2024-2-9 ", DataType.DATE, LocalDate.of(2024, 2, 9)),
        Arguments.of("2024-02-29 10:11:12", DataType.DATE, LocalDate.of(2024, 2, 29)),
        Arguments.of("10:11", DataType.TIME, LocalTime.of(10, 11)),
        Arguments.of("10:11:12.5", DataType.TIME, LocalTime.of(10, 11, 12, 500_000_000)),
        Arguments.of(
            "2024-02-29 10:11:12.123456",
            DataType.TIMESTAMP,
            LocalDateTime.of(2024, 2, 29, 10, 11, 12, 123_456_000)),
        Arguments.of("2024-02-29T10:11", DataType.TIMESTAMP, LocalDateTime.of(2024, 2, 29, 10, 11)),
        Arguments.of("2024-02-29", DataType.TIMESTAMP, LocalDateTime.of(2024, 2, 29, 0, 0)),
        Arguments.of(
            "2024-02-29 10:11:12.1235",
            TS3,
            LocalDateTime.of(2024, 2, 29, 10, 11, 12, 124_000_000)),
        // datetime <-> datetime
        Arguments.of(
            LocalDate.of(2024, 2, 29), DataType.TIMESTAMP, LocalDateTime.of(2024, 2, 29, 0, 0)),
        Arguments.of(
            LocalDateTime.of(2024, 2, 29, 23, 59), DataType.DATE, LocalDate.of(2024, 2, 29)),
        Arguments.of(LocalDateTime.of(2024, 2, 29, 23, 59), DataType.TIME, LocalTime.of(23, 59)),
        // x -> text
        Arguments.of(42, DataType.VARCHAR, "42"),
        Arguments.of(-42L, DataType.VARCHAR, "-42"),
        Arguments.of(dec("1.50"), DataType.VARCHAR, "1.50"),
        Arguments.of(dec("1E+3"), DataType.VARCHAR, "1000"),
        Arguments.of(1.0, DataType.VARCHAR, "1"),
        Arguments.of(0.1, DataType.VARCHAR, "0.1"),
        Arguments.of(-2.5, DataType.VARCHAR, "-2.5"),
        Arguments.of(123456789012345.0, DataType.VARCHAR, "123456789012345"),
        Arguments.of(1e15, DataType.VARCHAR, "1e+15"),
        Arguments.of(1.5e-7, DataType.VARCHAR, "1.5e-07"),
        Arguments.of(0.0001, DataType.VARCHAR, "0.0001"),
        Arguments.of(1e300, DataType.VARCHAR, "1e+300"),
        Arguments.of(Double.NaN, DataType.VARCHAR, "NaN"),
        Arguments.of(Double.POSITIVE_INFINITY, DataType.VARCHAR, "Infinity"),
        Arguments.of(1234567f, DataType.VARCHAR, "1.234567e+06"),
        Arguments.of(0.1f, DataType.VARCHAR, "0.1"),
        Arguments.of(true, DataType.VARCHAR, "true"),
        Arguments.of(LocalDate.of(2024, 2, 29), DataType.VARCHAR, "2024-02-29"),
        Arguments.of(LocalTime.of(10, 0), DataType.VARCHAR, "10:00:00"),
        Arguments.of(LocalTime.of(10, 0, 1, 120_000_000), DataType.VARCHAR, "10:00:01.12"),
        Arguments.of(LocalDateTime.of(2024, 2, 29, 10, 0), DataType.VARCHAR, "2024-02-29 10:00:00"),
        Arguments.of(new byte[] {1, (byte) 0xAB}, DataType.VARCHAR, "\\x01ab"),
        Arguments.of("abcdef", DataType.varchar(3), "abc"),
        Arguments.of("ab", DataType.varchar(3), "ab"),
        Arguments.of("ab", DataType.chars(4), "ab  "),
        Arguments.of("abcdef", DataType.chars(4), "abcd"),
        Arguments.of("\uD83D\uDE00ab", DataType.varchar(2), "\uD83D\uDE00a"),
        Arguments.of(12345, DataType.varchar(3), "123"),
        // binary
        Arguments.of("ab", DataType.VARBINARY, new byte[] {'a', 'b'}),
        Arguments.of("\\x01ff", DataType.VARBINARY, new byte[] {1, (byte) 0xFF}),
        // intervals are Long
        Arguments.of(3, DataType.of(TypeName.INTERVAL_YEAR_MONTH), 3L));
  }

  @ParameterizedTest
  @MethodSource
  void casts(Object value, DataType target, Object expected) {
    Object actual = Values.cast(value, target);
    ExprTesting.assertValue(actual, expected, value + " -> " + target);
    // and through the compiler, from a row
    Expr cast =
        new Expr.Call(
            Op.CAST, java.util.List.of(new Expr.ColumnRef(0, ExprTesting.typeOf(value))), target);
    ExprTesting.assertValue(
        ExprCompiler.compile(cast).evaluate(new Object[] {value}, ExprTesting.CONTEXT),
        expected,
        "compiled");
  }

  @Test
  void castOfNullIsNull() {
    assertThat(Values.cast(null, DataType.INTEGER)).isNull();
    ExprTesting.check(null, Op.CAST, DataType.DATE, ExprTesting.nul(DataType.VARCHAR));
  }

  @Test
  void castCharToVarcharDropsPadding() {
    ExprTesting.check("ab", Op.CAST, DataType.VARCHAR, ExprTesting.lit("ab  ", DataType.chars(4)));
  }

  static Stream<Arguments> castErrors() {
    return Stream.of(
        Arguments.of(128, DataType.TINYINT, ErrorCode.NUMERIC_OUT_OF_RANGE, "[128]"),
        Arguments.of(40000, DataType.SMALLINT, ErrorCode.NUMERIC_OUT_OF_RANGE, "[40000]"),
        Arguments.of(2147483648L, DataType.INTEGER, ErrorCode.NUMERIC_OUT_OF_RANGE, "[2147483648]"),
        Arguments.of(
            dec("2147483647.5"),
            DataType.INTEGER,
            ErrorCode.NUMERIC_OUT_OF_RANGE,
            "[2147483647.5]"),
        Arguments.of(dec("1e19"), DataType.BIGINT, ErrorCode.NUMERIC_OUT_OF_RANGE, "BIGINT"),
        Arguments.of(9.3e18, DataType.BIGINT, ErrorCode.NUMERIC_OUT_OF_RANGE, "[9.3e+18]"),
        Arguments.of(Double.NaN, DataType.INTEGER, ErrorCode.NUMERIC_OUT_OF_RANGE, "[NaN]"),
        Arguments.of(
            Double.POSITIVE_INFINITY,
            DataType.decimal(5, 0),
            ErrorCode.NUMERIC_OUT_OF_RANGE,
            "[Infinity]"),
        Arguments.of(1e39, DataType.FLOAT, ErrorCode.NUMERIC_OUT_OF_RANGE, "[1e+39]"),
        Arguments.of(
            dec("1000.00"),
            DataType.decimal(5, 2),
            ErrorCode.NUMERIC_OUT_OF_RANGE,
            "DECIMAL(5,2): [1000.00]"),
        Arguments.of(
            dec("999.995"), DataType.decimal(5, 2), ErrorCode.NUMERIC_OUT_OF_RANGE, "[999.995]"),
        Arguments.of(
            "99999999999999999999",
            DataType.BIGINT,
            ErrorCode.NUMERIC_OUT_OF_RANGE,
            "[99999999999999999999]"),
        Arguments.of("300", DataType.TINYINT, ErrorCode.NUMERIC_OUT_OF_RANGE, "[300]"),
        Arguments.of("1e400", DataType.DOUBLE, ErrorCode.NUMERIC_OUT_OF_RANGE, "[1e400]"),
        Arguments.of("1e39", DataType.FLOAT, ErrorCode.NUMERIC_OUT_OF_RANGE, "[1e39]"),
        Arguments.of(
            "abc", DataType.INTEGER, ErrorCode.INVALID_CAST, "Cannot cast [abc] to INTEGER"),
        Arguments.of("1.5", DataType.INTEGER, ErrorCode.INVALID_CAST, "[1.5]"),
        Arguments.of("", DataType.BIGINT, ErrorCode.INVALID_CAST, "[]"),
        Arguments.of(
            "1,5", DataType.decimal(5, 2), ErrorCode.INVALID_CAST, "[1,5] to DECIMAL(5,2)"),
        Arguments.of("0x10", DataType.DOUBLE, ErrorCode.INVALID_CAST, "[0x10] to DOUBLE"),
        Arguments.of("1d", DataType.DOUBLE, ErrorCode.INVALID_CAST, "[1d]"),
        Arguments.of("maybe", DataType.BOOLEAN, ErrorCode.INVALID_CAST, "[maybe] to BOOLEAN"),
        Arguments.of(1.5, DataType.BOOLEAN, ErrorCode.INVALID_CAST, "[1.5]"),
        Arguments.of("yesterday", DataType.DATE, ErrorCode.INVALID_CAST, "[yesterday] to DATE"),
        Arguments.of("2023-02-29", DataType.DATE, ErrorCode.INVALID_DATETIME, "[2023-02-29]"),
        Arguments.of("2024-13-01", DataType.TIMESTAMP, ErrorCode.INVALID_DATETIME, "[2024-13-01]"),
        Arguments.of("25:00", DataType.TIME, ErrorCode.INVALID_DATETIME, "[25:00]"),
        Arguments.of("10:61:00", DataType.TIME, ErrorCode.INVALID_DATETIME, "[10:61:00]"),
        Arguments.of("noon", DataType.TIME, ErrorCode.INVALID_CAST, "[noon] to TIME"),
        Arguments.of(LocalTime.NOON, DataType.DATE, ErrorCode.INVALID_CAST, "[12:00:00] to DATE"),
        Arguments.of(
            LocalDate.of(2020, 1, 1),
            DataType.TIME,
            ErrorCode.INVALID_CAST,
            "[2020-01-01] to TIME"),
        Arguments.of(true, DataType.DATE, ErrorCode.INVALID_CAST, "[true]"),
        Arguments.of("\\xz1", DataType.VARBINARY, ErrorCode.INVALID_CAST, "[\\xz1]"));
  }

  @ParameterizedTest
  @MethodSource
  void castErrors(Object value, DataType target, ErrorCode code, String message) {
    assertThatThrownBy(() -> Values.cast(value, target))
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(code))
        .hasMessageContaining(message);
  }

  @Test
  void assignment() {
    assertThat(Values.assign(null, DataType.varchar(1), "C")).isNull();
    assertThat(Values.assign("abc", DataType.varchar(5), "C")).isEqualTo("abc");
    assertThat(Values.assign("abc", DataType.chars(5), "C")).isEqualTo("abc  ");
    assertThat(Values.assign("abc  ", DataType.varchar(3), "C")).isEqualTo("abc");
    assertThat(Values.assign(12, DataType.VARCHAR, "C")).isEqualTo("12");
    assertThat(Values.assign(12, DataType.BIGINT, "C")).isEqualTo(12L);
    assertThat(Values.assign(12L, DataType.TINYINT, "C")).isEqualTo((byte) 12);
    assertThat(Values.assign(dec("1.005"), DataType.decimal(5, 2), "C")).isEqualTo(dec("1.01"));
    assertThat(Values.assign(3, DataType.decimal(5, 2), "C")).isEqualTo(dec("3.00"));
    assertThat(Values.assign(3, DataType.DOUBLE, "C")).isEqualTo(3.0);
    assertThat(Values.assign("2024-02-29", DataType.DATE, "C"))
        .isEqualTo(LocalDate.of(2024, 2, 29));
    assertThat(Values.assign(LocalDate.of(2024, 2, 29), DataType.TIMESTAMP, "C"))
        .isEqualTo(LocalDateTime.of(2024, 2, 29, 0, 0));
    assertThat(
            (byte[])
                Values.assign(new byte[] {1}, new DataType(TypeName.VARBINARY, 2, 0, true), "C"))
        .containsExactly(1);
  }

  @Test
  void assignmentErrorsNameTheColumnAndValue() {
    assertThatThrownBy(() -> Values.assign("abcdefg", DataType.varchar(5), "NAME"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.STRING_TOO_LONG))
        .hasMessage(
            "Value too long for column [NAME VARCHAR(5)]: expected at most [5] characters, found [7]");
    assertThatThrownBy(() -> Values.assign("abcdef", DataType.chars(5), "CODE"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.STRING_TOO_LONG))
        .hasMessage(
            "Value too long for column [CODE CHAR(5)]: expected at most [5] characters, found [6]");
    assertThatThrownBy(() -> Values.assign(40000, DataType.SMALLINT, "QTY"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_OUT_OF_RANGE))
        .hasMessage("Value out of range for column [QTY SMALLINT]: [40000]");
    assertThatThrownBy(() -> Values.assign(dec("1234.5"), DataType.decimal(5, 2), "PRICE"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_OUT_OF_RANGE))
        .hasMessage("Value out of range for column [PRICE DECIMAL(5,2)]: [1234.5]");
    assertThatThrownBy(
            () ->
                Values.assign(
                    new byte[] {1, 2, 3}, new DataType(TypeName.VARBINARY, 2, 0, true), "B"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.STRING_TOO_LONG))
        .hasMessage(
            "Value too long for column [B VARBINARY(2)]: expected at most [2] bytes, found [3]");
    assertThatThrownBy(() -> Values.assign("x", DataType.INTEGER, "N"))
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CAST));
  }

  @Test
  void datesOutsideYears1To9999AreOutOfRange() {
    for (String text : List.of("-0001-01-01", "0000-12-31", "10000-01-01", "12000-01-01")) {
      assertThatThrownBy(() -> Values.cast(text, DataType.DATE))
          .as(text)
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DATETIME_OUT_OF_RANGE))
          .hasMessageContaining("expected years 0001 to 9999");
      assertThatThrownBy(() -> Values.cast(text + " 10:00:00", DataType.TIMESTAMP))
          .as(text)
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DATETIME_OUT_OF_RANGE));
    }
    assertThatThrownBy(() -> Values.cast(LocalDate.of(-1, 1, 1), DataType.DATE))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DATETIME_OUT_OF_RANGE));
    assertThatThrownBy(
            () -> Values.assign(LocalDateTime.of(10000, 1, 1, 0, 0), DataType.TIMESTAMP, "TS"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DATETIME_OUT_OF_RANGE));
    assertThat(Values.cast("0001-01-01", DataType.DATE)).isEqualTo(LocalDate.of(1, 1, 1));
    assertThat(Values.cast("9999-12-31 23:59:59.999999999", DataType.TIMESTAMP))
        .isEqualTo(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999));
  }

  @Test
  void timestampsKeepNanosecondsAndRoundToTheirPrecision() {
    LocalDateTime nanos = LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_456_789);
    assertThat(Values.cast("2024-02-29 23:59:58.123456789", DataType.TIMESTAMP)).isEqualTo(nanos);
    assertThat(Values.toText(nanos)).isEqualTo("2024-02-29 23:59:58.123456789");
    assertThat(Values.cast(nanos, DataType.timestamp(3)))
        .isEqualTo(LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_000_000));
    assertThat(Values.cast(nanos, DataType.timestamp(6)))
        .isEqualTo(LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_457_000));
    assertThat(Values.cast(nanos, DataType.timestamp(0)))
        .isEqualTo(LocalDateTime.of(2024, 2, 29, 23, 59, 58));
    assertThat(DataType.timestamp(3).sql()).isEqualTo("TIMESTAMP(3)");
    // rounding up past the last representable instant is out of range, not year 10000
    assertThatThrownBy(
            () ->
                Values.cast(
                    LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999), DataType.timestamp(3)))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DATETIME_OUT_OF_RANGE));
  }

  @Test
  void parametersAreNotCutToTheirTypeLength() {
    assertThat(Values.castParameter("abcdefgh", DataType.varchar(5))).isEqualTo("abcdefgh");
    assertThat(Values.castParameter(1234567, DataType.varchar(5))).isEqualTo("1234567");
    assertThat(Values.castParameter("ab", DataType.chars(5))).isEqualTo("ab");
    assertThat(
            (byte[])
                Values.castParameter(
                    new byte[] {1, 2, 3, 4}, new DataType(TypeName.VARBINARY, 2, 0, true)))
        .containsExactly(1, 2, 3, 4);
    assertThat(Values.castParameter(dec("1.239"), DataType.decimal(10, 2))).isEqualTo(dec("1.24"));
    // the store assignment then checks them as it checks a literal
    assertThatThrownBy(
            () ->
                Values.assign(
                    Values.castParameter("abcdefgh", DataType.varchar(5)),
                    DataType.varchar(5),
                    "V"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.STRING_TOO_LONG));
  }

  @Test
  void sqlStrings() {
    assertThat(Values.toSqlString(null)).isEqualTo("NULL");
    assertThat(Values.toSqlString("it's")).isEqualTo("'it''s'");
    assertThat(Values.toSqlString(12)).isEqualTo("12");
    assertThat(Values.toSqlString(dec("1.50"))).isEqualTo("1.50");
    assertThat(Values.toSqlString(2.5)).isEqualTo("2.5");
    assertThat(Values.toSqlString(Double.NaN)).isEqualTo("'NaN'");
    assertThat(Values.toSqlString(true)).isEqualTo("TRUE");
    assertThat(Values.toSqlString(LocalDate.of(2024, 2, 29))).isEqualTo("DATE '2024-02-29'");
    assertThat(Values.toSqlString(LocalTime.of(1, 2, 3))).isEqualTo("TIME '01:02:03'");
    assertThat(Values.toSqlString(LocalDateTime.of(2024, 2, 29, 1, 2, 3, 4_000_000)))
        .isEqualTo("TIMESTAMP '2024-02-29 01:02:03.004'");
    assertThat(Values.toSqlString(new byte[] {0x0A, (byte) 0xBC})).isEqualTo("X'0ABC'");
  }

  @Test
  void doubleTextRoundTrips() {
    double[] samples = {
      0.1, 1.0 / 3, 2.0 / 3e10, 123.456, 1e-5, 9.999e14, 4.9e-324, Double.MAX_VALUE
    };
    for (double d : samples) {
      String text = Values.toText(d);
      assertThat(Values.cast(text, DataType.DOUBLE)).as(text).isEqualTo(d);
      assertThat(Values.toText(-d)).isEqualTo("-" + text);
    }
  }
}
