package io.cairn.core.encoding;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/** The Java class of each SQL type's values (see TypeName) and the check that codecs apply. */
final class JavaTypes {
  private JavaTypes() {}

  static Class<?> javaClass(DataType type) {
    return switch (type.name()) {
      case BOOLEAN -> Boolean.class;
      case TINYINT -> Byte.class;
      case SMALLINT -> Short.class;
      case INTEGER -> Integer.class;
      case BIGINT, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> Long.class;
      case FLOAT -> Float.class;
      case DOUBLE -> Double.class;
      case DECIMAL -> BigDecimal.class;
      case CHAR, VARCHAR -> String.class;
      case VARBINARY -> byte[].class;
      case DATE -> LocalDate.class;
      case TIME -> LocalTime.class;
      case TIMESTAMP -> LocalDateTime.class;
      case NULL -> Void.class;
    };
  }

  /** Throws INTERNAL_ERROR unless {@code value} is null or of {@code type}'s Java class. */
  static void check(int columnIndex, DataType type, Object value) {
    // the name is made only for the message: this runs for every value encoded
    if (value != null && !javaClass(type).isInstance(value)) {
      check("column [" + columnIndex + "]", type, value);
    }
  }

  /** As {@link #check(int, DataType, Object)}; {@code what} names the value in the message. */
  static void check(String what, DataType type, Object value) {
    if (value == null) {
      return;
    }
    Class<?> expected = javaClass(type);
    if (!expected.isInstance(value)) {
      throw new CairnException(
          ErrorCode.INTERNAL_ERROR,
          "Wrong value class for "
              + what
              + " of type ["
              + type.sql()
              + "]: expected ["
              + expected.getName()
              + "], found ["
              + value.getClass().getName()
              + "]");
    }
  }

  /**
   * UTF-8 bytes of {@code s}; an unpaired surrogate (which UTF-8 cannot hold, and which the JDK
   * would silently replace, making distinct strings equal) is rejected with INVALID_ARGUMENT.
   */
  static byte[] utf8(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new CairnException(
            ErrorCode.INVALID_ARGUMENT,
            "Invalid string: expected well-formed UTF-16, found an unpaired surrogate at index ["
                + i
                + "]");
      }
    }
    return s.getBytes(UTF_8);
  }
}
