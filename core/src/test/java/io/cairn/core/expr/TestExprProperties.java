package io.cairn.core.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties checked against simple models; jqwik reports the seed of any failure. */
class TestExprProperties {
  @Property
  void numbersCompareExactly(@ForAll long a, @ForAll double b) {
    if (Double.isNaN(b) || Double.isInfinite(b)) {
      return;
    }
    int expected = new BigDecimal(a).compareTo(new BigDecimal(b));
    assertThat(Integer.signum(Values.compare(a, b))).isEqualTo(Integer.signum(expected));
    assertThat(Integer.signum(Values.compare(b, a))).isEqualTo(-Integer.signum(expected));
    assertThat(Integer.signum(Values.compare(BigDecimal.valueOf(a), b)))
        .isEqualTo(Integer.signum(expected));
  }

  @Property
  void doubleTextRoundTrips(@ForAll double d) {
    Object back = Values.cast(Values.toText(d), DataType.DOUBLE);
    assertThat(back).isEqualTo(d);
  }

  @Property
  void floatTextRoundTrips(@ForAll float f) {
    Object back = Values.cast(Values.toText(f), DataType.FLOAT);
    assertThat(back).isEqualTo(f);
  }

  @Property
  void decimalTextRoundTrips(@ForAll BigDecimal d) {
    Object back = Values.cast(Values.toText(d), DataType.of(TypeName.DECIMAL));
    assertThat(back).isEqualTo(d);
  }

  @Property
  void stringsCompareLikeTheirUtf8Bytes(
      @ForAll("codePoints") List<Integer> a, @ForAll("codePoints") List<Integer> b) {
    String x = string(a);
    String y = string(b);
    int expected =
        Arrays.compareUnsigned(
            x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8));
    assertThat(Integer.signum(Values.compareStrings(x, y))).isEqualTo(Integer.signum(expected));
  }

  @Provide
  Arbitrary<List<Integer>> codePoints() {
    Arbitrary<Integer> cp =
        Arbitraries.oneOf(
            Arbitraries.integers().between(0x20, 0x7F),
            Arbitraries.integers().between(0xE000, 0xFFFF),
            Arbitraries.integers().between(0x10000, 0x10FFFF));
    return cp.list().ofMaxSize(4);
  }

  private static String string(List<Integer> codePoints) {
    StringBuilder sb = new StringBuilder();
    codePoints.forEach(sb::appendCodePoint);
    return sb.toString();
  }

  @Property
  void likeMatchesAModel(@ForAll("likeText") String value, @ForAll("likePattern") String pattern) {
    boolean expected = model(value, 0, pattern, 0);
    assertThat(LikePattern.compile(pattern, "").test(value))
        .as(value + " LIKE " + pattern)
        .isEqualTo(expected);
  }

  @Provide
  Arbitrary<String> likeText() {
    return Arbitraries.strings().withChars("ab").ofMaxLength(6);
  }

  @Provide
  Arbitrary<String> likePattern() {
    return Arbitraries.strings().withChars("ab%_").ofMaxLength(5);
  }

  private static boolean model(String s, int i, String p, int j) {
    if (j == p.length()) {
      return i == s.length();
    }
    char c = p.charAt(j);
    if (c == '%') {
      for (int k = i; k <= s.length(); k++) {
        if (model(s, k, p, j + 1)) {
          return true;
        }
      }
      return false;
    }
    if (i == s.length()) {
      return false;
    }
    return (c == '_' || c == s.charAt(i)) && model(s, i + 1, p, j + 1);
  }

  @Property
  void integerArithmeticIsExactOrFails(@ForAll int a, @ForAll int b) {
    RowExpression plus =
        ExprCompiler.compile(
            new Expr.Call(
                Op.TIMES,
                List.of(
                    new Expr.ColumnRef(0, DataType.INTEGER),
                    new Expr.ColumnRef(1, DataType.INTEGER)),
                DataType.INTEGER));
    long exact = (long) a * b;
    try {
      Object result = plus.evaluate(new Object[] {a, b}, EvalContext.EMPTY);
      assertThat(exact).isBetween((long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE);
      assertThat(result).isEqualTo((int) exact);
    } catch (CairnException e) {
      assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_OUT_OF_RANGE);
      assertThat(exact < Integer.MIN_VALUE || exact > Integer.MAX_VALUE).isTrue();
    }
  }
}
