package io.cairn.jdbc.internal;

import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Types;

/** How Cairn's SQL types appear through JDBC: java.sql.Types codes, sizes and Java classes. */
public final class JdbcTypes {
  /** Fractional-second digits assumed for TIME/TIMESTAMP without a declared precision. */
  static final int DEFAULT_FRACTION_DIGITS = 9;

  private JdbcTypes() {}

  /** The java.sql.Types code of a Cairn type (FLOAT is 4 bytes, so it is REAL). */
  public static int sqlType(TypeName name) {
    return switch (name) {
      case BOOLEAN -> Types.BOOLEAN;
      case TINYINT -> Types.TINYINT;
      case SMALLINT -> Types.SMALLINT;
      case INTEGER -> Types.INTEGER;
      case BIGINT -> Types.BIGINT;
      case FLOAT -> Types.REAL;
      case DOUBLE -> Types.DOUBLE;
      case DECIMAL -> Types.DECIMAL;
      case CHAR -> Types.CHAR;
      case VARCHAR -> Types.VARCHAR;
      case DATE -> Types.DATE;
      case TIME -> Types.TIME;
      case TIMESTAMP -> Types.TIMESTAMP;
      case VARBINARY -> Types.VARBINARY;
      case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> Types.OTHER;
      case NULL -> Types.NULL;
    };
  }

  /** The Cairn type that holds values of a java.sql.Types code, for setObject/setNull. */
  public static TypeName typeName(int sqlType) throws SQLException {
    return switch (sqlType) {
      case Types.BIT, Types.BOOLEAN -> TypeName.BOOLEAN;
      case Types.TINYINT -> TypeName.TINYINT;
      case Types.SMALLINT -> TypeName.SMALLINT;
      case Types.INTEGER -> TypeName.INTEGER;
      case Types.BIGINT -> TypeName.BIGINT;
      case Types.REAL -> TypeName.FLOAT;
      case Types.FLOAT, Types.DOUBLE -> TypeName.DOUBLE;
      case Types.NUMERIC, Types.DECIMAL -> TypeName.DECIMAL;
      case Types.CHAR, Types.NCHAR -> TypeName.CHAR;
      case Types.VARCHAR, Types.LONGVARCHAR, Types.NVARCHAR, Types.LONGNVARCHAR -> TypeName.VARCHAR;
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> TypeName.VARBINARY;
      case Types.DATE -> TypeName.DATE;
      case Types.TIME -> TypeName.TIME;
      case Types.TIMESTAMP -> TypeName.TIMESTAMP;
      case Types.NULL -> TypeName.NULL;
      default -> throw JdbcErrors.notSupported("java.sql.Types code [" + sqlType + "]");
    };
  }

  /** The database-specific type name, as written in DDL. */
  public static String typeName(DataType type) {
    return switch (type.name()) {
      case INTERVAL_YEAR_MONTH -> "INTERVAL YEAR TO MONTH";
      case INTERVAL_DAY_TIME -> "INTERVAL DAY TO SECOND";
      default -> type.name().name();
    };
  }

  /** Class name of what ResultSet.getObject returns for the type (JDBC table B-3). */
  public static String className(TypeName name) {
    return switch (name) {
      case BOOLEAN -> Boolean.class.getName();
      case TINYINT, SMALLINT, INTEGER -> Integer.class.getName();
      case BIGINT, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> Long.class.getName();
      case FLOAT -> Float.class.getName();
      case DOUBLE -> Double.class.getName();
      case DECIMAL -> BigDecimal.class.getName();
      case CHAR, VARCHAR -> String.class.getName();
      case VARBINARY -> byte[].class.getName();
      case DATE -> java.sql.Date.class.getName();
      case TIME -> java.sql.Time.class.getName();
      case TIMESTAMP -> java.sql.Timestamp.class.getName();
      case NULL -> Object.class.getName();
    };
  }

  /** Fractional-second digits of a TIME/TIMESTAMP type. */
  static int fractionDigits(DataType type) {
    return type.hasLength() ? type.precision() : DEFAULT_FRACTION_DIGITS;
  }

  /**
   * JDBC precision / COLUMN_SIZE: digits for numbers, characters for strings and datetimes (their
   * string form), bytes for VARBINARY; {@link Integer#MAX_VALUE} for an unlimited length.
   */
  public static int precision(DataType type) {
    return switch (type.name()) {
      case BOOLEAN -> 1;
      case TINYINT -> 3;
      case SMALLINT -> 5;
      case INTEGER -> 10;
      case BIGINT -> 19;
      case FLOAT -> 7;
      case DOUBLE -> 15;
      case DECIMAL -> type.hasLength() ? type.precision() : DataType.MAX_DECIMAL_PRECISION;
      case CHAR, VARCHAR, VARBINARY -> type.hasLength() ? type.precision() : Integer.MAX_VALUE;
      case DATE -> 10;
      case TIME -> withFraction(8, fractionDigits(type));
      case TIMESTAMP -> withFraction(19, fractionDigits(type));
      case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME, NULL -> 0;
    };
  }

  private static int withFraction(int base, int digits) {
    return digits > 0 ? base + 1 + digits : base;
  }

  /** JDBC scale / DECIMAL_DIGITS: DECIMAL scale, fractional-second digits, else 0. */
  public static int scale(DataType type) {
    return switch (type.name()) {
      case DECIMAL -> type.scale();
      case TIME, TIMESTAMP -> fractionDigits(type);
      default -> 0;
    };
  }

  /** Characters needed to display any value of the type. */
  public static int displaySize(DataType type) {
    return switch (type.name()) {
      case BOOLEAN -> 5;
      case TINYINT, SMALLINT, INTEGER, BIGINT -> precision(type) + 1;
      case FLOAT -> 15;
      case DOUBLE -> 24;
      case DECIMAL -> precision(type) + 2;
      case VARBINARY ->
          type.hasLength() && type.precision() < Integer.MAX_VALUE / 2
              ? type.precision() * 2
              : Integer.MAX_VALUE;
      case INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> 20;
      default -> precision(type);
    };
  }

  public static boolean isSigned(TypeName name) {
    return name.isNumeric() || name.isInterval();
  }

  /** Radix of the precision: 10 for numbers, 0 where it does not apply. */
  public static int radix(TypeName name) {
    return name.isNumeric() ? 10 : 0;
  }
}
