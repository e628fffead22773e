package io.cairn.core.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * The decimal key encoding of at most 18 digits (from the unscaled long) writes exactly the bytes
 * of the general one (from the digits' text): both are the persistent format of keys.
 */
class TestKeyEncodingDecimals {
  @Property(tries = 3000)
  void digitsPathWritesTheTextPathsBytes(
      @ForAll @LongRange(min = 1, max = 999_999_999_999_999_999L) long unscaled,
      @ForAll @IntRange(min = -40, max = 40) int scale,
      @ForAll boolean negative,
      @ForAll @IntRange(min = 0, max = 17) int keepDigits) {
    // fewer digits and trailing zeros too, not only 18-digit values
    long u = unscaled;
    while (u >= 10 && Long.toString(u).length() > keepDigits + 1) {
      u = keepDigits % 3 == 0 ? u / 10 * 10 / 10 : u / 10;
    }
    BigDecimal value = new BigDecimal(BigInteger.valueOf(negative ? -u : u), scale);
    assertThat(digits(value)).isEqualTo(text(value));
  }

  @Test
  void edgeCases() {
    for (String s :
        new String[] {
          "1",
          "-1",
          "10",
          "100.00",
          "0.001",
          "999999999999999999",
          "-999999999999999999",
          "100000000000000000",
          "0.000000000000000001",
          "123456789012345678E-30",
          "5E+40",
          "12345678901234567",
          "1234567890123456.7"
        }) {
      BigDecimal value = new BigDecimal(s);
      assertThat(digits(value)).as(s).isEqualTo(text(value));
    }
  }

  private static String digits(BigDecimal value) {
    ByteBuilder out = new ByteBuilder();
    KeyEncoding.encodeDecimalDigits(
        out, value.unscaledValue().abs().longValueExact(), value.scale(), value.signum());
    return out.toBytes().toString();
  }

  private static String text(BigDecimal value) {
    ByteBuilder out = new ByteBuilder();
    KeyEncoding.encodeDecimalText(out, value, value.signum());
    return out.toBytes().toString();
  }
}
