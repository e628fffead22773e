package io.cairn.jdbc.internal;

import io.cairn.core.SuppressForbidden;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Calendar;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Conversions between JDBC's Java values and the Java classes of Cairn's types (see {@link
 * TypeName}). DATE, TIME and TIMESTAMP are zone-less: the only zone ever applied is a Calendar the
 * caller passes.
 */
public final class JdbcValues {
  private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
  private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

  /** {@code yyyy-MM-dd HH:mm:ss[.f...]}, also accepting a {@code T} separator. */
  private static final DateTimeFormatter TIMESTAMP_PARSER =
      new DateTimeFormatterBuilder()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .optionalStart()
          .appendLiteral(' ')
          .optionalEnd()
          .optionalStart()
          .appendLiteral('T')
          .optionalEnd()
          .append(DateTimeFormatter.ISO_LOCAL_TIME)
          .toFormatter(Locale.ROOT);

  private JdbcValues() {}

  // ---------------------------------------------------------------------------------------------
  // Parameters: user value -> the Java class of the parameter's type

  /**
   * Converts a value set on a PreparedStatement to the Java class {@code type} expects. {@code
   * what} names the parameter in messages, e.g. {@code parameter 2}.
   */
  public static Object toParameter(Object value, DataType type, String what) throws SQLException {
    Object v = normalize(value, what);
    if (v == null) {
      return null;
    }
    return switch (type.name()) {
      case NULL -> v;
      case BOOLEAN -> toBooleanValue(v, type, what);
      case TINYINT -> (byte) toLong(v, type, what, Byte.MIN_VALUE, Byte.MAX_VALUE, false);
      case SMALLINT -> (short) toLong(v, type, what, Short.MIN_VALUE, Short.MAX_VALUE, false);
      case INTEGER -> (int) toLong(v, type, what, Integer.MIN_VALUE, Integer.MAX_VALUE, false);
      case BIGINT, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME ->
          toLong(v, type, what, Long.MIN_VALUE, Long.MAX_VALUE, false);
      case FLOAT -> toFloat(v, type, what);
      case DOUBLE -> toDouble(v, type, what);
      case DECIMAL -> toDecimalParameter(v, type, what);
      case CHAR, VARCHAR -> toStringValue(v, type);
      case VARBINARY -> toBytes(v, type, what);
      case DATE -> toLocalDate(v, type, what);
      case TIME -> toLocalTime(v, type, what);
      case TIMESTAMP -> toLocalDateTime(v, type, what);
    };
  }

  /** Turns JDBC's Java classes into Cairn's: java.sql datetimes, BigInteger, Character, ... */
  static Object normalize(Object value, String what) throws SQLException {
    if (value == null) {
      return null;
    }
    if (value instanceof Date d) {
      return d.toLocalDate();
    }
    if (value instanceof Time t) {
      return t.toLocalTime();
    }
    if (value instanceof Timestamp t) {
      return t.toLocalDateTime();
    }
    if (value instanceof java.util.Date d) {
      // JDBC reads a java.util.Date as a java.sql.Timestamp: local time in the JVM's zone.
      return Timestamp.from(d.toInstant()).toLocalDateTime();
    }
    if (value instanceof BigInteger b) {
      return new BigDecimal(b);
    }
    if (value instanceof Character c) {
      return c.toString();
    }
    if (value instanceof byte[] b) {
      return b.clone();
    }
    if (value instanceof Boolean
        || value instanceof Number
        || value instanceof String
        || value instanceof LocalDate
        || value instanceof LocalTime
        || value instanceof LocalDateTime) {
      return value;
    }
    throw JdbcErrors.error(
        ErrorCode.INVALID_CAST,
        "Cannot use a value of class ["
            + value.getClass().getName()
            + "] for "
            + what
            + ": expected a number, string, boolean, byte[], java.sql or java.time date/time");
  }

  private static BigDecimal toDecimalParameter(Object v, DataType type, String what)
      throws SQLException {
    BigDecimal d = toBigDecimal(v, type, what);
    if (type.hasLength()) {
      d = d.setScale(type.scale(), RoundingMode.HALF_UP);
      if (d.precision() - d.scale() > type.precision() - type.scale()) {
        throw outOfRange(v, type, what);
      }
    }
    return d;
  }

  // ---------------------------------------------------------------------------------------------
  // Shared conversions; 'type' is the target type, used in messages.

  static boolean toBooleanValue(Object v, DataType type, String what) throws SQLException {
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof BigDecimal d) {
      return d.signum() != 0;
    }
    if (v instanceof Number n) {
      return n.doubleValue() != 0;
    }
    if (v instanceof String s) {
      String t = s.trim();
      if (t.equalsIgnoreCase("true") || t.equals("1")) {
        return true;
      }
      if (t.equalsIgnoreCase("false") || t.equals("0")) {
        return false;
      }
    }
    throw invalidCast(v, type, what);
  }

  /**
   * An integral value in [min, max]. Fractions are truncated toward zero when {@code truncate}
   * (ResultSet getters, as JDBC drivers do) and otherwise (parameters) rounded HALF_UP, as a
   * literal or a CAST to an integer type is ({@code 1.9} becomes 2).
   */
  static long toLong(Object v, DataType type, String what, long min, long max, boolean truncate)
      throws SQLException {
    long result;
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      result = ((Number) v).longValue();
    } else if (v instanceof Boolean b) {
      result = b ? 1 : 0;
    } else if (v instanceof Number || v instanceof String) {
      BigDecimal d;
      if (v instanceof String s) {
        try {
          d = new BigDecimal(s.trim());
        } catch (NumberFormatException e) {
          throw invalidCast(v, type, what);
        }
      } else {
        double dv = ((Number) v).doubleValue();
        if (v instanceof BigDecimal bd) {
          d = bd;
        } else if (Double.isNaN(dv) || Double.isInfinite(dv)) {
          throw outOfRange(v, type, what);
        } else {
          d = new BigDecimal(v.toString());
        }
      }
      BigDecimal integral = d.setScale(0, truncate ? RoundingMode.DOWN : RoundingMode.HALF_UP);
      if (integral.compareTo(LONG_MIN) < 0 || integral.compareTo(LONG_MAX) > 0) {
        throw outOfRange(v, type, what);
      }
      result = integral.longValueExact();
    } else {
      throw invalidCast(v, type, what);
    }
    if (result < min || result > max) {
      throw outOfRange(v, type, what);
    }
    return result;
  }

  static float toFloat(Object v, DataType type, String what) throws SQLException {
    if (v instanceof Float f) {
      return f;
    }
    double d = toDouble(v, type, what);
    if (!Double.isInfinite(d) && !Double.isNaN(d) && Math.abs(d) > Float.MAX_VALUE) {
      throw outOfRange(v, type, what);
    }
    return (float) d;
  }

  static double toDouble(Object v, DataType type, String what) throws SQLException {
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    if (v instanceof Boolean b) {
      return b ? 1 : 0;
    }
    if (v instanceof String s) {
      try {
        return Double.parseDouble(s.trim());
      } catch (NumberFormatException e) {
        throw invalidCast(v, type, what);
      }
    }
    throw invalidCast(v, type, what);
  }

  static BigDecimal toBigDecimal(Object v, DataType type, String what) throws SQLException {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return BigDecimal.valueOf(((Number) v).longValue());
    }
    if (v instanceof Float || v instanceof Double) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw outOfRange(v, type, what);
      }
      // Float.toString keeps a float's shortest decimal form (0.1f -> 0.1, not 0.100000001...)
      return new BigDecimal(v.toString());
    }
    if (v instanceof Boolean b) {
      return b ? BigDecimal.ONE : BigDecimal.ZERO;
    }
    if (v instanceof String s) {
      try {
        return new BigDecimal(s.trim());
      } catch (NumberFormatException e) {
        throw invalidCast(v, type, what);
      }
    }
    throw invalidCast(v, type, what);
  }

  /** JDBC's string form of a value: plain decimals, ISO dates, {@code yyyy-MM-dd HH:mm:ss[.f]}. */
  static String toStringValue(Object v, DataType sourceType) {
    if (v instanceof String s) {
      return s;
    }
    if (v instanceof BigDecimal d) {
      return d.toPlainString();
    }
    if (v instanceof LocalDate d) {
      return d.toString();
    }
    if (v instanceof LocalTime t) {
      return formatTime(t, sourceType);
    }
    if (v instanceof LocalDateTime t) {
      return t.toLocalDate() + " " + formatTime(t.toLocalTime(), sourceType);
    }
    if (v instanceof byte[] b) {
      return HexFormat.of().withUpperCase().formatHex(b);
    }
    return v.toString();
  }

  /**
   * {@code HH:mm:ss} plus, for a declared precision p &gt; 0, exactly p fraction digits; for an
   * undeclared precision, the fraction without trailing zeros (none when zero).
   */
  private static String formatTime(LocalTime t, DataType type) {
    StringBuilder sb = new StringBuilder(18);
    append2(sb, t.getHour()).append(':');
    append2(sb, t.getMinute()).append(':');
    append2(sb, t.getSecond());
    int nanos = t.getNano();
    boolean declared =
        (type.name() == TypeName.TIME || type.name() == TypeName.TIMESTAMP) && type.hasLength();
    String fraction = String.format(Locale.ROOT, "%09d", nanos);
    if (declared) {
      int digits = Math.min(type.precision(), 9);
      if (digits > 0) {
        sb.append('.').append(fraction, 0, digits);
      }
    } else if (nanos != 0) {
      int end = 9;
      while (fraction.charAt(end - 1) == '0') {
        end--;
      }
      sb.append('.').append(fraction, 0, end);
    }
    return sb.toString();
  }

  private static StringBuilder append2(StringBuilder sb, int value) {
    if (value < 10) {
      sb.append('0');
    }
    return sb.append(value);
  }

  static byte[] toBytes(Object v, DataType type, String what) throws SQLException {
    if (v instanceof byte[] b) {
      return b.clone();
    }
    throw invalidCast(v, type, what);
  }

  static LocalDate toLocalDate(Object v, DataType type, String what) throws SQLException {
    if (v instanceof LocalDate d) {
      return d;
    }
    if (v instanceof LocalDateTime t) {
      return t.toLocalDate();
    }
    if (v instanceof String s) {
      String t = s.trim();
      try {
        return t.length() > 10 ? parseTimestamp(t).toLocalDate() : LocalDate.parse(t);
      } catch (DateTimeException e) {
        throw invalidDatetime(v, type, what, "yyyy-MM-dd");
      }
    }
    throw invalidCast(v, type, what);
  }

  static LocalTime toLocalTime(Object v, DataType type, String what) throws SQLException {
    if (v instanceof LocalTime t) {
      return t;
    }
    if (v instanceof LocalDateTime t) {
      return t.toLocalTime();
    }
    if (v instanceof String s) {
      try {
        return LocalTime.parse(s.trim());
      } catch (DateTimeException e) {
        throw invalidDatetime(v, type, what, "HH:mm:ss[.fffffffff]");
      }
    }
    throw invalidCast(v, type, what);
  }

  static LocalDateTime toLocalDateTime(Object v, DataType type, String what) throws SQLException {
    if (v instanceof LocalDateTime t) {
      return t;
    }
    if (v instanceof LocalDate d) {
      return d.atStartOfDay();
    }
    if (v instanceof String s) {
      String t = s.trim();
      try {
        return t.length() == 10 ? LocalDate.parse(t).atStartOfDay() : parseTimestamp(t);
      } catch (DateTimeException e) {
        throw invalidDatetime(v, type, what, "yyyy-MM-dd HH:mm:ss[.fffffffff]");
      }
    }
    throw invalidCast(v, type, what);
  }

  private static LocalDateTime parseTimestamp(String s) {
    return LocalDateTime.parse(s, TIMESTAMP_PARSER);
  }

  // ---------------------------------------------------------------------------------------------
  // Calendar variants: the only place a zone is applied, and it is the caller's.

  static ZoneId zone(Calendar calendar) {
    return calendar.getTimeZone().toZoneId();
  }

  /** The local date that the instant of {@code date} has in the calendar's zone. */
  static LocalDate localDate(Date date, Calendar calendar) {
    return Instant.ofEpochMilli(date.getTime()).atZone(zone(calendar)).toLocalDate();
  }

  static LocalTime localTime(Time time, Calendar calendar) {
    return Instant.ofEpochMilli(time.getTime()).atZone(zone(calendar)).toLocalTime();
  }

  static LocalDateTime localDateTime(Timestamp timestamp, Calendar calendar) {
    Instant instant =
        Instant.ofEpochSecond(Math.floorDiv(timestamp.getTime(), 1000L), timestamp.getNanos());
    return instant.atZone(zone(calendar)).toLocalDateTime();
  }

  @SuppressForbidden(
      reason = "JDBC's Calendar getters return the instant of a local value in the caller's zone")
  static Date dateIn(LocalDate date, Calendar calendar) {
    return new Date(date.atStartOfDay(zone(calendar)).toInstant().toEpochMilli());
  }

  @SuppressForbidden(
      reason = "JDBC's Calendar getters return the instant of a local value in the caller's zone")
  static Time timeIn(LocalTime time, Calendar calendar) {
    return new Time(time.atDate(LocalDate.EPOCH).atZone(zone(calendar)).toInstant().toEpochMilli());
  }

  @SuppressForbidden(
      reason = "JDBC's Calendar getters return the instant of a local value in the caller's zone")
  static Timestamp timestampIn(LocalDateTime dateTime, Calendar calendar) {
    Instant instant = dateTime.atZone(zone(calendar)).toInstant();
    Timestamp t = new Timestamp(instant.getEpochSecond() * 1000L);
    t.setNanos(dateTime.get(ChronoField.NANO_OF_SECOND));
    return t;
  }

  // ---------------------------------------------------------------------------------------------
  // Errors

  static SQLException invalidCast(Object v, DataType type, String what) {
    return JdbcErrors.error(
        ErrorCode.INVALID_CAST,
        "Cannot convert " + describe(v) + " to " + type.sql() + " for " + what);
  }

  static SQLException outOfRange(Object v, DataType type, String what) {
    return JdbcErrors.error(
        ErrorCode.NUMERIC_OUT_OF_RANGE,
        "Value out of range for " + type.sql() + " (" + what + "): " + describe(v));
  }

  private static SQLException invalidDatetime(
      Object v, DataType type, String what, String expected) {
    return JdbcErrors.error(
        ErrorCode.INVALID_DATETIME,
        "Cannot convert "
            + describe(v)
            + " to "
            + type.sql()
            + " for "
            + what
            + ": expected ["
            + expected
            + "]");
  }

  static String describe(Object v) {
    if (v instanceof byte[] b) {
      return "[byte[" + b.length + "]]";
    }
    if (v instanceof String s) {
      return "['" + s + "']";
    }
    return "[" + v + "]" + (v == null ? "" : " of class [" + v.getClass().getSimpleName() + "]");
  }
}
