package io.cairn.store;

import static io.cairn.store.TestingTables.LAYOUT;
import static io.cairn.store.TestingTables.key;
import static io.cairn.store.TestingTables.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.IndexStatistics;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.TableSpec;
import io.cairn.kv.TableStatistics;
import io.cairn.store.stats.IndexRegionStatistics;
import io.cairn.store.stats.StatisticsTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statistics of local indexes (issue 17): each region's own entries cut at guide posts, with the
 * distinct values of the first key part, collected with the table's, kept across a restart, halved
 * by a split, dropped with the index.
 */
class TestIndexStatistics {
  private static final IndexSpec ON_V = TestLocalIndexes.ON_V;

  /** Small guide posts (about 10 entries per chunk) and two regions: K below 100, and above. */
  private static final TableSpec TWO_REGIONS =
      new TableSpec(Map.of("GUIDE_POSTS_WIDTH", "200"), List.of(key(100)));

  private static final Map<String, String> NO_BACKGROUND =
      Map.of(
          StoreConfig.COMPACTION_MIN_FILES, "100",
          StoreConfig.COMPACTION_MAX_FILES, "100",
          StoreConfig.COMPACTION_THROUGHPUT, "0");

  @TempDir Path dir;

  private EmbeddedStore open() {
    return EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(NO_BACKGROUND));
  }

  /** Rows K in [from, to) with V = K mod {@code values}. */
  private static void putRange(KvTable t, int from, int to, int values) {
    List<Mutation> batch = new ArrayList<>();
    for (int i = from; i < to; i++) {
      batch.add(put(i, i % values));
    }
    t.mutate(batch);
  }

  /**
   * Checks each region's chunks cover the index's key range in order, and returns the regions' ids,
   * one per region in the order met.
   */
  private static List<Long> regionsCovering(IndexStatistics s) {
    KeyRange range = IndexKeys.range(s.indexId());
    List<Long> regions = new ArrayList<>();
    Bytes expected = null;
    for (TableStatistics.Chunk c : s.chunks()) {
      if (!regions.contains(c.regionId())) {
        assertThat(expected).as("the previous region's chunks end at the range's end").isNull();
        regions.add(c.regionId());
        assertThat(c.start()).isEqualTo(range.start());
      } else {
        assertThat(c.start()).isEqualTo(expected);
      }
      expected = c.stop().equals(range.stop()) ? null : c.stop();
    }
    assertThat(expected).isNull();
    return regions;
  }

  @Test
  void updateStatisticsCollectsEachRegionsEntriesWithTheirDistinctValues() {
    try (EmbeddedStore store = new EmbeddedStore("mem")) {
      KvTable t = store.createTable("T", TWO_REGIONS);
      t.defineIndexes(LAYOUT, List.of(ON_V));
      assertThat(t.indexStatistics(ON_V.indexId())).as("never collected").isEmpty();
      putRange(t, 0, 60, 20); // region 1: 60 rows, V in [0, 20)
      putRange(t, 100, 140, 40); // region 2: 40 rows, V in [0, 40)
      t.mutate(List.of(put(0, null))); // a NULL value is an entry, and a value, too

      TableStatistics table = t.updateStatistics();
      assertThat(table.rows()).as("the table's rows leave the entries out").isEqualTo(100);
      IndexStatistics s = t.indexStatistics(ON_V.indexId()).orElseThrow();
      assertThat(regionsCovering(s)).hasSize(2);
      assertThat(s.rows()).isEqualTo(100);
      assertThat(s.chunks().size()).as("cut at guide posts").isGreaterThan(4);
      assertThat(s.minDistinctFirstParts()).isEqualTo(40);
      assertThat(s.maxDistinctFirstParts()).as("NULL and 0..19, then 0..39").isEqualTo(21 + 40);
      assertThat(s.guidePostWidth()).isEqualTo(200);
      assertThat(s.collectedAtMillis()).isPositive();
      // the chunks of region 1 hold the 61 values' entries in order: the last ones V = 19
      long regionOne = s.chunks().get(0).regionId();
      assertThat(
              s.chunks().stream()
                  .filter(c -> c.regionId() == regionOne)
                  .mapToLong(TableStatistics.Chunk::rows)
                  .sum())
          .isEqualTo(60);
      assertThat(t.indexStatistics(99)).as("no such index").isEmpty();
    }
  }

  @Test
  void statisticsSurviveRestartGoWithTheIndexAndSplitsHalveThem() {
    IndexStatistics before;
    try (EmbeddedStore store = open()) {
      KvTable t = store.createTable("T", TWO_REGIONS);
      t.defineIndexes(LAYOUT, List.of(ON_V));
      putRange(t, 0, 100, 10);
      putRange(t, 100, 300, 50);
      t.updateStatistics();
      before = t.indexStatistics(ON_V.indexId()).orElseThrow();
      assertThat(before.rows()).isEqualTo(300);
    }
    try (EmbeddedStore store = open()) {
      KvTable t = store.table("T").orElseThrow();
      t.defineIndexes(LAYOUT, List.of(ON_V)); // as the catalog does at open
      assertThat(t.indexStatistics(ON_V.indexId())).as("read back").contains(before);

      t.flush();
      t.split();
      assertThat(t.regions()).hasSize(4);
      IndexStatistics split = t.indexStatistics(ON_V.indexId()).orElseThrow();
      assertThat(regionsCovering(split)).hasSize(4);
      assertThat(split.rows())
          .as("each daughter half its parent's")
          .isBetween(300L, 300L + split.chunks().size());
      assertThat(t.updateStatistics().rows()).isEqualTo(300);
      IndexStatistics recollected = t.indexStatistics(ON_V.indexId()).orElseThrow();
      assertThat(recollected.rows()).isEqualTo(300);
      assertThat(recollected.maxDistinctFirstParts()).isEqualTo(10 + 10 + 50 + 50);

      t.defineIndexes(LAYOUT, List.of()); // DROP INDEX
      assertThat(t.indexStatistics(ON_V.indexId())).isEmpty();
    }
    try (EmbeddedStore store = open()) {
      KvTable t = store.table("T").orElseThrow();
      assertThat(t.indexStatistics(ON_V.indexId())).isEmpty();
      KvTable kv =
          store.tables().stream()
              .filter(k -> k.name().equals(StatisticsTable.NAME))
              .findFirst()
              .orElseThrow();
      assertThat(new StatisticsTable(kv).readAllIndexes())
          .as("a dropped index's rows are deleted")
          .isEmpty();
      assertThat(new StatisticsTable(kv).readAll().get("T")).as("the table's stay").hasSize(4);
    }
  }

  @Test
  void droppedTableDropsItsIndexesStatistics() {
    try (EmbeddedStore store = open()) {
      KvTable t = store.createTable("T", TWO_REGIONS);
      t.defineIndexes(LAYOUT, List.of(ON_V));
      putRange(t, 0, 200, 7);
      t.updateStatistics();
      store.dropTable("T");
    }
    try (EmbeddedStore store = open()) {
      KvTable kv =
          store.tables().stream()
              .filter(k -> k.name().equals(StatisticsTable.NAME))
              .findFirst()
              .orElseThrow();
      Map<String, List<IndexRegionStatistics>> rows = new StatisticsTable(kv).readAllIndexes();
      assertThat(rows).isEmpty();
    }
  }

  @Test
  void aBuildCollectsTheNewIndexsStatisticsInTheBackground() throws Exception {
    try (EmbeddedStore store = new EmbeddedStore("mem")) {
      KvTable t = store.createTable("T", TWO_REGIONS);
      putRange(t, 0, 200, 25);
      t.updateStatistics();
      IndexSpec building = ON_V.withReadable(false);
      t.defineIndexes(LAYOUT, List.of(building));
      assertThat(t.buildIndex(building.indexId(), n -> {})).isEqualTo(200);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      Optional<IndexStatistics> s = t.indexStatistics(ON_V.indexId());
      while (s.map(IndexStatistics::rows).orElse(-1L) != 200 && System.nanoTime() < deadline) {
        Thread.sleep(10);
        s = t.indexStatistics(ON_V.indexId());
      }
      assertThat(s).isPresent();
      assertThat(s.get().rows()).isEqualTo(200);
      assertThat(s.get().minDistinctFirstParts()).isEqualTo(25);
    }
  }
}
