package io.cairn.core.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.encoding.TestingBuffers;
import io.cairn.core.encoding.TestingRows;
import io.cairn.core.error.CairnException;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link RowFilter} over row bytes agrees with the generic path ({@code ExprCompiler} over {@code
 * RowCodec.decode}) for random layouts, rows and filters: same result, or the same error. Filters
 * are built from the case's seed (jqwik prints the case on failure, the message prints the filter).
 */
public class TestRowFilterProperties {
  private static final LocalDateTime STATEMENT_TIME = LocalDateTime.of(2024, 2, 29, 10, 15, 30);

  record Case(
      RowLayout layout, List<Object[]> rows, long seed, int offset, TestingBuffers.Kind kind) {}

  @Provide
  Arbitrary<Case> cases() {
    return TestingRows.layouts()
        .flatMap(
            layout ->
                Combinators.combine(
                        TestingRows.rows(layout).list().ofMinSize(1).ofMaxSize(4),
                        Arbitraries.longs(),
                        Arbitraries.integers().between(0, 5),
                        Arbitraries.of(TestingBuffers.Kind.class))
                    .as((rows, seed, offset, kind) -> new Case(layout, rows, seed, offset, kind)));
  }

  @Property(tries = 1000)
  void filterAgreesWithTheGenericEvaluator(@ForAll("cases") Case c) {
    Random random = new Random(c.seed());
    for (int i = 0; i < 4; i++) {
      Filters filters = new Filters(random, c.layout(), c.rows());
      Expr filter = filters.filter(3);
      check(c, filter, filters.context());
    }
  }

  @Property
  void integerAgainstDoubleIsExact(@ForAll long x, @ForAll double d) {
    int expected = Integer.signum(Values.compare(x, d));
    assertThat(Integer.signum(RowFilter.compareLongDouble(x, d))).isEqualTo(expected);
  }

  @Property
  void integerAgainstDoubleEdges(@ForAll("edgeLongs") long x, @ForAll("edgeDoubles") double d) {
    integerAgainstDoubleIsExact(x, d);
  }

  @Provide
  Arbitrary<Long> edgeLongs() {
    return Arbitraries.of(
        0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, (1L << 53) + 1, -(1L << 53) - 1, 1L << 62);
  }

  @Provide
  Arbitrary<Double> edgeDoubles() {
    return Arbitraries.of(
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.0,
        -1.0,
        0x1p63,
        -0x1p63,
        0x1p62,
        Math.nextDown(0x1p63),
        (double) ((1L << 53) + 2),
        Double.NaN,
        Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY,
        Double.MIN_VALUE,
        -Double.MAX_VALUE);
  }

  @Property
  void decimalsCompareExactly(
      @ForAll("unscaled") long u1,
      @ForAll("scales") int s1,
      @ForAll("unscaled") long u2,
      @ForAll("scales") int s2) {
    int expected = Integer.signum(BigDecimal.valueOf(u1, s1).compareTo(BigDecimal.valueOf(u2, s2)));
    assertThat(Integer.signum(RowFilter.compareDecimals(u1, s1, u2, s2))).isEqualTo(expected);
  }

  @Provide
  Arbitrary<Long> unscaled() {
    return Arbitraries.oneOf(
        Arbitraries.longs(),
        Arbitraries.longs().between(-1000, 1000),
        Arbitraries.of(0L, Long.MAX_VALUE, Long.MIN_VALUE, 1_000_000_000_000_000_000L));
  }

  @Provide
  Arbitrary<Integer> scales() {
    return Arbitraries.oneOf(
        Arbitraries.integers().between(-20, 40),
        Arbitraries.of(Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MIN_VALUE + 1));
  }

  private static void check(Case c, Expr filter, EvalContext context) {
    RowLayout layout = c.layout();
    String genericCompile = outcome(() -> ExprCompiler.compile(filter) != null);
    String filterCompile = outcome(() -> RowFilter.compile(filter, layout) != null);
    assertThat(filterCompile).as("compiling %s", filter).isEqualTo(genericCompile);
    if (!genericCompile.equals("true")) {
      return;
    }
    RowExpression generic = ExprCompiler.compile(filter);
    RowFilter unbound = RowFilter.compile(filter, layout);
    RowFilter bound = unbound.bind(context);
    RowCodec codec = new RowCodec(layout);
    RowReader reader = new RowReader(layout, null);
    for (Object[] row : c.rows()) {
      Bytes key = codec.encodeKey(row);
      Bytes value = codec.encodeValue(row);
      String expected =
          outcome(() -> Boolean.TRUE.equals(generic.evaluate(codec.decode(key, value), context)));
      TestingBuffers.reset(reader, key, value, c.offset(), c.kind());
      String actualBound = outcome(() -> bound.test(reader, context));
      String actualUnbound = outcome(() -> unbound.test(reader, context));
      String what =
          "filter "
              + filter
              + "\n compiled "
              + bound
              + "\n row "
              + Arrays.deepToString(row)
              + "\n context "
              + context;
      assertThat(actualBound).as(what).isEqualTo(expected);
      assertThat(actualUnbound).as("unbound " + what).isEqualTo(expected);
    }
  }

  private static String outcome(Supplier<Boolean> evaluation) {
    try {
      return String.valueOf(evaluation.get());
    } catch (CairnException e) {
      return "error " + e.errorCode();
    } catch (RuntimeException e) {
      return "error " + e.getClass().getSimpleName();
    }
  }

  /**
   * Random filters of the shapes RowFilter specialises, and some it does not (also used by the wire
   * codec's round-trip tests).
   */
  public static final class Filters {
    private static final Op[] COMPARISONS = {
      Op.EQUALS,
      Op.NOT_EQUALS,
      Op.LESS_THAN,
      Op.LESS_THAN_OR_EQUAL,
      Op.GREATER_THAN,
      Op.GREATER_THAN_OR_EQUAL,
      Op.IS_DISTINCT_FROM,
      Op.IS_NOT_DISTINCT_FROM
    };
    private static final Op[] TRUTH = {
      Op.IS_TRUE, Op.IS_NOT_TRUE, Op.IS_FALSE, Op.IS_NOT_FALSE, Op.IS_NULL, Op.IS_NOT_NULL
    };
    private static final List<DataType> NUMERIC_TYPES =
        List.of(
            DataType.TINYINT,
            DataType.SMALLINT,
            DataType.INTEGER,
            DataType.BIGINT,
            DataType.FLOAT,
            DataType.DOUBLE,
            DataType.of(TypeName.DECIMAL),
            DataType.decimal(10, 2),
            DataType.decimal(19, 0),
            DataType.decimal(38, 10),
            DataType.decimal(5, 0),
            DataType.decimal(3, 3));
    private static final List<Object> NUMBERS =
        List.of(
            0,
            -1,
            1,
            127,
            -128,
            32767,
            Integer.MAX_VALUE,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            1_000_000_000_000_000_000L,
            -1_000_000_000_000_000_000L,
            1.5,
            -2.25,
            Double.NaN,
            -0.0,
            0.0f,
            Double.POSITIVE_INFINITY,
            1e300,
            new BigDecimal("12345678901234567890.123"),
            new BigDecimal("1E+18"),
            new BigDecimal("1000000000000000000"),
            new BigDecimal("0.001"),
            new BigDecimal("-12.50"),
            new BigDecimal("1.50"));
    private static final List<String> STRINGS =
        List.of("", "a", "ab", "ab ", "a\0", "\u4e2d", "z", "\ud83d\ude00");

    private final Random random;
    private final RowLayout layout;
    private final List<Object[]> rows;
    private final List<Object> parameters = new ArrayList<>();

    public Filters(Random random, RowLayout layout, List<Object[]> rows) {
      this.random = random;
      this.layout = layout;
      this.rows = rows;
    }

    public EvalContext context() {
      return new EvalContext(parameters.toArray(), STATEMENT_TIME);
    }

    public Expr filter(int depth) {
      if (depth == 0) {
        return leaf();
      }
      return switch (random.nextInt(8)) {
        case 0, 1 -> call(Op.AND, DataType.BOOLEAN, children(depth));
        case 2 -> call(Op.OR, DataType.BOOLEAN, children(depth));
        case 3 -> call(Op.NOT, DataType.BOOLEAN, filter(depth - 1));
        case 4 -> call(pick(TRUTH), DataType.BOOLEAN, filter(depth - 1));
        default -> leaf();
      };
    }

    private Expr[] children(int depth) {
      Expr[] children = new Expr[2 + random.nextInt(2)];
      for (int i = 0; i < children.length; i++) {
        children[i] = filter(depth - 1);
      }
      return children;
    }

    private Expr leaf() {
      int column = random.nextInt(layout.columnCount());
      DataType type = layout.columnType(column);
      Expr operand = columnOperand(column, type);
      switch (random.nextInt(12)) {
        case 0:
          return call(
              random.nextBoolean() ? Op.IS_NULL : Op.IS_NOT_NULL, DataType.BOOLEAN, operand);
        case 1:
          if (type.name() == TypeName.BOOLEAN) {
            return new Expr.ColumnRef(column, type);
          }
          break;
        case 2:
          {
            List<Expr> operands = new ArrayList<>();
            operands.add(operand);
            int n = random.nextInt(5);
            for (int i = 0; i < n; i++) {
              operands.add(constant(column, operand.type()));
            }
            return new Expr.Call(Op.IN, operands, DataType.BOOLEAN);
          }
        case 3:
          {
            int other = random.nextInt(layout.columnCount());
            Expr right = columnOperand(other, layout.columnType(other));
            return call(pick(COMPARISONS), DataType.BOOLEAN, operand, right);
          }
        case 4:
          return fallback(column, type);
        case 5:
          return new Expr.Literal(
              random.nextInt(3) == 0 ? null : Boolean.valueOf(random.nextBoolean()),
              DataType.BOOLEAN);
        default:
          break;
      }
      Expr k = constant(column, operand.type());
      return random.nextBoolean()
          ? call(pick(COMPARISONS), DataType.BOOLEAN, operand, k)
          : call(pick(COMPARISONS), DataType.BOOLEAN, k, operand);
    }

    /** Shapes without a primitive path. */
    private Expr fallback(int column, DataType type) {
      Expr ref = new Expr.ColumnRef(column, type);
      if (type.name().isString() && random.nextBoolean()) {
        return call(Op.LIKE, DataType.BOOLEAN, ref, literal("a%", DataType.VARCHAR));
      }
      if (type.name().isExactInteger() || type.name() == TypeName.DOUBLE) {
        DataType result = type.name() == TypeName.DOUBLE ? DataType.DOUBLE : DataType.BIGINT;
        Expr plus = call(Op.PLUS, result, ref, literal(1, DataType.INTEGER));
        return call(pick(COMPARISONS), DataType.BOOLEAN, plus, constant(column, type));
      }
      Expr text = call(Op.CAST, DataType.VARCHAR, ref);
      return call(Op.EQUALS, DataType.BOOLEAN, text, literal("1", DataType.VARCHAR));
    }

    /** The column, or the column under a CAST (which may or may not keep every value). */
    private Expr columnOperand(int column, DataType type) {
      Expr ref = new Expr.ColumnRef(column, type);
      if (random.nextInt(5) != 0) {
        return ref;
      }
      if (type.name().isNumeric()) {
        return call(Op.CAST, pick(NUMERIC_TYPES), ref);
      }
      return call(Op.CAST, random.nextBoolean() ? type : DataType.VARCHAR, ref);
    }

    /** A literal, parameter or statement constant to compare with a column of this type. */
    private Expr constant(int column, DataType type) {
      Object v = random.nextBoolean() ? rowValue(column) : edgeValue(type);
      DataType kType = constantType(type, v);
      if (v != null && kType.name() != TypeName.NULL) {
        try {
          v = Values.cast(v, kType);
        } catch (CairnException e) {
          kType = naturalType(v);
        }
      }
      switch (random.nextInt(10)) {
        case 0:
          return new Expr.Literal(null, random.nextBoolean() ? DataType.NULL : type);
        case 1, 2:
          return parameter(v, kType);
        case 3:
          return statementConstant(type, v, kType);
        default:
          return new Expr.Literal(v, kType);
      }
    }

    private Expr parameter(Object v, DataType type) {
      if (type.name() == TypeName.NULL) {
        type = DataType.VARCHAR;
      }
      Object bound = v;
      int how = random.nextInt(6);
      if (how == 0 && v != null) {
        bound = Values.toText(v); // converted by the parameter's CAST
      } else if (how == 1) {
        bound = "x"; // fails to convert for most types
      } else if (how == 2 && v instanceof Number n) {
        bound = Long.valueOf(n.longValue());
      }
      int index = parameters.size();
      parameters.add(bound);
      // now and then a parameter that is never set
      Expr param = new Expr.Param(random.nextInt(20) == 0 ? index + 100 : index, type);
      return random.nextInt(5) == 0 ? call(Op.CAST, type, param) : param;
    }

    private Expr statementConstant(DataType columnType, Object v, DataType kType) {
      return switch (columnType.name()) {
        case DATE -> call(Op.CURRENT_DATE, DataType.DATE);
        case TIMESTAMP -> call(Op.LOCALTIMESTAMP, DataType.TIMESTAMP);
        case TIME -> call(Op.CURRENT_TIME, DataType.TIME);
        default ->
            kType.name().isNumeric()
                ? call(Op.NEGATE, kType, new Expr.Literal(v, kType))
                : new Expr.Literal(v, kType);
      };
    }

    private DataType constantType(DataType columnType, Object v) {
      TypeName t = columnType.name();
      if (t.isNumeric() || t.isInterval()) {
        return random.nextInt(4) == 0 && v != null ? naturalType(v) : pick(NUMERIC_TYPES);
      }
      if (t.isString()) {
        int r = random.nextInt(5);
        if (r == 0 && v instanceof String s) {
          return DataType.chars(Math.max(1, s.length()));
        }
        return r == 1 ? DataType.INTEGER : DataType.VARCHAR;
      }
      if (t == TypeName.DATE && random.nextInt(4) == 0) {
        return DataType.TIMESTAMP;
      }
      return random.nextInt(15) == 0 ? DataType.INTEGER : columnType;
    }

    private Object rowValue(int column) {
      return rows.get(random.nextInt(rows.size()))[column];
    }

    private Object edgeValue(DataType type) {
      return switch (type.name()) {
        case BOOLEAN -> random.nextBoolean();
        case CHAR, VARCHAR -> pick(STRINGS);
        case VARBINARY -> new byte[] {0, (byte) random.nextInt(256)};
        case DATE -> LocalDate.ofEpochDay(random.nextInt(40_000) - 20_000);
        case TIME -> LocalTime.ofSecondOfDay(random.nextInt(86_400));
        case TIMESTAMP ->
            random.nextBoolean()
                ? STATEMENT_TIME
                : LocalDateTime.of(1969, 12, 31, 23, 59, 59, random.nextInt(1_000_000_000));
        case NULL -> null;
        default -> pick(NUMBERS);
      };
    }

    private static DataType naturalType(Object v) {
      if (v instanceof BigDecimal d) {
        int precision = Math.max(d.precision(), Math.max(d.scale(), 1));
        return d.scale() >= 0 && precision <= 38
            ? DataType.decimal(precision, d.scale())
            : DataType.of(TypeName.DECIMAL);
      }
      if (v instanceof Byte) {
        return DataType.TINYINT;
      }
      if (v instanceof Short) {
        return DataType.SMALLINT;
      }
      if (v instanceof Integer) {
        return DataType.INTEGER;
      }
      if (v instanceof Long) {
        return DataType.BIGINT;
      }
      if (v instanceof Float) {
        return DataType.FLOAT;
      }
      if (v instanceof Double) {
        return DataType.DOUBLE;
      }
      if (v instanceof String) {
        return DataType.VARCHAR;
      }
      if (v instanceof LocalDate) {
        return DataType.DATE;
      }
      if (v instanceof LocalTime) {
        return DataType.TIME;
      }
      if (v instanceof LocalDateTime) {
        return DataType.TIMESTAMP;
      }
      if (v instanceof Boolean) {
        return DataType.BOOLEAN;
      }
      if (v instanceof byte[]) {
        return DataType.VARBINARY;
      }
      return DataType.NULL;
    }

    private static Expr literal(Object v, DataType type) {
      return new Expr.Literal(v, type);
    }

    private static Expr call(Op op, DataType type, Expr... operands) {
      return new Expr.Call(op, List.of(operands), type);
    }

    private <T> T pick(T[] values) {
      return values[random.nextInt(values.length)];
    }

    private <T> T pick(List<T> values) {
      return values.get(random.nextInt(values.size()));
    }
  }
}
