package io.cairn.core.encoding;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Generators and the SQL reference order for codec and row-filter tests. */
public final class TestingRows {
  private TestingRows() {}

  public static final List<DataType> KEY_TYPES =
      List.of(
          DataType.BOOLEAN,
          DataType.TINYINT,
          DataType.SMALLINT,
          DataType.INTEGER,
          DataType.BIGINT,
          DataType.FLOAT,
          DataType.DOUBLE,
          DataType.decimal(10, 2),
          DataType.decimal(38, 10),
          DataType.decimal(5, 0),
          DataType.of(TypeName.DECIMAL),
          DataType.chars(3),
          DataType.VARCHAR,
          DataType.VARBINARY,
          DataType.DATE,
          DataType.TIME,
          DataType.TIMESTAMP);

  public static final List<DataType> VALUE_TYPES;

  static {
    List<DataType> types = new ArrayList<>(KEY_TYPES);
    types.add(DataType.of(TypeName.INTERVAL_YEAR_MONTH));
    types.add(DataType.of(TypeName.INTERVAL_DAY_TIME));
    types.add(DataType.NULL);
    VALUE_TYPES = List.copyOf(types);
  }

  private static final List<String> STRING_PIECES =
      List.of("\0", "a", "b", "\u00ff", "\u4e2d", "\uffff", "\ud83d\ude00", "ab\0", "z");

  public static Arbitrary<Object> nonNullValues(DataType type) {
    return switch (type.name()) {
      case BOOLEAN -> Arbitraries.of(true, false).map(v -> v);
      case TINYINT -> Arbitraries.bytes().map(v -> v);
      case SMALLINT -> Arbitraries.shorts().map(v -> v);
      case INTEGER -> Arbitraries.integers().map(v -> v);
      case BIGINT, INTERVAL_DAY_TIME, INTERVAL_YEAR_MONTH -> Arbitraries.longs().map(v -> v);
      case FLOAT ->
          Arbitraries.oneOf(
              Arbitraries.floats().map(v -> (Object) v),
              Arbitraries.of(
                  Float.NaN,
                  -0.0f,
                  0.0f,
                  Float.POSITIVE_INFINITY,
                  Float.NEGATIVE_INFINITY,
                  Float.MIN_VALUE,
                  -Float.MIN_VALUE,
                  Float.MAX_VALUE,
                  -Float.MAX_VALUE,
                  1.0f,
                  -1.0f));
      case DOUBLE ->
          Arbitraries.oneOf(
              Arbitraries.doubles().map(v -> (Object) v),
              Arbitraries.of(
                  Double.NaN,
                  -0.0d,
                  0.0d,
                  Double.POSITIVE_INFINITY,
                  Double.NEGATIVE_INFINITY,
                  Double.MIN_VALUE,
                  -Double.MIN_VALUE,
                  Double.MAX_VALUE,
                  -Double.MAX_VALUE,
                  1.0d,
                  -1.0d));
      case DECIMAL -> decimals(type);
      case CHAR, VARCHAR ->
          Arbitraries.of(STRING_PIECES)
              .list()
              .ofMaxSize(5)
              .map(pieces -> (Object) String.join("", pieces));
      case VARBINARY ->
          Arbitraries.oneOf(
                  Arbitraries.of((byte) 0, (byte) 1, (byte) 0x7F, (byte) 0x80, (byte) 0xFF),
                  Arbitraries.bytes())
              .list()
              .ofMaxSize(6)
              .map(
                  list -> {
                    byte[] bytes = new byte[list.size()];
                    for (int i = 0; i < bytes.length; i++) {
                      bytes[i] = list.get(i);
                    }
                    return (Object) bytes;
                  });
      case DATE ->
          Arbitraries.oneOf(
              Arbitraries.integers().map(d -> (Object) LocalDate.ofEpochDay(d)),
              Arbitraries.integers()
                  .between(-800_000, 800_000)
                  .map(d -> (Object) LocalDate.ofEpochDay(d)));
      case TIME ->
          Arbitraries.longs()
              .between(0, LocalTime.MAX.toNanoOfDay())
              .map(n -> (Object) LocalTime.ofNanoOfDay(n));
      case TIMESTAMP ->
          Combinators.combine(
                  Arbitraries.longs()
                      .between(
                          LocalDateTime.MIN.toEpochSecond(ZoneOffset.UTC),
                          LocalDateTime.MAX.toEpochSecond(ZoneOffset.UTC)),
                  Arbitraries.integers().between(0, 999_999_999))
              .as((s, n) -> (Object) LocalDateTime.ofEpochSecond(s, n, ZoneOffset.UTC));
      case NULL -> Arbitraries.just(null);
    };
  }

  private static Arbitrary<Object> decimals(DataType type) {
    if (type.precision() == DataType.UNSPECIFIED) {
      return Combinators.combine(
              Arbitraries.bigIntegers()
                  .between(BigInteger.TEN.pow(40).negate(), BigInteger.TEN.pow(40)),
              Arbitraries.integers().between(-50, 50))
          .as((unscaled, scale) -> (Object) new BigDecimal(unscaled, scale));
    }
    BigInteger max = BigInteger.TEN.pow(type.precision()).subtract(BigInteger.ONE);
    Arbitrary<BigInteger> small =
        Arbitraries.bigIntegers().between(BigInteger.valueOf(-1000), BigInteger.valueOf(1000));
    return Arbitraries.oneOf(Arbitraries.bigIntegers().between(max.negate(), max), small)
        .map(unscaled -> (Object) new BigDecimal(unscaled, type.scale()));
  }

  public static Arbitrary<Object> values(DataType type) {
    return nonNullValues(type).injectNull(0.15);
  }

  /** A random layout: 1-4 key columns, 0-4 value columns, with shuffled column positions. */
  public static Arbitrary<RowLayout> layouts() {
    Arbitrary<List<DataType>> keyTypes = Arbitraries.of(KEY_TYPES).list().ofMinSize(1).ofMaxSize(4);
    Arbitrary<List<SortOrder>> orders = Arbitraries.of(SortOrder.class).list().ofSize(4);
    Arbitrary<List<DataType>> valueTypes = Arbitraries.of(VALUE_TYPES).list().ofMaxSize(4);
    Arbitrary<Long> seeds = Arbitraries.longs();
    return Combinators.combine(keyTypes, orders, valueTypes, seeds)
        .as(
            (keys, sortOrders, values, seed) -> {
              List<DataType> all = new ArrayList<>(keys);
              all.addAll(values);
              int n = all.size();
              // a deterministic permutation of column positions
              List<Integer> positions = new ArrayList<>();
              for (int i = 0; i < n; i++) {
                positions.add(i);
              }
              java.util.Collections.shuffle(positions, new java.util.Random(seed));
              RowLayout.ColumnLayout[] columns = new RowLayout.ColumnLayout[n];
              for (int i = 0; i < n; i++) {
                columns[positions.get(i)] = new RowLayout.ColumnLayout(10 + i * 3, all.get(i));
              }
              List<RowLayout.KeyColumn> keyColumns = new ArrayList<>();
              for (int i = 0; i < keys.size(); i++) {
                keyColumns.add(new RowLayout.KeyColumn(positions.get(i), sortOrders.get(i)));
              }
              return new RowLayout(List.of(columns), keyColumns, false, 1);
            });
  }

  public static Arbitrary<Object[]> rows(RowLayout layout) {
    List<Arbitrary<Object>> columns = new ArrayList<>();
    for (RowLayout.ColumnLayout column : layout.columns()) {
      columns.add(values(column.type()));
    }
    return Combinators.combine(columns).as(list -> list.toArray());
  }

  /** SQL comparison of two values of one column, NULL first (ASC). */
  static int compareValues(DataType type, Object a, Object b) {
    if (a == null || b == null) {
      return a == null ? (b == null ? 0 : -1) : 1;
    }
    return switch (type.name()) {
      case FLOAT -> Float.compare(normalize((Float) a), normalize((Float) b));
      case DOUBLE -> Double.compare(normalize((Double) a), normalize((Double) b));
      case CHAR, VARCHAR ->
          Arrays.compareUnsigned(((String) a).getBytes(UTF_8), ((String) b).getBytes(UTF_8));
      case VARBINARY -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
      default -> compareComparable(a, b);
    };
  }

  @SuppressWarnings("unchecked")
  private static int compareComparable(Object a, Object b) {
    return ((Comparable<Object>) a).compareTo(b);
  }

  private static float normalize(float f) {
    return f == 0.0f ? 0.0f : f;
  }

  private static double normalize(double d) {
    return d == 0.0d ? 0.0d : d;
  }

  /** SQL comparison of the key tuples of two rows. */
  static int compareKeys(RowLayout layout, Object[] a, Object[] b) {
    for (RowLayout.KeyColumn key : layout.keyColumns()) {
      DataType type = layout.columnType(key.columnIndex());
      int c = compareValues(type, a[key.columnIndex()], b[key.columnIndex()]);
      if (c != 0) {
        return key.order() == SortOrder.DESC ? -c : c;
      }
    }
    return 0;
  }

  /** Whether a decoded value stands for the original one. */
  public static boolean sameValue(DataType type, Object expected, Object actual, boolean fromKey) {
    if (expected == null || actual == null) {
      return expected == actual;
    }
    return switch (type.name()) {
      case VARBINARY -> Arrays.equals((byte[]) expected, (byte[]) actual);
      case FLOAT -> fromKey ? actual.equals(normalize((Float) expected)) : actual.equals(expected);
      case DOUBLE ->
          fromKey ? actual.equals(normalize((Double) expected)) : actual.equals(expected);
      case DECIMAL ->
          fromKey && type.precision() == DataType.UNSPECIFIED
              ? ((BigDecimal) expected).compareTo((BigDecimal) actual) == 0
              : expected.equals(actual);
      default -> Objects.equals(expected, actual);
    };
  }
}
