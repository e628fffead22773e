package io.cairn.store.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.Values;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.core.type.TypeName;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The column statistics collector reads rows from their bytes; its counts must be those of the
 * decoded rows: the same rows, nulls, smallest and largest values (as decoded, of the same class
 * and scale) and the same sketch as {@link DistinctSketch#add} of each decoded value gives.
 */
class TestRegionColumnStatisticsCollector {
  private static final List<DataType> TYPES =
      List.of(
          DataType.varchar(20), // key, descending
          DataType.BIGINT, // key
          DataType.of(TypeName.TINYINT),
          DataType.of(TypeName.SMALLINT),
          DataType.INTEGER,
          DataType.of(TypeName.DOUBLE),
          DataType.of(TypeName.FLOAT),
          DataType.decimal(15, 2),
          DataType.decimal(38, 4),
          DataType.chars(5),
          DataType.varchar(30),
          DataType.of(TypeName.VARBINARY),
          DataType.of(TypeName.DATE),
          DataType.of(TypeName.TIME),
          DataType.timestamp(3),
          DataType.of(TypeName.BOOLEAN));

  private static final RowLayout LAYOUT = layout();

  private static RowLayout layout() {
    List<RowLayout.ColumnLayout> columns = new ArrayList<>();
    for (int i = 0; i < TYPES.size(); i++) {
      columns.add(new RowLayout.ColumnLayout(i + 1, TYPES.get(i)));
    }
    return new RowLayout(
        columns,
        List.of(
            new RowLayout.KeyColumn(0, SortOrder.DESC), new RowLayout.KeyColumn(1, SortOrder.ASC)),
        false,
        3);
  }

  @Test
  void countsFromTheBytesWhatTheDecodedRowsGive() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    RowCodec codec = new RowCodec(LAYOUT);
    for (int round = 0; round < 20; round++) {
      RegionColumnStatistics.Collector collector = new RegionColumnStatistics.Collector(LAYOUT);
      Model model = new Model(TYPES.size());
      int rows = round == 0 ? 0 : random.nextInt(400);
      int nullPercent = random.nextInt(4) * 30; // 0 to 90: some columns all NULL
      for (int r = 0; r < rows; r++) {
        Object[] row = new Object[TYPES.size()];
        for (int c = 0; c < row.length; c++) {
          row[c] = c < 2 || random.nextInt(100) >= nullPercent ? value(random, c) : null;
        }
        Bytes key = codec.encodeKey(row);
        Bytes value = codec.encodeValue(row);
        model.add(codec.decode(key, value));
        // the value inside a bigger buffer, as a block's rows are
        byte[] padded = new byte[value.length() + 7];
        System.arraycopy(value.peekArray(), 0, padded, 3, value.length());
        byte[] keyPadded = new byte[key.length() + 2];
        System.arraycopy(key.peekArray(), 0, keyPadded, 1, key.length());
        collector.addRow(keyPadded, 1, key.length(), ByteBuffer.wrap(padded), 3, value.length());
      }
      RegionColumnStatistics counted = collector.finish(7, 1_000);
      RegionColumnStatistics expected = model.finish(7, 1_000);
      assertThat(counted).as("seed %s round %s", seed, round).isNotNull();
      assertThat(counted.columns())
          .as("seed %s round %s", seed, round)
          .hasSameSizeAs(expected.columns());
      for (int c = 0; c < TYPES.size(); c++) {
        RegionColumnStatistics.Column got = counted.columns().get(c);
        RegionColumnStatistics.Column want = expected.columns().get(c);
        String what = "seed " + seed + " round " + round + " column " + c;
        assertThat(got.rows()).as(what).isEqualTo(want.rows());
        assertThat(got.nulls()).as(what).isEqualTo(want.nulls());
        assertThat(got.sketch()).as(what).isEqualTo(want.sketch());
        // arrays by content, decimals with their scale, each of the decoded class
        assertThat(got.min()).as(what).isEqualTo(want.min());
        assertThat(got.max()).as(what).isEqualTo(want.max());
        if (want.min() != null) {
          assertThat(got.min()).as(what).isExactlyInstanceOf(want.min().getClass());
          assertThat(got.max()).as(what).isExactlyInstanceOf(want.max().getClass());
        }
      }
    }
  }

  @Test
  void equalDecimalsHashAlikeWhateverTheirScaleOrSize() {
    assertThat(DistinctSketch.hashDecimal(150, 2)).isEqualTo(DistinctSketch.hashDecimal(15, 1));
    assertThat(DistinctSketch.hash(new BigDecimal("1.50")))
        .isEqualTo(DistinctSketch.hashDecimal(15, 1));
    assertThat(DistinctSketch.hash(BigDecimal.ZERO.setScale(4)))
        .isEqualTo(DistinctSketch.hashDecimal(0, 2));
    assertThat(DistinctSketch.hash("héllo"))
        .as("strings hash by their UTF-8 bytes")
        .isEqualTo(DistinctSketch.hash("héllo".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  @Test
  void rowsOfAnotherLayoutMakeTheStatisticsUnknown() {
    RegionColumnStatistics.Collector collector = new RegionColumnStatistics.Collector(LAYOUT);
    collector.addRow(Bytes.wrap(new byte[] {1, 2, 3}), Bytes.wrap(new byte[] {9, 9}));
    assertThat(collector.finish(1, 1)).isNull();
  }

  private static Object value(Random random, int column) {
    return switch (column) {
      case 0 -> "k" + random.nextInt(30) + (random.nextBoolean() ? "\0x" : "");
      case 1 -> random.nextLong();
      case 2 -> (byte) random.nextInt();
      case 3 -> (short) random.nextInt();
      case 4 -> random.nextInt(50) - 25;
      case 5 ->
          switch (random.nextInt(6)) {
            case 0 -> -0.0;
            case 1 -> 0.0;
            case 2 -> Double.NaN;
            default -> random.nextGaussian() * 1e6;
          };
      case 6 -> (float) random.nextGaussian();
      case 7 -> BigDecimal.valueOf(random.nextLong() % 1_000_000_000_000L, 2);
      case 8 ->
          random.nextBoolean()
              ? BigDecimal.valueOf(random.nextInt(1000), 4)
              : new BigDecimal(new BigInteger(120, random), 4).negate();
      case 9 -> "c" + random.nextInt(100);
      case 10 ->
          random.nextBoolean() ? "é" + random.nextInt(100) : "z\uD83D\uDE00" + random.nextInt(9);
      case 11 -> new byte[] {(byte) random.nextInt(), 0, (byte) random.nextInt(3)};
      case 12 -> LocalDate.ofEpochDay(random.nextInt(40_000) - 20_000);
      case 13 -> LocalTime.ofNanoOfDay(random.nextInt(86_400) * 1_000_000_000L);
      case 14 -> LocalDateTime.of(2020, 1, 1, 0, 0).plusSeconds(random.nextInt(1_000_000));
      case 15 -> random.nextBoolean();
      default -> throw new IllegalArgumentException("column " + column);
    };
  }

  /** The statistics as the decoded rows give them. */
  private static final class Model {
    private final DistinctSketch[] sketches;
    private final long[] nulls;
    private final Object[] min;
    private final Object[] max;
    private long rows;

    Model(int columns) {
      sketches = new DistinctSketch[columns];
      for (int i = 0; i < columns; i++) {
        sketches[i] = new DistinctSketch();
      }
      nulls = new long[columns];
      min = new Object[columns];
      max = new Object[columns];
    }

    void add(Object[] row) {
      rows++;
      for (int i = 0; i < row.length; i++) {
        Object v = row[i];
        if (v == null) {
          nulls[i]++;
          continue;
        }
        sketches[i].add(v);
        if (min[i] == null || Values.compare(v, min[i]) < 0) {
          min[i] = v;
        }
        if (max[i] == null || Values.compare(v, max[i]) > 0) {
          max[i] = v;
        }
      }
    }

    RegionColumnStatistics finish(long regionId, long atMillis) {
      List<RegionColumnStatistics.Column> columns = new ArrayList<>();
      for (int i = 0; i < sketches.length; i++) {
        columns.add(new RegionColumnStatistics.Column(sketches[i], rows, nulls[i], min[i], max[i]));
      }
      return new RegionColumnStatistics(regionId, LAYOUT.schemaVersion(), columns, atMillis);
    }
  }
}
