package io.cairn.core.encoding;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Pins the bytes of format version 1 (docs/format-row.md): a change here breaks every stored key
 * and cell, so it needs a new format version, not an updated expectation.
 */
class TestRowFormatGolden {
  private static String hex(Object value, DataType type, SortOrder order) {
    ByteBuilder out = new ByteBuilder();
    KeyEncoding.encode(out, value, type, order);
    return out.toBytes().toString();
  }

  private static String asc(Object value, DataType type) {
    return hex(value, type, SortOrder.ASC);
  }

  @Test
  void keyComponents() {
    assertThat(asc(null, DataType.INTEGER)).isEqualTo("00");
    assertThat(hex(null, DataType.INTEGER, SortOrder.DESC)).isEqualTo("ff");
    assertThat(asc(true, DataType.BOOLEAN)).isEqualTo("0101");
    assertThat(asc((byte) -1, DataType.TINYINT)).isEqualTo("017f");
    assertThat(asc((short) 1, DataType.SMALLINT)).isEqualTo("018001");
    assertThat(asc(-1, DataType.INTEGER)).isEqualTo("017fffffff");
    assertThat(hex(-1, DataType.INTEGER, SortOrder.DESC)).isEqualTo("fe80000000");
    assertThat(asc(1L, DataType.BIGINT)).isEqualTo("018000000000000001");
    assertThat(asc(1.0f, DataType.FLOAT)).isEqualTo("01bf800000");
    assertThat(asc(-1.0d, DataType.DOUBLE)).isEqualTo("01400fffffffffffff");
    DataType decimal = DataType.decimal(10, 2);
    assertThat(asc(BigDecimal.ZERO.setScale(2), decimal)).isEqualTo("0120");
    // 1.50 -> 0.15 x 10^1: exponent 1, pair 15 -> 0x11, end
    assertThat(asc(new BigDecimal("1.50"), decimal)).isEqualTo("01308000000111" + "01");
    // -1.50: the magnitude part inverted
    assertThat(asc(new BigDecimal("-1.50"), decimal)).isEqualTo("01107ffffffeee" + "fe");
    // 123 -> 0.123 x 10^3: pairs 12, 30
    assertThat(asc(new BigDecimal("123"), DataType.of(TypeName.DECIMAL)))
        .isEqualTo("0130800000030e2001");
    assertThat(asc("a\0b", DataType.VARCHAR)).isEqualTo("016100ff620001");
    assertThat(asc(new byte[] {0, (byte) 0xFF}, DataType.VARBINARY)).isEqualTo("0100ffff0001");
    assertThat(asc(LocalDate.of(1970, 1, 2), DataType.DATE)).isEqualTo("0180000001");
    assertThat(asc(LocalTime.of(0, 0, 0, 5), DataType.TIME)).isEqualTo("018000000000000005");
    assertThat(asc(LocalDateTime.of(1970, 1, 1, 0, 0, 1, 7), DataType.TIMESTAMP))
        .isEqualTo("01" + "8000000000000001" + "00000007");
    assertThat(RowCodec.encodeRowId(1).toString()).isEqualTo("8000000000000001");
  }

  @Test
  void valueCell() {
    RowLayout layout =
        new RowLayout(
            java.util.List.of(
                new RowLayout.ColumnLayout(1, DataType.INTEGER),
                new RowLayout.ColumnLayout(9, DataType.decimal(5, 2)),
                new RowLayout.ColumnLayout(4, DataType.VARCHAR),
                new RowLayout.ColumnLayout(5, DataType.BIGINT)),
            java.util.List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
            false,
            2);
    RowCodec codec = new RowCodec(layout);
    Object[] row = {7, new BigDecimal("-1.25"), "hi", null};
    Bytes value = codec.encodeValue(row);
    // version 1, schema 2, 3 entries, ids 4 (+4), 5 (+1), 9 (+4), nulls 0b010 (id 5),
    // offset width 1, ends 2, 2, 4, data "hi" | scale 2 zig-zag 04, -125 = 0x83
    assertThat(value.toString()).isEqualTo("01020304010402010202046869" + "0483");
    assertThat(
            codec.decode(
                codec.encodeKey(row), Bytes.wrap(HexFormat.of().parseHex(value.toString()))))
        .containsExactly(row);
  }
}
