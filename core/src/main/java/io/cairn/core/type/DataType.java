package io.cairn.core.type;

import static java.util.Objects.requireNonNull;

/**
 * A SQL type with its parameters. {@code precision} is the length for CHAR/VARCHAR/VARBINARY
 * ({@link #UNSPECIFIED} = no limit), digits for DECIMAL, fractional-second digits for
 * TIME/TIMESTAMP; {@code scale} is only meaningful for DECIMAL.
 */
public record DataType(TypeName name, int precision, int scale, boolean nullable) {
  public static final int UNSPECIFIED = -1;
  public static final int MAX_DECIMAL_PRECISION = 38;

  public static final DataType BOOLEAN = of(TypeName.BOOLEAN);
  public static final DataType TINYINT = of(TypeName.TINYINT);
  public static final DataType SMALLINT = of(TypeName.SMALLINT);
  public static final DataType INTEGER = of(TypeName.INTEGER);
  public static final DataType BIGINT = of(TypeName.BIGINT);
  public static final DataType FLOAT = of(TypeName.FLOAT);
  public static final DataType DOUBLE = of(TypeName.DOUBLE);
  public static final DataType VARCHAR = of(TypeName.VARCHAR);
  public static final DataType VARBINARY = of(TypeName.VARBINARY);
  public static final DataType DATE = of(TypeName.DATE);
  public static final DataType TIME = of(TypeName.TIME);
  public static final DataType TIMESTAMP = of(TypeName.TIMESTAMP);
  public static final DataType NULL = of(TypeName.NULL);

  public DataType {
    requireNonNull(name, "name is null");
  }

  public static DataType of(TypeName name) {
    return new DataType(name, UNSPECIFIED, 0, true);
  }

  public static DataType decimal(int precision, int scale) {
    return new DataType(TypeName.DECIMAL, precision, scale, true);
  }

  public static DataType varchar(int length) {
    return new DataType(TypeName.VARCHAR, length, 0, true);
  }

  public static DataType chars(int length) {
    return new DataType(TypeName.CHAR, length, 0, true);
  }

  /**
   * TIMESTAMP with {@code precision} (0..9) fractional-second digits; {@link #TIMESTAMP} (no
   * precision) keeps all 9.
   */
  public static DataType timestamp(int precision) {
    return new DataType(TypeName.TIMESTAMP, precision, 0, true);
  }

  public DataType withNullable(boolean newNullable) {
    return newNullable == nullable ? this : new DataType(name, precision, scale, newNullable);
  }

  public boolean hasLength() {
    return precision != UNSPECIFIED;
  }

  /** SQL spelling, e.g. {@code DECIMAL(15,2)}, {@code VARCHAR(25)}, {@code INTEGER}. */
  public String sql() {
    return switch (name) {
      case DECIMAL -> "DECIMAL(" + precision + "," + scale + ")";
      case CHAR, VARCHAR, VARBINARY, TIMESTAMP ->
          hasLength() ? name + "(" + precision + ")" : name.name();
      case INTERVAL_YEAR_MONTH -> "INTERVAL YEAR TO MONTH";
      case INTERVAL_DAY_TIME -> "INTERVAL DAY TO SECOND";
      default -> name.name();
    };
  }

  @Override
  public String toString() {
    return sql() + (nullable ? "" : " NOT NULL");
  }
}
