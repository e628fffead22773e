package io.cairn.store.coprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Groups found by bytes: a group made from a block's key longs ({@link GroupsByBytes#keyValue},
 * {@link GroupsByBytes#add(long[], boolean[])}) has the key values a row decodes and is the group a
 * row with that key finds, and the other way round, for every key type.
 */
class TestGroupsByBytes {
  private static final List<DataType> TYPES =
      List.of(
          DataType.BOOLEAN,
          DataType.TINYINT,
          DataType.SMALLINT,
          DataType.INTEGER,
          DataType.BIGINT,
          DataType.DATE,
          DataType.TIME,
          DataType.VARCHAR,
          DataType.chars(3),
          DataType.VARBINARY);

  /** Key K BIGINT, then one value column per type of {@link #TYPES}. */
  private static final RowLayout LAYOUT = layout();

  private static RowLayout layout() {
    List<RowLayout.ColumnLayout> columns = new ArrayList<>();
    columns.add(new RowLayout.ColumnLayout(1, DataType.BIGINT.withNullable(false)));
    for (int i = 0; i < TYPES.size(); i++) {
      columns.add(new RowLayout.ColumnLayout(i + 2, TYPES.get(i)));
    }
    return new RowLayout(columns, List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)), false, 1);
  }

  private final Random random = new Random(20261127);

  private Object value(DataType type) {
    if (random.nextInt(8) == 0) {
      return null;
    }
    return switch (type.name()) {
      case BOOLEAN -> random.nextBoolean();
      case TINYINT -> (byte) random.nextInt();
      case SMALLINT -> (short) random.nextInt();
      case INTEGER -> random.nextInt();
      case BIGINT -> random.nextBoolean() ? random.nextLong() : (long) random.nextInt(5);
      case DATE -> LocalDate.ofEpochDay(random.nextInt(100_000) - 50_000);
      case TIME -> LocalTime.ofNanoOfDay(Math.floorMod(random.nextLong(), 86_400_000_000_000L));
      case CHAR -> "abc".substring(0, 1 + random.nextInt(3));
      case VARCHAR -> {
        String[] some = {"", "a", "é", "日本", "abcdefg", "abcdefgh", "x\u0000y"};
        yield some[random.nextInt(some.length)];
      }
      default -> {
        byte[] b = new byte[random.nextInt(10)];
        random.nextBytes(b);
        yield b;
      }
    };
  }

  @Test
  void groupsFromKeyLongsAreTheGroupsOfRows() {
    RowCodec codec = new RowCodec(LAYOUT);
    RowReader reader = new RowReader(LAYOUT, null);
    for (int column = 1; column <= TYPES.size(); column++) {
      GroupsByBytes groups = GroupsByBytes.of(new int[] {column}, LAYOUT);
      GroupsByBytes byRows = GroupsByBytes.of(new int[] {column}, LAYOUT);
      assertThat(groups).isNotNull();
      DataType type = TYPES.get(column - 1);
      int made = 0;
      for (int i = 0; i < 400; i++) {
        Object[] row = new Object[TYPES.size() + 1];
        row[0] = (long) i;
        row[column] = value(type);
        Bytes key = codec.encodeKey(row);
        Bytes value = codec.encodeValue(row);
        reader.reset(
            key.toByteArray(),
            0,
            key.length(),
            ByteBuffer.wrap(value.toByteArray()),
            0,
            value.length());
        boolean isNull = reader.isNull(column);
        long v =
            isNull ? 0 : groups.bytesColumn(0) ? reader.shortBytes(column) : reader.getLong(column);
        if (!isNull && v == RowReader.NOT_SHORT) {
          continue; // a block with such bytes is read by rows
        }
        Object decoded = reader.getObject(column);
        Object fromLong = isNull ? null : groups.keyValue(0, v);
        assertThat(fromLong).as("%s from %s", type, v).isEqualTo(decoded);
        long[] longs = {v};
        boolean[] nulls = {isNull};
        // made from longs, found by the row; made by the row, found from longs
        int group = groups.find(reader);
        assertThat(group).isEqualTo(groups.find(longs, nulls));
        if (group < 0) {
          group = groups.add(longs, nulls);
          assertThat(group).isEqualTo(made);
          made++;
        }
        assertThat(groups.find(reader)).isEqualTo(group);
        int rowGroup = byRows.find(reader);
        if (rowGroup < 0) {
          rowGroup = byRows.add(reader, new Object[] {decoded});
        }
        assertThat(byRows.find(longs, nulls)).isEqualTo(rowGroup);
        assertThat(byRows.find(reader)).isEqualTo(rowGroup);
      }
      assertThat(made).as("groups of %s", type).isGreaterThan(1);
    }
  }

  /**
   * Keys of several columns (strings longer than 7 bytes compared by their bytes, NULLs) and of one
   * integer column, over enough groups to grow the table: each row finds the group a map of its
   * decoded key values gives, numbered in the order first seen.
   */
  @Test
  void rowsFindTheGroupsOfTheirKeyValues() {
    RowCodec codec = new RowCodec(LAYOUT);
    RowReader reader = new RowReader(LAYOUT, null);
    int varchar = TYPES.indexOf(DataType.VARCHAR) + 1;
    int bigint = TYPES.indexOf(DataType.BIGINT) + 1;
    for (int[] key :
        List.of(new int[] {varchar, bigint}, new int[] {bigint}, new int[] {varchar})) {
      GroupsByBytes groups = GroupsByBytes.of(key, LAYOUT);
      java.util.Map<List<Object>, Integer> expected = new java.util.HashMap<>();
      for (int i = 0; i < 20_000; i++) {
        Object[] row = new Object[TYPES.size() + 1];
        row[0] = (long) i;
        int n = random.nextInt(3000);
        row[varchar] = n % 97 == 0 ? null : (n % 2 == 0 ? "a long string number " : "s") + n % 50;
        row[bigint] = n % 89 == 0 ? null : (long) (n / 2) - 700;
        Bytes k = codec.encodeKey(row);
        Bytes v = codec.encodeValue(row);
        reader.reset(
            k.toByteArray(), 0, k.length(), ByteBuffer.wrap(v.toByteArray()), 0, v.length());
        List<Object> values = new ArrayList<>();
        Object[] decoded = new Object[key.length];
        for (int c = 0; c < key.length; c++) {
          decoded[c] = reader.getObject(key[c]);
          values.add(decoded[c]);
        }
        int group = groups.find(reader);
        Integer want = expected.get(values);
        if (want == null) {
          assertThat(group).as("%s", values).isEqualTo(-1);
          want = groups.add(reader, decoded);
          assertThat(want).isEqualTo(expected.size());
          expected.put(values, want);
        } else {
          assertThat(group).as("%s", values).isEqualTo(want);
        }
      }
      assertThat(groups.size()).isEqualTo(expected.size()).isGreaterThan(50);
    }
  }
}
