package io.cairn.core.expr;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Operations on single SQL values in their Java representation (see {@link TypeName}): ordering,
 * CAST, store assignment and literal text.
 *
 * <p>Text form of values ({@link #toText}, used by CAST to CHAR/VARCHAR), PostgreSQL-like:
 *
 * <ul>
 *   <li>BOOLEAN: {@code true} / {@code false}
 *   <li>DECIMAL: plain digits, never exponent notation, with the value's scale ({@code 1.50})
 *   <li>DOUBLE/FLOAT: shortest text that reads back to the same value; integral values without
 *       {@code .0}; exponent notation {@code 1e+20}, {@code 1.5e-07} when the decimal exponent is
 *       below -4 or at least 15 (DOUBLE) / 6 (FLOAT); {@code NaN}, {@code Infinity}, {@code
 *       -Infinity}
 *   <li>DATE {@code 2024-02-29}; TIME {@code 10:15:30[.123]}; TIMESTAMP {@code 2024-02-29
 *       10:15:30[.123]} (fraction only when non-zero, trailing zeros dropped)
 *   <li>VARBINARY: {@code \x} followed by lower-case hex digits
 * </ul>
 */
public final class Values {
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final Pattern INTEGER_TEXT = Pattern.compile("[+-]?\\d+");
  private static final Pattern DECIMAL_TEXT =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
  private static final Pattern DATE_TEXT = Pattern.compile("(-?\\d{4,})-(\\d{1,2})-(\\d{1,2})");
  private static final Pattern TIME_TEXT =
      Pattern.compile("(\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?");
  private static final Pattern TIMESTAMP_TEXT =
      Pattern.compile(
          "(-?\\d{4,})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?)?");
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Values() {}

  // ---------------------------------------------------------------- ordering

  /**
   * SQL ordering of two non-null values of comparable types: numbers of any numeric class by value
   * (exactly when neither is floating point; NaN above everything, -0.0 equal to 0.0), strings by
   * code point (trailing spaces significant: use {@link #compareIgnoringTrailingSpaces} for CHAR),
   * booleans (false &lt; true), byte arrays unsigned lexicographically, DATE vs TIMESTAMP with the
   * date at midnight, TIME, TIMESTAMP.
   *
   * @throws CairnException TYPE_MISMATCH when the values are not comparable
   */
  public static int compare(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return compareNumbers(x, y);
    }
    if (a instanceof String x && b instanceof String y) {
      return compareStrings(x, y);
    }
    if (a instanceof LocalDate x) {
      if (b instanceof LocalDate y) {
        return x.compareTo(y);
      }
      if (b instanceof LocalDateTime y) {
        return x.atStartOfDay().compareTo(y);
      }
    }
    if (a instanceof LocalDateTime x) {
      if (b instanceof LocalDateTime y) {
        return x.compareTo(y);
      }
      if (b instanceof LocalDate y) {
        return x.compareTo(y.atStartOfDay());
      }
    }
    if (a instanceof LocalTime x && b instanceof LocalTime y) {
      return x.compareTo(y);
    }
    if (a instanceof Boolean x && b instanceof Boolean y) {
      return Boolean.compare(x, y);
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.compareUnsigned(x, y);
    }
    throw new CairnException(
        ErrorCode.TYPE_MISMATCH,
        "Cannot compare values: expected comparable types, found ["
            + className(a)
            + "] and ["
            + className(b)
            + "]");
  }

  /** Numbers by value; see {@link #compare}. */
  static int compareNumbers(Number x, Number y) {
    boolean xExact = isExactInteger(x);
    boolean yExact = isExactInteger(y);
    if (xExact && yExact) {
      return Long.compare(x.longValue(), y.longValue());
    }
    boolean xFloat = x instanceof Double || x instanceof Float;
    boolean yFloat = y instanceof Double || y instanceof Float;
    if (xFloat && yFloat) {
      return compareDoubles(x.doubleValue(), y.doubleValue());
    }
    if (xFloat || yFloat) {
      double d = xFloat ? x.doubleValue() : y.doubleValue();
      int sign = xFloat ? 1 : -1;
      if (Double.isNaN(d)) {
        return sign;
      }
      if (Double.isInfinite(d)) {
        return d > 0 ? sign : -sign;
      }
      BigDecimal exactD = new BigDecimal(d);
      BigDecimal other = toBigDecimal(xFloat ? y : x);
      return xFloat ? exactD.compareTo(other) : other.compareTo(exactD);
    }
    return toBigDecimal(x).compareTo(toBigDecimal(y));
  }

  /** Doubles as SQL orders them: NaN equal to itself and above everything; -0.0 equals 0.0. */
  static int compareDoubles(double a, double b) {
    if (a < b) {
      return -1;
    }
    if (a > b) {
      return 1;
    }
    if (a == b) {
      return 0;
    }
    return Double.compare(a, b);
  }

  /** Strings by Unicode code point (the order of their UTF-8 bytes, as in row keys). */
  public static int compareStrings(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        if (x >= Character.MIN_SURROGATE && y >= Character.MIN_SURROGATE) {
          return fixupSurrogate(x) - fixupSurrogate(y);
        }
        return x - y;
      }
    }
    return a.length() - b.length();
  }

  private static int fixupSurrogate(char c) {
    // moves surrogates (D800..DFFF) above E000..FFFF so UTF-16 order becomes code point order
    return c >= 0xE000 ? c - 0x800 : c + 0x2000;
  }

  /** CHAR(n) comparison: trailing spaces are insignificant ({@code 'a ' = 'a'}). */
  public static int compareIgnoringTrailingSpaces(String a, String b) {
    return compareStrings(stripTrailingSpaces(a), stripTrailingSpaces(b));
  }

  static String stripTrailingSpaces(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == ' ') {
      end--;
    }
    return end == s.length() ? s : s.substring(0, end);
  }

  // ---------------------------------------------------------------- CAST

  /**
   * CAST semantics: converts {@code value} to the Java class of {@code target}, with range checks
   * (NUMERIC_OUT_OF_RANGE), DECIMAL rounding HALF_UP to the target scale and precision check, text
   * parsing (INVALID_CAST for malformed text, INVALID_DATETIME for impossible dates), truncation to
   * VARCHAR(n)/CHAR(n) and padding of CHAR(n). Numbers become integers by rounding HALF_UP (away
   * from zero). Null stays null.
   */
  public static Object cast(Object value, DataType target) {
    if (value == null) {
      return null;
    }
    return switch (target.name()) {
      case BOOLEAN -> toBoolean(value);
      case TINYINT -> {
        long v = toLong(value, target);
        checkRange(v, Byte.MIN_VALUE, Byte.MAX_VALUE, value, target);
        yield (byte) v;
      }
      case SMALLINT -> {
        long v = toLong(value, target);
        checkRange(v, Short.MIN_VALUE, Short.MAX_VALUE, value, target);
        yield (short) v;
      }
      case INTEGER -> {
        long v = toLong(value, target);
        checkRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE, value, target);
        yield (int) v;
      }
      case BIGINT, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> toLong(value, target);
      case FLOAT -> {
        if (value instanceof Float) {
          yield value;
        }
        double d = toDouble(value, target);
        float f = (float) d;
        if (Float.isInfinite(f) && !Double.isInfinite(d)) {
          throw outOfRange(value, target);
        }
        yield f;
      }
      case DOUBLE -> toDouble(value, target);
      case DECIMAL -> toDecimal(value, target);
      case CHAR -> {
        String s = toText(value);
        yield target.hasLength() ? padOrTruncate(s, target.precision()) : s;
      }
      case VARCHAR -> {
        String s = toText(value);
        yield target.hasLength() ? truncate(s, target.precision()) : s;
      }
      case VARBINARY -> {
        byte[] b = toBytes(value, target);
        yield target.hasLength() && b.length > target.precision()
            ? Arrays.copyOf(b, target.precision())
            : b;
      }
      case DATE -> checkDate(toDate(value, target));
      case TIME -> roundTime(toTime(value, target), target.precision());
      case TIMESTAMP ->
          checkTimestamp(roundTimestamp(toTimestamp(value, target), target.precision()));
      case NULL -> throw invalidCast(value, target);
    };
  }

  /**
   * A parameter's value converted to the Java class of its type, like {@link #cast} but without
   * cutting strings and byte strings to the type's length: a parameter is a value, not a CAST, so
   * its length is checked where it is assigned (STRING_TOO_LONG), exactly like a literal's.
   */
  public static Object castParameter(Object value, DataType type) {
    if (value == null) {
      return null;
    }
    TypeName name = type.name();
    if ((name.isString() || name == TypeName.VARBINARY) && type.hasLength()) {
      return cast(value, DataType.of(name));
    }
    return cast(value, type);
  }

  // ---------------------------------------------------------------- datetime range

  /** The first DATE Cairn accepts: years 0001 to 9999, as in PostgreSQL's input and Phoenix. */
  public static final LocalDate MIN_DATE = LocalDate.of(1, 1, 1);

  /** The last DATE Cairn accepts. */
  public static final LocalDate MAX_DATE = LocalDate.of(9999, 12, 31);

  /**
   * Returns {@code date} when its year is within 0001..9999.
   *
   * @throws CairnException DATETIME_OUT_OF_RANGE otherwise
   */
  public static LocalDate checkDate(LocalDate date) {
    if (date.isBefore(MIN_DATE) || date.isAfter(MAX_DATE)) {
      throw datetimeOutOfRange(date);
    }
    return date;
  }

  /**
   * Returns {@code timestamp} when its year is within 0001..9999.
   *
   * @throws CairnException DATETIME_OUT_OF_RANGE otherwise
   */
  public static LocalDateTime checkTimestamp(LocalDateTime timestamp) {
    int year = timestamp.getYear();
    if (year < MIN_DATE.getYear() || year > MAX_DATE.getYear()) {
      throw datetimeOutOfRange(timestamp);
    }
    return timestamp;
  }

  private static CairnException datetimeOutOfRange(Object value) {
    return new CairnException(
        ErrorCode.DATETIME_OUT_OF_RANGE,
        "Date out of range: expected years 0001 to 9999, found ["
            + (value instanceof LocalDateTime t
                ? t.toLocalDate() + " " + timeText(t.toLocalTime())
                : value.toString())
            + "]");
  }

  private static Boolean toBoolean(Object value) {
    if (value instanceof Boolean b) {
      return b;
    }
    if (value instanceof String s) {
      String t = s.trim().toLowerCase(Locale.ROOT);
      switch (t) {
        case "true", "t", "yes", "y", "on", "1":
          return Boolean.TRUE;
        case "false", "f", "no", "n", "off", "0":
          return Boolean.FALSE;
        default:
          throw invalidCast(value, DataType.BOOLEAN);
      }
    }
    if (isExactInteger(value)) {
      return ((Number) value).longValue() != 0;
    }
    throw invalidCast(value, DataType.BOOLEAN);
  }

  /** Converts to a long for an integer target: rounds HALF_UP, checks the long range. */
  static long toLong(Object value, DataType target) {
    if (value instanceof Long l) {
      return l;
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigDecimal d) {
      BigDecimal r = d.setScale(0, RoundingMode.HALF_UP);
      if (r.compareTo(LONG_MIN) < 0 || r.compareTo(LONG_MAX) > 0) {
        throw outOfRange(value, target);
      }
      return r.longValueExact();
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw outOfRange(value, target);
      }
      double r = d < 0 ? -roundHalfUp(-d) : roundHalfUp(d);
      // 2^63 is exactly representable; anything >= it does not fit
      if (r >= 0x1p63 || r < -0x1p63) {
        throw outOfRange(value, target);
      }
      return (long) r;
    }
    if (value instanceof String s) {
      String t = s.trim();
      if (!INTEGER_TEXT.matcher(t).matches()) {
        throw invalidCast(value, target);
      }
      try {
        return Long.parseLong(t);
      } catch (NumberFormatException e) {
        throw outOfRange(value, target);
      }
    }
    if (value instanceof Boolean b) {
      return b ? 1 : 0;
    }
    throw invalidCast(value, target);
  }

  /** Rounds a non-negative double half up without the error of {@code floor(d + 0.5)}. */
  private static double roundHalfUp(double d) {
    double floor = Math.floor(d);
    return d - floor >= 0.5 ? floor + 1 : floor;
  }

  private static double toDouble(Object value, DataType target) {
    if (value instanceof Number n) {
      return n.doubleValue();
    }
    if (value instanceof String s) {
      String t = s.trim();
      if (DECIMAL_TEXT.matcher(t).matches()) {
        double d = Double.parseDouble(t);
        if (Double.isInfinite(d)) {
          throw outOfRange(value, target);
        }
        return d;
      }
      switch (t.toLowerCase(Locale.ROOT)) {
        case "nan":
          return Double.NaN;
        case "infinity", "+infinity", "inf", "+inf":
          return Double.POSITIVE_INFINITY;
        case "-infinity", "-inf":
          return Double.NEGATIVE_INFINITY;
        default:
          throw invalidCast(value, target);
      }
    }
    throw invalidCast(value, target);
  }

  private static BigDecimal toDecimal(Object value, DataType target) {
    BigDecimal d;
    if (value instanceof BigDecimal b) {
      d = b;
    } else if (isExactInteger(value)) {
      d = BigDecimal.valueOf(((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      double x = ((Number) value).doubleValue();
      if (Double.isNaN(x) || Double.isInfinite(x)) {
        throw outOfRange(value, target);
      }
      d = value instanceof Float f ? new BigDecimal(Float.toString(f)) : BigDecimal.valueOf(x);
    } else if (value instanceof String s) {
      String t = s.trim();
      if (!DECIMAL_TEXT.matcher(t).matches()) {
        throw invalidCast(value, target);
      }
      d = new BigDecimal(t);
    } else {
      throw invalidCast(value, target);
    }
    return fitDecimal(d, target, value);
  }

  /**
   * Rounds HALF_UP to the type's scale and checks its precision; an unconstrained DECIMAL (no
   * precision) keeps the value as is.
   */
  static BigDecimal fitDecimal(BigDecimal d, DataType target, Object original) {
    if (!target.hasLength()) {
      return d;
    }
    BigDecimal r =
        d.scale() == target.scale() ? d : d.setScale(target.scale(), RoundingMode.HALF_UP);
    if (r.precision() > target.precision() && r.signum() != 0) {
      throw outOfRange(original, target);
    }
    return r;
  }

  private static byte[] toBytes(Object value, DataType target) {
    if (value instanceof byte[] b) {
      return b;
    }
    if (value instanceof String s) {
      if (s.startsWith("\\x")) {
        return parseHex(s, 2, target);
      }
      return s.getBytes(StandardCharsets.UTF_8);
    }
    throw invalidCast(value, target);
  }

  private static byte[] parseHex(String s, int from, DataType target) {
    int n = s.length() - from;
    if (n % 2 != 0) {
      throw invalidCast(s, target);
    }
    byte[] out = new byte[n / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = Character.digit(s.charAt(from + 2 * i), 16);
      int lo = Character.digit(s.charAt(from + 2 * i + 1), 16);
      if (hi < 0 || lo < 0) {
        throw invalidCast(s, target);
      }
      out[i] = (byte) (hi << 4 | lo);
    }
    return out;
  }

  private static LocalDate toDate(Object value, DataType target) {
    if (value instanceof LocalDate d) {
      return d;
    }
    if (value instanceof LocalDateTime t) {
      return t.toLocalDate();
    }
    if (value instanceof String s) {
      String t = s.trim();
      Matcher m = DATE_TEXT.matcher(t);
      if (m.matches()) {
        return date(t, m.group(1), m.group(2), m.group(3));
      }
      Matcher ts = TIMESTAMP_TEXT.matcher(t);
      if (ts.matches()) {
        return parseTimestamp(t, ts).toLocalDate();
      }
      throw invalidCast(value, target);
    }
    throw invalidCast(value, target);
  }

  private static LocalTime toTime(Object value, DataType target) {
    if (value instanceof LocalTime t) {
      return t;
    }
    if (value instanceof LocalDateTime t) {
      return t.toLocalTime();
    }
    if (value instanceof String s) {
      String t = s.trim();
      Matcher m = TIME_TEXT.matcher(t);
      if (m.matches()) {
        return time(t, m.group(1), m.group(2), m.group(3), m.group(4));
      }
      Matcher ts = TIMESTAMP_TEXT.matcher(t);
      if (ts.matches() && ts.group(4) != null) {
        return parseTimestamp(t, ts).toLocalTime();
      }
      throw invalidCast(value, target);
    }
    throw invalidCast(value, target);
  }

  private static LocalDateTime toTimestamp(Object value, DataType target) {
    if (value instanceof LocalDateTime t) {
      return t;
    }
    if (value instanceof LocalDate d) {
      return d.atStartOfDay();
    }
    if (value instanceof String s) {
      String t = s.trim();
      Matcher m = TIMESTAMP_TEXT.matcher(t);
      if (m.matches()) {
        return parseTimestamp(t, m);
      }
      throw invalidCast(value, target);
    }
    throw invalidCast(value, target);
  }

  private static LocalDateTime parseTimestamp(String text, Matcher m) {
    LocalDate d = date(text, m.group(1), m.group(2), m.group(3));
    if (m.group(4) == null) {
      return d.atStartOfDay();
    }
    return d.atTime(time(text, m.group(4), m.group(5), m.group(6), m.group(7)));
  }

  private static LocalDate date(String text, String y, String m, String d) {
    try {
      return LocalDate.of(Integer.parseInt(y), Integer.parseInt(m), Integer.parseInt(d));
    } catch (DateTimeException | NumberFormatException e) {
      throw new CairnException(
          ErrorCode.INVALID_DATETIME, "Invalid date: [" + text + "]: " + e.getMessage(), e);
    }
  }

  private static LocalTime time(String text, String h, String m, String s, String fraction) {
    try {
      int nanos = 0;
      if (fraction != null) {
        nanos = Integer.parseInt((fraction + "000000000").substring(0, 9));
      }
      return LocalTime.of(
          Integer.parseInt(h), Integer.parseInt(m), s == null ? 0 : Integer.parseInt(s), nanos);
    } catch (DateTimeException | NumberFormatException e) {
      throw new CairnException(
          ErrorCode.INVALID_DATETIME, "Invalid time: [" + text + "]: " + e.getMessage(), e);
    }
  }

  private static LocalTime roundTime(LocalTime t, int precision) {
    if (precision < 0 || precision >= 9 || t.getNano() == 0) {
      return t;
    }
    long unit = pow10(9 - precision);
    long nanos = t.toNanoOfDay();
    long rounded = Math.floorDiv(nanos + unit / 2, unit) * unit;
    return LocalTime.ofNanoOfDay(rounded % 86_400_000_000_000L);
  }

  private static LocalDateTime roundTimestamp(LocalDateTime t, int precision) {
    if (precision < 0 || precision >= 9 || t.getNano() == 0) {
      return t;
    }
    long unit = pow10(9 - precision);
    long nanos = t.getNano();
    long rounded = (nanos + unit / 2) / unit * unit;
    return t.withNano(0).plusNanos(rounded);
  }

  private static long pow10(int n) {
    long r = 1;
    for (int i = 0; i < n; i++) {
      r *= 10;
    }
    return r;
  }

  // ---------------------------------------------------------------- text

  /** Canonical text of a value (CAST to VARCHAR); see the class comment. */
  public static String toText(Object value) {
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (value instanceof Double d) {
      return doubleText(d, 15);
    }
    if (value instanceof Float f) {
      return floatText(f);
    }
    if (value instanceof Number || value instanceof Boolean) {
      return value.toString();
    }
    if (value instanceof LocalDate d) {
      return d.toString();
    }
    if (value instanceof LocalTime t) {
      return timeText(t);
    }
    if (value instanceof LocalDateTime t) {
      return t.toLocalDate() + " " + timeText(t.toLocalTime());
    }
    if (value instanceof byte[] b) {
      return "\\x" + hex(b);
    }
    throw CairnException.internal("Not a SQL value: [" + className(value) + "]");
  }

  private static String floatText(float f) {
    if (Float.isNaN(f) || Float.isInfinite(f)) {
      return doubleText(f, 6);
    }
    return decimalText(new BigDecimal(Float.toString(f)), 6);
  }

  private static String doubleText(double d, int maxExponent) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0" : "0";
    }
    return decimalText(new BigDecimal(Double.toString(d)), maxExponent);
  }

  private static String decimalText(BigDecimal exact, int maxExponent) {
    if (exact.signum() == 0) {
      return "0";
    }
    BigDecimal v = exact.stripTrailingZeros();
    int exponent = v.precision() - v.scale() - 1;
    if (exponent < -4 || exponent >= maxExponent) {
      String digits = v.unscaledValue().abs().toString();
      StringBuilder sb = new StringBuilder();
      if (v.signum() < 0) {
        sb.append('-');
      }
      sb.append(digits.charAt(0));
      if (digits.length() > 1) {
        sb.append('.').append(digits, 1, digits.length());
      }
      sb.append('e').append(exponent < 0 ? '-' : '+');
      int abs = Math.abs(exponent);
      if (abs < 10) {
        sb.append('0');
      }
      sb.append(abs);
      return sb.toString();
    }
    return v.scale() < 0 ? v.setScale(0).toPlainString() : v.toPlainString();
  }

  static String timeText(LocalTime t) {
    StringBuilder sb = new StringBuilder(18);
    two(sb, t.getHour()).append(':');
    two(sb, t.getMinute()).append(':');
    two(sb, t.getSecond());
    int nanos = t.getNano();
    if (nanos != 0) {
      String f = Integer.toString(nanos + 1_000_000_000).substring(1);
      int end = f.length();
      while (f.charAt(end - 1) == '0') {
        end--;
      }
      sb.append('.').append(f, 0, end);
    }
    return sb.toString();
  }

  private static StringBuilder two(StringBuilder sb, int v) {
    if (v < 10) {
      sb.append('0');
    }
    return sb.append(v);
  }

  static String hex(byte[] b) {
    char[] out = new char[b.length * 2];
    for (int i = 0; i < b.length; i++) {
      out[2 * i] = HEX[(b[i] >> 4) & 0xF];
      out[2 * i + 1] = HEX[b[i] & 0xF];
    }
    return new String(out);
  }

  /** The value as a SQL literal, for messages and EXPLAIN: {@code 'it''s'}, {@code DATE '...'}. */
  public static String toSqlString(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof String s) {
      return "'" + s.replace("'", "''") + "'";
    }
    if (value instanceof Boolean b) {
      return b ? "TRUE" : "FALSE";
    }
    if (value instanceof LocalDate) {
      return "DATE '" + toText(value) + "'";
    }
    if (value instanceof LocalTime) {
      return "TIME '" + toText(value) + "'";
    }
    if (value instanceof LocalDateTime) {
      return "TIMESTAMP '" + toText(value) + "'";
    }
    if (value instanceof byte[] b) {
      return "X'" + hex(b).toUpperCase(Locale.ROOT) + "'";
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        return "'" + toText(value) + "'";
      }
    }
    return toText(value);
  }

  // ---------------------------------------------------------------- assignment

  /**
   * Store assignment (INSERT/UPSERT): coerces a value of a compatible type to the column's Java
   * class. Strings longer than CHAR(n)/VARCHAR(n) fail with STRING_TOO_LONG (unless the excess is
   * only spaces, which is dropped, as in PostgreSQL); CHAR(n) is padded; numbers are range-checked
   * (NUMERIC_OUT_OF_RANGE naming the column and value) and DECIMAL rounded HALF_UP to the scale.
   * Other conversions follow {@link #cast}. Null passes (NOT NULL is checked elsewhere).
   */
  public static Object assign(Object value, DataType target, String columnName) {
    if (value == null) {
      return null;
    }
    TypeName name = target.name();
    if (name.isString()) {
      String s = toText(value);
      if (!target.hasLength()) {
        return s;
      }
      int n = target.precision();
      int length = s.codePointCount(0, s.length());
      if (length > n) {
        int cut = s.offsetByCodePoints(0, n);
        if (s.substring(cut).chars().anyMatch(c -> c != ' ')) {
          throw new CairnException(
              ErrorCode.STRING_TOO_LONG,
              "Value too long for column ["
                  + columnName
                  + " "
                  + target.sql()
                  + "]: expected at most ["
                  + n
                  + "] characters, found ["
                  + length
                  + "]");
        }
        s = s.substring(0, cut);
        length = n;
      }
      return name == TypeName.CHAR && length < n ? s + " ".repeat(n - length) : s;
    }
    if (name == TypeName.VARBINARY) {
      byte[] b = toBytes(value, target);
      if (target.hasLength() && b.length > target.precision()) {
        throw new CairnException(
            ErrorCode.STRING_TOO_LONG,
            "Value too long for column ["
                + columnName
                + " "
                + target.sql()
                + "]: expected at most ["
                + target.precision()
                + "] bytes, found ["
                + b.length
                + "]");
      }
      return b;
    }
    try {
      return cast(value, target);
    } catch (CairnException e) {
      if (e.errorCode() == ErrorCode.NUMERIC_OUT_OF_RANGE) {
        throw new CairnException(
            ErrorCode.NUMERIC_OUT_OF_RANGE,
            "Value out of range for column ["
                + columnName
                + " "
                + target.sql()
                + "]: ["
                + toText(value)
                + "]",
            e);
      }
      throw e;
    }
  }

  // ---------------------------------------------------------------- helpers

  static boolean isExactInteger(Object v) {
    return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
  }

  static BigDecimal toBigDecimal(Number n) {
    if (n instanceof BigDecimal d) {
      return d;
    }
    if (isExactInteger(n)) {
      return BigDecimal.valueOf(n.longValue());
    }
    if (n instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    return BigDecimal.valueOf(n.doubleValue());
  }

  static String truncate(String s, int n) {
    if (s.length() <= n) {
      return s;
    }
    int count = s.codePointCount(0, s.length());
    return count <= n ? s : s.substring(0, s.offsetByCodePoints(0, n));
  }

  static String padOrTruncate(String s, int n) {
    String t = truncate(s, n);
    int count = t.codePointCount(0, t.length());
    return count < n ? t + " ".repeat(n - count) : t;
  }

  private static void checkRange(long v, long min, long max, Object value, DataType target) {
    if (v < min || v > max) {
      throw outOfRange(value, target);
    }
  }

  static CairnException outOfRange(Object value, DataType target) {
    return new CairnException(
        ErrorCode.NUMERIC_OUT_OF_RANGE,
        "Value out of range for " + target.sql() + ": [" + toText(value) + "]");
  }

  static CairnException invalidCast(Object value, DataType target) {
    return new CairnException(
        ErrorCode.INVALID_CAST, "Cannot cast [" + toText(value) + "] to " + target.sql());
  }

  static String className(Object v) {
    return v == null ? "null" : v.getClass().getSimpleName();
  }
}
