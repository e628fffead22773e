package io.cairn.core.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.encoding.TestingBuffers;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link VectorColumn#objectAt}: a row read from a column's number vector is the object {@link
 * RowReader#getObject} reads from the row's bytes, for every type that has a vector, in the key
 * (ascending and descending) and in the value, NULLs included; strings and bytes of any length
 * (BYTES, copied into one array per column as a data block's vectors are built). A probe in the
 * store builds its joined rows from vectors on this promise.
 */
class TestVectorColumnObjects {
  private static final DataType PRICE = DataType.decimal(15, 2);

  private static final List<DataType> TYPES =
      List.of(
          DataType.BIGINT,
          DataType.DATE,
          DataType.INTEGER,
          DataType.BOOLEAN,
          DataType.TINYINT,
          DataType.SMALLINT,
          DataType.INTEGER,
          DataType.BIGINT,
          DataType.FLOAT,
          DataType.DOUBLE,
          PRICE,
          DataType.decimal(18, 0),
          DataType.DATE,
          DataType.TIME,
          DataType.of(TypeName.INTERVAL_YEAR_MONTH),
          DataType.of(TypeName.INTERVAL_DAY_TIME),
          DataType.VARCHAR,
          DataType.chars(9),
          DataType.VARBINARY);

  private final Random random = new Random(20261128);

  @Test
  void vectorRowsAreTheObjectsOfTheRowsBytes() {
    List<RowLayout.ColumnLayout> columns = new ArrayList<>();
    for (int i = 0; i < TYPES.size(); i++) {
      columns.add(new RowLayout.ColumnLayout(i + 1, TYPES.get(i)));
    }
    RowLayout layout =
        new RowLayout(
            columns,
            List.of(
                new RowLayout.KeyColumn(0, SortOrder.ASC),
                new RowLayout.KeyColumn(1, SortOrder.DESC),
                new RowLayout.KeyColumn(2, SortOrder.DESC)),
            false,
            1);
    RowCodec codec = new RowCodec(layout);
    RowReader reader = new RowReader(layout, null);
    int n = TYPES.size();
    int rows = 500;
    byte[] kinds = new byte[n];
    int[] scales = new int[n];
    VectorColumn[] vectors = new VectorColumn[n];
    byte[][] status = new byte[n][rows];
    long[][] longs = new long[n][rows];
    double[][] doubles = new double[n][rows];
    byte[][] heaps = new byte[n][64];
    int[] heapSizes = new int[n];
    for (int c = 0; c < n; c++) {
      vectors[c] = VectorColumn.rowsOf(c, TYPES.get(c), c < 3);
      kinds[c] = vectors[c].kind();
      scales[c] = vectors[c].scale();
      boolean bytes = TYPES.get(c).name().isString() || TYPES.get(c).name() == TypeName.VARBINARY;
      assertThat(kinds[c] == VectorColumn.BYTES).as("column %s", c).isEqualTo(bytes);
    }
    List<Object[]> expected = new ArrayList<>();
    for (int r = 0; r < rows; r++) {
      Object[] row = new Object[n];
      for (int c = 0; c < n; c++) {
        row[c] = c < 3 || random.nextInt(8) > 0 ? value(TYPES.get(c)) : null;
      }
      TestingBuffers.reset(
          reader,
          codec.encodeKey(row),
          codec.encodeValue(row),
          2,
          r % 2 == 0 ? TestingBuffers.Kind.HEAP : TestingBuffers.Kind.DIRECT);
      for (int c = 0; c < n; c++) {
        if (kinds[c] != VectorColumn.BYTES) {
          reader.readNumbers(
              new int[] {c},
              new byte[] {kinds[c]},
              new int[] {scales[c]},
              new byte[][] {status[c]},
              new long[][] {longs[c]},
              new double[][] {doubles[c]},
              r);
        } else if (reader.isNull(c)) {
          status[c][r] = RowReader.NUMBER_NULL; // as a data block's vectors are built
        } else {
          int length = reader.valueBytesLength(c);
          if (heapSizes[c] + length > heaps[c].length) {
            heaps[c] = Arrays.copyOf(heaps[c], 2 * (heapSizes[c] + length));
          }
          int copied = reader.copyValueBytes(c, heaps[c], heapSizes[c]);
          assertThat(copied).isEqualTo(length);
          longs[c][r] = VectorColumn.slice(heapSizes[c], length);
          heapSizes[c] += length;
          status[c][r] = RowReader.NUMBER_VALUE;
        }
      }
      Object[] read = new Object[n];
      for (int c = 0; c < n; c++) {
        read[c] = reader.getObject(c);
      }
      expected.add(read);
    }
    for (int c = 0; c < n; c++) {
      int nulls = 0;
      int unfit = 0;
      for (int r = 0; r < rows; r++) {
        nulls += status[c][r] == RowReader.NUMBER_NULL ? 1 : 0;
        unfit += status[c][r] == RowReader.NUMBER_UNFIT ? 1 : 0;
      }
      assertThat(unfit).as("column %s has values it does not hold", c).isZero();
      NumberVector vector =
          new NumberVector(
              status[c],
              kinds[c] == RowReader.DOUBLE ? null : longs[c],
              kinds[c] == RowReader.DOUBLE ? doubles[c] : null,
              nulls,
              unfit,
              null,
              kinds[c] == VectorColumn.BYTES ? Arrays.copyOf(heaps[c], heapSizes[c]) : null);
      for (int r = 0; r < rows; r++) {
        Object fromVector = vectors[c].objectAt(vector, r, TYPES.get(c).name());
        assertThat(Objects.deepEquals(fromVector, expected.get(r)[c]))
            .as(
                "column %s (%s), row %s: %s from the vector, %s from the bytes",
                c, TYPES.get(c), r, fromVector, expected.get(r)[c])
            .isTrue();
      }
    }
  }

  @Test
  void valueBytesAreOnlyAValueColumnsStringOrBinary() {
    RowLayout layout =
        new RowLayout(
            List.of(
                new RowLayout.ColumnLayout(1, DataType.VARCHAR),
                new RowLayout.ColumnLayout(2, DataType.VARCHAR),
                new RowLayout.ColumnLayout(3, DataType.INTEGER)),
            List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
            false,
            1);
    RowCodec codec = new RowCodec(layout);
    RowReader reader = new RowReader(layout, null);
    Object[] row = {"key", "a longer value than seven bytes", 7};
    TestingBuffers.reset(
        reader, codec.encodeKey(row), codec.encodeValue(row), 0, TestingBuffers.Kind.HEAP);
    assertThat(reader.valueBytesLength(1)).isEqualTo(31);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> reader.valueBytesLength(0))
        .isInstanceOf(IllegalArgumentException.class);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> reader.valueBytesLength(2))
        .isInstanceOf(IllegalArgumentException.class);
    // a CHAR's vector for filters drops its padding: rows are never read from it
    VectorColumn chars = VectorColumn.bytesOf(1, DataType.chars(9), true);
    NumberVector vector = new NumberVector(null, new long[] {0}, null, 0, 0);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> chars.objectAt(vector, 0, TypeName.CHAR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("BYTES");
  }

  private Object value(DataType type) {
    return switch (type.name()) {
      case BOOLEAN -> random.nextBoolean();
      case TINYINT -> (byte) random.nextInt();
      case SMALLINT -> (short) random.nextInt();
      case INTEGER -> random.nextInt();
      case BIGINT, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> random.nextLong();
      case FLOAT -> random.nextFloat() * 1000 - 500;
      case DOUBLE -> random.nextGaussian() * 1e6;
      case DECIMAL -> BigDecimal.valueOf(random.nextLong() % 1_000_000_000_000L, type.scale());
      case DATE -> LocalDate.ofEpochDay(random.nextInt(40_000) - 10_000);
      case TIME -> LocalTime.ofNanoOfDay(Math.floorMod(random.nextLong(), 86_400_000_000_000L));
      case VARCHAR -> "aé€z0123 long tail".substring(0, random.nextInt(19)); // 0 to 22 bytes
      case CHAR -> { // padded to its length, as SQL stores it
        String chars = "aé€z0123".substring(0, random.nextInt(9));
        yield chars + " ".repeat(type.precision() - chars.length());
      }
      case VARBINARY -> {
        byte[] bytes = new byte[random.nextInt(40)];
        random.nextBytes(bytes);
        yield bytes;
      }
      default -> throw new IllegalArgumentException(type.toString());
    };
  }
}
