package io.cairn.core.encoding;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestRowReader {
  /** (ID INTEGER, NAME VARCHAR DESC) key; PRICE DECIMAL(10,2), QTY SMALLINT, TS TIMESTAMP. */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.INTEGER),
              new RowLayout.ColumnLayout(2, DataType.VARCHAR),
              new RowLayout.ColumnLayout(3, DataType.decimal(10, 2)),
              new RowLayout.ColumnLayout(4, DataType.SMALLINT),
              new RowLayout.ColumnLayout(5, DataType.TIMESTAMP)),
          List.of(
              new RowLayout.KeyColumn(0, SortOrder.ASC),
              new RowLayout.KeyColumn(1, SortOrder.DESC)),
          false,
          3);

  private static final RowCodec CODEC = new RowCodec(LAYOUT);
  private static final LocalDateTime TS = LocalDateTime.of(2024, 2, 29, 10, 15, 30, 123_000_000);

  private static RowReader read(Object[] row, TestingBuffers.Kind kind) {
    RowReader reader = new RowReader(LAYOUT, null);
    TestingBuffers.reset(reader, CODEC.encodeKey(row), CODEC.encodeValue(row), 7, kind);
    return reader;
  }

  @Test
  void readsKeyAndValueColumnsInPlace() {
    Object[] row = {-42, "a\0b", new BigDecimal("12.50"), (short) -3, TS};
    for (TestingBuffers.Kind kind : TestingBuffers.Kind.values()) {
      RowReader reader = read(row, kind);
      assertThat(reader.getLong(0)).isEqualTo(-42);
      assertThat(reader.compareBytes(1, "a\0b".getBytes(UTF_8), false)).isZero();
      assertThat(reader.compareBytes(1, "a\0c".getBytes(UTF_8), false)).isNegative();
      assertThat(reader.compareBytes(1, "a".getBytes(UTF_8), false)).isPositive();
      assertThat(reader.decimalFitsLong(2)).isTrue();
      assertThat(reader.getUnscaledLong(2)).isEqualTo(1250);
      assertThat(reader.getScale(2)).isEqualTo(2);
      assertThat(reader.getLong(3)).isEqualTo(-3);
      assertThat(reader.getEpochSecond(4)).isEqualTo(TS.toEpochSecond(java.time.ZoneOffset.UTC));
      assertThat(reader.getNano(4)).isEqualTo(123_000_000);
      assertThat(reader.getObject(1)).isEqualTo("a\0b");
      assertThat(reader.getObject(2)).isEqualTo(new BigDecimal("12.50"));
    }
  }

  @Test
  void nullsAndColumnsTheCellLacks() {
    Object[] row = {1, null, null, (short) 5, null};
    RowReader reader = read(row, TestingBuffers.Kind.DIRECT);
    assertThat(reader.isNull(1)).isTrue();
    assertThat(reader.isNull(2)).isTrue();
    assertThat(reader.isNull(3)).isFalse();
    assertThatThrownBy(() -> reader.getLong(2)).isInstanceOf(IllegalStateException.class);

    // a later layout with a column added: the old cell has no entry for it
    List<RowLayout.ColumnLayout> columns = new ArrayList<>(LAYOUT.columns());
    columns.add(new RowLayout.ColumnLayout(9, DataType.BIGINT));
    RowLayout evolved = new RowLayout(columns, LAYOUT.keyColumns(), false, 4);
    RowReader evolvedReader = new RowReader(evolved, null);
    TestingBuffers.reset(
        evolvedReader, CODEC.encodeKey(row), CODEC.encodeValue(row), 0, TestingBuffers.Kind.HEAP);
    assertThat(evolvedReader.isNull(5)).isTrue();
    assertThat(evolvedReader.getLong(3)).isEqualTo(5);
  }

  /**
   * One reader over cells of two schema versions in turn (a column added in between): a header is
   * reused only when its column-id bytes are the last header's, so each cell reads its own columns.
   */
  @Test
  void cellsOfTwoSchemasInTurnEachReadTheirOwnColumns() {
    List<RowLayout.ColumnLayout> columns = new ArrayList<>(LAYOUT.columns());
    columns.add(new RowLayout.ColumnLayout(9, DataType.BIGINT));
    RowLayout evolved = new RowLayout(columns, LAYOUT.keyColumns(), false, 4);
    RowCodec evolvedCodec = new RowCodec(evolved);
    RowReader reader = new RowReader(evolved, null);
    for (int i = 0; i < 6; i++) {
      boolean old = i % 3 != 2; // old, old, new, old, old, new: reuse, then change, then back
      Object[] row =
          old
              ? new Object[] {i, "k", new BigDecimal(i + ".25"), (short) i, TS}
              : new Object[] {i, "k", null, (short) -i, TS, 100L + i};
      Bytes key = old ? CODEC.encodeKey(row) : evolvedCodec.encodeKey(row);
      Bytes value = old ? CODEC.encodeValue(row) : evolvedCodec.encodeValue(row);
      TestingBuffers.reset(reader, key, value, i, TestingBuffers.Kind.HEAP);
      assertThat(reader.getLong(0)).isEqualTo(i);
      assertThat(reader.getLong(3)).isEqualTo(old ? i : -i);
      assertThat(reader.isNull(2)).isEqualTo(!old);
      assertThat(reader.isNull(5)).as("row %s", i).isEqualTo(old);
      if (!old) {
        assertThat(reader.getLong(5)).isEqualTo(100L + i);
      } else {
        assertThat(reader.getDecimal(2)).isEqualTo(new BigDecimal(i + ".25"));
      }
    }
  }

  /**
   * One reader over rows in buffers of every kind in turn (heap, sliced, tight, read-only, direct,
   * either byte order), two schemas alternating: the buffer's array, array offset and the last
   * header are each remembered across rows, never confused.
   */
  @Test
  void oneReaderOverEveryKindOfBufferInTurn() {
    List<RowLayout.ColumnLayout> columns = new ArrayList<>(LAYOUT.columns());
    columns.add(new RowLayout.ColumnLayout(9, DataType.BIGINT));
    RowLayout evolved = new RowLayout(columns, LAYOUT.keyColumns(), false, 4);
    RowCodec evolvedCodec = new RowCodec(evolved);
    RowReader reader = new RowReader(evolved, null);
    TestingBuffers.Kind[] kinds = TestingBuffers.Kind.values();
    for (int i = 0; i < 4 * kinds.length; i++) {
      TestingBuffers.Kind kind = kinds[i % kinds.length];
      boolean old = i % 3 == 0;
      BigDecimal price = new BigDecimal(-i + "." + i % 10 + "5");
      Object[] row =
          old
              ? new Object[] {i, "k" + i, price, (short) -i, TS}
              : new Object[] {i, "k" + i, price, null, TS.plusNanos(i), Long.MIN_VALUE + i};
      Bytes key = old ? CODEC.encodeKey(row) : evolvedCodec.encodeKey(row);
      Bytes value = old ? CODEC.encodeValue(row) : evolvedCodec.encodeValue(row);
      TestingBuffers.reset(reader, key, value, i % 4, kind);
      String what = "row " + i + " in " + kind;
      assertThat(reader.getLong(0)).as(what).isEqualTo(i);
      assertThat(reader.compareBytes(1, ("k" + i).getBytes(UTF_8), false)).as(what).isZero();
      assertThat(reader.decimalFitsLong(2)).as(what).isTrue();
      assertThat(BigDecimal.valueOf(reader.getUnscaledLong(2), reader.getScale(2)))
          .as(what)
          .isEqualTo(price);
      assertThat(reader.isNull(3)).as(what).isEqualTo(!old);
      if (old) {
        assertThat(reader.getLong(3)).as(what).isEqualTo(-i);
      }
      assertThat(reader.getNano(4)).as(what).isEqualTo(TS.getNano() + (old ? 0 : i));
      assertThat(reader.isNull(5)).as(what).isEqualTo(old);
      if (!old) {
        assertThat(reader.getLong(5)).as(what).isEqualTo(Long.MIN_VALUE + i);
      }
      Object[] decoded = new Object[evolved.columnCount()];
      reader.decodeInto(decoded);
      assertThat(decoded).as(what).isEqualTo(evolvedCodec.decode(key, value));
    }
  }

  /**
   * The short DECIMAL path reads 8 bytes at once: an unscaled value of every length from 1 to 8
   * bytes, last in a cell that ends its array (the read must end there) or followed by other bytes
   * (which must not leak in), for both signs, matches the codec.
   */
  @Test
  void shortDecimalsOfEveryLengthAtTheEndOfTheArray() {
    RowLayout layout =
        new RowLayout(
            List.of(
                new RowLayout.ColumnLayout(1, DataType.INTEGER),
                new RowLayout.ColumnLayout(2, DataType.of(TypeName.DECIMAL))),
            List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
            false,
            1);
    RowCodec codec = new RowCodec(layout);
    RowReader reader = new RowReader(layout, null);
    for (int bytes = 1; bytes <= 9; bytes++) {
      for (int sign : new int[] {1, -1}) {
        for (int scale : new int[] {0, 2, -3, 63, 64, -65}) {
          // the widest magnitude of this many two's complement bytes
          BigDecimal v =
              new BigDecimal(
                  java.math.BigInteger.ONE
                      .shiftLeft(8 * bytes - 1)
                      .subtract(java.math.BigInteger.valueOf(sign > 0 ? 1 : 0))
                      .multiply(java.math.BigInteger.valueOf(sign)),
                  scale);
          Object[] row = {bytes, v};
          Bytes key = codec.encodeKey(row);
          Bytes value = codec.encodeValue(row);
          for (TestingBuffers.Kind kind : TestingBuffers.Kind.values()) {
            TestingBuffers.reset(reader, key, value, bytes % 3, kind);
            String what = v + " in " + kind;
            assertThat(reader.decimalFitsLong(1)).as(what).isEqualTo(bytes <= 8);
            if (bytes <= 8) {
              assertThat(BigDecimal.valueOf(reader.getUnscaledLong(1), reader.getScale(1)))
                  .as(what)
                  .isEqualTo(v);
            }
            assertThat(reader.getDecimal(1)).as(what).isEqualTo(v);
          }
        }
      }
    }
  }

  /**
   * The primitive accessors allocate nothing after the constructor, on every kind of buffer: rows
   * read after a warm-up allocate less than one byte each (allocation per row would be 16 or more).
   */
  @Test
  void primitiveAccessorsAllocateNothing() {
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        threads instanceof com.sun.management.ThreadMXBean t
            && t.isThreadAllocatedMemorySupported()
            && t.isThreadAllocatedMemoryEnabled());
    com.sun.management.ThreadMXBean allocations = (com.sun.management.ThreadMXBean) threads;
    List<byte[]> keys = new ArrayList<>();
    List<ByteBuffer> values = new ArrayList<>();
    List<Integer> lengths = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      Object[] row = {i, "name" + i, new BigDecimal(i + ".5" + i % 10), (short) i, TS};
      TestingBuffers.Kind kind =
          TestingBuffers.Kind.values()[i % TestingBuffers.Kind.values().length];
      Bytes value = CODEC.encodeValue(row);
      keys.add(TestingBuffers.embed(CODEC.encodeKey(row), 1));
      values.add(TestingBuffers.buffer(value, 2, kind));
      lengths.add(value.length());
    }
    byte[] name = "name7".getBytes(UTF_8);
    RowReader reader = new RowReader(LAYOUT, null);
    int rows = 20_000;
    long sum = readRows(reader, keys, values, lengths, name, rows); // warm-up
    long before = allocations.getCurrentThreadAllocatedBytes();
    sum += readRows(reader, keys, values, lengths, name, rows);
    long allocated = allocations.getCurrentThreadAllocatedBytes() - before;
    assertThat(allocated).as("bytes allocated over %s rows (sum %s)", rows, sum).isLessThan(rows);
  }

  private static long readRows(
      RowReader reader,
      List<byte[]> keys,
      List<ByteBuffer> values,
      List<Integer> lengths,
      byte[] name,
      int rows) {
    long sum = 0;
    for (int r = 0; r < rows; r++) {
      int i = r % keys.size();
      byte[] key = keys.get(i);
      reader.reset(key, 1, key.length - 4, values.get(i), 2, lengths.get(i));
      sum += reader.getLong(0) + reader.compareBytes(1, name, true) + reader.hashBytes(1);
      if (!reader.isNull(2) && reader.decimalFitsLong(2)) {
        sum += reader.getUnscaledLong(2) + reader.getScale(2);
      }
      sum += reader.getLong(3) + reader.getEpochSecond(4) + reader.getNano(4);
    }
    return sum;
  }

  @Test
  void hiddenRowIdLayoutNeverReadsTheKey() {
    RowLayout hidden =
        new RowLayout(List.of(new RowLayout.ColumnLayout(1, DataType.BIGINT)), List.of(), true, 1);
    Bytes value = new RowCodec(hidden).encodeValue(new Object[] {-7L});
    RowReader reader = new RowReader(hidden, null);
    TestingBuffers.reset(reader, Bytes.wrap(new byte[] {9}), value, 3, TestingBuffers.Kind.HEAP);
    assertThat(reader.getLong(0)).isEqualTo(-7);
  }

  @Test
  void keyDecimalsAreNormalisedAsTheCodecDoes() {
    List<DataType> types =
        List.of(DataType.decimal(10, 2), DataType.of(TypeName.DECIMAL), DataType.decimal(38, 30));
    List<BigDecimal> values =
        List.of(
            new BigDecimal("0"),
            new BigDecimal("1.50"),
            new BigDecimal("-100"),
            new BigDecimal("12345678901234567.8"),
            new BigDecimal("1E+30"),
            new BigDecimal("-0.000000001"));
    for (DataType type : types) {
      for (SortOrder order : SortOrder.values()) {
        RowLayout layout =
            new RowLayout(
                List.of(new RowLayout.ColumnLayout(1, type)),
                List.of(new RowLayout.KeyColumn(0, order)),
                false,
                1);
        RowCodec codec = new RowCodec(layout);
        RowReader reader = new RowReader(layout, null);
        for (BigDecimal v : values) {
          Object[] row = {v};
          Bytes key = codec.encodeKey(row);
          Bytes value = codec.encodeValue(row);
          BigDecimal expected = (BigDecimal) codec.decode(key, value)[0];
          TestingBuffers.reset(reader, key, value, 1, TestingBuffers.Kind.HEAP);
          assertThat(reader.getDecimal(0)).isEqualTo(expected);
          if (reader.decimalFitsLong(0)) {
            assertThat(BigDecimal.valueOf(reader.getUnscaledLong(0), reader.getScale(0)))
                .as("%s %s %s", type, order, v)
                .isEqualTo(expected);
          } else {
            assertThat(expected.unscaledValue().bitLength()).as("%s %s", type, v).isGreaterThan(56);
          }
        }
      }
    }
  }

  @Test
  void valueDecimalBeyondALongTakesTheObjectPath() {
    Object[] row = {1, "x", new BigDecimal("99999999.99"), null, null};
    RowLayout wide =
        new RowLayout(
            List.of(
                new RowLayout.ColumnLayout(1, DataType.INTEGER),
                new RowLayout.ColumnLayout(2, DataType.of(TypeName.DECIMAL))),
            List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
            false,
            1);
    RowCodec codec = new RowCodec(wide);
    BigDecimal big = new BigDecimal("123456789012345678901234567890.5");
    Object[] wideRow = {1, big};
    RowReader reader = new RowReader(wide, null);
    TestingBuffers.reset(
        reader,
        codec.encodeKey(wideRow),
        codec.encodeValue(wideRow),
        2,
        TestingBuffers.Kind.DIRECT);
    assertThat(reader.decimalFitsLong(1)).isFalse();
    assertThatThrownBy(() -> reader.getUnscaledLong(1)).isInstanceOf(IllegalStateException.class);
    assertThat(reader.getDecimal(1)).isEqualTo(big);
    assertThat(read(row, TestingBuffers.Kind.HEAP).getUnscaledLong(2)).isEqualTo(9999999999L);
  }

  @Test
  void trailingSpacesCanBeIgnored() {
    Object[] row = {1, "ab  ", null, null, null};
    RowReader reader = read(row, TestingBuffers.Kind.HEAP);
    assertThat(reader.compareBytes(1, "ab".getBytes(UTF_8), true)).isZero();
    assertThat(reader.compareBytes(1, "ab".getBytes(UTF_8), false)).isPositive();
    assertThat(reader.compareBytes(1, "ab ".getBytes(UTF_8), false)).isPositive();
    assertThat(reader.compareBytes(1, "ab  ".getBytes(UTF_8), false)).isZero();
  }

  @Test
  void accessorsCheckTheColumnType() {
    RowReader reader =
        read(new Object[] {1, "x", BigDecimal.ONE, (short) 1, TS}, TestingBuffers.Kind.HEAP);
    assertThatThrownBy(() -> reader.getLong(1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> reader.getDouble(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> reader.getNano(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> reader.decimalFitsLong(3))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> reader.compareBytes(0, new byte[0], false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> reader.isNull(5)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> new RowReader(LAYOUT, new boolean[2]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsAViewOutsideItsArrays() {
    RowReader reader = new RowReader(LAYOUT, null);
    assertThatThrownBy(() -> reader.reset(new byte[4], 2, 3, ByteBuffer.allocate(8), 0, 1))
        .isInstanceOf(IndexOutOfBoundsException.class);
    ByteBuffer limited = ByteBuffer.allocate(8).limit(4);
    assertThatThrownBy(() -> reader.reset(new byte[4], 0, 4, limited, 2, 3))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  /**
   * Every truncation and every single-bit flip of a key and a value cell: the reader either reads
   * what the codec decodes or fails as the codec fails (same exception class, code and message).
   */
  @Test
  void malformedBytesFailAsTheCodecFails() {
    for (byte[][] variant : malformedVariants()) {
      RowReader reader = new RowReader(LAYOUT, null);
      assertThat(outcome(() -> readAll(reader, variant[0], variant[1])))
          .as("key %s value %s", Arrays.toString(variant[0]), Arrays.toString(variant[1]))
          .isEqualTo(outcome(() -> decode(variant)));
    }
  }

  /**
   * The same with one reader that has just read the well-formed row before each variant: a header
   * it remembers is reused only for the same bytes, and errors are still the codec's.
   */
  @Test
  void malformedBytesAfterAWellFormedRowFailAsTheCodecFails() {
    RowReader reader = new RowReader(LAYOUT, null);
    for (byte[][] variant : malformedVariants()) {
      readAll(reader, variant[2], variant[3]);
      assertThat(outcome(() -> readAll(reader, variant[0], variant[1])))
          .as("key %s value %s", Arrays.toString(variant[0]), Arrays.toString(variant[1]))
          .isEqualTo(outcome(() -> decode(variant)));
    }
  }

  /** Malformed {key, value} pairs, each followed by the well-formed key and value it came from. */
  private static List<byte[][]> malformedVariants() {
    List<Object[]> rows =
        List.of(
            new Object[] {7, "k\0ey", new BigDecimal("-3.25"), (short) 300, TS},
            new Object[] {-1, "", null, null, LocalDateTime.of(1969, 12, 31, 23, 59)});
    List<byte[][]> variants = new ArrayList<>();
    for (Object[] row : rows) {
      byte[] key = CODEC.encodeKey(row).toByteArray();
      byte[] value = CODEC.encodeValue(row).toByteArray();
      for (int n = 0; n < key.length; n++) {
        variants.add(new byte[][] {Arrays.copyOf(key, n), value, key, value});
      }
      for (int n = 0; n < value.length; n++) {
        variants.add(new byte[][] {key, Arrays.copyOf(value, n), key, value});
      }
      for (int bit = 0; bit < key.length * 8; bit++) {
        byte[] flipped = key.clone();
        flipped[bit / 8] ^= (byte) (1 << (bit % 8));
        variants.add(new byte[][] {flipped, value, key, value});
      }
      for (int bit = 0; bit < value.length * 8; bit++) {
        byte[] flipped = value.clone();
        flipped[bit / 8] ^= (byte) (1 << (bit % 8));
        variants.add(new byte[][] {key, flipped, key, value});
      }
    }
    return variants;
  }

  private static Object[] decode(byte[][] variant) {
    return CODEC.decode(Bytes.wrap(variant[0]), Bytes.wrap(variant[1]));
  }

  /** Reads every column of a row held in exactly its own arrays (as a block decoder hands it). */
  private static Object[] readAll(RowReader reader, byte[] key, byte[] value) {
    reader.reset(key, 0, key.length, ByteBuffer.wrap(value), 0, value.length);
    Object[] out = new Object[LAYOUT.columnCount()];
    reader.decodeInto(out);
    return out;
  }

  @Test
  void wrongFormatVersionIsAnInternalError() {
    byte[] value = CODEC.encodeValue(new Object[] {1, "a", null, null, null}).toByteArray();
    value[0] = 2;
    RowReader reader = new RowReader(LAYOUT, null);
    reader.reset(new byte[0], 0, 0, ByteBuffer.wrap(value), 0, value.length);
    assertThatThrownBy(() -> reader.isNull(3))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR))
        .hasMessageContaining("expected version [1], found [2]");
    // the key was not needed: a key column still reads (here: an empty key is truncated)
    assertThatThrownBy(() -> reader.getLong(0)).hasMessageContaining("Truncated encoding");
  }

  private interface Decoding {
    Object[] decode();
  }

  private static String outcome(Decoding decoding) {
    try {
      return Arrays.deepToString(decoding.decode());
    } catch (RuntimeException e) {
      String code = e instanceof CairnException c ? c.errorCode().name() : "";
      return e.getClass().getSimpleName() + " " + code + " " + e.getMessage();
    }
  }
}
