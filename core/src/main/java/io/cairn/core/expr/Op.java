package io.cairn.core.expr;

/**
 * Operators and functions of the expression IR. {@link #id()} is persistent (scan programs travel
 * to servers); never renumber. Operand conventions:
 *
 * <ul>
 *   <li>Arithmetic and comparison: two operands, possibly of different numeric types; the evaluator
 *       promotes them (comparisons) or computes in the call's result type (arithmetic).
 *   <li>CASE: {@code when1, then1, when2, then2, ..., else} (an odd count; else may be a NULL
 *       literal).
 *   <li>CAST: one operand; the target is the call's type.
 *   <li>IN: {@code value, item1, item2, ...}.
 *   <li>LIKE: {@code value, pattern [, escape]}.
 *   <li>SUBSTRING: {@code string, from [, length]} (1-based, SQL semantics).
 *   <li>TRIM: {@code flag, characters, string} where flag is a VARCHAR literal BOTH, LEADING or
 *       TRAILING.
 *   <li>POSITION: {@code needle, haystack [, from]}.
 *   <li>EXTRACT: {@code unit, datetime} where unit is a VARCHAR literal: YEAR, QUARTER, MONTH,
 *       WEEK, DAY, DOY, DOW, HOUR, MINUTE, SECOND, MILLISECOND, EPOCH.
 *   <li>FLOOR_DATETIME / CEIL_DATETIME: {@code datetime, unit}.
 *   <li>DATETIME_PLUS / DATETIME_MINUS: {@code datetime, interval}; interval values are Long months
 *       (INTERVAL_YEAR_MONTH) or Long milliseconds (INTERVAL_DAY_TIME).
 *   <li>DATETIME_DIFF: {@code datetime1, datetime2}: datetime1 - datetime2 as the call's interval
 *       type.
 *   <li>CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIMESTAMP: no operands; the value is
 *       fixed for the whole statement (taken from the evaluation context).
 *   <li>ROUND / TRUNCATE: {@code number [, digits]}.
 * </ul>
 */
public enum Op {
  PLUS(1),
  MINUS(2),
  TIMES(3),
  DIVIDE(4),
  MOD(5),
  NEGATE(6),

  EQUALS(10),
  NOT_EQUALS(11),
  LESS_THAN(12),
  LESS_THAN_OR_EQUAL(13),
  GREATER_THAN(14),
  GREATER_THAN_OR_EQUAL(15),
  IS_DISTINCT_FROM(16),
  IS_NOT_DISTINCT_FROM(17),

  AND(20),
  OR(21),
  NOT(22),
  IS_NULL(23),
  IS_NOT_NULL(24),
  IS_TRUE(25),
  IS_NOT_TRUE(26),
  IS_FALSE(27),
  IS_NOT_FALSE(28),

  CASE(30),
  CAST(31),
  COALESCE(32),
  NULLIF(33),
  IN(34),
  GREATEST(35),
  LEAST(36),

  LIKE(40),
  CONCAT(41),
  UPPER(42),
  LOWER(43),
  SUBSTRING(44),
  TRIM(45),
  LTRIM(46),
  RTRIM(47),
  CHAR_LENGTH(48),
  POSITION(49),
  REPLACE(50),
  INITCAP(51),
  LPAD(52),
  RPAD(53),
  REVERSE(54),
  LEFT(55),
  RIGHT(56),
  REPEAT(57),

  ABS(60),
  CEIL(61),
  FLOOR(62),
  ROUND(63),
  TRUNCATE(64),
  POWER(65),
  SQRT(66),
  EXP(67),
  LN(68),
  LOG10(69),
  SIGN(70),

  EXTRACT(80),
  FLOOR_DATETIME(81),
  CEIL_DATETIME(82),
  DATETIME_PLUS(83),
  DATETIME_MINUS(84),
  DATETIME_DIFF(85),
  CURRENT_DATE(86),
  CURRENT_TIME(87),
  CURRENT_TIMESTAMP(88),
  LOCALTIMESTAMP(89);

  private static final Op[] BY_ID = new Op[128];

  static {
    for (Op op : values()) {
      BY_ID[op.id] = op;
    }
  }

  private final int id;

  Op(int id) {
    this.id = id;
  }

  public int id() {
    return id;
  }

  public static Op fromId(int id) {
    Op op = id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
    if (op == null) {
      throw io.cairn.core.error.CairnException.internal("Unknown operator id [" + id + "]");
    }
    return op;
  }
}
