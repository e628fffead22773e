package io.cairn.store;

import static io.cairn.store.TestingTables.delete;
import static io.cairn.store.TestingTables.key;
import static io.cairn.store.TestingTables.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.StoreCatalog;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.TableSpec;
import io.cairn.kv.TableStatistics;
import io.cairn.store.stats.StatisticsCollector;
import io.cairn.store.stats.StatisticsTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Statistics of the embedded store: collection, guide posts, persistence, refresh. */
class TestTableStatistics {
  @TempDir Path dir;

  /** Raw bytes of one row of {@link TestingTables}: a key and a value. */
  private static final long ROW_BYTES =
      key(0).length() + ((Mutation.Put) put(0, 0)).value().length();

  private static final Map<String, String> NO_BACKGROUND =
      Map.of(
          StoreConfig.COMPACTION_MIN_FILES, "100",
          StoreConfig.COMPACTION_MAX_FILES, "100",
          StoreConfig.COMPACTION_THROUGHPUT, "0");

  private EmbeddedStore open() {
    return EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(NO_BACKGROUND));
  }

  /**
   * The table's statistics once the background collections its flushes, compactions and splits ask
   * for have run (unchanged for half a second; at most 30 s): a collection that ends after a test
   * read them would change what the store persists (CI saw a daughter's halved chunk, 5 rows,
   * counted exactly, 9, after the test's read).
   */
  private static TableStatistics settled(KvTable t) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
    TableStatistics last = t.statistics();
    long stableSince = System.nanoTime();
    while (System.nanoTime() - stableSince < 500_000_000L && System.nanoTime() < deadline) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      TableStatistics now = t.statistics();
      if (!now.equals(last)) {
        last = now;
        stableSince = System.nanoTime();
      }
    }
    return last;
  }

  private static void putRange(KvTable t, int from, int to) {
    List<Mutation> batch = new ArrayList<>();
    for (int i = from; i < to; i++) {
      batch.add(put(i, i));
    }
    t.mutate(batch);
  }

  /** Checks the chunks cover the key space in order and returns them. */
  private static List<TableStatistics.Chunk> chunks(TableStatistics s) {
    List<TableStatistics.Chunk> c = s.chunks();
    assertThat(c.get(0).start()).isEqualTo(Bytes.EMPTY);
    assertThat(c.get(c.size() - 1).stop()).isEqualTo(Bytes.EMPTY);
    for (int i = 1; i < c.size(); i++) {
      assertThat(c.get(i).start())
          .as("chunk %s starts where %s stops", i, i - 1)
          .isEqualTo(c.get(i - 1).stop());
      assertThat(c.get(i).start().compareTo(c.get(i - 1).start())).isPositive();
    }
    return c;
  }

  /**
   * A store that took no write since it opened closes while its statistics thread reads a region:
   * the collection stops (interrupted) before the store's files, cache and buffer pool close, so no
   * buffer is left out of a closed pool (the leak check after each test) and the thread has ended
   * when close returns. Before, close only dropped the waiting work and went on.
   */
  @Test
  void closeStopsABackgroundCollectionBeforeItClosesTheFiles() throws InterruptedException {
    try (EmbeddedStore store = open()) {
      KvTable t = store.createTable("T");
      for (int from = 0; from < 600_000; from += 100_000) {
        putRange(t, from, from + 100_000);
      }
      t.flush();
    }
    EmbeddedStore store = open();
    EmbeddedTable t = (EmbeddedTable) store.table("T").orElseThrow();
    Thread collecting = null;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (collecting == null && System.nanoTime() < deadline) {
      // a collection may end between two looks at the threads (a fast machine): ask again
      Future<?> collection = store.collectInBackground(t, t.regionList().get(0));
      while (collecting == null && !collection.isDone() && System.nanoTime() < deadline) {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
          if (collects(thread)) {
            collecting = thread;
          }
        }
        Thread.sleep(1);
      }
    }
    assertThat(collecting).as("a background collection reading the region").isNotNull();
    store.close();
    assertThat(collects(collecting)).as("the statistics thread collects after close").isFalse();
    collecting.join(1000);
    assertThat(collecting.isAlive()).as("the statistics thread after close").isFalse();
  }

  private static boolean collects(Thread thread) {
    for (StackTraceElement frame : thread.getStackTrace()) {
      if (frame.getMethodName().equals("collect")
          && frame.getClassName().endsWith("StatisticsKeeper")) {
        return true;
      }
    }
    return false;
  }

  @Test
  void newTableHasEmptyStatistics() {
    try (EmbeddedStore store = new EmbeddedStore("mem")) {
      KvTable t = store.createTable("T");
      TableStatistics s = t.statistics();
      assertThat(chunks(s)).hasSize(1);
      assertThat(s.rows()).isZero();
      assertThat(s.guidePostWidth()).isEqualTo(32L << 20);
      assertThat(s.collectedAtMillis()).isPositive();
    }
  }

  @Test
  void updateStatisticsCountsVisibleRowsInMemory() {
    try (EmbeddedStore store = new EmbeddedStore("mem")) {
      KvTable t = store.createTable("T");
      putRange(t, 0, 100);
      t.mutate(List.of(put(5, 55), delete(7), delete(500)));
      assertThat(t.statistics().rows()).as("not collected yet").isZero();
      assertThat(t.approximateRowCount()).as("collected + written since").isEqualTo(103);
      TableStatistics s = t.updateStatistics();
      assertThat(chunks(s)).hasSize(1);
      assertThat(s.rows()).isEqualTo(99);
      assertThat(s.bytes()).isEqualTo(99 * ROW_BYTES);
      assertThat(t.statistics()).isEqualTo(s);
      assertThat(t.approximateRowCount()).isEqualTo(99);
    }
  }

  @Test
  void guidePostWidthCutsChunksAndAlterAppliesToTheNextCollection() {
    try (EmbeddedStore store = new EmbeddedStore("mem")) {
      KvTable t =
          store.createTable("T", new TableSpec(Map.of("GUIDE_POSTS_WIDTH", "1"), List.of()));
      putRange(t, 0, 50);
      List<TableStatistics.Chunk> c = chunks(t.updateStatistics());
      assertThat(c).as("a guide post after every row").hasSize(50);
      for (int i = 0; i < 50; i++) {
        assertThat(c.get(i).rows()).isEqualTo(1);
        assertThat(c.get(i).bytes()).isEqualTo(ROW_BYTES);
        if (i > 0) {
          assertThat(c.get(i).start()).isEqualTo(key(i));
        }
      }
      t.alter(Map.of("GUIDE_POSTS_WIDTH", Long.toString(10 * ROW_BYTES)));
      assertThat(t.statistics().chunks()).as("until the next collection").hasSize(50);
      TableStatistics s = t.updateStatistics();
      assertThat(s.guidePostWidth()).isEqualTo(10 * ROW_BYTES);
      assertThat(chunks(s)).hasSize(5);
      assertThat(s.chunks()).allSatisfy(ch -> assertThat(ch.rows()).isEqualTo(10));
    }
  }

  @Test
  void widthOfOneByteIsCappedPerRegion() {
    try (EmbeddedStore store = new EmbeddedStore("mem")) {
      KvTable t =
          store.createTable("T", new TableSpec(Map.of("GUIDE_POSTS_WIDTH", "1"), List.of()));
      int n = StatisticsCollector.MAX_CHUNKS_PER_REGION * 3;
      for (int i = 0; i < n; i += 1000) {
        putRange(t, i, Math.min(n, i + 1000));
      }
      TableStatistics s = t.updateStatistics();
      assertThat(chunks(s).size()).isLessThanOrEqualTo(StatisticsCollector.MAX_CHUNKS_PER_REGION);
      assertThat(s.rows()).isEqualTo(n);
    }
  }

  @Test
  void inMemoryStoreRefreshesStaleRegionsInTheBackground() throws Exception {
    try (EmbeddedStore store = new EmbeddedStore("mem")) {
      KvTable t = store.createTable("T");
      putRange(t, 0, 500);
      Thread.sleep(200);
      assertThat(t.statistics().rows()).as("below the refresh threshold").isZero();
      putRange(t, 500, 2000);
      awaitRows(t, 2000);
      t.updateStatistics();
      putRange(t, 2000, 2150); // 7.5%: stays stale-but-acceptable
      Thread.sleep(200);
      assertThat(t.statistics().rows()).isEqualTo(2000);
      assertThat(t.approximateRowCount()).isEqualTo(2150);
    }
  }

  private static void awaitRows(KvTable t, long rows) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (t.statistics().rows() != rows && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(t.statistics().rows()).isEqualTo(rows);
  }

  @Test
  void flushAndCompactionCollect() {
    try (EmbeddedStore store = open()) {
      KvTable t =
          store.createTable(
              "T",
              new TableSpec(Map.of("GUIDE_POSTS_WIDTH", Long.toString(10 * ROW_BYTES)), List.of()));
      putRange(t, 0, 100);
      t.flush();
      TableStatistics afterFlush = t.statistics();
      assertThat(chunks(afterFlush)).hasSize(10);
      assertThat(afterFlush.rows()).isEqualTo(100);
      assertThat(t.approximateRowCount()).isEqualTo(100);

      putRange(t, 100, 150); // appended: new guide posts
      t.mutate(List.of(put(3, 33))); // an update: counted twice until compaction
      t.flush();
      TableStatistics second = t.statistics();
      assertThat(second.rows()).isEqualTo(151);
      assertThat(chunks(second)).hasSize(15);

      t.mutate(List.of(delete(0), delete(1)));
      t.flush();
      t.compact(true);
      TableStatistics compacted = t.statistics();
      assertThat(compacted.rows()).isEqualTo(148);
      assertThat(compacted.bytes()).isEqualTo(148 * ROW_BYTES);
      assertThat(t.updateStatistics().rows()).isEqualTo(148);
    }
  }

  @Test
  void statisticsSurviveRestartAndSplitsGiveDaughtersTheirHalves() {
    TableStatistics before;
    try (EmbeddedStore store = open()) {
      KvTable t =
          store.createTable(
              "T",
              new TableSpec(Map.of("GUIDE_POSTS_WIDTH", Long.toString(10 * ROW_BYTES)), List.of()));
      putRange(t, 0, 200);
      t.flush();
      t.compact(true);
      t.split();
      before = settled(t);
      assertThat(t.regions()).hasSize(2);
      assertThat(chunks(before).stream().map(TableStatistics.Chunk::regionId).distinct())
          .hasSize(2);
      assertThat(before.rows()).isEqualTo(200);
    }
    try (EmbeddedStore store = open()) {
      KvTable t = store.table("T").orElseThrow();
      assertThat(t.statistics()).as("read back, not rescanned").isEqualTo(before);
      assertThat(t.approximateRowCount()).isEqualTo(200);
      store.dropTable("T");
    }
    try (EmbeddedStore store = open()) {
      KvTable stats =
          store.tables().stream()
              .filter(k -> k.name().equals(StatisticsTable.NAME))
              .findFirst()
              .orElseThrow();
      assertThat(TestingTables.readAll(stats, TestingTables.scanAll()))
          .as("a dropped table's rows are deleted")
          .isEmpty();
    }
  }

  @Test
  void statisticsViewShowsChunksUnderSqlNames() {
    try (EmbeddedStore store = open()) {
      StoreCatalog catalog = StoreCatalog.open(store);
      store.useSqlNames(catalog::tables); // as the catalog's owner (the driver, the server) does
      TableDescriptor draft =
          new TableDescriptor(
              0,
              "S",
              "T",
              List.of(new ColumnDescriptor("K", 1, DataType.BIGINT.withNullable(false))),
              List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
              Map.of("GUIDE_POSTS_WIDTH", "1"),
              1);
      TableDescriptor t = catalog.createTable(draft, false, List.of()).orElseThrow();
      KvTable kv = store.table(t.kvTableName()).orElseThrow();
      putRange(kv, 0, 3);
      kv.updateStatistics();
      KvTable view = store.table(StatisticsTable.NAME).orElseThrow();
      assertThat(view)
          .as("the view, not the KV table behind it")
          .isInstanceOf(SystemViewTable.class);
      assertThat(view.statistics().chunks()).hasSize(1);
      // SYSTEM.CATALOG and SYSTEM.STATS one chunk each, S.T a chunk per row
      assertThat(view.approximateRowCount()).isEqualTo(5);
    }
  }
}
