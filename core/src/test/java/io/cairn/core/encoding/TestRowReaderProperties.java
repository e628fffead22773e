package io.cairn.core.encoding;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** {@link RowReader} reads what {@link RowCodec#decode} decodes; jqwik prints the seed. */
class TestRowReaderProperties {
  private static final BigInteger TEN_POW_17 = BigInteger.TEN.pow(17);

  /** Rows read one after the other by one reader, with the needed columns and placement. */
  record Case(
      RowLayout layout,
      List<Object[]> rows,
      boolean[] needed,
      int offset,
      TestingBuffers.Kind kind,
      long seed) {}

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<RowLayout> layouts =
        Arbitraries.oneOf(
            TestingRows.layouts(),
            TestingRows.layouts()
                .map(l -> new RowLayout(l.columns(), List.of(), true, l.schemaVersion())));
    return layouts.flatMap(
        layout ->
            Combinators.combine(
                    TestingRows.rows(layout).list().ofMinSize(1).ofMaxSize(3),
                    Arbitraries.of(true, false).list().ofSize(layout.columnCount()).injectNull(0.3),
                    Arbitraries.integers().between(0, 9),
                    Arbitraries.of(TestingBuffers.Kind.class),
                    Arbitraries.longs())
                .as(
                    (rows, needed, offset, kind, seed) ->
                        new Case(layout, rows, toArray(needed), offset, kind, seed)));
  }

  private static boolean[] toArray(List<Boolean> flags) {
    if (flags == null) {
      return null;
    }
    boolean[] out = new boolean[flags.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = flags.get(i);
    }
    return out;
  }

  @Property(tries = 1500)
  void accessorsMatchTheCodec(@ForAll("cases") Case c) {
    RowLayout layout = c.layout();
    RowCodec codec = new RowCodec(layout);
    RowReader reader = new RowReader(layout, c.needed());
    java.util.Random random = new java.util.Random(c.seed());
    int n = layout.columnCount();
    for (int r = 0; r < c.rows().size(); r++) {
      Object[] row = c.rows().get(r);
      Object[] other = c.rows().get((r + 1) % c.rows().size());
      Bytes key = layout.hiddenRowId() ? RowCodec.encodeRowId(r) : codec.encodeKey(row);
      Bytes value = codec.encodeValue(row);
      Object[] expected = codec.decode(key, value);
      ByteBuffer buffer = TestingBuffers.reset(reader, key, value, c.offset() + r, c.kind());
      int position = buffer.position();
      int limit = buffer.limit();

      // columns in a random order: the lazy parsing must not depend on which comes first
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        order.add(i);
      }
      java.util.Collections.shuffle(order, random);
      for (int i : order) {
        checkColumn(reader, layout.columnType(i), i, expected[i], other[i]);
      }

      Object[] into = new Object[n + 1];
      Arrays.fill(into, "stale");
      reader.decodeInto(into);
      Object[] partial = codec.decode(key, value, c.needed());
      for (int i = 0; i < n; i++) {
        boolean needed = c.needed() == null || c.needed()[i];
        assertThat(Objects.deepEquals(into[i], needed ? expected[i] : null))
            .as("decodeInto column %s: %s vs %s", i, into[i], expected[i])
            .isTrue();
        if (needed) {
          assertThat(Objects.deepEquals(into[i], partial[i])).isTrue();
        }
      }
      assertThat(into[n]).isEqualTo("stale");

      int[] some = order.subList(0, random.nextInt(n + 1)).stream().mapToInt(i -> i).toArray();
      Object[] peeked = reader.peekDecodedRow(some);
      for (int i : some) {
        assertThat(Objects.deepEquals(peeked[i], expected[i])).as("peek %s", i).isTrue();
      }
      assertThat(buffer.position()).isEqualTo(position);
      assertThat(buffer.limit()).isEqualTo(limit);
    }
  }

  /**
   * {@link RowReader#readNumbers} reads each numeric column of a row as the single-column accessors
   * do: NULL, the long or double, a DECIMAL rescaled exactly to the scale asked for, or UNFIT when
   * that is not a long (stored at a larger scale, too many digits, or the sentinel Long.MIN_VALUE)
   * or needs a shift of more than 18 digits.
   */
  @Property(tries = 1500)
  void readNumbersMatchesTheAccessors(@ForAll("cases") Case c) {
    RowLayout layout = c.layout();
    RowCodec codec = new RowCodec(layout);
    RowReader numbers = new RowReader(layout, c.needed());
    RowReader single = new RowReader(layout, null);
    java.util.Random random = new java.util.Random(c.seed());
    List<Integer> columns = new ArrayList<>();
    List<Byte> kinds = new ArrayList<>();
    for (int i = 0; i < layout.columnCount(); i++) {
      switch (layout.columnType(i).name()) {
        case DECIMAL -> kinds.add(RowReader.DECIMAL_AT_SCALE);
        case TINYINT,
                SMALLINT,
                INTEGER,
                BIGINT,
                DATE,
                TIME,
                BOOLEAN,
                INTERVAL_YEAR_MONTH,
                INTERVAL_DAY_TIME ->
            kinds.add(RowReader.LONG);
        case FLOAT, DOUBLE -> kinds.add(RowReader.DOUBLE);
        default -> {
          continue;
        }
      }
      columns.add(i);
    }
    int m = columns.size();
    int[] columnArray = columns.stream().mapToInt(i -> i).toArray();
    byte[] kindArray = new byte[m];
    int[] scales = new int[m];
    for (int k = 0; k < m; k++) {
      kindArray[k] = kinds.get(k);
      scales[k] = random.nextInt(21);
    }
    int rows = c.rows().size();
    byte[][] status = new byte[m][rows + 2];
    long[][] longs = new long[m][rows + 2];
    double[][] doubles = new double[m][rows + 2];
    for (int r = 0; r < rows; r++) {
      Object[] row = c.rows().get(r);
      Bytes key = layout.hiddenRowId() ? RowCodec.encodeRowId(r) : codec.encodeKey(row);
      Bytes value = codec.encodeValue(row);
      TestingBuffers.reset(numbers, key, value, c.offset() + r, c.kind());
      TestingBuffers.reset(single, key, value, c.offset(), TestingBuffers.Kind.HEAP);
      int at = r + 1; // not the first position: the row argument must be honoured
      numbers.readNumbers(columnArray, kindArray, scales, status, longs, doubles, at);
      for (int k = 0; k < m; k++) {
        int column = columnArray[k];
        String what = "column " + column + " " + layout.columnType(column) + " row " + r;
        if (single.isNull(column)) {
          assertThat(status[k][at]).as(what).isEqualTo(RowReader.NUMBER_NULL);
          continue;
        }
        switch (kindArray[k]) {
          case RowReader.DECIMAL_AT_SCALE -> {
            Long expected = null;
            // rescaling by more than 18 digits is left to the generic path, even for a zero
            if (single.decimalFitsLong(column)
                && single.getScale(column) <= scales[k]
                && scales[k] - single.getScale(column) <= 18) {
              BigInteger u =
                  BigInteger.valueOf(single.getUnscaledLong(column))
                      .multiply(BigInteger.TEN.pow(scales[k] - single.getScale(column)));
              if (u.bitLength() < 64 && u.longValue() != Long.MIN_VALUE) {
                expected = u.longValue();
              }
            }
            if (expected == null) {
              assertThat(status[k][at]).as(what).isEqualTo(RowReader.NUMBER_UNFIT);
            } else {
              assertThat(status[k][at]).as(what).isEqualTo(RowReader.NUMBER_VALUE);
              assertThat(longs[k][at]).as(what).isEqualTo(expected);
              assertThat(BigDecimal.valueOf(expected, scales[k]))
                  .as(what)
                  .isEqualByComparingTo(single.getDecimal(column));
            }
          }
          case RowReader.LONG -> {
            assertThat(status[k][at]).as(what).isEqualTo(RowReader.NUMBER_VALUE);
            assertThat(longs[k][at]).as(what).isEqualTo(single.getLong(column));
          }
          default -> {
            assertThat(status[k][at]).as(what).isEqualTo(RowReader.NUMBER_VALUE);
            assertThat(Double.doubleToRawLongBits(doubles[k][at]))
                .as(what)
                .isEqualTo(Double.doubleToRawLongBits(single.getDouble(column)));
          }
        }
      }
      // the accessors still read the row after readNumbers
      for (int k = 0; k < m; k++) {
        int column = columnArray[k];
        assertThat(numbers.isNull(column)).isEqualTo(single.isNull(column));
        if (!single.isNull(column) && kindArray[k] == RowReader.LONG) {
          assertThat(numbers.getLong(column)).isEqualTo(single.getLong(column));
        }
      }
    }
  }

  private static void checkColumn(
      RowReader reader, DataType type, int i, Object expected, Object other) {
    String what = "column " + i + " of type " + type + ": " + expected;
    assertThat(reader.isNull(i)).as(what).isEqualTo(expected == null);
    assertThat(Objects.deepEquals(reader.getObject(i), expected)).as(what).isTrue();
    if (KeyEncoding.isKeyType(type.name())) {
      for (SortOrder order : SortOrder.values()) {
        ByteBuilder fast = new ByteBuilder();
        fast.write(7); // not at the builder's start
        reader.appendKey(i, order, fast);
        ByteBuilder slow = new ByteBuilder();
        slow.write(7);
        KeyEncoding.encode(slow, expected, type, order);
        assertThat(fast.toBytes()).as("appendKey %s %s", order, what).isEqualTo(slow.toBytes());
      }
    }
    if (expected == null) {
      return;
    }
    switch (type.name()) {
      case BOOLEAN -> assertThat(reader.getLong(i)).as(what).isEqualTo((Boolean) expected ? 1 : 0);
      case TINYINT, SMALLINT, INTEGER, BIGINT, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME ->
          assertThat(reader.getLong(i)).as(what).isEqualTo(((Number) expected).longValue());
      case DATE ->
          assertThat(reader.getLong(i)).as(what).isEqualTo(((LocalDate) expected).toEpochDay());
      case TIME ->
          assertThat(reader.getLong(i)).as(what).isEqualTo(((LocalTime) expected).toNanoOfDay());
      case FLOAT, DOUBLE ->
          assertThat(Double.valueOf(reader.getDouble(i)))
              .as(what)
              .isEqualTo(Double.valueOf(((Number) expected).doubleValue()));
      case TIMESTAMP -> {
        LocalDateTime t = (LocalDateTime) expected;
        assertThat(reader.getEpochSecond(i)).as(what).isEqualTo(t.toEpochSecond(ZoneOffset.UTC));
        assertThat(reader.getNano(i)).as(what).isEqualTo(t.get(ChronoField.NANO_OF_SECOND));
      }
      case DECIMAL -> {
        BigDecimal d = (BigDecimal) expected;
        assertThat(reader.getDecimal(i)).as(what).isEqualTo(d);
        if (reader.decimalFitsLong(i)) {
          assertThat(BigDecimal.valueOf(reader.getUnscaledLong(i), reader.getScale(i)))
              .as(what)
              .isEqualTo(d);
        } else {
          assertThat(d.unscaledValue().abs()).as(what).isGreaterThanOrEqualTo(TEN_POW_17);
        }
      }
      case CHAR, VARCHAR, VARBINARY -> {
        byte[] bytes = bytes(expected);
        // key (escaped) and value columns hash their plain bytes alike
        assertThat(reader.hashBytes(i)).as(what).isEqualTo(hashOf(bytes));
        assertThat(reader.shortBytes(i))
            .as(what)
            .isEqualTo(
                reader.layout().isKeyColumn(i) || bytes.length > 7
                    ? RowReader.NOT_SHORT
                    : packed(bytes));
        List<byte[]> others = new ArrayList<>();
        others.add(bytes);
        others.add(concat(bytes, new byte[] {' ', ' '}));
        others.add(concat(bytes, new byte[] {0}));
        others.add(Arrays.copyOf(bytes, Math.max(0, bytes.length - 1)));
        if (other != null) {
          others.add(bytes(other));
        }
        for (byte[] o : others) {
          assertThat(Integer.signum(reader.compareBytes(i, o, false)))
              .as(what)
              .isEqualTo(Integer.signum(Arrays.compareUnsigned(bytes, o)));
          byte[] stripped = stripSpaces(o);
          assertThat(Integer.signum(reader.compareBytes(i, stripped, true)))
              .as(what)
              .isEqualTo(Integer.signum(Arrays.compareUnsigned(stripSpaces(bytes), stripped)));
        }
      }
      default -> {}
    }
  }

  /** The length in the top byte, the bytes as an unsigned big-endian number below it. */
  private static long packed(byte[] bytes) {
    long number = bytes.length == 0 ? 0 : new BigInteger(1, bytes).longValueExact();
    return ((long) bytes.length << 56) | number;
  }

  private static int hashOf(byte[] bytes) {
    int h = 1;
    for (byte b : bytes) {
      h = 31 * h + (b & 0xFF);
    }
    return h;
  }

  private static byte[] bytes(Object value) {
    return value instanceof String s ? s.getBytes(UTF_8) : (byte[]) value;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static byte[] stripSpaces(byte[] b) {
    int end = b.length;
    while (end > 0 && b[end - 1] == ' ') {
      end--;
    }
    return Arrays.copyOf(b, end);
  }
}
