package io.cairn.core.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.agg.GroupKey;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.encoding.TestingBuffers;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A join's key-set filter keeps exactly the rows whose key a hash join would match (GroupKey
 * equality: decimals by value at any scale), for random keys and rows, over heap and direct
 * buffers.
 */
class TestKeySetFilter {
  private static final DataType PRICE = DataType.decimal(15, 2);
  private static final DataType ANY_DECIMAL = DataType.of(TypeName.DECIMAL);

  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT),
              new RowLayout.ColumnLayout(2, DataType.INTEGER),
              new RowLayout.ColumnLayout(3, PRICE),
              new RowLayout.ColumnLayout(4, ANY_DECIMAL),
              new RowLayout.ColumnLayout(5, DataType.DATE),
              new RowLayout.ColumnLayout(6, DataType.VARCHAR)),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);

  private final Random random = new Random(20261127);

  @Test
  void integersDecimalsAndDatesMatchAsTheHashJoinDoes() {
    java.util.function.Supplier<Object> ints = () -> random.nextInt(200) - 100;
    check(1, DataType.INTEGER, ints, ints);
    java.util.function.Supplier<Object> longs =
        () -> random.nextBoolean() ? random.nextLong() : (long) random.nextInt(50);
    check(0, DataType.BIGINT, longs, longs);
    java.util.function.Supplier<Object> prices =
        () -> BigDecimal.valueOf(random.nextInt(5000) - 2500, 2);
    check(2, PRICE, prices, prices);
    // keys at a lower scale than the column's (integers) and at a higher one (thousandths, some
    // of them whole cents): the vectors' keys are rescaled to the column's scale
    java.util.function.Supplier<Object> smallPrices =
        () -> BigDecimal.valueOf(random.nextInt(400) - 200, 2);
    check(2, PRICE, () -> BigDecimal.valueOf(random.nextInt(4) - 2), smallPrices);
    check(2, PRICE, () -> BigDecimal.valueOf(random.nextInt(200) * 5 - 500, 3), smallPrices);
    // keys that fit a long at their largest scale; rows of any size and scale
    check(3, ANY_DECIMAL, () -> anyDecimal(false), () -> anyDecimal(true));
    java.util.function.Supplier<Object> days = () -> LocalDate.ofEpochDay(random.nextInt(400));
    check(4, DataType.DATE, days, days);
    // dense keys (held as a bitmap over their range) at both ends of a long, rows at both ends
    // too: a difference from the range's start that overflows must not find a key
    java.util.function.Supplier<Object> top = () -> Long.MAX_VALUE - random.nextInt(100);
    java.util.function.Supplier<Object> ends =
        () -> random.nextBoolean() ? top.get() : Long.MIN_VALUE + random.nextInt(100);
    check(0, DataType.BIGINT, top, ends);
    java.util.function.Supplier<Object> bottom = () -> Long.MIN_VALUE + 1 + random.nextInt(100);
    check(0, DataType.BIGINT, bottom, () -> random.nextBoolean() ? bottom.get() : top.get());
  }

  /** Decimals of scales -3..20, some beyond a long, many numerically equal at other scales. */
  private BigDecimal anyDecimal(boolean big) {
    BigDecimal base = BigDecimal.valueOf(random.nextInt(300) - 150, random.nextInt(4));
    return switch (random.nextInt(big ? 4 : 3)) {
      case 0 -> base.setScale(base.scale() + random.nextInt(17)); // trailing zeros
      case 1 -> base.stripTrailingZeros(); // scales below 0 too
      case 2 -> base;
      default -> new BigDecimal(new BigInteger(80, random), random.nextInt(6));
    };
  }

  private void check(
      int column,
      DataType type,
      java.util.function.Supplier<Object> keyValues,
      java.util.function.Supplier<Object> values) {
    Expr key = new Expr.ColumnRef(column, type);
    List<Object> keys = new ArrayList<>();
    Set<GroupKey> hashed = new HashSet<>();
    for (int i = 0; i < 60; i++) {
      Object k = keyValues.get();
      keys.add(k);
      hashed.add(GroupKey.ofRow(new Object[] {k}));
    }
    keys.add(null); // ignored
    KeySetFilter filter = KeySetFilter.of(key, keys, LAYOUT).orElseThrow();
    RowCodec codec = new RowCodec(LAYOUT);
    RowReader reader = new RowReader(LAYOUT, null);
    int matched = 0;
    int rows = 3000;
    VectorColumn vc = filter.vectorColumn();
    byte[][] status = {new byte[rows]};
    long[][] longs = {new long[rows]};
    boolean[] expectedRows = new boolean[rows];
    for (int i = 0; i < rows; i++) {
      Object v = random.nextInt(20) == 0 ? null : values.get();
      Object[] row = {(long) i, 1, BigDecimal.ONE, BigDecimal.ONE, LocalDate.EPOCH, "x"};
      row[column] = v;
      if (column == 0) {
        row[0] = v == null ? (long) i : v; // the key column is never NULL
        v = row[0];
      }
      boolean expected = v != null && hashed.contains(GroupKey.ofRow(new Object[] {v}));
      matched += expected ? 1 : 0;
      expectedRows[i] = expected;
      for (TestingBuffers.Kind kind : TestingBuffers.Kind.values()) {
        TestingBuffers.reset(reader, codec.encodeKey(row), codec.encodeValue(row), 3, kind);
        assertThat(filter.test(reader)).as("%s of %s over %s", filter, v, kind).isEqualTo(expected);
      }
      if (vc != null) {
        reader.readNumbers(
            new int[] {vc.column()},
            new byte[] {vc.kind()},
            new int[] {vc.scale()},
            status,
            longs,
            new double[1][],
            i);
      }
    }
    assertThat(matched).as("rows that match, of %s", type).isGreaterThan(10);
    assertThat(vc == null).as("vector column of %s", type).isEqualTo(column == 3);
    if (vc != null) {
      checkVectors(filter, status[0], longs[0], expectedRows);
    }
  }

  /**
   * Over the rows of a vector (unfit rows taken out, as a scan reads those one at a time), with all
   * rows and with a selection of every other row, select keeps exactly the rows test keeps.
   */
  private static void checkVectors(
      KeySetFilter filter, byte[] status, long[] longs, boolean[] expected) {
    int n = 0;
    int nulls = 0;
    byte[] s = new byte[status.length];
    long[] x = new long[status.length];
    boolean[] e = new boolean[status.length];
    for (int i = 0; i < status.length; i++) {
      if (status[i] != RowReader.NUMBER_UNFIT) {
        s[n] = status[i];
        x[n] = longs[i];
        e[n] = expected[i];
        nulls += status[i] == RowReader.NUMBER_NULL ? 1 : 0;
        n++;
      }
    }
    NumberVector vector =
        new NumberVector(
            java.util.Arrays.copyOf(s, n), java.util.Arrays.copyOf(x, n), null, nulls, 0);
    int[] out = new int[n];
    int m = filter.select(vector, null, 0, out);
    List<Integer> all = new ArrayList<>();
    List<Integer> everyOther = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (e[i]) {
        all.add(i);
        if (i % 2 == 0) {
          everyOther.add(i);
        }
      }
    }
    assertThat(java.util.Arrays.stream(out, 0, m).boxed().toList()).isEqualTo(all);
    int[] in = new int[(n + 1) / 2];
    for (int i = 0; i < in.length; i++) {
      in[i] = 2 * i;
    }
    m = filter.select(vector, in, in.length, in); // in place
    assertThat(java.util.Arrays.stream(in, 0, m).boxed().toList()).isEqualTo(everyOther);
  }

  @Test
  void declinesWhatItCannotTestExactly() {
    assertThat(KeySetFilter.of(new Expr.ColumnRef(5, DataType.VARCHAR), List.of("a"), LAYOUT))
        .isEmpty();
    Expr plusOne =
        new Expr.Call(
            Op.PLUS,
            List.of(new Expr.ColumnRef(1, DataType.INTEGER), new Expr.Literal(1, DataType.INTEGER)),
            DataType.INTEGER);
    assertThat(KeySetFilter.of(plusOne, List.of(1), LAYOUT)).isEmpty();
    // a key of another class than the column's values
    assertThat(KeySetFilter.of(new Expr.ColumnRef(1, DataType.INTEGER), List.of("1"), LAYOUT))
        .isEmpty();
  }
}
