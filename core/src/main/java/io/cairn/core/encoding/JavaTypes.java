package io.cairn.core.encoding;

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
    if (value == null) {
      return;
    }
    Class<?> expected = javaClass(type);
    if (!expected.isInstance(value)) {
      throw new CairnException(
          ErrorCode.INTERNAL_ERROR,
          "Wrong value class for column ["
              + columnIndex
              + "] of type ["
              + type.sql()
              + "]: expected ["
              + expected.getName()
              + "], found ["
              + value.getClass().getName()
              + "]");
    }
  }
}
