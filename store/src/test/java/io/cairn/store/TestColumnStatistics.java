package io.cairn.store;

import static io.cairn.store.TestingTables.LAYOUT;
import static io.cairn.store.TestingTables.key;
import static io.cairn.store.TestingTables.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cairn.kv.ColumnStatistics;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.TableSpec;
import io.cairn.store.stats.DistinctSketch;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Column statistics (issue 18, join order): each column's distinct values, nulls, min and max,
 * collected with the guide posts once the catalog defined the layout, merged over regions, kept
 * through a split.
 */
class TestColumnStatistics {
  private static final TableSpec TWO_REGIONS = new TableSpec(Map.of(), List.of(key(5000)));

  @TempDir Path dir;

  /** Rows K in [from, to) with V = K mod {@code values}, or null every {@code nullEvery} rows. */
  private static void putRange(KvTable t, int from, int to, int values, int nullEvery) {
    List<Mutation> batch = new ArrayList<>();
    for (int i = from; i < to; i++) {
      batch.add(put(i, nullEvery > 0 && i % nullEvery == 0 ? null : i % values));
    }
    t.mutate(batch);
  }

  @Test
  void updateStatisticsCountsDistinctValuesNullsAndBoundsOverRegions() {
    try (EmbeddedStore store = new EmbeddedStore("mem")) {
      KvTable t = store.createTable("T", TWO_REGIONS);
      putRange(t, 0, 10_000, 300, 10);
      t.updateStatistics();
      assertThat(t.columnStatistics()).as("no layout defined: unknown").isEmpty();

      t.defineIndexes(LAYOUT, List.of());
      assertThat(t.columnStatistics()).as("not collected since").isEmpty();
      t.updateStatistics();
      List<ColumnStatistics> columns = t.columnStatistics();
      assertThat(columns).hasSize(2);
      assertThat(columns).as("without the chunks, the same").isEqualTo(t.statistics().columns());
      ColumnStatistics k = columns.get(0);
      assertThat(k.rows()).isEqualTo(10_000);
      assertThat(k.nulls()).isZero();
      assertThat((double) k.distinct()).isCloseTo(10_000, within(500.0));
      assertThat(k.min()).isEqualTo(0L);
      assertThat(k.max()).isEqualTo(9_999L);
      ColumnStatistics v = columns.get(1);
      assertThat(v.nulls()).isEqualTo(1_000);
      // V = K mod 300 in both regions, null where K mod 10 = 0: the 270 values not divisible by 10
      assertThat((double) v.distinct()).isCloseTo(270, within(10.0));
      assertThat(v.min()).isEqualTo(1);
      assertThat(v.max()).isEqualTo(299);
    }
  }

  @Test
  void aSplitKeepsTheColumnStatisticsOfTheTable() {
    try (EmbeddedStore store =
        EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(Map.of()))) {
      KvTable t = store.createTable("T", new TableSpec(Map.of(), List.of()));
      t.defineIndexes(LAYOUT, List.of());
      putRange(t, 0, 4_000, 50, 0);
      t.updateStatistics();
      long before = t.columnStatistics().get(1).distinct();
      t.split();
      assertThat(t.regions()).hasSize(2);
      List<ColumnStatistics> after = t.columnStatistics();
      assertThat(after).hasSize(2);
      assertThat(after.get(1).distinct()).isEqualTo(before);
      assertThat(after.get(1).rows()).isBetween(3_999L, 4_001L);
    }
  }

  @Test
  void theSketchEstimatesWithinAFewPercentAndMergesWithoutDoubleCounting() {
    DistinctSketch a = new DistinctSketch();
    DistinctSketch b = new DistinctSketch();
    for (long i = 0; i < 100_000; i++) {
      a.add(i);
      b.add(i + 50_000); // half shared
    }
    assertThat((double) a.estimate()).isCloseTo(100_000, within(5_000.0));
    a.merge(b);
    assertThat((double) a.estimate()).isCloseTo(150_000, within(7_500.0));
    DistinctSketch small = new DistinctSketch();
    for (int i = 0; i < 25; i++) {
      small.add("value " + i);
      small.add("value " + i); // again
    }
    assertThat(small.estimate()).isEqualTo(25);
    DistinctSketch numbers = new DistinctSketch();
    numbers.add(new java.math.BigDecimal("1.50"));
    numbers.add(new java.math.BigDecimal("1.5"));
    assertThat(numbers.estimate()).as("equal values, different scales").isEqualTo(1);
  }

  @Test
  void columnStatisticsSurviveARestartOfTheDurableStore() {
    List<ColumnStatistics> before;
    try (EmbeddedStore store =
        EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(Map.of()))) {
      KvTable t = store.createTable("T", TWO_REGIONS);
      t.defineIndexes(LAYOUT, List.of());
      putRange(t, 0, 10_000, 300, 10);
      t.updateStatistics();
      before = t.columnStatistics();
      assertThat(before).hasSize(2);
    }
    try (EmbeddedStore store =
        EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(Map.of()))) {
      KvTable t = store.table("T").orElseThrow();
      t.defineIndexes(LAYOUT, List.of()); // what the catalog does at open
      assertThat(t.columnStatistics()).as("read back, not collected again").isEqualTo(before);
      // another layout (a new schema version): they are not trusted
      t.defineIndexes(
          new io.cairn.core.encoding.RowLayout(
              LAYOUT.columns(), LAYOUT.keyColumns(), false, LAYOUT.schemaVersion() + 1),
          List.of());
      assertThat(t.columnStatistics()).isEmpty();
    }
  }

  @Test
  void columnStatisticsMissingAtOpenAreCollectedWithoutAWrite() throws InterruptedException {
    // rows written and flushed before the layout was known (as after a load whose process ended
    // before its background collections ran): at the next open, defining the layout queues a
    // collection of each region; no write, no UPDATE STATISTICS
    try (EmbeddedStore store =
        EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(Map.of()))) {
      KvTable t = store.createTable("T", TWO_REGIONS);
      putRange(t, 0, 10_000, 300, 10);
      t.flush();
    }
    try (EmbeddedStore store =
        EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(Map.of()))) {
      KvTable t = store.table("T").orElseThrow();
      t.defineIndexes(LAYOUT, List.of()); // what the catalog does at open
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (t.columnStatistics().isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      List<ColumnStatistics> columns = t.columnStatistics();
      assertThat(columns).as("collected in the background").hasSize(2);
      assertThat(columns.get(0).rows()).isEqualTo(10_000);
      assertThat((double) columns.get(1).distinct()).isCloseTo(270, within(10.0));
    }
  }

  @Test
  void theBytesOfARegionsColumnStatisticsReadBackAndDamagedOnesAreUnknown() {
    io.cairn.store.stats.RegionColumnStatistics.Collector c =
        new io.cairn.store.stats.RegionColumnStatistics.Collector(LAYOUT);
    for (int i = 0; i < 100; i++) {
      Mutation.Put p = (Mutation.Put) put(i, i % 3 == 0 ? null : i % 7);
      c.addRow(p.key(), p.value());
    }
    io.cairn.store.stats.RegionColumnStatistics s = c.finish(4, 1_700_000_000_000L);
    byte[] bytes = s.toBytes();
    io.cairn.store.stats.RegionColumnStatistics back =
        io.cairn.store.stats.RegionColumnStatistics.fromBytes(4, bytes);
    assertThat(back).isEqualTo(s);
    assertThat(io.cairn.store.stats.RegionColumnStatistics.merge(List.of(back)))
        .isEqualTo(io.cairn.store.stats.RegionColumnStatistics.merge(List.of(s)));
    assertThat(
            io.cairn.store.stats.RegionColumnStatistics.fromBytes(
                4, java.util.Arrays.copyOf(bytes, bytes.length - 3)))
        .as("cut short")
        .isNull();
    byte[] otherVersion = bytes.clone();
    otherVersion[0] = 9;
    assertThat(io.cairn.store.stats.RegionColumnStatistics.fromBytes(4, otherVersion)).isNull();
  }
}
