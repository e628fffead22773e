package io.cairn.core.encoding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestRowCodec {
  private static Bytes key(Object value, DataType type, SortOrder order) {
    ByteBuilder out = new ByteBuilder();
    KeyEncoding.encode(out, value, type, order);
    return out.toBytes();
  }

  private static Bytes asc(Object value, DataType type) {
    return key(value, type, SortOrder.ASC);
  }

  @Test
  void stringsEscapeZeroAndPrefixesSortFirst() {
    Bytes a = asc("a", DataType.VARCHAR);
    Bytes a0 = asc("a\0", DataType.VARCHAR);
    Bytes ab = asc("ab", DataType.VARCHAR);
    Bytes empty = asc("", DataType.VARCHAR);
    assertThat(empty).isLessThan(a);
    assertThat(a).isLessThan(a0);
    assertThat(a0).isLessThan(ab);
    assertThat(a.toString()).isEqualTo("01610001");
    assertThat(a0.toString()).isEqualTo("016100ff0001");
    assertThat(key("a", DataType.VARCHAR, SortOrder.DESC))
        .isGreaterThan(key("ab", DataType.VARCHAR, SortOrder.DESC));
  }

  @Test
  void nullsSortFirstAscAndLastDesc() {
    assertThat(asc(null, DataType.INTEGER)).isLessThan(asc(Integer.MIN_VALUE, DataType.INTEGER));
    assertThat(key(null, DataType.INTEGER, SortOrder.DESC))
        .isGreaterThan(key(Integer.MIN_VALUE, DataType.INTEGER, SortOrder.DESC));
    assertThat(key(null, DataType.VARCHAR, SortOrder.DESC))
        .isGreaterThan(key("", DataType.VARCHAR, SortOrder.DESC));
  }

  @Test
  void numericallyEqualDecimalsEncodeEqually() {
    DataType type = DataType.of(TypeName.DECIMAL);
    assertThat(asc(new BigDecimal("1.0"), type)).isEqualTo(asc(new BigDecimal("1.00"), type));
    assertThat(asc(new BigDecimal("100"), type)).isEqualTo(asc(new BigDecimal("1E+2"), type));
    assertThat(asc(new BigDecimal("0.000"), type)).isEqualTo(asc(BigDecimal.ZERO, type));
    assertThat(asc(new BigDecimal("-0.5"), type)).isLessThan(asc(BigDecimal.ZERO, type));
    assertThat(asc(new BigDecimal("0.1"), type)).isLessThan(asc(new BigDecimal("0.105"), type));
    assertThat(asc(new BigDecimal("-0.1"), type))
        .isGreaterThan(asc(new BigDecimal("-0.105"), type));
    assertThat(asc(new BigDecimal("9.99"), type)).isLessThan(asc(new BigDecimal("10"), type));
  }

  @Test
  void decodedDecimalHasTheColumnScale() {
    DataType type = DataType.decimal(10, 2);
    Bytes k = asc(new BigDecimal("1.50"), type);
    Object decoded = KeyEncoding.decode(new ByteReader(k.peekArray()), type, SortOrder.ASC);
    assertThat(decoded).isEqualTo(new BigDecimal("1.50"));
  }

  @Test
  void floatingPointEdges() {
    assertThat(asc(-0.0d, DataType.DOUBLE)).isEqualTo(asc(0.0d, DataType.DOUBLE));
    assertThat(asc(-0.0f, DataType.FLOAT)).isEqualTo(asc(0.0f, DataType.FLOAT));
    assertThat(asc(Double.NaN, DataType.DOUBLE))
        .isGreaterThan(asc(Double.POSITIVE_INFINITY, DataType.DOUBLE));
    assertThat(asc(Float.NaN, DataType.FLOAT))
        .isGreaterThan(asc(Float.POSITIVE_INFINITY, DataType.FLOAT));
    assertThat(asc(Double.NEGATIVE_INFINITY, DataType.DOUBLE))
        .isLessThan(asc(-Double.MAX_VALUE, DataType.DOUBLE));
  }

  @Test
  void intervalAndNullCannotBeKeyColumns() {
    for (TypeName name :
        List.of(TypeName.INTERVAL_DAY_TIME, TypeName.INTERVAL_YEAR_MONTH, TypeName.NULL)) {
      RowLayout layout =
          new RowLayout(
              List.of(new RowLayout.ColumnLayout(1, DataType.of(name))),
              List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
              false,
              1);
      assertThatThrownBy(() -> new RowCodec(layout))
          .isInstanceOf(CairnException.class)
          .hasMessageContaining(DataType.of(name).sql())
          .satisfies(
              e ->
                  assertThat(((CairnException) e).errorCode())
                      .isEqualTo(ErrorCode.INVALID_TABLE_DEFINITION));
    }
  }

  private static RowLayout twoColumns() {
    return new RowLayout(
        List.of(
            new RowLayout.ColumnLayout(1, DataType.INTEGER),
            new RowLayout.ColumnLayout(2, DataType.VARCHAR)),
        List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
        false,
        3);
  }

  @Test
  void wrongValueClassNamesColumnAndClasses() {
    RowCodec codec = new RowCodec(twoColumns());
    assertThatThrownBy(() -> codec.encodeKey(new Object[] {5L, "x"}))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("[0]")
        .hasMessageContaining("java.lang.Integer")
        .hasMessageContaining("java.lang.Long")
        .satisfies(
            e -> assertThat(((CairnException) e).errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR));
    assertThatThrownBy(() -> codec.encodeValue(new Object[] {5, 7}))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("[1]")
        .hasMessageContaining("java.lang.String");
    assertThatThrownBy(() -> codec.encodeKeyPrefix(List.of("x")))
        .isInstanceOf(CairnException.class);
  }

  @Test
  void hiddenRowIdLayoutHasNoKeyEncoding() {
    RowLayout layout =
        new RowLayout(List.of(new RowLayout.ColumnLayout(1, DataType.INTEGER)), List.of(), true, 1);
    assertThatThrownBy(() -> new RowCodec(layout).encodeKey(new Object[] {1}))
        .isInstanceOf(IllegalStateException.class);
    assertThat(RowCodec.encodeRowId(-1)).isLessThan(RowCodec.encodeRowId(0));
    assertThat(RowCodec.encodeRowId(1).length()).isEqualTo(8);
  }

  @Test
  void valueCellIsCompact() {
    RowCodec codec = new RowCodec(twoColumns());
    Bytes value = codec.encodeValue(new Object[] {1, "abc"});
    // version, schema version, count, id delta, null bitmap, offset width, 1 offset, 3 bytes
    assertThat(value.toString()).isEqualTo("010301020001" + "03" + "616263");
    Bytes nullValue = codec.encodeValue(new Object[] {1, null});
    assertThat(codec.decode(codec.encodeKey(new Object[] {1, null}), nullValue))
        .containsExactly(1, null);
  }

  @Test
  void wideValuesUseWiderOffsets() {
    RowCodec codec = new RowCodec(twoColumns());
    for (int length : new int[] {255, 256, 65_535, 65_536, 200_000}) {
      char[] chars = new char[length];
      Arrays.fill(chars, 'x');
      Object[] row = {length, new String(chars)};
      assertThat(codec.decode(codec.encodeKey(row), codec.encodeValue(row))).containsExactly(row);
    }
  }

  @Test
  void unknownFormatVersionIsRejected() {
    RowCodec codec = new RowCodec(twoColumns());
    byte[] value = codec.encodeValue(new Object[] {1, "a"}).toByteArray();
    value[0] = 9;
    assertThatThrownBy(
            () -> codec.decode(codec.encodeKey(new Object[] {1, "a"}), Bytes.wrap(value)))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("found [9]");
  }

  @Test
  void prefixLongerThanKeyIsRejected() {
    RowCodec codec = new RowCodec(twoColumns());
    assertThatThrownBy(() -> codec.encodeKeyPrefix(List.of(1, 2)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(codec.encodeKeyPrefix(List.of())).isEqualTo(Bytes.EMPTY);
  }

  @Test
  void unpairedSurrogatesAreRejectedNotReplaced() {
    RowCodec codec = new RowCodec(twoColumns());
    assertThatThrownBy(() -> asc("a\ud800", DataType.VARCHAR))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("index [1]");
    assertThatThrownBy(() -> codec.encodeValue(new Object[] {1, "\udc00x"}))
        .isInstanceOf(CairnException.class)
        .satisfies(
            e ->
                assertThat(((CairnException) e).errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
    assertThat(asc("\ud83d\ude00", DataType.VARCHAR).toString()).isEqualTo("01f09f98800001");
  }

  @Test
  void keyEncodingChecksTheValueClass() {
    assertThatThrownBy(() -> asc(1L, DataType.INTEGER))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("key value")
        .hasMessageContaining("java.lang.Integer");
  }
}
