package io.cairn.core.expr;

import static io.cairn.core.expr.ExprCompiler.checkArity;
import static io.cairn.core.expr.ExprCompiler.constantArgument;
import static io.cairn.core.expr.ExprCompiler.strict1;
import static io.cairn.core.expr.ExprCompiler.strict2;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Datetime functions over zone-less values. EPOCH counts seconds since 1970-01-01 00:00 of the same
 * zone-less clock (no time zone is ever consulted). WEEK is the ISO week; DOW is 0 (Sunday) to 6.
 */
final class DatetimeFunctions {
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final long NANOS_PER_DAY = 86_400_000_000_000L;

  private DatetimeFunctions() {}

  static RowExpression compile(Expr.Call call, List<RowExpression> args) {
    DataType result = call.type();
    List<Expr> operands = call.operands();
    return switch (call.op()) {
      case EXTRACT -> {
        checkArity(call, 2, 2);
        yield extract(unit(call, args, 0), operands.get(1).type().name(), args.get(1), result);
      }
      case FLOOR_DATETIME, CEIL_DATETIME -> {
        checkArity(call, 2, 2);
        String unit = unit(call, args, 1);
        UnaryOperator<Object> floor = floor(unit, operands.get(0).type().name());
        if (call.op() == Op.FLOOR_DATETIME) {
          yield strict1(args.get(0), v -> ExprCompiler.conform(floor.apply(v), result));
        }
        UnaryOperator<Object> next = plusOne(unit);
        yield strict1(
            args.get(0),
            v -> {
              Object f = floor.apply(v);
              return ExprCompiler.conform(f.equals(v) ? v : next.apply(f), result);
            });
      }
      case DATETIME_PLUS, DATETIME_MINUS -> {
        checkArity(call, 2, 2);
        yield plus(
            call.op() == Op.DATETIME_MINUS,
            args.get(0),
            operands.get(0).type(),
            args.get(1),
            operands.get(1).type(),
            result);
      }
      case DATETIME_DIFF -> {
        checkArity(call, 2, 2);
        yield diff(
            args.get(0), operands.get(0).type(), args.get(1), operands.get(1).type(), result);
      }
      case CURRENT_DATE -> (row, context) -> context.statementTime().toLocalDate();
      case CURRENT_TIME ->
          (row, context) -> Values.cast(context.statementTime().toLocalTime(), result);
      case CURRENT_TIMESTAMP, LOCALTIMESTAMP ->
          (row, context) -> Values.cast(context.statementTime(), result);
      default -> throw CairnException.internal("Not a datetime function: [" + call.op() + "]");
    };
  }

  private static String unit(Expr.Call call, List<RowExpression> args, int index) {
    return String.valueOf(constantArgument(call, args, index)).toUpperCase(Locale.ROOT);
  }

  private static CairnException badUnit(String function, String unit, TypeName type) {
    return new CairnException(
        ErrorCode.INVALID_ARGUMENT,
        function + ": unit [" + unit + "] is not supported for " + type.name());
  }

  static LocalDate datePart(Object v) {
    return v instanceof LocalDate d ? d : ((LocalDateTime) v).toLocalDate();
  }

  static LocalTime timePart(Object v) {
    if (v instanceof LocalTime t) {
      return t;
    }
    return v instanceof LocalDateTime t ? t.toLocalTime() : LocalTime.MIDNIGHT;
  }

  interface LongExtractor {
    long extract(Object v);
  }

  private static RowExpression extract(String unit, TypeName in, RowExpression a, DataType result) {
    boolean fractional =
        result.name() == TypeName.DECIMAL
            || result.name() == TypeName.DOUBLE
            || result.name() == TypeName.FLOAT;
    if (in.isInterval()) {
      return extractInterval(unit, in, a, result);
    }
    if (in == TypeName.TIME
        && !List.of("HOUR", "MINUTE", "SECOND", "MILLISECOND", "EPOCH").contains(unit)) {
      throw badUnit("EXTRACT", unit, in);
    }
    if (fractional && (unit.equals("SECOND") || unit.equals("EPOCH"))) {
      boolean epoch = unit.equals("EPOCH");
      return strict1(
          a,
          v -> {
            LocalTime t = timePart(v);
            long seconds = epoch ? epochSeconds(v) : t.getSecond();
            BigDecimal s = BigDecimal.valueOf(seconds);
            if (t.getNano() != 0) {
              s = s.add(BigDecimal.valueOf(t.getNano(), 9)).stripTrailingZeros();
            }
            return Values.cast(s, result);
          });
    }
    LongExtractor f =
        switch (unit) {
          case "YEAR" -> v -> datePart(v).getYear();
          case "QUARTER" -> v -> (datePart(v).getMonthValue() - 1) / 3 + 1;
          case "MONTH" -> v -> datePart(v).getMonthValue();
          case "WEEK" -> v -> datePart(v).get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
          case "DAY" -> v -> datePart(v).getDayOfMonth();
          case "DOY" -> v -> datePart(v).getDayOfYear();
          case "DOW" -> v -> datePart(v).getDayOfWeek().getValue() % 7;
          case "HOUR" -> v -> timePart(v).getHour();
          case "MINUTE" -> v -> timePart(v).getMinute();
          case "SECOND" -> v -> timePart(v).getSecond();
          case "MILLISECOND" ->
              v -> {
                LocalTime t = timePart(v);
                return t.getSecond() * 1000L + t.getNano() / 1_000_000;
              };
          case "EPOCH" -> DatetimeFunctions::epochSeconds;
          default -> throw badUnit("EXTRACT", unit, in);
        };
    return strict1(a, v -> ExprCompiler.conform(f.extract(v), result));
  }

  /**
   * EXTRACT from an interval, as PostgreSQL: YEAR and MONTH of a year-month interval (MONTH is the
   * remainder after whole years); DAY, HOUR, MINUTE, SECOND, MILLISECOND and EPOCH of a day-time
   * interval (each field after removing the larger ones, truncated toward zero).
   */
  private static RowExpression extractInterval(
      String unit, TypeName in, RowExpression a, DataType result) {
    LongExtractor f;
    if (in == TypeName.INTERVAL_YEAR_MONTH) {
      f =
          switch (unit) {
            case "YEAR" -> v -> ((Long) v) / 12;
            case "QUARTER" -> v -> (((Long) v) % 12) / 3 + 1;
            case "MONTH" -> v -> ((Long) v) % 12;
            case "EPOCH" -> v -> ((Long) v) * 30 * 86_400L; // PostgreSQL: 30-day months
            default -> throw badUnit("EXTRACT", unit, in);
          };
    } else {
      f =
          switch (unit) {
            case "DAY" -> v -> ((Long) v) / MILLIS_PER_DAY;
            case "HOUR" -> v -> ((Long) v) / 3_600_000L % 24;
            case "MINUTE" -> v -> ((Long) v) / 60_000L % 60;
            case "SECOND" -> v -> ((Long) v) / 1000L % 60;
            case "MILLISECOND" -> v -> ((Long) v) % 60_000L;
            case "EPOCH" -> v -> ((Long) v) / 1000L;
            default -> throw badUnit("EXTRACT", unit, in);
          };
    }
    return strict1(a, v -> ExprCompiler.conform(f.extract(v), result));
  }

  private static long epochSeconds(Object v) {
    if (v instanceof LocalDate d) {
      return d.toEpochDay() * 86_400L;
    }
    if (v instanceof LocalTime t) {
      return t.toSecondOfDay();
    }
    return ((LocalDateTime) v).toEpochSecond(ZoneOffset.UTC);
  }

  private static UnaryOperator<Object> floor(String unit, TypeName in) {
    if (in == TypeName.TIME) {
      ChronoUnit u =
          switch (unit) {
            case "HOUR" -> ChronoUnit.HOURS;
            case "MINUTE" -> ChronoUnit.MINUTES;
            case "SECOND" -> ChronoUnit.SECONDS;
            case "MILLISECOND" -> ChronoUnit.MILLIS;
            default -> throw badUnit("FLOOR", unit, in);
          };
      return v -> ((LocalTime) v).truncatedTo(u);
    }
    UnaryOperator<LocalDate> dateFloor =
        switch (unit) {
          case "YEAR" -> d -> d.withDayOfYear(1);
          case "QUARTER" -> d -> LocalDate.of(d.getYear(), (d.getMonthValue() - 1) / 3 * 3 + 1, 1);
          case "MONTH" -> d -> d.withDayOfMonth(1);
          case "WEEK" -> d -> d.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
          default -> null;
        };
    if (dateFloor != null) {
      return v ->
          v instanceof LocalDate d
              ? dateFloor.apply(d)
              : dateFloor.apply(((LocalDateTime) v).toLocalDate()).atStartOfDay();
    }
    ChronoUnit u =
        switch (unit) {
          case "DAY" -> ChronoUnit.DAYS;
          case "HOUR" -> ChronoUnit.HOURS;
          case "MINUTE" -> ChronoUnit.MINUTES;
          case "SECOND" -> ChronoUnit.SECONDS;
          case "MILLISECOND" -> ChronoUnit.MILLIS;
          default -> throw badUnit("FLOOR", unit, in);
        };
    return v -> v instanceof LocalDate ? v : ((LocalDateTime) v).truncatedTo(u);
  }

  private static UnaryOperator<Object> plusOne(String unit) {
    return switch (unit) {
      case "YEAR" -> v -> plusMonthsOf(v, 12);
      case "QUARTER" -> v -> plusMonthsOf(v, 3);
      case "MONTH" -> v -> plusMonthsOf(v, 1);
      case "WEEK" -> v -> plusMillisOf(v, 7 * MILLIS_PER_DAY, true);
      case "DAY" -> v -> plusMillisOf(v, MILLIS_PER_DAY, true);
      case "HOUR" -> v -> plusMillisOf(v, 3_600_000L, true);
      case "MINUTE" -> v -> plusMillisOf(v, 60_000L, true);
      case "SECOND" -> v -> plusMillisOf(v, 1_000L, true);
      case "MILLISECOND" -> v -> plusMillisOf(v, 1L, true);
      default -> throw badUnit("CEIL", unit, TypeName.TIMESTAMP);
    };
  }

  private static Object plusMonthsOf(Object v, long months) {
    if (v instanceof LocalDate d) {
      return d.plusMonths(months);
    }
    if (v instanceof LocalDateTime t) {
      return t.plusMonths(months);
    }
    return v; // TIME + months: unchanged, as in PostgreSQL
  }

  /** Adds milliseconds; a DATE stays a DATE when {@code keepDate} (whole days only). */
  private static Object plusMillisOf(Object v, long millis, boolean keepDate) {
    if (v instanceof LocalDate d) {
      if (keepDate) {
        return d.plusDays(Math.floorDiv(millis, MILLIS_PER_DAY));
      }
      return d.atStartOfDay().plus(millis, ChronoUnit.MILLIS);
    }
    if (v instanceof LocalDateTime t) {
      return t.plus(millis, ChronoUnit.MILLIS);
    }
    long nanos = Math.floorMod(millis, MILLIS_PER_DAY) * 1_000_000L;
    return LocalTime.ofNanoOfDay(
        Math.floorMod(((LocalTime) v).toNanoOfDay() + nanos, NANOS_PER_DAY));
  }

  /**
   * {@code datetime ± interval} (either operand order for plus): months add calendar months,
   * clamping the day to the month's end; milliseconds add exact time. A DATE result takes whole
   * days only (fractions of a day are dropped, rounding toward negative infinity).
   */
  static RowExpression plus(
      boolean minus,
      RowExpression a,
      DataType typeA,
      RowExpression b,
      DataType typeB,
      DataType result) {
    if (typeA.name().isInterval() && !typeB.name().isInterval() && !minus) {
      return plus(false, b, typeB, a, typeA, result);
    }
    if (!typeB.name().isInterval()) {
      throw new CairnException(
          ErrorCode.TYPE_MISMATCH,
          "Datetime arithmetic: expected an interval operand, found [" + typeB.sql() + "]");
    }
    boolean months = typeB.name() == TypeName.INTERVAL_YEAR_MONTH;
    boolean keepDate = result.name() == TypeName.DATE;
    return strict2(
        a,
        b,
        (v, i) -> {
          long amount = ((Number) i).longValue();
          try {
            if (minus) {
              amount = Math.negateExact(amount);
            }
            Object r = months ? plusMonthsOf(v, amount) : plusMillisOf(v, amount, keepDate);
            if (r instanceof LocalDate d) {
              Values.checkDate(d);
            } else if (r instanceof LocalDateTime t) {
              Values.checkTimestamp(t);
            }
            return ExprCompiler.conform(r, result);
          } catch (DateTimeException | ArithmeticException | CairnException e) {
            throw new CairnException(
                ErrorCode.DATETIME_OUT_OF_RANGE,
                "Datetime out of range: ["
                    + Values.toText(v)
                    + "] "
                    + (minus ? "-" : "+")
                    + " ["
                    + Values.toText(i)
                    + "]",
                e);
          }
        });
  }

  /**
   * {@code datetime1 - datetime2}: whole months (INTERVAL_YEAR_MONTH), milliseconds
   * (INTERVAL_DAY_TIME) or, for an integer result, days.
   */
  static RowExpression diff(
      RowExpression a, DataType typeA, RowExpression b, DataType typeB, DataType result) {
    TypeName r = result.name();
    if (typeA.name() == TypeName.TIME || typeB.name() == TypeName.TIME) {
      return strict2(
          a,
          b,
          (x, y) -> {
            long millis = Duration.between((LocalTime) y, (LocalTime) x).toMillis();
            return ExprCompiler.conform(
                r.isExactInteger()
                    ? millis / MILLIS_PER_DAY
                    : r == TypeName.INTERVAL_YEAR_MONTH ? 0L : millis,
                result);
          });
    }
    ChronoUnit unit =
        r == TypeName.INTERVAL_YEAR_MONTH
            ? ChronoUnit.MONTHS
            : r.isExactInteger() ? ChronoUnit.DAYS : ChronoUnit.MILLIS;
    return strict2(
        a, b, (x, y) -> ExprCompiler.conform(unit.between(asTimestamp(y), asTimestamp(x)), result));
  }

  private static LocalDateTime asTimestamp(Object v) {
    return v instanceof LocalDate d ? d.atStartOfDay() : (LocalDateTime) v;
  }
}
