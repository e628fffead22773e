package io.cairn.core.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.encoding.TestingBuffers;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowNumber} over row bytes agrees with the generic path ({@link ExprCompiler} over the
 * decoded row): the same value at the same scale, or NULL, or it hands the row to the generic path
 * (which then computes the value or reports the error).
 */
class TestRowNumber {
  /**
   * ID BIGINT key; P DECIMAL(15,2), D DECIMAL(10,4), C DECIMAL(18,0), I INTEGER, L BIGINT, F
   * DOUBLE.
   */
  private static final List<DataType> TYPES =
      List.of(
          DataType.BIGINT,
          DataType.decimal(15, 2),
          DataType.decimal(10, 4),
          DataType.decimal(18, 0),
          DataType.INTEGER,
          DataType.BIGINT,
          DataType.DOUBLE);

  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, TYPES.get(0)),
              new RowLayout.ColumnLayout(2, TYPES.get(1)),
              new RowLayout.ColumnLayout(3, TYPES.get(2)),
              new RowLayout.ColumnLayout(4, TYPES.get(3)),
              new RowLayout.ColumnLayout(5, TYPES.get(4)),
              new RowLayout.ColumnLayout(6, TYPES.get(5)),
              new RowLayout.ColumnLayout(7, TYPES.get(6))),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  private static final RowCodec CODEC = new RowCodec(LAYOUT);

  @Test
  void agreesWithTheGenericPathOnRandomRowsAndExpressions() {
    Random random = new Random(20261127);
    int values = 0;
    int generic = 0;
    for (int i = 0; i < 4000; i++) {
      Expr expr = exact(random, 3);
      RowNumber number = RowNumber.compile(expr, LAYOUT);
      if (number == null) {
        continue;
      }
      for (int r = 0; r < 4; r++) {
        Object[] row = row(random);
        TestingBuffers.Kind kind =
            TestingBuffers.Kind.values()[r % TestingBuffers.Kind.values().length];
        switch (check(expr, number, row, kind)) {
          case RowNumber.VALUE -> values++;
          case RowNumber.GENERIC -> generic++;
          default -> {}
        }
      }
    }
    // the fast path takes most rows: the comparison above is not vacuous
    assertThat(values).isGreaterThan(4 * generic).isGreaterThan(5000);
  }

  @Test
  void roundsHalfUpAwayFromZeroIntoTheResultScale() {
    // D * D is exact at scale 8; DECIMAL(18,4) rounds it
    Expr d = column(2);
    Expr product = call(Op.TIMES, d, d, DataType.decimal(18, 4));
    for (String v : List.of("0.0005", "-0.0005", "1.2345", "-1.2345", "0.0071", "-0.0071")) {
      Object[] row = {1L, null, new BigDecimal(v), null, null, null, null};
      RowNumber number = RowNumber.compile(product, LAYOUT);
      assertThat(check(product, number, row, TestingBuffers.Kind.HEAP)).isEqualTo(RowNumber.VALUE);
    }
  }

  @Test
  void leavesAnOverflowToTheGenericPathWhichReportsIt() {
    Expr c = column(3);
    Expr product = call(Op.TIMES, c, c, DataType.decimal(18, 0));
    Object[] row = {1L, null, null, new BigDecimal("100000000000"), null, null, null};
    RowNumber number = RowNumber.compile(product, LAYOUT);
    RowReader reader = reader(row, TestingBuffers.Kind.HEAP);
    assertThat(number.eval(reader)).isEqualTo(RowNumber.GENERIC);
    assertThatThrownBy(
            () -> ExprCompiler.compile(product).evaluate(CODEC.decode(key(row), value(row)), null))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_OUT_OF_RANGE));
  }

  @Test
  void nullOperandsMakeNull() {
    Expr sum = call(Op.PLUS, column(1), column(4), DataType.decimal(18, 2));
    Object[] row = {1L, new BigDecimal("1.50"), null, null, null, null, null};
    assertThat(check(sum, RowNumber.compile(sum, LAYOUT), row, TestingBuffers.Kind.DIRECT))
        .isEqualTo(RowNumber.NULL);
  }

  @Test
  void refusesWhatItDoesNotKeepExactly() {
    // division, an exact scale past 18 digits, a DECIMAL without precision, DOUBLE and exact mixed
    assertThat(
            RowNumber.compile(
                call(Op.DIVIDE, column(1), column(2), DataType.decimal(18, 6)), LAYOUT))
        .isNull();
    assertThat(
            RowNumber.compile(
                call(
                    Op.TIMES,
                    call(Op.TIMES, column(2), column(2), DataType.decimal(21, 8)),
                    call(
                        Op.TIMES,
                        call(Op.TIMES, column(2), column(2), DataType.decimal(21, 8)),
                        column(2),
                        DataType.decimal(31, 12)),
                    DataType.decimal(38, 18)),
                LAYOUT))
        .isNull();
    assertThat(
            RowNumber.compile(
                call(Op.PLUS, column(1), column(2), DataType.of(TypeName.DECIMAL)), LAYOUT))
        .isNull();
    // a DOUBLE mixed with an exact operand
    assertThat(RowNumber.compile(call(Op.TIMES, column(6), column(1), DataType.DOUBLE), LAYOUT))
        .isNull();
  }

  @Test
  void doublesAgree() {
    Random random = new Random(7);
    Expr f = column(6);
    Expr expr =
        call(
            Op.MINUS,
            call(Op.TIMES, f, f, DataType.DOUBLE),
            new Expr.Literal(0.5d, DataType.DOUBLE),
            DataType.DOUBLE);
    RowNumber number = RowNumber.compile(expr, LAYOUT);
    assertThat(number.floating()).isTrue();
    for (int i = 0; i < 200; i++) {
      Object[] row = row(random);
      check(expr, number, row, TestingBuffers.Kind.HEAP);
    }
  }

  /**
   * {@link RowNumber#evalBatch} over a {@link NumberBatch} gives every row the status and value
   * {@link RowNumber#eval} gives it, for random exact and floating trees, two trees sharing one
   * batch (and so their columns), batches of random sizes up to the capacity.
   */
  @Test
  void batchesAgreeWithRowAtATime() {
    Random random = new Random(20261128);
    int values = 0;
    int generic = 0;
    int trees = 0;
    while (trees < 300) {
      Expr[] exprs = {tree(random), tree(random)};
      RowNumber[] batched = new RowNumber[2];
      RowNumber[] single = new RowNumber[2];
      boolean compiled = true;
      for (int t = 0; t < 2; t++) {
        batched[t] = RowNumber.compile(exprs[t], LAYOUT);
        single[t] = RowNumber.compile(exprs[t], LAYOUT);
        compiled &= batched[t] != null;
      }
      if (!compiled) {
        continue;
      }
      trees++;
      NumberBatch batch = new NumberBatch(List.of(batched), LAYOUT.columnCount());
      for (int round = 0; round < 2; round++) { // a second batch reuses the nodes' vectors
        int n = 1 + random.nextInt(random.nextBoolean() ? 8 : NumberBatch.CAPACITY);
        int[][] status = new int[2][n];
        long[][] exact = new long[2][n];
        double[][] floating = new double[2][n];
        for (int i = 0; i < n; i++) {
          Object[] row = row(random);
          RowReader reader =
              reader(row, TestingBuffers.Kind.values()[i % TestingBuffers.Kind.values().length]);
          batch.read(reader, i);
          for (int t = 0; t < 2; t++) {
            status[t][i] = single[t].eval(reader);
            exact[t][i] = single[t].value;
            floating[t][i] = single[t].doubleValue;
          }
        }
        for (int t = 0; t < 2; t++) {
          RowNumber number = batched[t];
          number.evalBatch(batch, n);
          for (int i = 0; i < n; i++) {
            assertThat((int) number.batchStatus[i])
                .as("%s row %s", exprs[t], i)
                .isEqualTo(status[t][i]);
            if (status[t][i] == RowNumber.VALUE) {
              values++;
              if (number.floating()) {
                assertThat(number.batchDoubles[i]).isEqualTo(floating[t][i]);
              } else {
                assertThat(number.batchValues[i])
                    .as("%s row %s", exprs[t], i)
                    .isEqualTo(exact[t][i]);
              }
            } else if (status[t][i] == RowNumber.GENERIC) {
              generic++;
            }
          }
        }
      }
    }
    assertThat(values).isGreaterThan(10_000);
    assertThat(generic).isGreaterThan(100); // the GENERIC rows are compared too
  }

  /** An exact tree mostly, sometimes a floating one. */
  private static Expr tree(Random random) {
    if (random.nextInt(5) > 0) {
      return exact(random, 3);
    }
    Expr f = column(6);
    Expr other =
        random.nextBoolean() ? f : new Expr.Literal(random.nextGaussian(), DataType.DOUBLE);
    Op op = List.of(Op.PLUS, Op.MINUS, Op.TIMES).get(random.nextInt(3));
    return call(op, f, other, DataType.DOUBLE);
  }

  /** Checks one row; returns the status. */
  private static int check(Expr expr, RowNumber number, Object[] row, TestingBuffers.Kind kind) {
    RowReader reader = reader(row, kind);
    int status = number.eval(reader);
    Object expected;
    try {
      expected = ExprCompiler.compile(expr).evaluate(CODEC.decode(key(row), value(row)), null);
    } catch (CairnException e) {
      assertThat(status)
          .as("%s over %s failed with %s", expr, java.util.Arrays.asList(row), e)
          .isEqualTo(RowNumber.GENERIC);
      return status;
    }
    switch (status) {
      case RowNumber.NULL -> assertThat(expected).as("%s", expr).isNull();
      case RowNumber.VALUE -> {
        if (number.floating()) {
          assertThat(number.doubleValue).as("%s", expr).isEqualTo((Double) expected);
        } else if (expected instanceof BigDecimal d) {
          assertThat(BigDecimal.valueOf(number.value, number.scale()))
              .as("%s over %s", expr, java.util.Arrays.asList(row))
              .isEqualTo(d);
        } else {
          assertThat(number.scale()).isZero();
          assertThat(number.value).as("%s", expr).isEqualTo(((Number) expected).longValue());
        }
      }
      default -> assertThat(status).isEqualTo(RowNumber.GENERIC);
    }
    return status;
  }

  private static RowReader reader(Object[] row, TestingBuffers.Kind kind) {
    RowReader reader = new RowReader(LAYOUT, null);
    TestingBuffers.reset(reader, CODEC.encodeKey(row), CODEC.encodeValue(row), 3, kind);
    return reader;
  }

  private static io.cairn.core.bytes.Bytes key(Object[] row) {
    return CODEC.encodeKey(row);
  }

  private static io.cairn.core.bytes.Bytes value(Object[] row) {
    return CODEC.encodeValue(row);
  }

  private static Object[] row(Random random) {
    return new Object[] {
      random.nextLong(),
      random.nextInt(10) == 0 ? null : decimal(random, 15, 2),
      random.nextInt(10) == 0 ? null : decimal(random, 10, 4),
      random.nextInt(10) == 0 ? null : decimal(random, 18, 0),
      random.nextInt(10) == 0 ? null : small(random, Integer.MAX_VALUE),
      random.nextInt(10) == 0 ? null : (long) small(random, Integer.MAX_VALUE) * 1000,
      random.nextInt(10) == 0 ? null : random.nextGaussian() * 1000
    };
  }

  /** Mostly small magnitudes, sometimes near the type's limit. */
  private static int small(Random random, int max) {
    return switch (random.nextInt(4)) {
      case 0 -> max - random.nextInt(3);
      case 1 -> -max + random.nextInt(3);
      default -> random.nextInt(2001) - 1000;
    };
  }

  private static BigDecimal decimal(Random random, int precision, int scale) {
    int digits = random.nextInt(4) == 0 ? precision : 1 + random.nextInt(Math.min(precision, 6));
    BigInteger unscaled = new BigInteger(digits * 4, random).mod(BigInteger.TEN.pow(digits));
    if (random.nextBoolean()) {
      unscaled = unscaled.negate();
    }
    return new BigDecimal(unscaled, scale);
  }

  /** A random exact expression whose type follows SQL's usual rules, capped at 18 digits. */
  private static Expr exact(Random random, int depth) {
    if (depth == 0 || random.nextInt(3) == 0) {
      return switch (random.nextInt(6)) {
        case 0 -> new Expr.Literal(1, DataType.INTEGER);
        case 1 -> new Expr.Literal(new BigDecimal("0.05"), DataType.decimal(3, 2));
        default -> column(1 + random.nextInt(5));
      };
    }
    Expr a = exact(random, depth - 1);
    Expr b = exact(random, depth - 1);
    Op op = List.of(Op.PLUS, Op.MINUS, Op.TIMES).get(random.nextInt(3));
    DataType ta = a.type();
    DataType tb = b.type();
    if (isInteger(ta) && isInteger(tb)) {
      return call(op, a, b, random.nextBoolean() ? DataType.BIGINT : DataType.INTEGER);
    }
    int pa = precision(ta);
    int sa = scale(ta);
    int pb = precision(tb);
    int sb = scale(tb);
    int scale;
    int precision;
    if (op == Op.TIMES) {
      scale = sa + sb;
      precision = pa + pb;
    } else {
      scale = Math.max(sa, sb);
      precision = Math.max(pa - sa, pb - sb) + scale + 1;
    }
    if (random.nextInt(3) == 0) {
      scale = Math.max(0, scale - random.nextInt(3)); // rounds
    }
    // mostly 18 digits at most (the result can overflow), sometimes as wide as Calcite types it
    precision = random.nextInt(3) == 0 ? Math.min(precision, 38) : Math.min(precision, 18);
    scale = Math.min(scale, Math.min(precision, 18));
    return call(op, a, b, DataType.decimal(precision, scale));
  }

  private static boolean isInteger(DataType type) {
    return type.name().isExactInteger();
  }

  private static int precision(DataType type) {
    return switch (type.name()) {
      case INTEGER -> 10;
      case BIGINT -> 19;
      default -> type.precision();
    };
  }

  private static int scale(DataType type) {
    return type.name() == TypeName.DECIMAL ? type.scale() : 0;
  }

  private static Expr column(int index) {
    return new Expr.ColumnRef(index, TYPES.get(index));
  }

  private static Expr call(Op op, Expr a, Expr b, DataType type) {
    return new Expr.Call(op, List.of(a, b), type);
  }
}
