package io.cairn.jdbc.internal.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.kv.TableStatistics;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestScanChunks {
  private static Bytes key(int b) {
    return Bytes.wrap(new byte[] {(byte) b});
  }

  /** Chunks [, 10) [10, 20) [20, 30) [30, ) with 100 rows each. */
  private static TableStatistics statistics() {
    List<TableStatistics.Chunk> chunks = new ArrayList<>();
    chunks.add(new TableStatistics.Chunk(1, Bytes.EMPTY, key(10), 100, 1000));
    chunks.add(new TableStatistics.Chunk(1, key(10), key(20), 100, 1000));
    chunks.add(new TableStatistics.Chunk(2, key(20), key(30), 100, 1000));
    chunks.add(new TableStatistics.Chunk(2, key(30), Bytes.EMPTY, 100, 1000));
    return new TableStatistics(10, chunks, 0);
  }

  @Test
  void aFullScanIsOneUnitPerChunk() {
    List<ScanChunks.Unit> units = ScanChunks.cut(List.of(KeyRange.ALL), statistics());
    assertThat(units)
        .extracting(ScanChunks.Unit::ranges)
        .containsExactly(
            List.of(new KeyRange(Bytes.EMPTY, key(10))),
            List.of(new KeyRange(key(10), key(20))),
            List.of(new KeyRange(key(20), key(30))),
            List.of(new KeyRange(key(30), Bytes.EMPTY)));
    assertThat(units).extracting(ScanChunks.Unit::rows).containsOnly(100L);
  }

  @Test
  void aRangeIsCutAtChunkBoundariesAndUntouchedChunksAreLeftOut() {
    List<ScanChunks.Unit> units =
        ScanChunks.cut(List.of(new KeyRange(key(15), key(25))), statistics());
    assertThat(units)
        .extracting(ScanChunks.Unit::ranges)
        .containsExactly(
            List.of(new KeyRange(key(15), key(20))), List.of(new KeyRange(key(20), key(25))));
  }

  @Test
  void theRangesOfASkipScanInOneChunkAreOneUnit() {
    List<KeyRange> points = new ArrayList<>();
    for (int k = 11; k < 20; k += 2) {
      points.add(KeyRange.point(key(k)));
    }
    points.add(KeyRange.point(key(35)));
    List<ScanChunks.Unit> units = ScanChunks.cut(points, statistics());
    assertThat(units).hasSize(2);
    assertThat(units.get(0).ranges()).isEqualTo(points.subList(0, 5));
    assertThat(units.get(1).ranges()).containsExactly(KeyRange.point(key(35)));
  }

  @Test
  void rangesEndingAtABoundaryAndPointsOnABoundaryGoToOneChunk() {
    List<KeyRange> ranges =
        List.of(
            new KeyRange(key(5), key(10)), KeyRange.point(key(20)), new KeyRange(key(29), key(31)));
    List<ScanChunks.Unit> units = ScanChunks.cut(ranges, statistics());
    assertThat(units)
        .extracting(ScanChunks.Unit::ranges)
        .containsExactly(
            List.of(new KeyRange(key(5), key(10))),
            List.of(KeyRange.point(key(20)), new KeyRange(key(29), key(30))),
            List.of(new KeyRange(key(30), key(31))));
  }

  @Test
  void noRangesMeansNoUnits() {
    assertThat(ScanChunks.cut(List.of(), statistics())).isEmpty();
  }

  @Test
  void oneChunkCoversEverything() {
    TableStatistics one =
        new TableStatistics(
            -1, List.of(new TableStatistics.Chunk(1, Bytes.EMPTY, Bytes.EMPTY, -1, -1)), 0);
    List<KeyRange> ranges =
        List.of(new KeyRange(key(3), key(4)), new KeyRange(key(7), Bytes.EMPTY));
    assertThat(ScanChunks.cut(ranges, one))
        .extracting(ScanChunks.Unit::ranges)
        .containsExactly(ranges);
  }

  private static ScanChunks.Unit unit(int start, int stop, long rows) {
    return new ScanChunks.Unit(List.of(new KeyRange(key(start), key(stop))), rows, rows * 10);
  }

  @Test
  void coalescedUnitsJoinNeighboursOfAboutEqualRowsAndTheirAdjacentRanges() {
    List<ScanChunks.Unit> units =
        List.of(
            unit(1, 2, 100),
            unit(2, 3, 100),
            unit(3, 4, 100),
            unit(5, 6, 100),
            unit(6, 7, 400),
            unit(7, 8, 100));
    List<ScanChunks.Unit> joined = ScanChunks.coalesce(units, 2);
    assertThat(joined)
        .extracting(ScanChunks.Unit::ranges)
        .containsExactly(
            List.of(new KeyRange(key(1), key(4)), new KeyRange(key(5), key(6))),
            List.of(new KeyRange(key(6), key(8))));
    // 900 rows: 400 and 500 (the boundary nearest to 450), not 800 and 100
    assertThat(joined).extracting(ScanChunks.Unit::rows).containsExactly(400L, 500L);
    assertThat(joined).extracting(ScanChunks.Unit::bytes).containsExactly(4000L, 5000L);
  }

  @Test
  void coalescingMakesTheCountAskedForEvenWhenTheRowsLeanToOneEnd() {
    List<ScanChunks.Unit> units =
        List.of(unit(1, 2, 1000), unit(2, 3, 1), unit(3, 4, 1), unit(4, 5, 1));
    assertThat(ScanChunks.coalesce(units, 3))
        .extracting(ScanChunks.Unit::rows)
        .containsExactly(1000L, 1L, 2L);
    List<ScanChunks.Unit> lastHeavy =
        List.of(unit(1, 2, 1), unit(2, 3, 1), unit(3, 4, 1), unit(4, 5, 1000));
    assertThat(ScanChunks.coalesce(lastHeavy, 3))
        .extracting(ScanChunks.Unit::rows)
        .containsExactly(2L, 1L, 1000L);
  }

  @Test
  void coalescingUnitsOfUnknownRowsCountsUnits() {
    List<ScanChunks.Unit> units = new ArrayList<>();
    for (int k = 0; k < 7; k++) {
      units.add(new ScanChunks.Unit(List.of(KeyRange.point(key(k * 2))), -1, -1));
    }
    List<ScanChunks.Unit> joined = ScanChunks.coalesce(units, 3);
    assertThat(joined).extracting(u -> u.ranges().size()).containsExactly(2, 3, 2);
    assertThat(joined).extracting(ScanChunks.Unit::rows).containsOnly(-1L);
  }
}
