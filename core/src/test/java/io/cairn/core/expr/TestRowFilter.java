package io.cairn.core.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.encoding.TestingBuffers;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestRowFilter {
  private static final DataType PRICE_TYPE = DataType.decimal(10, 2);
  private static final DataType BIG_TYPE = DataType.of(TypeName.DECIMAL);
  private static final DataType CODE_TYPE = DataType.chars(4);

  /** Key (ID BIGINT, NAME VARCHAR DESC); PRICE, QTY INTEGER, RATE DOUBLE, DAY, FLAG, CODE, BIG. */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT),
              new RowLayout.ColumnLayout(2, DataType.VARCHAR),
              new RowLayout.ColumnLayout(3, PRICE_TYPE),
              new RowLayout.ColumnLayout(4, DataType.INTEGER),
              new RowLayout.ColumnLayout(5, DataType.DOUBLE),
              new RowLayout.ColumnLayout(6, DataType.DATE),
              new RowLayout.ColumnLayout(7, DataType.BOOLEAN),
              new RowLayout.ColumnLayout(8, CODE_TYPE),
              new RowLayout.ColumnLayout(9, BIG_TYPE)),
          List.of(
              new RowLayout.KeyColumn(0, SortOrder.ASC),
              new RowLayout.KeyColumn(1, SortOrder.DESC)),
          false,
          1);

  private static final Expr ID = new Expr.ColumnRef(0, DataType.BIGINT);
  private static final Expr NAME = new Expr.ColumnRef(1, DataType.VARCHAR);
  private static final Expr PRICE = new Expr.ColumnRef(2, PRICE_TYPE);
  private static final Expr QTY = new Expr.ColumnRef(3, DataType.INTEGER);
  private static final Expr RATE = new Expr.ColumnRef(4, DataType.DOUBLE);
  private static final Expr DAY = new Expr.ColumnRef(5, DataType.DATE);
  private static final Expr FLAG = new Expr.ColumnRef(6, DataType.BOOLEAN);
  private static final Expr CODE = new Expr.ColumnRef(7, CODE_TYPE);
  private static final Expr BIG = new Expr.ColumnRef(8, BIG_TYPE);

  private static final Object[] ROW = {
    10L,
    "abc",
    new BigDecimal("12.50"),
    7,
    2.5,
    LocalDate.of(2024, 2, 29),
    true,
    "ab  ",
    new BigDecimal("123456789012345678901234567890.5")
  };
  private static final Object[] NULLS = {-1L, "", null, null, null, null, null, null, null};

  private static Expr call(Op op, Expr... operands) {
    return new Expr.Call(op, List.of(operands), DataType.BOOLEAN);
  }

  private static Expr literal(Object value, DataType type) {
    return new Expr.Literal(value, type);
  }

  private static Expr integer(int value) {
    return literal(value, DataType.INTEGER);
  }

  private static Expr decimal(String value) {
    BigDecimal d = new BigDecimal(value);
    return literal(d, DataType.decimal(Math.max(d.precision(), d.scale()), d.scale()));
  }

  /**
   * The filter's result for {@code row} (bound and unbound, heap and direct buffers), checked
   * against the generic path.
   */
  private static boolean test(Expr filter, Object[] row, EvalContext context) {
    RowCodec codec = new RowCodec(LAYOUT);
    Bytes key = codec.encodeKey(row);
    Bytes value = codec.encodeValue(row);
    boolean expected =
        Boolean.TRUE.equals(
            ExprCompiler.compile(filter).evaluate(codec.decode(key, value), context));
    RowFilter unbound = RowFilter.compile(filter, LAYOUT);
    RowFilter bound = unbound.bind(context);
    RowReader reader = new RowReader(LAYOUT, null);
    for (TestingBuffers.Kind kind : TestingBuffers.Kind.values()) {
      TestingBuffers.reset(reader, key, value, 5, kind);
      assertThat(bound.test(reader, context)).as("%s over %s", bound, kind).isEqualTo(expected);
      assertThat(unbound.test(reader, context)).as("%s over %s", unbound, kind).isEqualTo(expected);
    }
    return expected;
  }

  private static boolean test(Expr filter, Object[] row) {
    return test(filter, row, EvalContext.EMPTY);
  }

  private static RowFilter compile(Expr filter) {
    return RowFilter.compile(filter, LAYOUT);
  }

  @Test
  void specializesTheCommonShapes() {
    List<Expr> filters =
        List.of(
            call(Op.GREATER_THAN, QTY, integer(5)),
            call(Op.LESS_THAN, integer(5), QTY),
            call(Op.GREATER_THAN_OR_EQUAL, PRICE, decimal("12.5")),
            call(Op.EQUALS, PRICE, integer(12)),
            call(Op.LESS_THAN, RATE, integer(3)),
            call(Op.LESS_THAN, QTY, literal(7.5, DataType.DOUBLE)),
            call(
                Op.AND,
                call(Op.GREATER_THAN_OR_EQUAL, QTY, integer(1)),
                call(Op.LESS_THAN_OR_EQUAL, QTY, integer(10))),
            call(Op.EQUALS, NAME, literal("abc", DataType.chars(3))),
            call(Op.NOT_EQUALS, NAME, literal("abd", DataType.VARCHAR)),
            call(Op.EQUALS, CODE, literal("ab", DataType.VARCHAR)),
            call(Op.GREATER_THAN, DAY, literal(LocalDate.of(2024, 1, 1), DataType.DATE)),
            FLAG,
            call(Op.NOT, FLAG),
            call(Op.IS_NULL, QTY),
            call(Op.IS_NOT_NULL, BIG),
            new Expr.Call(
                Op.IN, List.of(QTY, integer(1), integer(7), integer(9)), DataType.BOOLEAN),
            new Expr.Call(
                Op.IN, List.of(PRICE, decimal("1.5"), decimal("12.50")), DataType.BOOLEAN),
            call(Op.LESS_THAN, QTY, ID),
            call(
                Op.GREATER_THAN, new Expr.Call(Op.CAST, List.of(QTY), DataType.BIGINT), integer(5)),
            call(
                Op.GREATER_THAN,
                new Expr.Call(Op.CAST, List.of(QTY), DataType.DOUBLE),
                literal(6.5, DataType.DOUBLE)),
            call(Op.IS_NOT_DISTINCT_FROM, QTY, literal(null, DataType.INTEGER)),
            call(Op.OR, call(Op.IS_TRUE, FLAG), call(Op.EQUALS, PRICE, BIG)));
    for (Expr filter : filters) {
      assertThat(compile(filter).hasFallback()).as("%s", compile(filter)).isFalse();
      test(filter, ROW);
      test(filter, NULLS);
    }
    assertThat(test(filters.get(0), ROW)).isTrue();
    assertThat(test(filters.get(7), ROW)).isTrue();
    assertThat(test(filters.get(9), ROW)).isTrue();
    assertThat(compile(filters.get(1))).hasToString("RowFilter[#3 > 5:long]");
    assertThat(compile(filters.get(6))).hasToString("RowFilter[AND[#3 >= 1:long, #3 <= 10:long]]");
  }

  /**
   * {@code SUBSTRING(column FROM 1 FOR n) = 'literal'} of n characters compares the column's
   * leading bytes; other lengths, starts, trailing spaces and key columns stay generic, with the
   * same answers.
   */
  @Test
  void aLeadingSubstringComparedWithALiteralTestsTheBytesPrefix() {
    Expr charCode = CODE; // CHAR(4) 'ab  '
    java.util.function.BiFunction<Expr, Integer, Expr> lead =
        (column, n) ->
            new Expr.Call(Op.SUBSTRING, List.of(column, integer(1), integer(n)), DataType.VARCHAR);
    Object[] euro = ROW.clone();
    euro[7] = "é€  ";
    List<Expr> prefixes =
        List.of(
            call(Op.EQUALS, lead.apply(charCode, 2), literal("ab", DataType.VARCHAR)),
            call(Op.EQUALS, literal("ab", DataType.VARCHAR), lead.apply(charCode, 2)),
            call(Op.NOT_EQUALS, lead.apply(charCode, 1), literal("b", DataType.VARCHAR)),
            call(Op.EQUALS, lead.apply(charCode, 2), literal("é€", DataType.VARCHAR)),
            call(Op.EQUALS, lead.apply(charCode, 1), literal("é", DataType.chars(1))));
    for (Expr filter : prefixes) {
      assertThat(compile(filter).hasFallback()).as("%s", compile(filter)).isFalse();
      assertThat(compile(filter).toString()).contains("STARTS WITH");
      test(filter, ROW);
      test(filter, NULLS);
      test(filter, euro);
    }
    assertThat(test(prefixes.get(0), ROW)).isTrue();
    assertThat(test(prefixes.get(2), ROW)).isTrue();
    assertThat(test(prefixes.get(3), euro)).isTrue();
    assertThat(test(prefixes.get(3), ROW)).isFalse();
    List<Expr> generic =
        List.of(
            call(Op.EQUALS, lead.apply(charCode, 3), literal("ab ", DataType.VARCHAR)),
            call(Op.EQUALS, lead.apply(charCode, 3), literal("ab", DataType.VARCHAR)),
            call(
                Op.EQUALS,
                new Expr.Call(
                    Op.SUBSTRING, List.of(charCode, integer(2), integer(1)), DataType.VARCHAR),
                literal("b", DataType.VARCHAR)),
            call(Op.EQUALS, lead.apply(NAME, 2), literal("ab", DataType.VARCHAR)));
    for (Expr filter : generic) {
      assertThat(compile(filter).toString()).as("%s", filter).doesNotContain("STARTS WITH");
      test(filter, ROW);
      test(filter, NULLS);
      test(filter, euro);
    }
  }

  /**
   * A DECIMAL column cast to a DECIMAL that holds every value unchanged (as the planner writes
   * {@code D > 10} with the literal's type) is compared on its bytes and over vectors; a cast that
   * rounds is not.
   */
  @Test
  void aDecimalColumnWidenedByACastIsComparedDirectly() {
    Expr widened =
        call(
            Op.GREATER_THAN,
            new Expr.Call(Op.CAST, List.of(PRICE), DataType.decimal(12, 2)),
            decimal("10.00"));
    assertThat(compile(widened).hasFallback()).as("%s", compile(widened)).isFalse();
    assertThat(compile(widened).vectorFilter()).isNotNull();
    assertThat(compile(widened).vectorFilter().complete()).isTrue();
    assertThat(test(widened, ROW)).isTrue();
    assertThat(test(widened, NULLS)).isFalse();
    Expr moreScale =
        call(
            Op.LESS_THAN,
            new Expr.Call(Op.CAST, List.of(PRICE), DataType.decimal(13, 4)),
            decimal("12.5001"));
    assertThat(compile(moreScale).hasFallback()).isFalse();
    assertThat(test(moreScale, ROW)).isTrue();
    for (DataType rounding : List.of(DataType.decimal(10, 1), DataType.decimal(9, 2))) {
      Expr cast =
          call(Op.GREATER_THAN, new Expr.Call(Op.CAST, List.of(PRICE), rounding), decimal("12.4"));
      assertThat(compile(cast).hasFallback()).as("CAST to %s", rounding).isTrue();
      test(cast, ROW);
    }
  }

  @Test
  void fallsBackForOtherShapesOnlyWhereNeeded() {
    Expr like = call(Op.LIKE, NAME, literal("a%", DataType.VARCHAR));
    Expr plus =
        call(
            Op.GREATER_THAN,
            new Expr.Call(Op.PLUS, List.of(QTY, integer(1)), DataType.INTEGER),
            integer(7));
    Expr narrowing =
        call(Op.EQUALS, new Expr.Call(Op.CAST, List.of(QTY), DataType.SMALLINT), integer(7));
    Expr decimalVersusDouble = call(Op.LESS_THAN, PRICE, RATE);
    for (Expr filter : List.of(like, plus, narrowing, decimalVersusDouble)) {
      assertThat(compile(filter).hasFallback()).as("%s", compile(filter)).isTrue();
      test(filter, ROW);
      test(filter, NULLS);
    }
    Expr mixed = call(Op.AND, call(Op.GREATER_THAN, QTY, integer(5)), like);
    assertThat(compile(mixed)).hasToString("RowFilter[AND[#3 > 5:long, GENERIC(LIKE)]]");
    assertThat(test(mixed, ROW)).isTrue();
  }

  /** A BIGINT key and a VARCHAR value column, for LIKE on the value's bytes. */
  private static final RowLayout ID_AND_TEXT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT.withNullable(false)),
              new RowLayout.ColumnLayout(2, DataType.VARCHAR)),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  /**
   * LIKE with literal runs and {@code %} on a VARCHAR value column is matched on its bytes (no
   * fallback) and answers as the generic LIKE does, for ASCII and multi-byte values and patterns;
   * patterns with {@code _} or an escape stay generic.
   */
  @Test
  void likeOfLiteralRunsMatchesTheBytes() {
    RowLayout layout = ID_AND_TEXT;
    RowCodec codec = new RowCodec(layout);
    Expr s = new Expr.ColumnRef(1, DataType.VARCHAR);
    List<String> values =
        java.util.Arrays.asList(
            null,
            "",
            "a",
            "ab",
            "abc",
            "aXbXc",
            "special requests",
            "no special asks, requests",
            "requests special",
            "%",
            "é",
            "café au lait",
            "日本語のテキスト",
            "aa",
            "aaa",
            "abab",
            "x\u0000y",
            "\uD83D\uDE00 smile");
    List<String> patterns =
        List.of(
            "",
            "%",
            "%%",
            "a",
            "a%",
            "%a",
            "%a%",
            "ab%c",
            "a%b%c",
            "%special%requests%",
            "special%",
            "%requests",
            "é",
            "caf%",
            "%au%",
            "%本語%",
            "日本%テキスト",
            "aa%aa",
            "a%a",
            "%ab%ab%",
            "%\uD83D\uDE00%",
            "x%y",
            "a%a%a");
    long id = 0;
    for (String pattern : patterns) {
      Expr like = call(Op.LIKE, s, literal(pattern, DataType.VARCHAR));
      RowFilter filter = RowFilter.compile(like, layout);
      assertThat(filter.hasFallback()).as("%s: %s", pattern, filter).isFalse();
      assertThat(RowFilter.compile(call(Op.NOT, like), layout).hasFallback()).isFalse();
      for (String v : values) {
        Object[] row = {id++, v};
        Bytes key = codec.encodeKey(row);
        Bytes value = codec.encodeValue(row);
        for (Expr f : List.of(like, call(Op.NOT, like))) {
          boolean expected =
              Boolean.TRUE.equals(
                  ExprCompiler.compile(f).evaluate(codec.decode(key, value), EvalContext.EMPTY));
          RowFilter compiled = RowFilter.compile(f, layout);
          RowReader reader = new RowReader(layout, null);
          for (TestingBuffers.Kind kind : TestingBuffers.Kind.values()) {
            TestingBuffers.reset(reader, key, value, 5, kind);
            assertThat(compiled.test(reader, EvalContext.EMPTY))
                .as("[%s] %s over %s", v, f, kind)
                .isEqualTo(expected);
          }
        }
      }
    }
    for (String generic : List.of("a_c", "a\\%", "%\\_%")) {
      Expr like = call(Op.LIKE, s, literal(generic, DataType.VARCHAR));
      assertThat(RowFilter.compile(like, layout).hasFallback()).as(generic).isTrue();
    }
  }

  /**
   * LIKE on the bytes of values longer than a machine word, over an alphabet of two or four letters
   * (each position a candidate of a run's first or last letter), answers as the generic LIKE does:
   * runs of one, two and more bytes, repeated letters, a run that starts where a near miss ended.
   */
  @Test
  void likeOfLiteralRunsInLongValues() {
    RowLayout layout = ID_AND_TEXT;
    RowCodec codec = new RowCodec(layout);
    Expr s = new Expr.ColumnRef(1, DataType.VARCHAR);
    java.util.Random random = new java.util.Random(42);
    // letters whose bytes differ in the lowest bit only: a word's byte compare may borrow
    String letters = "bcrs";
    List<String> patterns =
        List.of(
            "%s%",
            "%sr%",
            "%rs%",
            "%ss%",
            "%srs%",
            "%bbc%",
            "%special%",
            "%sbs%cb%",
            "%bbbbbb%",
            "%bcbcbcbc%",
            "%ccccccccccb%",
            "c%rs%",
            "%sr%s",
            "%b%c%s%",
            "%rsrc%",
            "%cbs%");
    RowReader reader = new RowReader(layout, null);
    int matched = 0;
    for (int i = 0; i < 3000; i++) {
      int length = random.nextInt(70);
      StringBuilder v = new StringBuilder(length);
      for (int j = 0; j < length; j++) {
        v.append(letters.charAt(random.nextInt(i % 2 == 0 ? 4 : 2)));
      }
      Object[] row = {(long) i, v.toString()};
      Bytes key = codec.encodeKey(row);
      Bytes value = codec.encodeValue(row);
      Object[] decoded = codec.decode(key, value);
      for (String pattern : patterns) {
        Expr like = call(Op.LIKE, s, literal(pattern, DataType.VARCHAR));
        boolean expected =
            Boolean.TRUE.equals(ExprCompiler.compile(like).evaluate(decoded, EvalContext.EMPTY));
        matched += expected ? 1 : 0;
        RowFilter compiled = RowFilter.compile(like, layout);
        for (TestingBuffers.Kind kind : TestingBuffers.Kind.values()) {
          TestingBuffers.reset(reader, key, value, 3, kind);
          assertThat(compiled.test(reader, EvalContext.EMPTY))
              .as("[%s] LIKE '%s' over %s", v, pattern, kind)
              .isEqualTo(expected);
        }
      }
    }
    assertThat(matched).as("values that match some pattern").isGreaterThan(10_000);
  }

  @Test
  void parametersAreResolvedOnceByBind() {
    Expr filter = call(Op.GREATER_THAN, QTY, new Expr.Param(0, DataType.INTEGER));
    RowFilter unbound = compile(filter);
    assertThat(unbound.hasFallback()).isTrue();
    for (Object parameter : List.of(5, 5L, "5", (short) 5)) {
      EvalContext context = new EvalContext(new Object[] {parameter}, LocalDateTime.MIN);
      RowFilter bound = unbound.bind(context);
      assertThat(bound.hasFallback()).as("%s", parameter).isFalse();
      assertThat(bound).hasToString("RowFilter[#3 > 5:long]");
      assertThat(test(filter, ROW, context)).isTrue();
    }
    EvalContext nullParameter = new EvalContext(new Object[] {null}, LocalDateTime.MIN);
    assertThat(unbound.bind(nullParameter)).hasToString("RowFilter[UNKNOWN]");
    assertThat(test(filter, ROW, nullParameter)).isFalse();
    RowFilter withoutParameters = compile(FLAG);
    assertThat(withoutParameters.bind(nullParameter)).isSameAs(withoutParameters);
  }

  @Test
  void statementConstantsAreResolvedByBind() {
    Expr today = new Expr.Call(Op.CURRENT_DATE, List.of(), DataType.DATE);
    Expr filter = call(Op.LESS_THAN_OR_EQUAL, DAY, today);
    EvalContext context = new EvalContext(new Object[0], LocalDateTime.of(2024, 3, 1, 9, 0));
    assertThat(compile(filter).bind(context).hasFallback()).isFalse();
    assertThat(test(filter, ROW, context)).isTrue();
  }

  @Test
  void aParameterThatCannotBeResolvedFailsPerRowAsTheGenericPathDoes() {
    Expr filter = call(Op.GREATER_THAN, QTY, new Expr.Param(0, DataType.INTEGER));
    EvalContext bad = new EvalContext(new Object[] {"x"}, LocalDateTime.MIN);
    assertThat(compile(filter).bind(bad).hasFallback()).isTrue();
    // the column is evaluated first: a NULL row never reaches the parameter
    assertThat(test(filter, NULLS, bad)).isFalse();
    RowReader reader = new RowReader(LAYOUT, null);
    RowCodec codec = new RowCodec(LAYOUT);
    TestingBuffers.reset(
        reader, codec.encodeKey(ROW), codec.encodeValue(ROW), 0, TestingBuffers.Kind.DIRECT);
    RowFilter bound = compile(filter).bind(bad);
    assertThatThrownBy(() -> bound.test(reader, bad))
        .isInstanceOfSatisfying(
            CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CAST));
    EvalContext missing = EvalContext.EMPTY;
    assertThatThrownBy(() -> compile(filter).bind(missing).test(reader, missing))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PARAMETER_NOT_SET));
  }

  @Test
  void threeValuedLogic() {
    Expr unknown = call(Op.GREATER_THAN, QTY, integer(5));
    assertThat(test(unknown, NULLS)).isFalse();
    assertThat(test(call(Op.NOT, unknown), NULLS)).isFalse();
    assertThat(test(call(Op.OR, unknown, literal(true, DataType.BOOLEAN)), NULLS)).isTrue();
    assertThat(test(call(Op.AND, unknown, literal(true, DataType.BOOLEAN)), NULLS)).isFalse();
    assertThat(test(call(Op.IS_NOT_TRUE, unknown), NULLS)).isTrue();
    assertThat(test(call(Op.IS_NULL, unknown), NULLS)).isTrue();
    assertThat(test(call(Op.IS_NOT_FALSE, unknown), NULLS)).isTrue();
    assertThat(test(call(Op.IS_DISTINCT_FROM, QTY, integer(5)), NULLS)).isTrue();
    assertThat(test(call(Op.IS_NOT_DISTINCT_FROM, QTY, PRICE), NULLS)).isTrue();
    Expr inWithNull =
        new Expr.Call(
            Op.IN, List.of(QTY, integer(1), literal(null, DataType.INTEGER)), DataType.BOOLEAN);
    assertThat(test(inWithNull, ROW)).isFalse();
    assertThat(test(call(Op.NOT, inWithNull), ROW)).isFalse();
    assertThat(test(call(Op.IS_NULL, inWithNull), ROW)).isTrue();
  }

  @Test
  void floatingPointEdges() {
    Object[] nan = ROW.clone();
    nan[4] = Double.NaN;
    Object[] negativeZero = ROW.clone();
    negativeZero[4] = -0.0;
    Expr huge = literal(Double.MAX_VALUE, DataType.DOUBLE);
    assertThat(test(call(Op.GREATER_THAN, RATE, huge), nan)).isTrue();
    assertThat(test(call(Op.EQUALS, RATE, literal(Double.NaN, DataType.DOUBLE)), nan)).isTrue();
    assertThat(test(call(Op.EQUALS, RATE, literal(0.0, DataType.DOUBLE)), negativeZero)).isTrue();
    assertThat(test(call(Op.EQUALS, RATE, integer(0)), negativeZero)).isTrue();
    assertThat(test(call(Op.LESS_THAN, QTY, literal(Double.NaN, DataType.DOUBLE)), ROW)).isTrue();
    assertThat(test(call(Op.LESS_THAN, QTY, RATE), nan)).isTrue();
  }

  @Test
  void decimalsCompareExactlyAcrossScales() {
    assertThat(test(call(Op.EQUALS, PRICE, decimal("12.5000")), ROW)).isTrue();
    assertThat(test(call(Op.LESS_THAN, PRICE, decimal("12.5001")), ROW)).isTrue();
    assertThat(test(call(Op.GREATER_THAN, PRICE, literal(12L, DataType.BIGINT)), ROW)).isTrue();
    assertThat(test(call(Op.GREATER_THAN, BIG, PRICE), ROW)).isTrue();
    assertThat(test(call(Op.GREATER_THAN, BIG, decimal("1E+29")), ROW)).isTrue();
    assertThat(compile(call(Op.GREATER_THAN, BIG, decimal("1E+29"))).hasFallback()).isFalse();
    // a constant beyond a long takes the generic path
    Expr huge = decimal("123456789012345678901234567890.5");
    assertThat(compile(call(Op.EQUALS, BIG, huge)).hasFallback()).isTrue();
    assertThat(test(call(Op.EQUALS, BIG, huge), ROW)).isTrue();
  }

  /**
   * The generic IN keys a 19-digit integral DECIMAL apart from an integer (ExprCompiler.hashKey).
   */
  @Test
  void inMatchesTheGenericHashSetExactly() {
    Object[] row = ROW.clone();
    row[0] = 1_000_000_000_000_000_000L;
    Expr item = literal(new BigDecimal("1000000000000000000"), DataType.decimal(19, 0));
    assertThat(test(call(Op.EQUALS, ID, item), row)).isTrue();
    Expr in = new Expr.Call(Op.IN, List.of(ID, item, integer(5)), DataType.BOOLEAN);
    assertThat(test(in, row)).isFalse();
    Expr parameter = new Expr.Param(0, DataType.decimal(19, 0));
    Expr notHashed = new Expr.Call(Op.IN, List.of(ID, parameter), DataType.BOOLEAN);
    EvalContext context =
        new EvalContext(new Object[] {new BigDecimal("1000000000000000000")}, LocalDateTime.MIN);
    assertThat(test(notHashed, row, context)).isTrue();
  }

  @Test
  void stringsCompareAsTheirBytesWithCharPadding() {
    Object[] padded = ROW.clone();
    padded[1] = "ab ";
    Expr varcharAb = literal("ab", DataType.VARCHAR);
    assertThat(test(call(Op.EQUALS, NAME, varcharAb), padded)).isFalse();
    assertThat(test(call(Op.EQUALS, NAME, literal("ab", DataType.chars(2))), padded)).isTrue();
    assertThat(test(call(Op.EQUALS, CODE, varcharAb), ROW)).isTrue();
    assertThat(test(call(Op.GREATER_THAN, NAME, varcharAb), padded)).isTrue();
    assertThat(test(call(Op.LESS_THAN, NAME, literal("\u4e2d", DataType.VARCHAR)), ROW)).isTrue();
    // an unpaired surrogate has no UTF-8 bytes: the generic comparison decides
    Expr broken = call(Op.LESS_THAN, NAME, literal("\ud800", DataType.VARCHAR));
    assertThat(compile(broken).hasFallback()).isTrue();
    test(broken, ROW);
  }

  @Test
  void compilesAsTheGenericCompilerDoes() {
    assertThat(compile(call(Op.EQUALS, integer(1), integer(1)))).hasToString("RowFilter[TRUE]");
    Expr outsideTheLayout = call(Op.IS_NULL, new Expr.ColumnRef(9, DataType.VARBINARY));
    assertThatThrownBy(() -> compile(outsideTheLayout))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR));
    Expr badLiteral = call(Op.EQUALS, QTY, literal("x", DataType.INTEGER));
    assertThatThrownBy(() -> ExprCompiler.compile(badLiteral)).isInstanceOf(CairnException.class);
    assertThatThrownBy(() -> compile(badLiteral)).isInstanceOf(CairnException.class);
  }
}
