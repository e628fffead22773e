package io.cairn.core.type;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;

/**
 * SQL types Cairn stores and evaluates. The {@link #id()} reaches disk and the wire: never
 * renumber. Java representation of values (one per type, everywhere: rows, parameters, literals):
 *
 * <ul>
 *   <li>BOOLEAN: {@link Boolean}; TINYINT: {@link Byte}; SMALLINT: {@link Short}; INTEGER: {@link
 *       Integer}; BIGINT: {@link Long}
 *   <li>FLOAT: {@link Float} (4 bytes, as in Phoenix; Calcite calls it REAL); DOUBLE: {@link
 *       Double}
 *   <li>DECIMAL: {@link java.math.BigDecimal} with the column's scale
 *   <li>CHAR, VARCHAR: {@link String}; VARBINARY: {@code byte[]}
 *   <li>DATE: {@link java.time.LocalDate}; TIME: {@link java.time.LocalTime}; TIMESTAMP: {@link
 *       java.time.LocalDateTime} (zone-less: never shifted through a time zone)
 *   <li>INTERVAL_YEAR_MONTH: {@link Long} months; INTERVAL_DAY_TIME: {@link Long} milliseconds
 *   <li>NULL: the type of an untyped NULL literal; its only value is {@code null}
 * </ul>
 */
public enum TypeName {
  BOOLEAN(1),
  TINYINT(2),
  SMALLINT(3),
  INTEGER(4),
  BIGINT(5),
  FLOAT(6),
  DOUBLE(7),
  DECIMAL(8),
  CHAR(9),
  VARCHAR(10),
  DATE(11),
  TIME(12),
  TIMESTAMP(13),
  VARBINARY(14),
  INTERVAL_YEAR_MONTH(15),
  INTERVAL_DAY_TIME(16),
  NULL(17);

  private static final TypeName[] BY_ID = new TypeName[32];

  static {
    for (TypeName t : values()) {
      BY_ID[t.id] = t;
    }
  }

  private final int id;

  TypeName(int id) {
    this.id = id;
  }

  /** Persistent id. */
  public int id() {
    return id;
  }

  public static TypeName fromId(int id) {
    if (id <= 0 || id >= BY_ID.length || BY_ID[id] == null) {
      throw new CairnException(
          ErrorCode.INTERNAL_ERROR,
          "Unknown type id: expected 1.." + NULL.id + ", found [" + id + "]");
    }
    return BY_ID[id];
  }

  public boolean isExactInteger() {
    return this == TINYINT || this == SMALLINT || this == INTEGER || this == BIGINT;
  }

  public boolean isNumeric() {
    return isExactInteger() || this == FLOAT || this == DOUBLE || this == DECIMAL;
  }

  public boolean isString() {
    return this == CHAR || this == VARCHAR;
  }

  public boolean isDatetime() {
    return this == DATE || this == TIME || this == TIMESTAMP;
  }

  public boolean isInterval() {
    return this == INTERVAL_YEAR_MONTH || this == INTERVAL_DAY_TIME;
  }
}
