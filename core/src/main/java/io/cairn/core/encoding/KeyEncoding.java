package io.cairn.core.encoding;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * The order-preserving encoding of one key component: unsigned byte order of encodings equals SQL
 * order of values, and every encoding is self-delimiting and prefix-free, so concatenations of
 * components order as tuples. The byte-level format is in this package's package-info and in
 * docs/format-row.md.
 */
public final class KeyEncoding {
  /** First byte of a NULL component (ASC). */
  static final int NULL_MARKER = 0x00;

  /** First byte of a non-NULL component (ASC). */
  static final int VALUE_MARKER = 0x01;

  static final int DECIMAL_NEGATIVE = 0x10;
  static final int DECIMAL_ZERO = 0x20;
  static final int DECIMAL_POSITIVE = 0x30;

  /** Terminator of a decimal's digit pairs (ASC, positive); pairs are 0x02..0x65. */
  static final int DECIMAL_DIGITS_END = 0x01;

  static final int ESCAPE = 0x00;
  static final int ESCAPED_ZERO = 0xFF;
  static final int TERMINATOR = 0x01;

  private KeyEncoding() {}

  /** Whether a value of {@code type} can be part of a row key. */
  public static boolean isKeyType(TypeName type) {
    return !type.isInterval() && type != TypeName.NULL;
  }

  /** Throws INVALID_TABLE_DEFINITION unless {@code type} can be part of a row key. */
  public static void checkKeyType(DataType type) {
    if (!isKeyType(type.name())) {
      throw new CairnException(
          ErrorCode.INVALID_TABLE_DEFINITION,
          "Type cannot be a primary-key column: expected a non-interval, non-NULL type, found ["
              + type.sql()
              + "]");
    }
  }

  /**
   * Appends the encoding of {@code value} (null for SQL NULL; otherwise of the Java class that
   * TypeName documents for {@code type}).
   */
  public static void encode(ByteBuilder out, Object value, DataType type, SortOrder order) {
    checkKeyType(type);
    JavaTypes.check("key value", type, value);
    int start = out.length();
    if (value == null) {
      out.write(NULL_MARKER);
    } else {
      out.write(VALUE_MARKER);
      encodeValue(out, value, type);
    }
    if (order == SortOrder.DESC) {
      out.invertFrom(start);
    }
  }

  private static void encodeValue(ByteBuilder out, Object value, DataType type) {
    switch (type.name()) {
      case BOOLEAN -> out.write(((Boolean) value) ? 1 : 0);
      case TINYINT -> out.write(((Byte) value) ^ 0x80);
      case SMALLINT -> out.writeBigEndian(((Short) value) ^ 0x8000, 2);
      case INTEGER -> out.writeBigEndian(((Integer) value) ^ 0x8000_0000, 4);
      case BIGINT -> out.writeBigEndian(((Long) value) ^ Long.MIN_VALUE, 8);
      case FLOAT -> out.writeBigEndian(floatKeyBits((Float) value), 4);
      case DOUBLE -> out.writeBigEndian(doubleKeyBits((Double) value), 8);
      case DECIMAL -> encodeDecimal(out, (BigDecimal) value);
      case CHAR, VARCHAR -> encodeEscaped(out, JavaTypes.utf8((String) value));
      case VARBINARY -> encodeEscaped(out, (byte[]) value);
      case DATE -> out.writeBigEndian(epochDay((LocalDate) value) ^ 0x8000_0000, 4);
      case TIME -> out.writeBigEndian(((LocalTime) value).toNanoOfDay() ^ Long.MIN_VALUE, 8);
      case TIMESTAMP -> {
        LocalDateTime t = (LocalDateTime) value;
        out.writeBigEndian(t.toEpochSecond(ZoneOffset.UTC) ^ Long.MIN_VALUE, 8);
        out.writeBigEndian(t.getNano(), 4);
      }
      default -> throw new IllegalStateException("Not a key type: " + type);
    }
  }

  /** Decodes one component written by {@link #encode}; leaves {@code in} after it. */
  public static Object decode(ByteReader in, DataType type, SortOrder order) {
    checkKeyType(type);
    in.setInverted(order == SortOrder.DESC);
    try {
      int marker = in.read();
      if (marker == NULL_MARKER) {
        return null;
      }
      if (marker != VALUE_MARKER) {
        throw CairnException.internal(
            "Corrupt key component: expected marker [0 or 1], found [" + marker + "]");
      }
      return decodeValue(in, type);
    } finally {
      in.setInverted(false);
    }
  }

  private static Object decodeValue(ByteReader in, DataType type) {
    return switch (type.name()) {
      case BOOLEAN -> in.read() != 0;
      case TINYINT -> (byte) (in.read() ^ 0x80);
      case SMALLINT -> (short) (in.readBigEndian(2) ^ 0x8000);
      case INTEGER -> (int) (in.readBigEndian(4) ^ 0x8000_0000L);
      case BIGINT -> in.readBigEndian(8) ^ Long.MIN_VALUE;
      case FLOAT -> floatFromKeyBits((int) in.readBigEndian(4));
      case DOUBLE -> doubleFromKeyBits(in.readBigEndian(8));
      case DECIMAL -> withColumnScale(decodeDecimal(in), type);
      case CHAR, VARCHAR -> new String(decodeEscaped(in), UTF_8);
      case VARBINARY -> decodeEscaped(in);
      case DATE -> LocalDate.ofEpochDay((int) (in.readBigEndian(4) ^ 0x8000_0000L));
      case TIME -> LocalTime.ofNanoOfDay(in.readBigEndian(8) ^ Long.MIN_VALUE);
      case TIMESTAMP -> {
        long seconds = in.readBigEndian(8) ^ Long.MIN_VALUE;
        int nanos = (int) in.readBigEndian(4);
        yield LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
      }
      default -> throw new IllegalStateException("Not a key type: " + type);
    };
  }

  static int epochDay(LocalDate date) {
    long day = date.toEpochDay();
    if (day != (int) day) {
      throw new CairnException(
          ErrorCode.INVALID_DATETIME,
          "Date out of range: expected an epoch day within 32 bits, found [" + date + "]");
    }
    return (int) day;
  }

  // -- floating point: -0.0 is normalised to 0.0, every NaN to the canonical NaN (greatest).

  static int floatKeyBits(float value) {
    int bits = Float.floatToIntBits(value == 0.0f ? 0.0f : value);
    return bits < 0 ? ~bits : bits ^ 0x8000_0000;
  }

  static float floatFromKeyBits(int key) {
    int bits = key < 0 ? key ^ 0x8000_0000 : ~key;
    return Float.intBitsToFloat(bits);
  }

  static long doubleKeyBits(double value) {
    long bits = Double.doubleToLongBits(value == 0.0d ? 0.0d : value);
    return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
  }

  static double doubleFromKeyBits(long key) {
    long bits = key < 0 ? key ^ Long.MIN_VALUE : ~key;
    return Double.longBitsToDouble(bits);
  }

  // -- escaped byte strings: 0x00 -> 0x00 0xFF, terminated by 0x00 0x01.

  private static void encodeEscaped(ByteBuilder out, byte[] bytes) {
    for (byte b : bytes) {
      out.write(b);
      if (b == 0) {
        out.write(ESCAPED_ZERO);
      }
    }
    out.write(ESCAPE).write(TERMINATOR);
  }

  private static byte[] decodeEscaped(ByteReader in) {
    ByteBuilder out = new ByteBuilder(16);
    while (true) {
      int b = in.read();
      if (b != ESCAPE) {
        out.write(b);
        continue;
      }
      int next = in.read();
      if (next == TERMINATOR) {
        return out.toBytes().peekArray();
      }
      if (next != ESCAPED_ZERO) {
        throw CairnException.internal(
            "Corrupt escaped string: expected [0x01 or 0xFF] after 0x00, found [" + next + "]");
      }
      out.write(0);
    }
  }

  // -- decimals: sign byte, then for non-zero values a 4-byte exponent and base-100 digit pairs.

  private static void encodeDecimal(ByteBuilder out, BigDecimal value) {
    int signum = value.signum();
    if (signum == 0) {
      out.write(DECIMAL_ZERO);
      return;
    }
    if (value.precision() <= 18) {
      encodeDecimalDigits(out, Math.abs(value.unscaledValue().longValue()), value.scale(), signum);
      return;
    }
    encodeDecimalText(out, value, signum);
  }

  /**
   * The encoding of a nonzero decimal of at most 18 digits, {@code unscaled * 10^-scale}, from its
   * unscaled long: the same bytes as {@link #encodeDecimalText}, without making its digits a string
   * (the common case: index keys and primary keys of prices and amounts).
   */
  static void encodeDecimalDigits(ByteBuilder out, long unscaled, int scale, int signum) {
    long u = unscaled;
    long s = scale;
    while (u % 10 == 0) {
      u /= 10;
      s--;
    }
    int digits = 1;
    for (long p = 10; digits < 18 && p <= u; p *= 10) {
      digits++;
    }
    long exponent = digits - s;
    if (exponent != (int) exponent) {
      throw new CairnException(
          ErrorCode.NUMERIC_OUT_OF_RANGE,
          "Decimal exponent out of range: expected 32 bits, found [" + exponent + "]");
    }
    out.write(signum > 0 ? DECIMAL_POSITIVE : DECIMAL_NEGATIVE);
    int magnitudeStart = out.length();
    out.writeBigEndian(((int) exponent) ^ 0x8000_0000, 4);
    int n = digits;
    if ((n & 1) != 0) {
      u *= 10; // an odd count ends with a pair padded by a zero digit; u < 10^17 here
      n++;
    }
    // the pairs from the last one back, into their places: divisions by the constant 100 only
    int pairs = n / 2;
    int at = out.length();
    for (int i = 0; i < pairs; i++) {
      out.write(0);
    }
    for (int i = pairs - 1; i >= 0; i--) {
      out.set(at + i, 2 + (int) (u % 100));
      u /= 100;
    }
    out.write(DECIMAL_DIGITS_END);
    if (signum < 0) {
      out.invertFrom(magnitudeStart);
    }
  }

  /** The encoding of a nonzero decimal of any precision, from the text of its digits. */
  static void encodeDecimalText(ByteBuilder out, BigDecimal value, int signum) {
    BigDecimal normal = value.stripTrailingZeros();
    String digits = normal.unscaledValue().abs().toString();
    // value = 0.d1d2d3... * 10^exponent with d1 != 0
    long exponent = (long) digits.length() - normal.scale();
    if (exponent != (int) exponent) {
      throw new CairnException(
          ErrorCode.NUMERIC_OUT_OF_RANGE,
          "Decimal exponent out of range: expected 32 bits, found [" + exponent + "]");
    }
    out.write(signum > 0 ? DECIMAL_POSITIVE : DECIMAL_NEGATIVE);
    int magnitudeStart = out.length();
    out.writeBigEndian(((int) exponent) ^ 0x8000_0000, 4);
    for (int i = 0; i < digits.length(); i += 2) {
      int high = digits.charAt(i) - '0';
      int low = i + 1 < digits.length() ? digits.charAt(i + 1) - '0' : 0;
      out.write(2 + high * 10 + low);
    }
    out.write(DECIMAL_DIGITS_END);
    if (signum < 0) {
      out.invertFrom(magnitudeStart);
    }
  }

  private static BigDecimal decodeDecimal(ByteReader in) {
    int sign = in.read();
    if (sign == DECIMAL_ZERO) {
      return BigDecimal.ZERO;
    }
    if (sign != DECIMAL_POSITIVE && sign != DECIMAL_NEGATIVE) {
      throw CairnException.internal(
          "Corrupt decimal: expected a sign byte [0x10, 0x20 or 0x30], found [" + sign + "]");
    }
    boolean negative = sign == DECIMAL_NEGATIVE;
    int mask = negative ? 0xFF : 0;
    int exponent = (int) (readMasked(in, 4, mask) ^ 0x8000_0000L);
    StringBuilder digits = new StringBuilder();
    while (true) {
      int pair = in.read() ^ mask;
      if (pair == DECIMAL_DIGITS_END) {
        break;
      }
      if (pair < 2 || pair > 101) {
        throw CairnException.internal(
            "Corrupt decimal: expected a digit pair [2..101], found [" + pair + "]");
      }
      pair -= 2;
      digits.append((char) ('0' + pair / 10)).append((char) ('0' + pair % 10));
    }
    BigInteger unscaled = new BigInteger(digits.toString());
    BigDecimal result = new BigDecimal(unscaled, digits.length() - exponent).stripTrailingZeros();
    return negative ? result.negate() : result;
  }

  private static long readMasked(ByteReader in, int count, int mask) {
    long value = 0;
    for (int i = 0; i < count; i++) {
      value = (value << 8) | (in.read() ^ mask);
    }
    return value;
  }

  /** Gives a decoded (normalised) decimal the column's scale when that is exact. */
  static BigDecimal withColumnScale(BigDecimal value, DataType type) {
    if (type.precision() == DataType.UNSPECIFIED || value.scale() > type.scale()) {
      return value;
    }
    return value.setScale(type.scale());
  }
}
