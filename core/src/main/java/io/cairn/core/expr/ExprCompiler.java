package io.cairn.core.expr;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BinaryOperator;
import java.util.function.ToIntBiFunction;
import java.util.function.UnaryOperator;

/**
 * Compiles an {@link Expr} tree once into a tree of small closures. Every decision that depends
 * only on the IR (operator, operand types, literal arguments such as LIKE patterns, EXTRACT units
 * or IN lists) is taken here, so evaluation does no switch on {@link Op}, no reflection and no code
 * generation. Calls whose operands are all constants are folded (unless folding fails: then the
 * error is raised at evaluation, only if the call is actually evaluated).
 *
 * <p>Semantics follow PostgreSQL/H2; see the package's tests for the exact rules, and {@link
 * Values} for ordering, CAST and text.
 */
public final class ExprCompiler {
  private ExprCompiler() {}

  /** A compiled constant; lets callers fold and inspect literal arguments. */
  record Constant(Object value) implements RowExpression {
    @Override
    public Object evaluate(Object[] row, EvalContext context) {
      return value;
    }
  }

  public static RowExpression compile(Expr expr) {
    if (expr instanceof Expr.ColumnRef ref) {
      int index = ref.index();
      return (row, context) -> row[index];
    }
    if (expr instanceof Expr.Literal literal) {
      return new Constant(
          literal.value() == null || literal.type().name() == TypeName.NULL
              ? literal.value()
              : conform(literal.value(), literal.type()));
    }
    if (expr instanceof Expr.Param param) {
      int index = param.index();
      DataType type = param.type();
      Class<?> expected = javaClass(type.name());
      return (row, context) -> {
        if (index >= context.parameterCount()) {
          throw new CairnException(
              ErrorCode.PARAMETER_NOT_SET,
              "No value for parameter: expected index < ["
                  + context.parameterCount()
                  + "], found ["
                  + index
                  + "]");
        }
        Object v = context.parameter(index);
        return v == null || expected.isInstance(v) ? v : Values.cast(v, type);
      };
    }
    Expr.Call call = (Expr.Call) expr;
    List<RowExpression> args = new ArrayList<>(call.operands().size());
    boolean allConstant = true;
    for (Expr operand : call.operands()) {
      RowExpression compiled = compile(operand);
      allConstant &= compiled instanceof Constant;
      args.add(compiled);
    }
    RowExpression result = compileCall(call, args);
    if (allConstant && !(result instanceof Constant) && isDeterministic(call.op())) {
      try {
        return new Constant(result.evaluate(new Object[0], EvalContext.EMPTY));
      } catch (CairnException e) {
        return result; // raise at evaluation time, only if evaluated (e.g. a CASE branch)
      }
    }
    return result;
  }

  private static boolean isDeterministic(Op op) {
    return switch (op) {
      case CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIMESTAMP -> false;
      default -> true;
    };
  }

  private static RowExpression compileCall(Expr.Call call, List<RowExpression> args) {
    List<Expr> operands = call.operands();
    DataType type = call.type();
    Op op = call.op();
    return switch (op) {
      case PLUS, MINUS, TIMES, DIVIDE, MOD -> {
        checkArity(call, 2, 2);
        yield Arithmetic.binary(
            op, args.get(0), operands.get(0).type(), args.get(1), operands.get(1).type(), type);
      }
      case NEGATE -> {
        checkArity(call, 1, 1);
        yield Arithmetic.negate(args.get(0), operands.get(0).type(), type);
      }
      case EQUALS,
          NOT_EQUALS,
          LESS_THAN,
          LESS_THAN_OR_EQUAL,
          GREATER_THAN,
          GREATER_THAN_OR_EQUAL -> {
        checkArity(call, 2, 2);
        yield comparison(
            op, args.get(0), args.get(1), comparator(operands.get(0), operands.get(1)));
      }
      case IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> {
        checkArity(call, 2, 2);
        yield distinctFrom(
            op == Op.IS_DISTINCT_FROM,
            args.get(0),
            args.get(1),
            comparator(operands.get(0), operands.get(1)));
      }
      case AND -> and(args);
      case OR -> or(args);
      case NOT -> {
        checkArity(call, 1, 1);
        RowExpression a = args.get(0);
        yield (row, context) -> {
          Object v = a.evaluate(row, context);
          return v == null ? null : (Boolean) v ? Boolean.FALSE : Boolean.TRUE;
        };
      }
      case IS_NULL -> {
        RowExpression a = args.get(0);
        yield (row, context) -> a.evaluate(row, context) == null;
      }
      case IS_NOT_NULL -> {
        RowExpression a = args.get(0);
        yield (row, context) -> a.evaluate(row, context) != null;
      }
      case IS_TRUE -> {
        RowExpression a = args.get(0);
        yield (row, context) -> Boolean.TRUE.equals(a.evaluate(row, context));
      }
      case IS_NOT_TRUE -> {
        RowExpression a = args.get(0);
        yield (row, context) -> !Boolean.TRUE.equals(a.evaluate(row, context));
      }
      case IS_FALSE -> {
        RowExpression a = args.get(0);
        yield (row, context) -> Boolean.FALSE.equals(a.evaluate(row, context));
      }
      case IS_NOT_FALSE -> {
        RowExpression a = args.get(0);
        yield (row, context) -> !Boolean.FALSE.equals(a.evaluate(row, context));
      }
      case CASE -> caseWhen(call, args);
      case CAST -> {
        checkArity(call, 1, 1);
        yield cast(args.get(0), operands.get(0).type(), type);
      }
      case COALESCE -> coalesce(call, args);
      case NULLIF -> {
        checkArity(call, 2, 2);
        RowExpression a = args.get(0);
        RowExpression b = args.get(1);
        // compare in the operands' own types, then deliver the call's type
        ToIntBiFunction<Object, Object> cmp = comparator(operands.get(0), operands.get(1));
        boolean convert = needsCoercion(operands.get(0).type(), type);
        yield (row, context) -> {
          Object x = a.evaluate(row, context);
          if (x == null) {
            return null;
          }
          Object y = b.evaluate(row, context);
          if (y != null && cmp.applyAsInt(x, y) == 0) {
            return null;
          }
          return convert ? Values.cast(x, type) : x;
        };
      }
      case IN -> in(call, args);
      case GREATEST -> extreme(call, args, true);
      case LEAST -> extreme(call, args, false);
      case LIKE,
              CONCAT,
              UPPER,
              LOWER,
              SUBSTRING,
              TRIM,
              LTRIM,
              RTRIM,
              CHAR_LENGTH,
              POSITION,
              REPLACE,
              INITCAP,
              LPAD,
              RPAD,
              REVERSE,
              LEFT,
              RIGHT,
              REPEAT ->
          StringFunctions.compile(call, args);
      case ABS, CEIL, FLOOR, ROUND, TRUNCATE, POWER, SQRT, EXP, LN, LOG10, SIGN ->
          Arithmetic.function(call, args);
      case EXTRACT,
              FLOOR_DATETIME,
              CEIL_DATETIME,
              DATETIME_PLUS,
              DATETIME_MINUS,
              DATETIME_DIFF,
              CURRENT_DATE,
              CURRENT_TIME,
              CURRENT_TIMESTAMP,
              LOCALTIMESTAMP ->
          DatetimeFunctions.compile(call, args);
    };
  }

  // ---------------------------------------------------------------- shared helpers

  static void checkArity(Expr.Call call, int min, int max) {
    int n = call.operands().size();
    if (n < min || n > max) {
      throw CairnException.internal(
          "Wrong operand count for "
              + call.op()
              + ": expected "
              + (min == max ? Integer.toString(min) : min + ".." + max)
              + ", found ["
              + n
              + "]");
    }
  }

  /** The value of a constant argument (e.g. a unit name), or an error naming the operator. */
  static Object constantArgument(Expr.Call call, List<RowExpression> args, int index) {
    if (args.get(index) instanceof Constant c) {
      return c.value();
    }
    throw new CairnException(
        ErrorCode.NOT_SUPPORTED,
        call.op() + ": operand [" + (index + 1) + "] must be a literal, found [" + call + "]");
  }

  static RowExpression strict1(RowExpression a, UnaryOperator<Object> f) {
    return (row, context) -> {
      Object x = a.evaluate(row, context);
      return x == null ? null : f.apply(x);
    };
  }

  static RowExpression strict2(RowExpression a, RowExpression b, BinaryOperator<Object> f) {
    return (row, context) -> {
      Object x = a.evaluate(row, context);
      if (x == null) {
        return null;
      }
      Object y = b.evaluate(row, context);
      return y == null ? null : f.apply(x, y);
    };
  }

  interface NaryFunction {
    Object apply(Object[] values);
  }

  /** All operands evaluated; NULL if any is NULL. */
  static RowExpression strictN(List<RowExpression> args, NaryFunction f) {
    RowExpression[] a = args.toArray(new RowExpression[0]);
    return (row, context) -> {
      Object[] values = new Object[a.length];
      for (int i = 0; i < a.length; i++) {
        Object v = a[i].evaluate(row, context);
        if (v == null) {
          return null;
        }
        values[i] = v;
      }
      return f.apply(values);
    };
  }

  static Class<?> javaClass(TypeName name) {
    return switch (name) {
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
      case DATE -> java.time.LocalDate.class;
      case TIME -> java.time.LocalTime.class;
      case TIMESTAMP -> java.time.LocalDateTime.class;
      case NULL -> Object.class;
    };
  }

  /** A value converted to the Java class of {@code type} if it is not already of it. */
  static Object conform(Object value, DataType type) {
    if (value == null || javaClass(type.name()).isInstance(value)) {
      if (type.name() == TypeName.DECIMAL
          && type.hasLength()
          && ((BigDecimal) value).scale() != type.scale()) {
        return Values.cast(value, type);
      }
      return value;
    }
    return Values.cast(value, type);
  }

  /**
   * Wraps {@code e} so that it delivers values of {@code to}'s Java class (implicit widening in
   * CASE, COALESCE, GREATEST, ...). Strings are never truncated here.
   */
  static RowExpression coerce(RowExpression e, DataType from, DataType to) {
    if (!needsCoercion(from, to)) {
      return e;
    }
    if (e instanceof Constant c) {
      return new Constant(Values.cast(c.value(), to));
    }
    return strict1(e, v -> Values.cast(v, to));
  }

  static boolean needsCoercion(DataType from, DataType to) {
    if (from.name() == TypeName.NULL || to.name() == TypeName.NULL) {
      return false;
    }
    if (from.name() != to.name()) {
      return !(from.name().isString() && to.name().isString())
          && !(from.name().isInterval() && to.name().isInterval());
    }
    return to.name() == TypeName.DECIMAL && to.hasLength() && from.scale() != to.scale();
  }

  private static boolean isLongLike(TypeName t) {
    return t.isExactInteger() || t.isInterval();
  }

  private static boolean isFloating(TypeName t) {
    return t == TypeName.FLOAT || t == TypeName.DOUBLE;
  }

  /** The comparison for two operands, chosen by their types. */
  static ToIntBiFunction<Object, Object> comparator(Expr left, Expr right) {
    return comparator(left.type(), right.type());
  }

  static ToIntBiFunction<Object, Object> comparator(DataType left, DataType right) {
    TypeName a = left.name();
    TypeName b = right.name();
    if (isLongLike(a) && isLongLike(b)) {
      return (x, y) -> Long.compare(((Number) x).longValue(), ((Number) y).longValue());
    }
    if (isFloating(a) && isFloating(b)) {
      return (x, y) ->
          Values.compareDoubles(((Number) x).doubleValue(), ((Number) y).doubleValue());
    }
    if (a == TypeName.DECIMAL && b == TypeName.DECIMAL) {
      return (x, y) -> ((BigDecimal) x).compareTo((BigDecimal) y);
    }
    if (a == b && (a.isDatetime() || a == TypeName.BOOLEAN)) {
      @SuppressWarnings("unchecked")
      ToIntBiFunction<Object, Object> natural = (x, y) -> ((Comparable<Object>) x).compareTo(y);
      return natural;
    }
    if (a.isString() && b.isString()) {
      if (a == TypeName.CHAR || b == TypeName.CHAR) {
        return (x, y) -> Values.compareIgnoringTrailingSpaces((String) x, (String) y);
      }
      return (x, y) -> Values.compareStrings((String) x, (String) y);
    }
    if (a.isString() && b.isNumeric() || a.isNumeric() && b.isString()) {
      // an untyped string compared with a number (e.g. a parameter): compare as numbers
      DataType target = a.isString() ? right : left;
      DataType decimal = DataType.of(TypeName.DECIMAL);
      DataType numeric = isFloating(target.name()) ? DataType.DOUBLE : decimal;
      return (x, y) ->
          Values.compare(
              x instanceof String ? Values.cast(x, numeric) : x,
              y instanceof String ? Values.cast(y, numeric) : y);
    }
    return Values::compare;
  }

  private static RowExpression comparison(
      Op op, RowExpression a, RowExpression b, ToIntBiFunction<Object, Object> cmp) {
    return switch (op) {
      case EQUALS -> strict2(a, b, (x, y) -> cmp.applyAsInt(x, y) == 0);
      case NOT_EQUALS -> strict2(a, b, (x, y) -> cmp.applyAsInt(x, y) != 0);
      case LESS_THAN -> strict2(a, b, (x, y) -> cmp.applyAsInt(x, y) < 0);
      case LESS_THAN_OR_EQUAL -> strict2(a, b, (x, y) -> cmp.applyAsInt(x, y) <= 0);
      case GREATER_THAN -> strict2(a, b, (x, y) -> cmp.applyAsInt(x, y) > 0);
      case GREATER_THAN_OR_EQUAL -> strict2(a, b, (x, y) -> cmp.applyAsInt(x, y) >= 0);
      default -> throw CairnException.internal("Not a comparison: [" + op + "]");
    };
  }

  private static RowExpression distinctFrom(
      boolean distinct, RowExpression a, RowExpression b, ToIntBiFunction<Object, Object> cmp) {
    return (row, context) -> {
      Object x = a.evaluate(row, context);
      Object y = b.evaluate(row, context);
      boolean same = x == null ? y == null : y != null && cmp.applyAsInt(x, y) == 0;
      return same != distinct;
    };
  }

  private static RowExpression and(List<RowExpression> args) {
    RowExpression[] a = args.toArray(new RowExpression[0]);
    if (a.length == 2) {
      RowExpression l = a[0];
      RowExpression r = a[1];
      return (row, context) -> {
        Object x = l.evaluate(row, context);
        if (Boolean.FALSE.equals(x)) {
          return Boolean.FALSE;
        }
        Object y = r.evaluate(row, context);
        if (Boolean.FALSE.equals(y)) {
          return Boolean.FALSE;
        }
        return x == null || y == null ? null : Boolean.TRUE;
      };
    }
    return (row, context) -> {
      boolean sawNull = false;
      for (RowExpression e : a) {
        Object v = e.evaluate(row, context);
        if (v == null) {
          sawNull = true;
        } else if (!(Boolean) v) {
          return Boolean.FALSE;
        }
      }
      return sawNull ? null : Boolean.TRUE;
    };
  }

  private static RowExpression or(List<RowExpression> args) {
    RowExpression[] a = args.toArray(new RowExpression[0]);
    return (row, context) -> {
      boolean sawNull = false;
      for (RowExpression e : a) {
        Object v = e.evaluate(row, context);
        if (v == null) {
          sawNull = true;
        } else if ((Boolean) v) {
          return Boolean.TRUE;
        }
      }
      return sawNull ? null : Boolean.FALSE;
    };
  }

  private static RowExpression caseWhen(Expr.Call call, List<RowExpression> args) {
    int n = args.size();
    if (n % 2 != 1) {
      throw CairnException.internal("CASE needs an odd operand count, found [" + n + "]");
    }
    DataType type = call.type();
    RowExpression[] conditions = new RowExpression[n / 2];
    RowExpression[] results = new RowExpression[n / 2];
    for (int i = 0; i < n / 2; i++) {
      conditions[i] = args.get(2 * i);
      results[i] = coerce(args.get(2 * i + 1), call.operands().get(2 * i + 1).type(), type);
    }
    RowExpression otherwise = coerce(args.get(n - 1), call.operands().get(n - 1).type(), type);
    return (row, context) -> {
      for (int i = 0; i < conditions.length; i++) {
        if (Boolean.TRUE.equals(conditions[i].evaluate(row, context))) {
          return results[i].evaluate(row, context);
        }
      }
      return otherwise.evaluate(row, context);
    };
  }

  private static RowExpression coalesce(Expr.Call call, List<RowExpression> args) {
    RowExpression[] a = new RowExpression[args.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = coerce(args.get(i), call.operands().get(i).type(), call.type());
    }
    return (row, context) -> {
      for (RowExpression e : a) {
        Object v = e.evaluate(row, context);
        if (v != null) {
          return v;
        }
      }
      return null;
    };
  }

  private static RowExpression cast(RowExpression a, DataType from, DataType to) {
    if (from.equals(to.withNullable(from.nullable()))
        && !(to.name() == TypeName.DECIMAL && to.hasLength())) {
      return a;
    }
    if (from.name() == TypeName.CHAR && to.name() == TypeName.VARCHAR) {
      // PostgreSQL: char(n) -> varchar drops the padding
      return strict1(
          a, new RememberedCast(v -> Values.cast(Values.stripTrailingSpaces((String) v), to)));
    }
    return strict1(a, new RememberedCast(v -> Values.cast(v, to)));
  }

  private static RowExpression extreme(Expr.Call call, List<RowExpression> args, boolean greatest) {
    DataType type = call.type();
    RowExpression[] a = new RowExpression[args.size()];
    for (int i = 0; i < a.length; i++) {
      a[i] = coerce(args.get(i), call.operands().get(i).type(), type);
    }
    ToIntBiFunction<Object, Object> cmp = comparator(type, type);
    // NULLs are ignored; NULL only when all are NULL (PostgreSQL and H2)
    return (row, context) -> {
      Object best = null;
      for (RowExpression e : a) {
        Object v = e.evaluate(row, context);
        if (v != null) {
          if (best == null) {
            best = v;
          } else {
            int c = cmp.applyAsInt(v, best);
            if (greatest ? c > 0 : c < 0) {
              best = v;
            }
          }
        }
      }
      return best;
    };
  }

  private static RowExpression in(Expr.Call call, List<RowExpression> args) {
    if (args.isEmpty()) {
      throw CairnException.internal("IN needs a value");
    }
    List<Expr> operands = call.operands();
    RowExpression value = args.get(0);
    int n = args.size() - 1;
    boolean allConstant = true;
    for (int i = 1; i <= n; i++) {
      allConstant &= args.get(i) instanceof Constant;
    }
    TypeName valueType = operands.get(0).type().name();
    if (allConstant && hashable(valueType, operands.subList(1, operands.size()))) {
      Set<Object> set = new HashSet<>();
      boolean sawNull = false;
      for (int i = 1; i <= n; i++) {
        Object v = ((Constant) args.get(i)).value();
        if (v == null) {
          sawNull = true;
        } else {
          set.add(hashKey(v, valueType));
        }
      }
      Boolean noMatch = sawNull ? null : Boolean.FALSE;
      return (row, context) -> {
        Object v = value.evaluate(row, context);
        if (v == null) {
          return null;
        }
        return set.contains(hashKey(v, valueType)) ? Boolean.TRUE : noMatch;
      };
    }
    RowExpression[] items = args.subList(1, args.size()).toArray(new RowExpression[0]);
    @SuppressWarnings("unchecked")
    ToIntBiFunction<Object, Object>[] comparators = new ToIntBiFunction[n];
    for (int i = 0; i < n; i++) {
      comparators[i] = comparator(operands.get(0), operands.get(i + 1));
    }
    return (row, context) -> {
      Object v = value.evaluate(row, context);
      if (v == null) {
        return null;
      }
      boolean sawNull = false;
      for (int i = 0; i < items.length; i++) {
        Object item = items[i].evaluate(row, context);
        if (item == null) {
          sawNull = true;
        } else if (comparators[i].applyAsInt(v, item) == 0) {
          return Boolean.TRUE;
        }
      }
      return sawNull ? null : Boolean.FALSE;
    };
  }

  /** Whether IN can use a hash set: all items in the value's family, whose equality we can key. */
  static boolean hashable(TypeName value, List<Expr> items) {
    for (Expr item : items) {
      TypeName t = item.type().name();
      if (t == TypeName.NULL) {
        continue;
      }
      boolean same =
          (isLongLike(value) || value == TypeName.DECIMAL)
                  && (isLongLike(t) || t == TypeName.DECIMAL)
              || isFloating(value) && isFloating(t)
              || value == t;
      if (!same) {
        return false;
      }
    }
    return true;
  }

  /** A key whose equals() is SQL equality within one family of types. */
  static Object hashKey(Object v, TypeName type) {
    if (Values.isExactInteger(v)) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigDecimal d) {
      if (d.signum() == 0) {
        return 0L;
      }
      BigDecimal s = d.stripTrailingZeros();
      if (s.scale() <= 0 && s.precision() - s.scale() <= 18) {
        return s.longValueExact();
      }
      return s;
    }
    if (v instanceof Float || v instanceof Double) {
      double d = ((Number) v).doubleValue();
      return d == 0 ? 0.0d : d;
    }
    if (v instanceof String s && type == TypeName.CHAR) {
      return Values.stripTrailingSpaces(s);
    }
    if (v instanceof byte[] b) {
      return java.nio.ByteBuffer.wrap(b);
    }
    return v;
  }
}
