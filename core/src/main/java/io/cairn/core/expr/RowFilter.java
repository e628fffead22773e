package io.cairn.core.expr;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A scan filter evaluated straight over a row's bytes through a {@link RowReader}: {@link #test} is
 * true exactly when {@code Boolean.TRUE.equals(ExprCompiler.compile(filter).evaluate(row,
 * context))} would be for the decoded row, in every case (NULLs, NaN, -0.0, mixed numeric types,
 * CHAR padding, errors).
 *
 * <h2>Zero-allocation contract</h2>
 *
 * The common shapes are compiled into nodes that read primitives from the {@link RowReader} and
 * allocate nothing per row:
 *
 * <ul>
 *   <li>{@code =, <>, <, <=, >, >=, IS [NOT] DISTINCT FROM} between a column and a constant (a
 *       literal, or an expression without column references such as a parameter or CURRENT_DATE,
 *       resolved once by {@link #bind}), or between two columns: any numeric types (TINYINT ..
 *       BIGINT, intervals, FLOAT, DOUBLE, DECIMAL, compared exactly as {@link Values#compare} does;
 *       DECIMAL as unscaled longs with aligned scales while they fit, and DECIMAL against a DOUBLE
 *       excepted), BOOLEAN, DATE, TIME and TIMESTAMP against the same type; CHAR/VARCHAR and
 *       VARBINARY against a constant by comparing bytes without decoding. A column may be wrapped
 *       in CASTs that keep every value (integer widening, integer to DOUBLE/DECIMAL where exact,
 *       FLOAT to DOUBLE).
 *   <li>{@code IN} lists of constants on such a column; IS [NOT] NULL; a BOOLEAN column; AND, OR,
 *       NOT, IS [NOT] TRUE/FALSE with SQL three-valued logic and the generic evaluator's evaluation
 *       order.
 *   <li>LIKE of a VARCHAR value column with a pattern of literal characters and {@code %}, on the
 *       column's UTF-8 bytes (also over a block's vector of them, NOT LIKE too).
 * </ul>
 *
 * Any other subtree (other LIKEs, functions, arithmetic, lossy casts, DECIMAL values beyond a long,
 * ...) falls back to the compiled {@link RowExpression} over the reader's decoded row ({@link
 * RowReader#peekDecodedRow}), which allocates the decoded values. So does a comparison whose
 * constant cannot be resolved at {@link #bind} (e.g. a parameter that fails to convert): the error
 * is then raised per row, exactly where the generic evaluator raises it.
 *
 * <p>Immutable and thread-safe; the reader carries the per-row state. Column references must lie
 * within the layout (the scan's row-key pseudo-column cannot be filtered on).
 */
public final class RowFilter {
  static final int FALSE = 0;
  static final int TRUE = 1;
  static final int UNKNOWN = 2;

  // comparison operators of the specialised nodes
  private static final int EQ = 0;
  private static final int NE = 1;
  private static final int LT = 2;
  private static final int LE = 3;
  private static final int GT = 4;
  private static final int GE = 5;
  private static final int DISTINCT = 6;
  private static final int NOT_DISTINCT = 7;
  private static final String[] OPERATORS = {
    "=", "<>", "<", "<=", ">", ">=", "IS DISTINCT FROM", "IS NOT DISTINCT FROM"
  };

  private static final Object[] NO_ROW = new Object[0];
  private static final BigDecimal HASH_LONG_LIMIT = BigDecimal.TEN.pow(18);

  /** 10^0 .. 10^18 (shared with {@link KeySetFilter} and {@link RowNumber}; never changed). */
  static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  private final Node root;
  private final RowLayout layout;

  private RowFilter(Node root, RowLayout layout) {
    this.root = root;
    this.layout = layout;
  }

  /**
   * Compiles {@code filter} (a BOOLEAN expression over rows of {@code layout}) once per scan.
   * Raises the same compile-time errors as {@link ExprCompiler#compile}.
   */
  public static RowFilter compile(Expr filter, RowLayout layout) {
    requireNonNull(filter, "filter is null");
    requireNonNull(layout, "layout is null");
    RowExpression generic = ExprCompiler.compile(filter);
    checkColumns(filter, layout.columnCount());
    Compiler compiler = new Compiler(layout);
    Node root =
        filter.type().name() == TypeName.BOOLEAN || generic instanceof ExprCompiler.Constant
            ? compiler.predicate(filter)
            : compiler.generic(filter, generic);
    return new RowFilter(root, layout);
  }

  /**
   * This filter with every constant that depends on the statement (parameters, CURRENT_DATE, ...)
   * resolved for {@code context}; {@code this} when there are none. Call once per scan, then {@link
   * #test} with the same context. An unbound filter is still correct, but evaluates such
   * comparisons through the generic fallback.
   */
  public RowFilter bind(EvalContext context) {
    requireNonNull(context, "context is null");
    Node bound = root.bind(context);
    return bound == root ? this : new RowFilter(bound, layout);
  }

  /**
   * True only when the filter is TRUE for the reader's current row (FALSE and UNKNOWN reject it).
   */
  public boolean test(RowReader row, EvalContext context) {
    return root.eval(row, context) == TRUE;
  }

  /**
   * The part of this (bound) filter that runs over column vectors, or null when no part of it does;
   * see {@link VectorFilter}. A new one per call (it keeps scratch arrays: one per scan and
   * thread).
   *
   * <p>Vectorized: TRUE, FALSE, UNKNOWN; IS [NOT] NULL and BOOLEAN columns; comparisons (every
   * operator, NULL rules as in {@link #test}) of a column (under CASTs that keep its values) with a
   * constant: integers and intervals read as longs against an integer, a decimal or a double; FLOAT
   * and DOUBLE read as doubles against a double or an integer; DECIMAL(p, s) (s at most 18) read as
   * unscaled longs at s against an integer or a decimal; DATE, TIME and BOOLEAN as longs against
   * their own type; all exactly, each constant placed once among the column's longs or doubles. IN
   * lists of longs; two integer or DECIMAL columns read at the same scale; AND (of the children
   * that are, else a superset: not {@link VectorFilter#complete()}) and OR (when every child is,
   * completely). Not: TIMESTAMP, strings and VARBINARY, NOT and IS [NOT] TRUE/FALSE, other IN
   * lists, a DECIMAL against a double, generic fallbacks, and the constants of an unbound filter.
   */
  public VectorFilter vectorFilter() {
    Vectorizer vectorizer = new Vectorizer(layout);
    VectorFilter.Part part = root.vector(vectorizer);
    if (part == null) {
      return null;
    }
    return new VectorFilter(part, vectorizer.complete);
  }

  /** Whether some part of the filter evaluates through the generic, decoding fallback. */
  public boolean hasFallback() {
    return root.hasFallback();
  }

  /** The compiled shape, e.g. {@code AND(#2 > 5, GENERIC(LIKE))}. */
  @Override
  public String toString() {
    return "RowFilter[" + root + "]";
  }

  private static void checkColumns(Expr expr, int columnCount) {
    if (expr instanceof Expr.ColumnRef ref) {
      if (ref.index() < 0 || ref.index() >= columnCount) {
        throw CairnException.internal(
            "Filter reads column ["
                + ref.index()
                + "]: expected an index below the layout's ["
                + columnCount
                + "] columns");
      }
    } else if (expr instanceof Expr.Call call) {
      for (Expr operand : call.operands()) {
        checkColumns(operand, columnCount);
      }
    }
  }

  // ================================================================ compilation

  private static final class Compiler {
    private final RowLayout layout;

    Compiler(RowLayout layout) {
      this.layout = layout;
    }

    /** A node for a BOOLEAN expression (or a constant). */
    Node predicate(Expr e) {
      RowExpression compiled = ExprCompiler.compile(e);
      if (compiled instanceof ExprCompiler.Constant c) {
        return Const.of(c.value());
      }
      if (e.type().name() != TypeName.BOOLEAN) {
        return generic(e, compiled);
      }
      if (e instanceof Expr.ColumnRef ref && storedType(ref.index()) == TypeName.BOOLEAN) {
        return new BooleanColumn(ref.index());
      }
      if (e instanceof Expr.Call call) {
        Node node = call(call, compiled);
        if (node != null) {
          return node;
        }
      }
      return generic(e, compiled);
    }

    Node generic(Expr e, RowExpression compiled) {
      SortedSet<Integer> columns = new TreeSet<>();
      collectColumns(e, columns);
      String what = e instanceof Expr.Call call ? call.op().name() : e.getClass().getSimpleName();
      return new Generic(compiled, columns.stream().mapToInt(Integer::intValue).toArray(), what);
    }

    private Node call(Expr.Call call, RowExpression compiled) {
      List<Expr> operands = call.operands();
      return switch (call.op()) {
        case AND, OR -> {
          Node[] children = new Node[operands.size()];
          for (int i = 0; i < children.length; i++) {
            if (!isLogical(operands.get(i))) {
              yield null;
            }
            children[i] = predicate(operands.get(i));
          }
          yield call.op() == Op.AND ? new And(children) : new Or(children);
        }
        case NOT -> mapped(operands, Mapped.NOT, "NOT");
        case IS_TRUE -> mapped(operands, Mapped.IS_TRUE, "IS TRUE");
        case IS_NOT_TRUE -> mapped(operands, Mapped.IS_NOT_TRUE, "IS NOT TRUE");
        case IS_FALSE -> mapped(operands, Mapped.IS_FALSE, "IS FALSE");
        case IS_NOT_FALSE -> mapped(operands, Mapped.IS_NOT_FALSE, "IS NOT FALSE");
        case IS_NULL, IS_NOT_NULL -> {
          boolean negated = call.op() == Op.IS_NOT_NULL;
          if (operands.size() != 1) {
            yield null;
          }
          int column = columnOperand(operands.get(0));
          if (column >= 0) {
            yield new IsNull(column, negated);
          }
          yield negated
              ? mapped(operands, Mapped.IS_NOT_UNKNOWN, "IS NOT NULL")
              : mapped(operands, Mapped.IS_UNKNOWN, "IS NULL");
        }
        case EQUALS,
                NOT_EQUALS,
                LESS_THAN,
                LESS_THAN_OR_EQUAL,
                GREATER_THAN,
                GREATER_THAN_OR_EQUAL,
                IS_DISTINCT_FROM,
                IS_NOT_DISTINCT_FROM ->
            operands.size() == 2 ? comparison(call, compiled) : null;
        case IN -> in(call, compiled);
        case LIKE -> like(call);
        default -> null;
      };
    }

    /**
     * LIKE of a VARCHAR value column with a literal pattern of characters and {@code %} only (no
     * {@code _}, no escape character, no ESCAPE clause), matched on the column's UTF-8 bytes: its
     * literal runs in order, the first at the start and the last at the end unless a {@code %} is
     * there. A run of well-formed UTF-8 found in well-formed UTF-8 starts and ends on character
     * boundaries, so the bytes match exactly where the characters do, and no string is decoded
     * (TPC-H Q13's {@code O_COMMENT NOT LIKE '%special%requests%'} over 1,500,000 rows; Q2, Q9,
     * Q16, Q20); null for other LIKEs.
     */
    private Node like(Expr.Call call) {
      List<Expr> operands = call.operands();
      if (operands.size() != 2
          || !(operands.get(0) instanceof Expr.ColumnRef ref)
          || !(operands.get(1) instanceof Expr.Literal literal)
          || !(literal.value() instanceof String pattern)) {
        return null;
      }
      int column = ref.index();
      if (column < 0
          || column >= layout.columnCount()
          || storedType(column) != TypeName.VARCHAR
          || ref.type().name() != TypeName.VARCHAR
          || layout.isKeyColumn(column)
          || pattern.indexOf('_') >= 0
          || pattern.indexOf('\\') >= 0
          || !isWellFormed(pattern)) {
        return null;
      }
      return BytesLike.of(column, pattern);
    }

    private Node mapped(List<Expr> operands, int[] table, String name) {
      if (operands.size() != 1 || !isLogical(operands.get(0))) {
        return null;
      }
      return new Mapped(predicate(operands.get(0)), table, name);
    }

    /** Whether {@code e} evaluates to a Boolean or null, as AND/OR/NOT expect. */
    private static boolean isLogical(Expr e) {
      if (e.type().name() == TypeName.BOOLEAN) {
        return true;
      }
      return e instanceof Expr.Literal literal
          && (literal.value() == null || literal.value() instanceof Boolean);
    }

    private Node comparison(Expr.Call call, RowExpression compiled) {
      int op = operatorCode(call.op());
      Expr a = call.operands().get(0);
      Expr b = call.operands().get(1);
      Node generic = generic(call, compiled);
      int columnA = columnOperand(a);
      int columnB = columnOperand(b);
      if (columnA >= 0 && columnB >= 0) {
        return columnColumn(op, columnA, a.type(), columnB, b.type(), generic);
      }
      if (columnA >= 0 && isConstant(b)) {
        return columnConstant(op, columnA, a.type(), b, generic);
      }
      if (columnB >= 0 && isConstant(a)) {
        return columnConstant(flip(op), columnB, b.type(), a, generic);
      }
      Node prefix = prefixComparison(op, a, b);
      if (prefix == null) {
        prefix = prefixComparison(op, b, a);
      }
      return prefix != null ? prefix : generic;
    }

    /**
     * {@code SUBSTRING(column FROM 1 FOR n) = 'literal'} (or {@code <>}) over a string value
     * column, the literal of exactly n characters without a trailing space: whether the column's
     * bytes start with the literal's (UTF-8 is prefix-free, so the first n characters are the
     * literal exactly when the bytes begin with its bytes), without making the substring (TPC-H
     * Q22's country codes); null for other comparisons.
     */
    private Node prefixComparison(int op, Expr substring, Expr k) {
      if ((op != EQ && op != NE)
          || !(substring instanceof Expr.Call call)
          || call.op() != Op.SUBSTRING
          || call.operands().size() != 3
          || !(k instanceof Expr.Literal literal)
          || !(literal.value() instanceof String s)
          || !(call.operands().get(1) instanceof Expr.Literal from)
          || !(call.operands().get(2) instanceof Expr.Literal length)
          || !Values.isExactInteger(from.value())
          || !Values.isExactInteger(length.value())
          || ((Number) from.value()).longValue() != 1) {
        return null;
      }
      int column = columnOperand(call.operands().get(0));
      if (column < 0
          || !storedType(column).isString()
          || layout.isKeyColumn(column)
          || s.isEmpty()
          || s.charAt(s.length() - 1) == ' '
          || !isWellFormed(s)
          || s.codePointCount(0, s.length()) != ((Number) length.value()).longValue()) {
        return null;
      }
      return new BytesPrefix(column, s.getBytes(UTF_8), op == NE);
    }

    private Node columnConstant(int op, int column, DataType columnType, Expr k, Node generic) {
      RowExpression compiled = ExprCompiler.compile(k);
      DataType kType = k.type();
      if (compiled instanceof ExprCompiler.Constant c) {
        return columnConstant(op, column, columnType, kType, c.value(), generic);
      }
      return new Deferred(
          new RowExpression[] {compiled},
          values -> columnConstant(op, column, columnType, kType, values[0], generic),
          generic);
    }

    /**
     * The node comparing {@code column} (whose expression has {@code columnType}) with the value
     * {@code v} of type {@code kType}, or {@code generic} when that pair has no primitive path.
     */
    Node columnConstant(
        int op, int column, DataType columnType, DataType kType, Object v, Node generic) {
      if (v == null) {
        return switch (op) {
          case DISTINCT -> new IsNull(column, true);
          case NOT_DISTINCT -> new IsNull(column, false);
          default -> Const.UNKNOWN_NODE;
        };
      }
      TypeName a = columnType.name();
      TypeName b = kType.name();
      TypeName stored = storedType(column);
      if (b == TypeName.NULL || !ExprCompiler.javaClass(b).isInstance(v)) {
        return generic;
      }
      if (isNumeric(a) && isNumeric(b)) {
        return numericConstant(op, column, stored, v, generic);
      }
      if (a != stored) {
        return generic; // only numeric columns may hide under a CAST
      }
      if (a == b) {
        switch (a) {
          case BOOLEAN:
            return new LongConstant(column, op, ((Boolean) v) ? 1 : 0);
          case DATE:
            return new LongConstant(column, op, ((LocalDate) v).toEpochDay());
          case TIME:
            return new LongConstant(column, op, ((LocalTime) v).toNanoOfDay());
          case TIMESTAMP:
            LocalDateTime t = (LocalDateTime) v;
            return new TimestampConstant(
                column, op, t.toEpochSecond(ZoneOffset.UTC), t.get(ChronoField.NANO_OF_SECOND));
          case VARBINARY:
            return new BytesConstant(column, op, ((byte[]) v).clone(), false);
          default:
            break;
        }
      }
      if (a.isString() && b.isString()) {
        boolean padded = a == TypeName.CHAR || b == TypeName.CHAR;
        String s = padded ? Values.stripTrailingSpaces((String) v) : (String) v;
        if (!isWellFormed(s)) {
          return generic;
        }
        return new BytesConstant(column, op, s.getBytes(UTF_8), padded);
      }
      return generic;
    }

    private static Node numericConstant(
        int op, int column, TypeName stored, Object v, Node generic) {
      Kind kind = Kind.of(stored);
      if (Values.isExactInteger(v)) {
        long k = ((Number) v).longValue();
        return switch (kind) {
          case LONG -> new LongConstant(column, op, k);
          case DOUBLE -> new DoubleLongConstant(column, op, k);
          case DECIMAL -> new DecimalConstant(column, op, false, k, 0);
        };
      }
      if (v instanceof Float || v instanceof Double) {
        double k = ((Number) v).doubleValue();
        return switch (kind) {
          case LONG -> new LongDoubleConstant(column, op, k);
          case DOUBLE -> new DoubleConstant(column, op, k);
          case DECIMAL -> generic;
        };
      }
      if (v instanceof BigDecimal d && d.unscaledValue().bitLength() <= 63) {
        long u = d.unscaledValue().longValue();
        return switch (kind) {
          case LONG -> new DecimalConstant(column, op, true, u, d.scale());
          case DOUBLE -> generic;
          case DECIMAL -> new DecimalConstant(column, op, false, u, d.scale());
        };
      }
      return generic;
    }

    private Node columnColumn(
        int op, int columnA, DataType typeA, int columnB, DataType typeB, Node generic) {
      TypeName a = typeA.name();
      TypeName b = typeB.name();
      TypeName storedA = storedType(columnA);
      TypeName storedB = storedType(columnB);
      int mode;
      if (isNumeric(a) && isNumeric(b)) {
        mode = ColumnColumn.numericMode(Kind.of(storedA), Kind.of(storedB));
        if (mode < 0) {
          return generic;
        }
      } else if (a == b && storedA == a && storedB == b) {
        switch (a) {
          case BOOLEAN, DATE, TIME -> mode = ColumnColumn.LONG_LONG;
          case TIMESTAMP -> mode = ColumnColumn.TIMESTAMPS;
          default -> {
            return generic;
          }
        }
      } else {
        return generic;
      }
      return new ColumnColumn(columnA, columnB, op, mode);
    }

    private Node in(Expr.Call call, RowExpression compiled) {
      List<Expr> operands = call.operands();
      Node generic = generic(call, compiled);
      if (operands.isEmpty()) {
        return generic;
      }
      Expr valueExpr = operands.get(0);
      int column = columnOperand(valueExpr);
      if (column < 0) {
        return generic;
      }
      int n = operands.size() - 1;
      RowExpression[] items = new RowExpression[n];
      boolean allConstant = true;
      for (int i = 0; i < n; i++) {
        Expr item = operands.get(i + 1);
        if (!isConstant(item)) {
          return generic;
        }
        items[i] = ExprCompiler.compile(item);
        allConstant &= items[i] instanceof ExprCompiler.Constant;
      }
      DataType valueType = valueExpr.type();
      List<Expr> itemExprs = operands.subList(1, operands.size());
      // the generic evaluator matches constant lists through a hash set of hashKey()s, whose
      // equality differs from numeric equality in one corner (see hashMisses)
      boolean hashed = allConstant && ExprCompiler.hashable(valueType.name(), itemExprs);
      Function<Object[], Node> builder =
          values -> inList(column, valueType, itemExprs, values, hashed, generic);
      if (allConstant) {
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
          values[i] = ((ExprCompiler.Constant) items[i]).value();
        }
        return builder.apply(values);
      }
      return new Deferred(items, builder, generic);
    }

    private Node inList(
        int column,
        DataType valueType,
        List<Expr> itemExprs,
        Object[] values,
        boolean hashed,
        Node generic) {
      List<ColumnComparison> items = new ArrayList<>();
      boolean sawNull = false;
      for (int i = 0; i < values.length; i++) {
        Object v = values[i];
        if (v == null) {
          sawNull = true;
          continue;
        }
        if (hashed && hashMisses(valueType.name(), v)) {
          continue;
        }
        Node node = columnConstant(EQ, column, valueType, itemExprs.get(i).type(), v, generic);
        if (!(node instanceof ColumnComparison comparison)) {
          return generic;
        }
        items.add(comparison);
      }
      boolean allLongs = !items.isEmpty();
      for (ColumnComparison item : items) {
        allLongs &= item instanceof LongConstant;
      }
      if (allLongs) {
        long[] keys = items.stream().mapToLong(item -> ((LongConstant) item).k).sorted().toArray();
        return new InLongs(column, keys, sawNull);
      }
      return new InList(column, items.toArray(new ColumnComparison[0]), sawNull);
    }

    /**
     * Whether the generic hash-set IN never matches item {@code v}: ExprCompiler.hashKey keys an
     * integer as a Long but an integral DECIMAL of 19 or more digits as a BigDecimal, so such a
     * value on one side never equals an integer on the other.
     */
    private static boolean hashMisses(TypeName valueType, Object item) {
      boolean integerValue = valueType.isExactInteger() || valueType.isInterval();
      if (integerValue && item instanceof BigDecimal d) {
        return d.abs().compareTo(HASH_LONG_LIMIT) >= 0 && d.stripTrailingZeros().scale() <= 0;
      }
      if (valueType == TypeName.DECIMAL && Values.isExactInteger(item)) {
        long k = ((Number) item).longValue();
        return k >= POWERS_OF_TEN[18] || k <= -POWERS_OF_TEN[18];
      }
      return false;
    }

    /**
     * The layout column that {@code e} reads with every value kept: a ColumnRef of the column's
     * type, possibly under CASTs that change no value; -1 otherwise.
     */
    int columnOperand(Expr e) {
      if (e instanceof Expr.ColumnRef ref) {
        return ref.type().name() == storedType(ref.index()) ? ref.index() : -1;
      }
      if (e instanceof Expr.Call call && call.op() == Op.CAST && call.operands().size() == 1) {
        Expr inner = call.operands().get(0);
        int column = columnOperand(inner);
        return column >= 0 && keepsValues(inner.type(), call.type()) ? column : -1;
      }
      return -1;
    }

    private TypeName storedType(int column) {
      return layout.columnType(column).name();
    }
  }

  /** Whether {@code CAST(x AS to)} returns x's value unchanged (numerically) for every x. */
  static boolean keepsValues(DataType from, DataType to) {
    if (from.equals(to.withNullable(from.nullable()))
        && !(to.name() == TypeName.DECIMAL && to.hasLength())) {
      return true; // ExprCompiler compiles this CAST away
    }
    TypeName f = from.name();
    TypeName t = to.name();
    if (f.isExactInteger() && t.isExactInteger()) {
      return integerDigits(t) >= integerDigits(f);
    }
    return switch (t) {
      case DOUBLE ->
          f == TypeName.TINYINT
              || f == TypeName.SMALLINT
              || f == TypeName.INTEGER
              || f == TypeName.FLOAT;
      case FLOAT -> f == TypeName.TINYINT || f == TypeName.SMALLINT;
      case DECIMAL ->
          (f.isExactInteger()
                  && (!to.hasLength()
                      || (to.scale() >= 0 && to.precision() - to.scale() >= integerDigits(f))))
              || (f == TypeName.DECIMAL
                  && from.hasLength()
                  && to.hasLength()
                  && from.scale() >= 0
                  && to.scale() >= from.scale()
                  && to.precision() - to.scale() >= from.precision() - from.scale());
      default -> false;
    };
  }

  private static int integerDigits(TypeName t) {
    return switch (t) {
      case TINYINT -> 3;
      case SMALLINT -> 5;
      case INTEGER -> 10;
      default -> 19;
    };
  }

  private static boolean isNumeric(TypeName t) {
    return t.isNumeric() || t.isInterval();
  }

  /** Whether {@code e} reads no column: its value is fixed for a statement. */
  private static boolean isConstant(Expr e) {
    if (e instanceof Expr.ColumnRef) {
      return false;
    }
    if (e instanceof Expr.Call call) {
      for (Expr operand : call.operands()) {
        if (!isConstant(operand)) {
          return false;
        }
      }
    }
    return true;
  }

  private static void collectColumns(Expr e, SortedSet<Integer> columns) {
    if (e instanceof Expr.ColumnRef ref) {
      columns.add(ref.index());
    } else if (e instanceof Expr.Call call) {
      for (Expr operand : call.operands()) {
        collectColumns(operand, columns);
      }
    }
  }

  /** Whether UTF-8 can hold {@code s} unchanged (no unpaired surrogate). */
  private static boolean isWellFormed(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  private static int operatorCode(Op op) {
    return switch (op) {
      case EQUALS -> EQ;
      case NOT_EQUALS -> NE;
      case LESS_THAN -> LT;
      case LESS_THAN_OR_EQUAL -> LE;
      case GREATER_THAN -> GT;
      case GREATER_THAN_OR_EQUAL -> GE;
      case IS_DISTINCT_FROM -> DISTINCT;
      case IS_NOT_DISTINCT_FROM -> NOT_DISTINCT;
      default -> throw new IllegalArgumentException("Not a comparison: " + op);
    };
  }

  /** The operator with its operands swapped: {@code k < x} is {@code x > k}. */
  private static int flip(int op) {
    return switch (op) {
      case LT -> GT;
      case LE -> GE;
      case GT -> LT;
      case GE -> LE;
      default -> op;
    };
  }

  private static int result(int op, int c) {
    boolean b =
        switch (op) {
          case EQ, NOT_DISTINCT -> c == 0;
          case NE, DISTINCT -> c != 0;
          case LT -> c < 0;
          case LE -> c <= 0;
          case GT -> c > 0;
          default -> c >= 0;
        };
    return b ? TRUE : FALSE;
  }

  // ================================================================ exact numeric comparisons

  /** Compares {@code x} with {@code d} exactly, as Values.compare(Long, Double) does. */
  static int compareLongDouble(long x, double d) {
    if (Double.isNaN(d)) {
      return -1; // NaN is above everything
    }
    if (d >= 0x1p63) {
      return -1;
    }
    if (d < -0x1p63) {
      return 1;
    }
    long t = (long) d; // truncated toward zero, exact in this range
    if (x != t) {
      return x < t ? -1 : 1;
    }
    double fraction = d - t;
    return fraction > 0 ? -1 : fraction < 0 ? 1 : 0;
  }

  /** Compares {@code u1 * 10^-s1} with {@code u2 * 10^-s2} exactly. */
  static int compareDecimals(long u1, int s1, long u2, int s2) {
    if (s1 == s2) {
      return Long.compare(u1, u2);
    }
    if (s1 < s2) {
      return compareScaled(u1, (long) s2 - s1, u2);
    }
    return -compareScaled(u2, (long) s1 - s2, u1);
  }

  /** Compares {@code a * 10^shift} (shift > 0) with {@code b} exactly. */
  private static int compareScaled(long a, long shift, long b) {
    if (a == 0) {
      return -Long.signum(b);
    }
    if (shift <= 18) {
      long p = POWERS_OF_TEN[(int) shift];
      long high = Math.multiplyHigh(a, p);
      long low = a * p;
      if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
        return Long.compare(low, b);
      }
    }
    return a > 0 ? 1 : -1; // |a * 10^shift| is beyond the long range, so beyond |b|
  }

  // ================================================================ vectors

  /** What {@link Node#vector} reads: the layout's columns as vectors; whether all went in. */
  private static final class Vectorizer {
    private final RowLayout layout;

    /** False once some conjunct was left out. */
    boolean complete = true;

    Vectorizer(RowLayout layout) {
      this.layout = layout;
    }

    /**
     * Layout column {@code column} as a vector, as {@link RowNumber} and {@link NumberBatch} read
     * it (so that a scan's filter and aggregates share it): a DECIMAL(p, s) at its declared scale
     * (s at most 18), integers, intervals, DATE, TIME and BOOLEAN as longs, FLOAT and DOUBLE as
     * doubles; null for other types.
     */
    VectorColumn column(int column) {
      return VectorColumn.numbersOf(column, layout.columnType(column));
    }

    /** {@link #column(int)} when it is read as {@code kind}, else null. */
    VectorColumn column(int column, byte kind) {
      VectorColumn c = column(column);
      return c != null && c.kind() == kind ? c : null;
    }

    /**
     * A string or binary value column's bytes as a vector ({@link VectorColumn#bytesOf}), trimmed
     * of trailing spaces when {@code trimmed} (a comparison that ignores them); null for a key
     * column (its bytes are escaped), other types, and a CHAR compared exactly.
     */
    VectorColumn bytesColumn(int column, boolean trimmed) {
      if (layout.isKeyColumn(column)) {
        return null;
      }
      VectorColumn c = VectorColumn.bytesOf(column, layout.columnType(column), trimmed);
      boolean trims = c != null && c.kind() == VectorColumn.SHORT_CHARS;
      return c != null && trims == trimmed ? c : null;
    }

    /**
     * A string or binary value column's bytes as stored, however long ({@link VectorColumn#BYTES}),
     * for a LIKE; null for a key column (its bytes are escaped).
     */
    VectorColumn valueBytes(int column) {
      return VectorColumn.rowsOf(column, layout.columnType(column), layout.isKeyColumn(column));
    }
  }

  /**
   * The rows whose value {@code v} (an exact vector) has {@code result(op, sign(v - k))} TRUE (EQ,
   * NE, LT, LE, GT, GE) for a constant {@code k} given by its place among the longs: {@code sign(v
   * - k)} is {@code Long.compare(v, t)} when {@code v != t} and {@code tie} when {@code v == t}. So
   * {@code tie} 0 is {@code k == t}, -1 is {@code t < k < t + 1} (with {@code t} MAX_VALUE: k above
   * every long), 1 is {@code t - 1 < k < t} (with MIN_VALUE: below every long).
   */
  private static VectorFilter.Part longValues(VectorColumn column, int op, long t, int tie) {
    return switch (op) {
      case EQ -> tie == 0 ? VectorFilter.longValues(column, t, t, false) : none(column);
      case NE -> tie == 0 ? VectorFilter.longValues(column, t, t, true) : notNull(column);
      // v < k: v <= t when k is above t, else v < t
      case LT -> tie < 0 ? atMost(column, t) : below(column, t);
      // v <= k: v < t when k is below t, else v <= t
      case LE -> tie > 0 ? below(column, t) : atMost(column, t);
      // v > k: v >= t when k is below t, else v > t
      case GT -> tie > 0 ? atLeast(column, t) : above(column, t);
      // v >= k: v > t when k is above t, else v >= t
      case GE -> tie < 0 ? above(column, t) : atLeast(column, t);
      default -> throw new IllegalArgumentException("Not a value comparison: " + op);
    };
  }

  private static VectorFilter.Part atMost(VectorColumn column, long t) {
    return VectorFilter.longValues(column, Long.MIN_VALUE, t, false);
  }

  private static VectorFilter.Part below(VectorColumn column, long t) {
    return t == Long.MIN_VALUE ? none(column) : atMost(column, t - 1);
  }

  private static VectorFilter.Part atLeast(VectorColumn column, long t) {
    return VectorFilter.longValues(column, t, Long.MAX_VALUE, false);
  }

  private static VectorFilter.Part above(VectorColumn column, long t) {
    return t == Long.MAX_VALUE ? none(column) : atLeast(column, t + 1);
  }

  /**
   * No row of {@code column}'s vector: still a part that reads the column, so that a caller that
   * finds a value beyond the vector's longs there (NUMBER_UNFIT, which might match) reads the rows.
   */
  private static VectorFilter.Part none(VectorColumn column) {
    return VectorFilter.empty(column);
  }

  private static VectorFilter.Part notNull(VectorColumn column) {
    return VectorFilter.nulls(column, false);
  }

  /**
   * The rows whose double value {@code v} has {@code result(op, Values.compareDoubles(v, k))} TRUE
   * (EQ .. GE): NaN above everything and equal to itself, -0.0 equal to 0.0. As IEEE ranges: for a
   * number k, {@code v < k} is {@code v <= nextDown(k)}, {@code v <= k} is IEEE's, {@code v > k} is
   * {@code NOT v <= k} and {@code v >= k} is {@code NOT v < k} (negations keep NaN).
   */
  private static VectorFilter.Part doubleValues(VectorColumn column, int op, double k) {
    double inf = Double.POSITIVE_INFINITY;
    if (Double.isNaN(k)) {
      return switch (op) {
        case LT, NE -> VectorFilter.doubleValues(column, -inf, inf, false); // not NaN
        case LE -> notNull(column);
        case GT -> none(column);
        case GE, EQ -> VectorFilter.doubleValues(column, -inf, inf, true); // NaN
        default -> throw new IllegalArgumentException("Not a value comparison: " + op);
      };
    }
    return switch (op) {
      case EQ -> VectorFilter.doubleValues(column, k, k, false);
      case NE -> VectorFilter.doubleValues(column, k, k, true);
      case LT ->
          k == -inf
              ? none(column)
              : VectorFilter.doubleValues(column, -inf, Math.nextDown(k), false);
      case LE -> VectorFilter.doubleValues(column, -inf, k, false);
      case GT -> VectorFilter.doubleValues(column, -inf, k, true);
      case GE ->
          k == -inf
              ? notNull(column)
              : VectorFilter.doubleValues(column, -inf, Math.nextDown(k), true);
      default -> throw new IllegalArgumentException("Not a value comparison: " + op);
    };
  }

  /** The bit set of {@code Long.compare} results (bit 0: -1, 1: 0, 2: 1) that {@code op} keeps. */
  private static int signs(int op) {
    return switch (op) {
      case EQ, NOT_DISTINCT -> 0b010;
      case NE, DISTINCT -> 0b101;
      case LT -> 0b001;
      case LE -> 0b011;
      case GT -> 0b100;
      default -> 0b110;
    };
  }

  // ================================================================ nodes

  /** How a numeric column is read. */
  private enum Kind {
    LONG,
    DOUBLE,
    DECIMAL;

    static Kind of(TypeName stored) {
      return switch (stored) {
        case FLOAT, DOUBLE -> DOUBLE;
        case DECIMAL -> DECIMAL;
        default -> LONG;
      };
    }
  }

  private abstract static class Node {
    /** TRUE, FALSE or UNKNOWN for the reader's current row. */
    abstract int eval(RowReader row, EvalContext context);

    Node bind(EvalContext context) {
      return this;
    }

    boolean hasFallback() {
      return false;
    }

    /**
     * The rows for which this node is TRUE, over column vectors, or null when it has no vector
     * form; a superset when it clears {@code v.complete}.
     */
    VectorFilter.Part vector(Vectorizer v) {
      return null;
    }
  }

  private static final class Const extends Node {
    static final Const TRUE_NODE = new Const(TRUE);
    static final Const FALSE_NODE = new Const(FALSE);
    static final Const UNKNOWN_NODE = new Const(UNKNOWN);

    private final int result;

    private Const(int result) {
      this.result = result;
    }

    static Const of(Object value) {
      return value == null ? UNKNOWN_NODE : Boolean.TRUE.equals(value) ? TRUE_NODE : FALSE_NODE;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      return result;
    }

    @Override
    VectorFilter.Part vector(Vectorizer v) {
      return VectorFilter.constant(result == TRUE);
    }

    @Override
    public String toString() {
      return result == TRUE ? "TRUE" : result == FALSE ? "FALSE" : "UNKNOWN";
    }
  }

  /** The compiled generic expression over the reader's decoded row. */
  private static final class Generic extends Node {
    private final RowExpression expression;
    private final int[] columns;
    private final String what;

    Generic(RowExpression expression, int[] columns, String what) {
      this.expression = expression;
      this.columns = columns;
      this.what = what;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      Object v = expression.evaluate(row.peekDecodedRow(columns), context);
      return v == null ? UNKNOWN : Boolean.TRUE.equals(v) ? TRUE : FALSE;
    }

    @Override
    boolean hasFallback() {
      return true;
    }

    @Override
    public String toString() {
      return "GENERIC(" + what + ")";
    }
  }

  /** A node whose constants depend on the statement: built by {@link #bind}. */
  private static final class Deferred extends Node {
    private final RowExpression[] constants;
    private final Function<Object[], Node> builder;
    private final Node generic;

    Deferred(RowExpression[] constants, Function<Object[], Node> builder, Node generic) {
      this.constants = constants;
      this.builder = builder;
      this.generic = generic;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      return generic.eval(row, context);
    }

    @Override
    Node bind(EvalContext context) {
      Object[] values = new Object[constants.length];
      for (int i = 0; i < values.length; i++) {
        try {
          values[i] = constants[i].evaluate(NO_ROW, context);
        } catch (RuntimeException e) {
          return generic; // raised per row, where the generic evaluator raises it
        }
      }
      return builder.apply(values);
    }

    @Override
    boolean hasFallback() {
      return true;
    }

    @Override
    public String toString() {
      return "DEFERRED(" + generic + ")";
    }
  }

  private static final class And extends Node {
    private final Node[] children;

    And(Node[] children) {
      this.children = children;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      boolean unknown = false;
      for (Node child : children) {
        int r = child.eval(row, context);
        if (r == FALSE) {
          return FALSE;
        }
        unknown |= r == UNKNOWN;
      }
      return unknown ? UNKNOWN : TRUE;
    }

    @Override
    Node bind(EvalContext context) {
      Node[] bound = bindAll(children, context);
      return bound == children ? this : new And(bound);
    }

    /** The children that have a vector form; a superset of the rows when some have none. */
    @Override
    VectorFilter.Part vector(Vectorizer v) {
      List<VectorFilter.Part> parts = new ArrayList<>();
      boolean all = true;
      for (Node child : children) {
        VectorFilter.Part part = child.vector(v);
        if (part == null) {
          all = false;
        } else {
          parts.add(part);
        }
      }
      VectorFilter.Part and = VectorFilter.and(parts);
      if (!all) {
        v.complete = false;
        if (VectorFilter.selectsAll(and)) {
          return null; // nothing of it filters
        }
      }
      return and;
    }

    @Override
    boolean hasFallback() {
      return anyFallback(children);
    }

    @Override
    public String toString() {
      return "AND" + Arrays.toString(children);
    }
  }

  private static final class Or extends Node {
    private final Node[] children;

    Or(Node[] children) {
      this.children = children;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      boolean unknown = false;
      for (Node child : children) {
        int r = child.eval(row, context);
        if (r == TRUE) {
          return TRUE;
        }
        unknown |= r == UNKNOWN;
      }
      return unknown ? UNKNOWN : FALSE;
    }

    @Override
    Node bind(EvalContext context) {
      Node[] bound = bindAll(children, context);
      return bound == children ? this : new Or(bound);
    }

    /** Only when every child has a complete vector form (a superset of one would not do). */
    @Override
    VectorFilter.Part vector(Vectorizer v) {
      boolean outer = v.complete;
      v.complete = true;
      List<VectorFilter.Part> parts = new ArrayList<>();
      for (Node child : children) {
        VectorFilter.Part part = child.vector(v);
        if (part == null) {
          v.complete = false;
          break;
        }
        parts.add(part);
      }
      boolean complete = v.complete;
      v.complete = outer;
      return complete ? VectorFilter.or(parts) : null;
    }

    @Override
    boolean hasFallback() {
      return anyFallback(children);
    }

    @Override
    public String toString() {
      return "OR" + Arrays.toString(children);
    }
  }

  private static Node[] bindAll(Node[] children, EvalContext context) {
    Node[] bound = null;
    for (int i = 0; i < children.length; i++) {
      Node b = children[i].bind(context);
      if (b != children[i]) {
        if (bound == null) {
          bound = children.clone();
        }
        bound[i] = b;
      }
    }
    return bound == null ? children : bound;
  }

  private static boolean anyFallback(Node[] children) {
    for (Node child : children) {
      if (child.hasFallback()) {
        return true;
      }
    }
    return false;
  }

  /** NOT, IS [NOT] TRUE/FALSE/NULL over a logical child: a table from its result to ours. */
  private static final class Mapped extends Node {
    // indexed by FALSE, TRUE, UNKNOWN
    static final int[] NOT = {TRUE, FALSE, UNKNOWN};
    static final int[] IS_TRUE = {FALSE, TRUE, FALSE};
    static final int[] IS_NOT_TRUE = {TRUE, FALSE, TRUE};
    static final int[] IS_FALSE = {TRUE, FALSE, FALSE};
    static final int[] IS_NOT_FALSE = {FALSE, TRUE, TRUE};
    static final int[] IS_UNKNOWN = {FALSE, FALSE, TRUE};
    static final int[] IS_NOT_UNKNOWN = {TRUE, TRUE, FALSE};

    private final Node child;
    private final int[] table;
    private final String name;

    Mapped(Node child, int[] table, String name) {
      this.child = child;
      this.table = table;
      this.name = name;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      return table[child.eval(row, context)];
    }

    @Override
    Node bind(EvalContext context) {
      Node bound = child.bind(context);
      return bound == child ? this : new Mapped(bound, table, name);
    }

    @Override
    boolean hasFallback() {
      return child.hasFallback();
    }

    @Override
    VectorFilter.Part vector(Vectorizer v) {
      // NOT LIKE: the rows whose value does not match (a NULL's UNKNOWN stays out)
      return table == NOT && child instanceof BytesLike like ? like.vector(v, true) : null;
    }

    @Override
    public String toString() {
      return name + "(" + child + ")";
    }
  }

  private static final class BooleanColumn extends Node {
    private final int column;

    BooleanColumn(int column) {
      this.column = column;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      if (row.isNull(column)) {
        return UNKNOWN;
      }
      return row.getLong(column) != 0 ? TRUE : FALSE;
    }

    @Override
    VectorFilter.Part vector(Vectorizer v) {
      VectorColumn c = v.column(column, RowReader.LONG);
      return c == null ? null : VectorFilter.longValues(c, 0, 0, true);
    }

    @Override
    public String toString() {
      return "#" + column;
    }
  }

  private static final class IsNull extends Node {
    private final int column;
    private final boolean negated;

    IsNull(int column, boolean negated) {
      this.column = column;
      this.negated = negated;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      return row.isNull(column) != negated ? TRUE : FALSE;
    }

    @Override
    VectorFilter.Part vector(Vectorizer v) {
      VectorColumn c = v.column(column);
      return c == null ? null : VectorFilter.nulls(c, !negated);
    }

    @Override
    public String toString() {
      return "#" + column + (negated ? " IS NOT NULL" : " IS NULL");
    }
  }

  /** A column compared with a non-null constant. */
  private abstract static class ColumnComparison extends Node {
    final int column;
    final int op;

    ColumnComparison(int column, int op) {
      this.column = column;
      this.op = op;
    }

    /** The sign of (column value - constant); the column is not NULL. */
    abstract int compare(RowReader row);

    @Override
    final int eval(RowReader row, EvalContext context) {
      if (row.isNull(column)) {
        return op == DISTINCT ? TRUE : op == NOT_DISTINCT ? FALSE : UNKNOWN;
      }
      return result(op, compare(row));
    }

    abstract String constant();

    /** The vector of {@link #column} that {@link #values} reads, or null when there is none. */
    VectorColumn vectorColumn(Vectorizer v) {
      return null;
    }

    /**
     * The rows whose value compares with the constant as {@code valueOp} (EQ .. GE) says (NULL rows
     * never: none is TRUE).
     */
    VectorFilter.Part values(VectorColumn c, int valueOp) {
      throw new UnsupportedOperationException(toString());
    }

    @Override
    final VectorFilter.Part vector(Vectorizer v) {
      VectorColumn c = vectorColumn(v);
      if (c == null) {
        return null;
      }
      return switch (op) {
        // NULL IS DISTINCT FROM a constant
        case DISTINCT -> VectorFilter.or(List.of(VectorFilter.nulls(c, true), values(c, NE)));
        case NOT_DISTINCT -> values(c, EQ);
        default -> values(c, op);
      };
    }

    @Override
    public String toString() {
      return "#" + column + " " + OPERATORS[op] + " " + constant();
    }
  }

  private static final class LongConstant extends ColumnComparison {
    final long k;

    LongConstant(int column, int op, long k) {
      super(column, op);
      this.k = k;
    }

    @Override
    int compare(RowReader row) {
      return Long.compare(row.getLong(column), k);
    }

    @Override
    VectorColumn vectorColumn(Vectorizer v) {
      return v.column(column, RowReader.LONG);
    }

    @Override
    VectorFilter.Part values(VectorColumn c, int valueOp) {
      return longValues(c, valueOp, k, 0);
    }

    @Override
    String constant() {
      return k + ":long";
    }
  }

  private static final class DoubleConstant extends ColumnComparison {
    private final double k;

    DoubleConstant(int column, int op, double k) {
      super(column, op);
      this.k = k;
    }

    @Override
    int compare(RowReader row) {
      return Values.compareDoubles(row.getDouble(column), k);
    }

    @Override
    VectorColumn vectorColumn(Vectorizer v) {
      return v.column(column, RowReader.DOUBLE);
    }

    @Override
    VectorFilter.Part values(VectorColumn c, int valueOp) {
      return doubleValues(c, valueOp, k);
    }

    @Override
    String constant() {
      return k + ":double";
    }
  }

  /** An integer column against a floating-point constant, exactly. */
  private static final class LongDoubleConstant extends ColumnComparison {
    private final double k;

    LongDoubleConstant(int column, int op, double k) {
      super(column, op);
      this.k = k;
    }

    @Override
    int compare(RowReader row) {
      return compareLongDouble(row.getLong(column), k);
    }

    @Override
    VectorColumn vectorColumn(Vectorizer v) {
      return v.column(column, RowReader.LONG);
    }

    @Override
    VectorFilter.Part values(VectorColumn c, int valueOp) {
      if (Double.isNaN(k) || k >= 0x1p63) {
        return longValues(c, valueOp, Long.MAX_VALUE, -1); // above every long
      }
      if (k < -0x1p63) {
        return longValues(c, valueOp, Long.MIN_VALUE, 1); // below every long
      }
      long t = (long) k; // truncated toward zero, exact in this range
      return longValues(c, valueOp, t, compareLongDouble(t, k));
    }

    @Override
    String constant() {
      return k + ":double";
    }
  }

  /** A floating-point column against an integer constant, exactly. */
  private static final class DoubleLongConstant extends ColumnComparison {
    private final long k;

    DoubleLongConstant(int column, int op, long k) {
      super(column, op);
      this.k = k;
    }

    @Override
    int compare(RowReader row) {
      return -compareLongDouble(k, row.getDouble(column));
    }

    @Override
    VectorColumn vectorColumn(Vectorizer v) {
      return v.column(column, RowReader.DOUBLE);
    }

    @Override
    VectorFilter.Part values(VectorColumn c, int valueOp) {
      double d = k; // the nearest double
      int sign = compareLongDouble(k, d);
      if (sign == 0) {
        return doubleValues(c, valueOp, d); // k is a double
      }
      // k lies strictly between two adjacent doubles: below (v < k iff v <= below) and the next
      double below = sign > 0 ? d : Math.nextDown(d);
      double inf = Double.POSITIVE_INFINITY;
      return switch (valueOp) {
        case EQ -> none(c);
        case NE -> notNull(c);
        case LT, LE -> VectorFilter.doubleValues(c, -inf, below, false);
        default -> VectorFilter.doubleValues(c, -inf, below, true); // GT, GE: NaN too
      };
    }

    @Override
    String constant() {
      return k + ":long";
    }
  }

  /** A DECIMAL (or integer) column against a decimal {@code unscaled * 10^-scale}. */
  private static final class DecimalConstant extends ColumnComparison {
    private final boolean integerColumn;
    private final long unscaled;
    private final int scale;
    private final BigDecimal k;

    DecimalConstant(int column, int op, boolean integerColumn, long unscaled, int scale) {
      super(column, op);
      this.integerColumn = integerColumn;
      this.unscaled = unscaled;
      this.scale = scale;
      this.k = BigDecimal.valueOf(unscaled, scale);
    }

    @Override
    int compare(RowReader row) {
      if (integerColumn) {
        return compareDecimals(row.getLong(column), 0, unscaled, scale);
      }
      if (row.decimalFitsLong(column)) {
        return compareDecimals(row.getUnscaledLong(column), row.getScale(column), unscaled, scale);
      }
      return row.getDecimal(column).compareTo(k); // beyond a long: allocates
    }

    /** An integer column as longs; a DECIMAL one unscaled at its declared scale. */
    @Override
    VectorColumn vectorColumn(Vectorizer v) {
      return v.column(column, integerColumn ? RowReader.LONG : RowReader.DECIMAL_AT_SCALE);
    }

    /** The constant placed among the column's unscaled values, exactly. */
    @Override
    VectorFilter.Part values(VectorColumn c, int valueOp) {
      int columnScale = c.scale();
      long shift = (long) columnScale - scale; // digits the constant gains at the column's scale
      if (shift >= 0) {
        if (unscaled == 0 || shift == 0) {
          return longValues(c, valueOp, unscaled, 0);
        }
        if (shift <= 18) {
          long p = POWERS_OF_TEN[(int) shift];
          long high = Math.multiplyHigh(unscaled, p);
          long low = unscaled * p;
          if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
            return longValues(c, valueOp, low, 0);
          }
        }
        // beyond the long range at the column's scale
        return unscaled > 0
            ? longValues(c, valueOp, Long.MAX_VALUE, -1)
            : longValues(c, valueOp, Long.MIN_VALUE, 1);
      }
      // more digits than the column: truncated toward zero to t, the rest decides v == t
      long t = -shift > 18 ? 0 : unscaled / POWERS_OF_TEN[(int) -shift];
      return longValues(c, valueOp, t, compareDecimals(t, columnScale, unscaled, scale));
    }

    @Override
    String constant() {
      return k.toPlainString() + ":decimal";
    }
  }

  private static final class TimestampConstant extends ColumnComparison {
    private final long seconds;
    private final int nanos;

    TimestampConstant(int column, int op, long seconds, int nanos) {
      super(column, op);
      this.seconds = seconds;
      this.nanos = nanos;
    }

    @Override
    int compare(RowReader row) {
      int c = Long.compare(row.getEpochSecond(column), seconds);
      return c != 0 ? c : Integer.compare(row.getNano(column), nanos);
    }

    @Override
    String constant() {
      return seconds + "s" + nanos + "ns:timestamp";
    }
  }

  /** A string or VARBINARY column against constant bytes, without decoding. */
  private static final class BytesConstant extends ColumnComparison {
    private final byte[] k;
    private final boolean ignoreTrailingSpaces;

    BytesConstant(int column, int op, byte[] k, boolean ignoreTrailingSpaces) {
      super(column, op);
      this.k = k;
      this.ignoreTrailingSpaces = ignoreTrailingSpaces;
    }

    @Override
    int compare(RowReader row) {
      return row.compareBytes(column, k, ignoreTrailingSpaces);
    }

    /**
     * Equalities only (the longs of short bytes do not order as the bytes do): the column's bytes
     * as one long each, trimmed of trailing spaces when the comparison ignores them (a CHAR's).
     */
    @Override
    VectorColumn vectorColumn(Vectorizer v) {
      boolean equality = op == EQ || op == NE || op == DISTINCT || op == NOT_DISTINCT;
      return equality ? v.bytesColumn(column, ignoreTrailingSpaces) : null;
    }

    @Override
    VectorFilter.Part values(VectorColumn c, int valueOp) {
      if (k.length > 7) {
        if (c.kind() == VectorColumn.SHORT_CHARS) {
          return VectorFilter.longString(c, k, valueOp == NE); // among the vector's long strings
        }
        // no value that fits a long has these bytes; the others are read row by row
        return valueOp == EQ ? none(c) : notNull(c);
      }
      return longValues(c, valueOp, VectorColumn.shortBytesOf(k), 0);
    }

    @Override
    String constant() {
      return "[" + k.length + " bytes]" + (ignoreTrailingSpaces ? ":char" : "");
    }
  }

  /** Whether a string value column's bytes begin with {@code prefix} ({@code negate}: do not). */
  private static final class BytesPrefix extends Node {
    private final int column;
    private final byte[] prefix;
    private final boolean negate;

    BytesPrefix(int column, byte[] prefix, boolean negate) {
      this.column = column;
      this.prefix = prefix;
      this.negate = negate;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      if (row.isNull(column)) {
        return UNKNOWN;
      }
      return row.startsWithBytes(column, prefix) != negate ? TRUE : FALSE;
    }

    @Override
    public String toString() {
      return "#" + column + (negate ? " NOT" : "") + " STARTS WITH [" + prefix.length + " bytes]";
    }
  }

  /** LIKE of a VARCHAR value column with a pattern of literal runs and {@code %} (see like). */
  private static final class BytesLike extends Node {
    private final int column;
    private final byte[][] runs;
    private final boolean anchoredStart;
    private final boolean anchoredEnd;

    private BytesLike(int column, byte[][] runs, boolean anchoredStart, boolean anchoredEnd) {
      this.column = column;
      this.runs = runs;
      this.anchoredStart = anchoredStart;
      this.anchoredEnd = anchoredEnd;
    }

    static BytesLike of(int column, String pattern) {
      List<byte[]> runs = new ArrayList<>();
      for (String run : pattern.split("%", -1)) {
        if (!run.isEmpty()) {
          runs.add(run.getBytes(UTF_8));
        }
      }
      return new BytesLike(
          column,
          runs.toArray(new byte[0][]),
          !pattern.startsWith("%"),
          pattern.isEmpty() || !pattern.endsWith("%"));
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      if (row.isNull(column)) {
        return UNKNOWN;
      }
      return row.likeBytes(column, runs, anchoredStart, anchoredEnd) ? TRUE : FALSE;
    }

    @Override
    VectorFilter.Part vector(Vectorizer v) {
      return vector(v, false);
    }

    /** The rows for which it is TRUE, or with {@code negate} FALSE (NOT LIKE), over the bytes. */
    VectorFilter.Part vector(Vectorizer v, boolean negate) {
      VectorColumn c = v.valueBytes(column);
      return c == null ? null : VectorFilter.like(c, runs, anchoredStart, anchoredEnd, negate);
    }

    @Override
    public String toString() {
      return "#" + column + " LIKE [" + runs.length + " runs]";
    }
  }

  private static final class ColumnColumn extends Node {
    static final int LONG_LONG = 0;
    static final int LONG_DOUBLE = 1;
    static final int LONG_DECIMAL = 2;
    static final int DOUBLE_LONG = 3;
    static final int DOUBLE_DOUBLE = 4;
    static final int DECIMAL_LONG = 5;
    static final int DECIMAL_DECIMAL = 6;
    static final int TIMESTAMPS = 7;

    /** The mode comparing columns read as {@code a} and {@code b}; -1 when there is none. */
    static int numericMode(Kind a, Kind b) {
      return switch (a) {
        case LONG ->
            switch (b) {
              case LONG -> LONG_LONG;
              case DOUBLE -> LONG_DOUBLE;
              case DECIMAL -> LONG_DECIMAL;
            };
        case DOUBLE ->
            switch (b) {
              case LONG -> DOUBLE_LONG;
              case DOUBLE -> DOUBLE_DOUBLE;
              case DECIMAL -> -1;
            };
        case DECIMAL ->
            switch (b) {
              case LONG -> DECIMAL_LONG;
              case DOUBLE -> -1;
              case DECIMAL -> DECIMAL_DECIMAL;
            };
      };
    }

    private final int a;
    private final int b;
    private final int op;
    private final int mode;

    ColumnColumn(int a, int b, int op, int mode) {
      this.a = a;
      this.b = b;
      this.op = op;
      this.mode = mode;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      boolean nullA = row.isNull(a);
      boolean nullB = row.isNull(b);
      if (nullA || nullB) {
        return switch (op) {
          case DISTINCT -> nullA != nullB ? TRUE : FALSE;
          case NOT_DISTINCT -> nullA == nullB ? TRUE : FALSE;
          default -> UNKNOWN;
        };
      }
      return result(op, compare(row));
    }

    private int compare(RowReader row) {
      return switch (mode) {
        case LONG_LONG -> Long.compare(row.getLong(a), row.getLong(b));
        case LONG_DOUBLE -> compareLongDouble(row.getLong(a), row.getDouble(b));
        case DOUBLE_LONG -> -compareLongDouble(row.getLong(b), row.getDouble(a));
        case DOUBLE_DOUBLE -> Values.compareDoubles(row.getDouble(a), row.getDouble(b));
        case LONG_DECIMAL -> -compareDecimalLong(row, b, row.getLong(a));
        case DECIMAL_LONG -> compareDecimalLong(row, a, row.getLong(b));
        case DECIMAL_DECIMAL -> {
          if (row.decimalFitsLong(a) && row.decimalFitsLong(b)) {
            yield compareDecimals(
                row.getUnscaledLong(a), row.getScale(a), row.getUnscaledLong(b), row.getScale(b));
          }
          yield row.getDecimal(a).compareTo(row.getDecimal(b));
        }
        case TIMESTAMPS -> {
          int c = Long.compare(row.getEpochSecond(a), row.getEpochSecond(b));
          yield c != 0 ? c : Integer.compare(row.getNano(a), row.getNano(b));
        }
        default -> throw new IllegalStateException("Unknown mode " + mode);
      };
    }

    /**
     * Two exact columns whose vectors have one scale (integers, DECIMALs of one declared scale):
     * their longs compare as their values do.
     */
    @Override
    VectorFilter.Part vector(Vectorizer v) {
      if (mode != LONG_LONG
          && mode != LONG_DECIMAL
          && mode != DECIMAL_LONG
          && mode != DECIMAL_DECIMAL) {
        return null;
      }
      VectorColumn ca = v.column(a);
      VectorColumn cb = v.column(b);
      if (ca == null
          || cb == null
          || ca.kind() == RowReader.DOUBLE
          || cb.kind() == RowReader.DOUBLE
          || ca.scale() != cb.scale()) {
        return null;
      }
      VectorFilter.Part values = VectorFilter.longLong(ca, cb, signs(op));
      return switch (op) {
        case DISTINCT ->
            VectorFilter.or(
                List.of(
                    values,
                    VectorFilter.and(
                        List.of(VectorFilter.nulls(ca, true), VectorFilter.nulls(cb, false))),
                    VectorFilter.and(
                        List.of(VectorFilter.nulls(ca, false), VectorFilter.nulls(cb, true)))));
        case NOT_DISTINCT ->
            VectorFilter.or(
                List.of(
                    values,
                    VectorFilter.and(
                        List.of(VectorFilter.nulls(ca, true), VectorFilter.nulls(cb, true)))));
        default -> values;
      };
    }

    private static int compareDecimalLong(RowReader row, int decimalColumn, long x) {
      if (row.decimalFitsLong(decimalColumn)) {
        return compareDecimals(
            row.getUnscaledLong(decimalColumn), row.getScale(decimalColumn), x, 0);
      }
      return row.getDecimal(decimalColumn).compareTo(BigDecimal.valueOf(x));
    }

    @Override
    public String toString() {
      return "#" + a + " " + OPERATORS[op] + " #" + b;
    }
  }

  /** {@code column IN (constants)}: each item a comparison node for {@code =}. */
  private static final class InList extends Node {
    private final int column;
    private final ColumnComparison[] items;
    private final boolean sawNull;

    InList(int column, ColumnComparison[] items, boolean sawNull) {
      this.column = column;
      this.items = items;
      this.sawNull = sawNull;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      if (row.isNull(column)) {
        return UNKNOWN;
      }
      for (ColumnComparison item : items) {
        if (item.compare(row) == 0) {
          return TRUE;
        }
      }
      return sawNull ? UNKNOWN : FALSE;
    }

    @Override
    public String toString() {
      return "#" + column + " IN" + Arrays.toString(items) + (sawNull ? "+NULL" : "");
    }
  }

  /** {@code column IN (constants)} for a column read as a long: a binary search. */
  private static final class InLongs extends Node {
    private final int column;
    private final long[] keys;
    private final boolean sawNull;

    InLongs(int column, long[] keys, boolean sawNull) {
      this.column = column;
      this.keys = keys;
      this.sawNull = sawNull;
    }

    @Override
    int eval(RowReader row, EvalContext context) {
      if (row.isNull(column)) {
        return UNKNOWN;
      }
      if (Arrays.binarySearch(keys, row.getLong(column)) >= 0) {
        return TRUE;
      }
      return sawNull ? UNKNOWN : FALSE;
    }

    /** TRUE only for a value among the keys (a NULL item makes the others UNKNOWN, not TRUE). */
    @Override
    VectorFilter.Part vector(Vectorizer v) {
      VectorColumn c = v.column(column, RowReader.LONG);
      return c == null ? null : VectorFilter.longIn(c, keys);
    }

    @Override
    public String toString() {
      return "#" + column + " IN" + Arrays.toString(keys) + (sawNull ? "+NULL" : "");
    }
  }
}
