package io.cairn.core.expr;

import static io.cairn.core.expr.ExprCompiler.checkArity;
import static io.cairn.core.expr.ExprCompiler.strict1;
import static io.cairn.core.expr.ExprCompiler.strict2;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.DoubleBinaryOperator;
import java.util.function.LongBinaryOperator;
import java.util.function.UnaryOperator;

/** Arithmetic operators and numeric functions, computed in the call's result type. */
final class Arithmetic {
  private static final MathContext UNCONSTRAINED_DIVISION =
      new MathContext(38, RoundingMode.HALF_UP);

  private Arithmetic() {}

  /** Boxes a long into the Java class of an exact type after a range check. */
  interface LongBoxer {
    Object box(long value, Object left, Object right);
  }

  static RowExpression binary(
      Op op, RowExpression a, DataType typeA, RowExpression b, DataType typeB, DataType result) {
    TypeName r = result.name();
    if (r.isDatetime() && (op == Op.PLUS || op == Op.MINUS)) {
      return DatetimeFunctions.plus(op == Op.MINUS, a, typeA, b, typeB, result);
    }
    if (r.isInterval() && op == Op.MINUS && typeA.name().isDatetime()) {
      return DatetimeFunctions.diff(a, typeA, b, typeB, result);
    }
    if (r.isExactInteger() || r.isInterval()) {
      if (isLongLike(typeA.name()) && isLongLike(typeB.name())) {
        return longBinary(op, a, b, result);
      }
      // a non-integer operand: compute exactly, then round into the integer type
      RowExpression exact = decimalBinary(op, a, b, DataType.of(TypeName.DECIMAL), symbol(op));
      return strict1(exact, v -> Values.cast(v, result));
    }
    if (r == TypeName.DECIMAL) {
      return decimalBinary(op, a, b, result, symbol(op));
    }
    if (r == TypeName.DOUBLE || r == TypeName.FLOAT) {
      RowExpression d = doubleBinary(op, a, b);
      if (r == TypeName.DOUBLE) {
        return d;
      }
      return strict1(
          d,
          v -> {
            float f = (float) (double) (Double) v;
            if (Float.isInfinite(f) && !Double.isInfinite((Double) v)) {
              throw new CairnException(
                  ErrorCode.NUMERIC_OUT_OF_RANGE,
                  "Numeric overflow: [" + Values.toText(v) + "] is out of range for FLOAT");
            }
            return f;
          });
    }
    throw new CairnException(
        ErrorCode.NOT_SUPPORTED,
        "Arithmetic " + op + ": expected a numeric result type, found [" + result.sql() + "]");
  }

  static boolean isLongLike(TypeName t) {
    return t.isExactInteger() || t.isInterval();
  }

  static String symbol(Op op) {
    return switch (op) {
      case PLUS -> "+";
      case MINUS -> "-";
      case TIMES -> "*";
      case DIVIDE -> "/";
      case MOD -> "%";
      default -> op.name();
    };
  }

  private static RowExpression longBinary(
      Op op, RowExpression a, RowExpression b, DataType result) {
    String sym = symbol(op);
    LongBoxer boxer = boxer(result, sym);
    LongBinaryOperator f =
        switch (op) {
          case PLUS -> Math::addExact;
          case MINUS -> Math::subtractExact;
          case TIMES -> Math::multiplyExact;
          case DIVIDE ->
              (x, y) -> {
                if (y == 0) {
                  throw divisionByZero(x, sym, y);
                }
                if (x == Long.MIN_VALUE && y == -1) {
                  throw new ArithmeticException("overflow");
                }
                return x / y;
              };
          case MOD ->
              (x, y) -> {
                if (y == 0) {
                  throw divisionByZero(x, sym, y);
                }
                return y == -1 ? 0 : x % y;
              };
          default -> throw CairnException.internal("Not arithmetic: [" + op + "]");
        };
    return strict2(
        a,
        b,
        (x, y) -> {
          long l = ((Number) x).longValue();
          long m = ((Number) y).longValue();
          long v;
          try {
            v = f.applyAsLong(l, m);
          } catch (ArithmeticException e) {
            throw overflow(x, sym, y, result);
          }
          return boxer.box(v, x, y);
        });
  }

  static LongBoxer boxer(DataType result, String sym) {
    return switch (result.name()) {
      case TINYINT ->
          (v, x, y) -> {
            if (v < Byte.MIN_VALUE || v > Byte.MAX_VALUE) {
              throw overflow(x, sym, y, result);
            }
            return (byte) v;
          };
      case SMALLINT ->
          (v, x, y) -> {
            if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) {
              throw overflow(x, sym, y, result);
            }
            return (short) v;
          };
      case INTEGER ->
          (v, x, y) -> {
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
              throw overflow(x, sym, y, result);
            }
            return (int) v;
          };
      default -> (v, x, y) -> v;
    };
  }

  static CairnException overflow(Object x, String sym, Object y, DataType result) {
    String operation =
        y == null
            ? sym + "[" + Values.toText(x) + "]"
            : "[" + Values.toText(x) + "] " + sym + " [" + Values.toText(y) + "]";
    return new CairnException(
        ErrorCode.NUMERIC_OUT_OF_RANGE,
        "Numeric overflow: " + operation + " is out of range for " + result.sql());
  }

  static CairnException divisionByZero(Object x, String sym, Object y) {
    return new CairnException(
        ErrorCode.DIVISION_BY_ZERO,
        "Division by zero: [" + Values.toText(x) + "] " + sym + " [" + Values.toText(y) + "]");
  }

  private static RowExpression decimalBinary(
      Op op, RowExpression a, RowExpression b, DataType result, String sym) {
    BinaryOperator<BigDecimal> f =
        switch (op) {
          case PLUS -> BigDecimal::add;
          case MINUS -> BigDecimal::subtract;
          case TIMES -> BigDecimal::multiply;
          case DIVIDE ->
              (x, y) -> {
                if (y.signum() == 0) {
                  throw divisionByZero(x, sym, y);
                }
                return result.hasLength()
                    ? x.divide(y, Math.max(result.scale(), 0), RoundingMode.HALF_UP)
                    : x.divide(y, UNCONSTRAINED_DIVISION);
              };
          case MOD ->
              (x, y) -> {
                if (y.signum() == 0) {
                  throw divisionByZero(x, sym, y);
                }
                return x.remainder(y);
              };
          default -> throw CairnException.internal("Not arithmetic: [" + op + "]");
        };
    return strict2(
        a,
        b,
        (x, y) -> {
          BigDecimal v = f.apply(decimal(x), decimal(y));
          return fit(v, result, x, sym, y);
        });
  }

  static BigDecimal decimal(Object v) {
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw Values.outOfRange(v, DataType.of(TypeName.DECIMAL));
      }
    }
    return Values.toBigDecimal((Number) v);
  }

  /** Rounds HALF_UP to the result scale and checks the precision, naming the operation. */
  static BigDecimal fit(BigDecimal v, DataType result, Object x, String sym, Object y) {
    if (!result.hasLength()) {
      return v;
    }
    BigDecimal r =
        v.scale() == result.scale() ? v : v.setScale(result.scale(), RoundingMode.HALF_UP);
    if (r.precision() > result.precision() && r.signum() != 0) {
      throw overflow(x, sym, y, result);
    }
    return r;
  }

  private static RowExpression doubleBinary(Op op, RowExpression a, RowExpression b) {
    String sym = symbol(op);
    DoubleBinaryOperator f =
        switch (op) {
          case PLUS -> Double::sum;
          case MINUS -> (x, y) -> x - y;
          case TIMES -> (x, y) -> x * y;
          case DIVIDE ->
              (x, y) -> {
                if (y == 0) {
                  throw divisionByZero(x, sym, y);
                }
                return x / y;
              };
          case MOD ->
              (x, y) -> {
                if (y == 0) {
                  throw divisionByZero(x, sym, y);
                }
                return x % y;
              };
          default -> throw CairnException.internal("Not arithmetic: [" + op + "]");
        };
    return strict2(
        a,
        b,
        (x, y) -> {
          double l = ((Number) x).doubleValue();
          double m = ((Number) y).doubleValue();
          double v = f.applyAsDouble(l, m);
          // finite operands with an infinite result overflowed (PostgreSQL: 22003, as POWER)
          if (Double.isInfinite(v) && Double.isFinite(l) && Double.isFinite(m)) {
            throw overflow(x, sym, y, DataType.DOUBLE);
          }
          return v;
        });
  }

  static RowExpression negate(RowExpression a, DataType from, DataType result) {
    TypeName r = result.name();
    if (isLongLike(r) && isLongLike(from.name())) {
      LongBoxer boxer = boxer(result, "-");
      return strict1(
          a,
          x -> {
            long l = ((Number) x).longValue();
            if (l == Long.MIN_VALUE) {
              throw overflow(x, "-", null, result);
            }
            return boxer.box(-l, x, null);
          });
    }
    if (r == TypeName.DOUBLE) {
      return strict1(a, x -> -((Number) x).doubleValue());
    }
    if (r == TypeName.FLOAT) {
      return strict1(a, x -> -((Number) x).floatValue());
    }
    return strict1(a, x -> Values.cast(decimal(x).negate(), result));
  }

  // ---------------------------------------------------------------- functions

  static RowExpression function(Expr.Call call, List<RowExpression> args) {
    DataType result = call.type();
    List<Expr> operands = call.operands();
    TypeName in = operands.get(0).type().name();
    RowExpression a = args.get(0);
    return switch (call.op()) {
      case ABS -> {
        checkArity(call, 1, 1);
        if (isLongLike(in)) {
          LongBoxer boxer = boxer(result, "ABS");
          yield strict1(
              a,
              x -> {
                long l = ((Number) x).longValue();
                if (l == Long.MIN_VALUE) {
                  throw overflow(x, "ABS", null, result);
                }
                return boxer.box(Math.abs(l), x, null);
              });
        }
        yield natural(a, in, result, d -> d.abs(), Math::abs);
      }
      case CEIL -> {
        checkArity(call, 1, 1);
        yield natural(a, in, result, d -> d.setScale(0, RoundingMode.CEILING), Math::ceil);
      }
      case FLOOR -> {
        checkArity(call, 1, 1);
        yield natural(a, in, result, d -> d.setScale(0, RoundingMode.FLOOR), Math::floor);
      }
      case ROUND, TRUNCATE -> {
        checkArity(call, 1, 2);
        RoundingMode mode = call.op() == Op.ROUND ? RoundingMode.HALF_UP : RoundingMode.DOWN;
        RowExpression digits = args.size() > 1 ? args.get(1) : new ExprCompiler.Constant(0);
        yield round(a, in, digits, mode, result);
      }
      case POWER -> {
        checkArity(call, 2, 2);
        yield strict2(
            a,
            args.get(1),
            (x, y) -> {
              double b = ((Number) x).doubleValue();
              double e = ((Number) y).doubleValue();
              if (b == 0 && e < 0) {
                throw invalidArgument("POWER", "zero raised to a negative power", x, y);
              }
              if (b < 0 && e != Math.rint(e)) {
                throw invalidArgument(
                    "POWER", "a negative number raised to a non-integer power", x, y);
              }
              double v = Math.pow(b, e);
              if (Double.isInfinite(v) && !Double.isInfinite(b) && !Double.isInfinite(e)) {
                throw overflow(x, "^", y, result);
              }
              return Values.cast(v, result);
            });
      }
      case SQRT -> doubleFunction(call, a, result, "SQRT", x -> x < 0, Math::sqrt);
      case EXP -> doubleFunction(call, a, result, "EXP", x -> false, Math::exp);
      case LN -> doubleFunction(call, a, result, "LN", x -> x <= 0, Math::log);
      case LOG10 -> doubleFunction(call, a, result, "LOG10", x -> x <= 0, Math::log10);
      case SIGN -> {
        checkArity(call, 1, 1);
        yield strict1(
            a,
            x -> {
              int s;
              if (x instanceof BigDecimal d) {
                s = d.signum();
              } else if (x instanceof Double || x instanceof Float) {
                double d = ((Number) x).doubleValue();
                if (Double.isNaN(d)) {
                  return Values.cast(d, result);
                }
                s = (int) Math.signum(d);
              } else {
                s = Long.signum(((Number) x).longValue());
              }
              return ExprCompiler.conform(s, result);
            });
      }
      default -> throw CairnException.internal("Not a numeric function: [" + call.op() + "]");
    };
  }

  interface DoublePredicate {
    boolean test(double x);
  }

  interface DoubleFunction {
    double apply(double x);
  }

  private static RowExpression doubleFunction(
      Expr.Call call,
      RowExpression a,
      DataType result,
      String name,
      DoublePredicate invalid,
      DoubleFunction f) {
    checkArity(call, 1, 1);
    return strict1(
        a,
        x -> {
          double d = ((Number) x).doubleValue();
          if (invalid.test(d)) {
            throw new CairnException(
                ErrorCode.INVALID_ARGUMENT,
                name
                    + ": expected a "
                    + (name.equals("SQRT") ? "non-negative" : "positive")
                    + " number, found ["
                    + Values.toText(x)
                    + "]");
          }
          double v = f.apply(d);
          if (Double.isInfinite(v) && !Double.isInfinite(d)) {
            throw overflow(x, name, null, result);
          }
          return ExprCompiler.conform(v, result);
        });
  }

  static CairnException invalidArgument(String function, String what, Object x, Object y) {
    return new CairnException(
        ErrorCode.INVALID_ARGUMENT,
        function
            + ": "
            + what
            + " is undefined: ["
            + Values.toText(x)
            + "], ["
            + Values.toText(y)
            + "]");
  }

  /** Applies f in the operand's own representation, then converts to the result type. */
  private static RowExpression natural(
      RowExpression a,
      TypeName in,
      DataType result,
      UnaryOperator<BigDecimal> decimal,
      DoubleFunction dbl) {
    if (isLongLike(in)) {
      return strict1(a, x -> ExprCompiler.conform(x, result));
    }
    if (in == TypeName.DECIMAL) {
      return strict1(a, x -> ExprCompiler.conform(decimal.apply((BigDecimal) x), result));
    }
    if (in == TypeName.FLOAT) {
      return strict1(
          a, x -> ExprCompiler.conform((float) dbl.apply(((Number) x).doubleValue()), result));
    }
    return strict1(a, x -> ExprCompiler.conform(dbl.apply(((Number) x).doubleValue()), result));
  }

  private static RowExpression round(
      RowExpression a, TypeName in, RowExpression digits, RoundingMode mode, DataType result) {
    return strict2(
        a,
        digits,
        (x, d) -> {
          int n = ((Number) d).intValue();
          Object v;
          if (isLongLike(in) || Values.isExactInteger(x)) {
            if (n >= 0) {
              v = x;
            } else {
              v = BigDecimal.valueOf(((Number) x).longValue()).setScale(n, mode).setScale(0);
            }
          } else if (x instanceof BigDecimal b) {
            BigDecimal r = b.setScale(n, mode);
            v = r.scale() < 0 ? r.setScale(0) : r;
          } else {
            double dv = ((Number) x).doubleValue();
            if (Double.isNaN(dv) || Double.isInfinite(dv)) {
              v = x;
            } else {
              double r = BigDecimal.valueOf(dv).setScale(n, mode).doubleValue();
              v = x instanceof Float ? (Object) (float) r : (Object) r;
            }
          }
          return ExprCompiler.conform(v, result);
        });
  }
}
