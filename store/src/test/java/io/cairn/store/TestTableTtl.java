package io.cairn.store;

import static io.cairn.store.TestingTables.insert;
import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static io.cairn.store.TestingTables.scanAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.kv.KvTable;
import io.cairn.kv.TableSpec;
import io.cairn.store.memstore.Memstore;
import io.cairn.store.region.Region;
import io.cairn.store.region.RegionState;
import io.cairn.store.region.StoreFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TTL on the embedded store: expired rows are invisible at once (scans and MUST_NOT_EXIST checks),
 * flushes and compactions purge their cells, ALTER applies to every row, and the time index keeps
 * commit times across a reopen. The tests wait for time to pass (TTL is about time), polling with a
 * deadline.
 */
class TestTableTtl {
  private static final long DEADLINE_MILLIS = 15_000;

  @TempDir Path dir;

  private EmbeddedStore open() {
    return EmbeddedStore.open(dir.resolve("store"), StoreConfig.defaults());
  }

  private static TableSpec ttl(int seconds) {
    return new TableSpec(Map.of("TTL", Integer.toString(seconds)), List.of());
  }

  /** Waits until the table shows {@code rows} rows; returns the time it did (epoch millis). */
  private static long awaitRows(KvTable t, int rows) throws InterruptedException {
    long deadline = System.currentTimeMillis() + DEADLINE_MILLIS;
    while (true) {
      int n = readAll(t, scanAll()).size();
      long now = System.currentTimeMillis();
      if (n == rows) {
        return now;
      }
      assertThat(now).as("waiting for %s rows, found %s", rows, n).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  /** Cells in the table's files and memstores (every version and tombstone). */
  private static long cells(KvTable t) {
    long n = 0;
    for (Region r : ((EmbeddedTable) t).regionList()) {
      RegionState s = r.peekState();
      n += s.active().cellCount();
      for (Memstore m : s.frozen()) {
        n += m.cellCount();
      }
      for (StoreFile f : s.files()) {
        n += f.info().cellCount();
      }
    }
    return n;
  }

  @Test
  void rowsExpireAndCompactionPurgesThem() throws Exception {
    try (EmbeddedStore store = open()) {
      KvTable t = store.createTable("T", ttl(1));
      KvTable kept = store.createTable("KEPT");
      long written = System.currentTimeMillis();
      t.mutate(List.of(put(1, 10), put(2, 20)));
      kept.mutate(List.of(put(1, 10)));
      t.flush();
      assertThat(readAll(t, scanAll())).containsExactly(List.of(1L, 10), List.of(2L, 20));
      assertThat(cells(t)).isEqualTo(2);

      long gone = awaitRows(t, 0);
      assertThat(gone - written).as("expired no earlier than the TTL").isGreaterThanOrEqualTo(1000);
      assertThat(cells(t)).as("hidden, not yet purged").isEqualTo(2);
      t.compact(true);
      assertThat(cells(t)).as("cells after MAJOR_COMPACT").isZero();
      assertThat(readAll(kept, scanAll())).as("a table without TTL").hasSize(1);

      // an expired key is absent for INSERT too
      t.mutate(List.of(put(3, 30)));
      t.flush();
      awaitRows(t, 0);
      t.mutate(List.of(insert(3, 31)));
      assertThat(readAll(t, scanAll())).containsExactly(List.of(3L, 31));
    }
  }

  @Test
  void flushPurgesExpiredMemstoreCells() throws Exception {
    try (EmbeddedStore store = open()) {
      KvTable t = store.createTable("T", ttl(1));
      t.mutate(List.of(put(1, 10)));
      awaitRows(t, 0);
      t.flush();
      assertThat(cells(t)).isZero();
    }
  }

  @Test
  void aRowLivesTtlFromItsLastWrite() throws Exception {
    try (EmbeddedStore store = open()) {
      KvTable t = store.createTable("T", ttl(2));
      t.mutate(List.of(put(1, 10), put(2, 20)));
      t.flush();
      Thread.sleep(1200); // time passing is what this test is about
      long updated = System.currentTimeMillis();
      t.mutate(List.of(put(2, 21)));
      long firstGone = awaitRows(t, 1);
      assertThat(readAll(t, scanAll())).containsExactly(List.of(2L, 21));
      assertThat(firstGone - updated).as("row 1 expired before row 2").isLessThan(2000);
      t.compact(true);
      assertThat(readAll(t, scanAll()))
          .as("the older version of row 2 is expired but the newer one is not")
          .containsExactly(List.of(2L, 21));
      long secondGone = awaitRows(t, 0);
      assertThat(secondGone - updated).isGreaterThanOrEqualTo(2000);
    }
  }

  @Test
  void alterSetsTheTtlOfEveryRow() throws Exception {
    try (EmbeddedStore store = open()) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 10)));
      t.flush();
      t.compact(true);
      t.mutate(List.of(put(2, 20)));
      Thread.sleep(1100);
      assertThat(readAll(t, scanAll())).hasSize(2);
      t.alter(Map.of("TTL", "1"));
      assertThat(readAll(t, scanAll())).as("written over a second ago, even compacted").isEmpty();
      t.alter(Map.of("TTL", "3600"));
      assertThat(readAll(t, scanAll())).as("a longer TTL shows unpurged rows again").hasSize(2);
    }
  }

  @Test
  void theTimeIndexSurvivesAReopen() throws Exception {
    long written = System.currentTimeMillis();
    try (EmbeddedStore store = open()) {
      KvTable t = store.createTable("T", ttl(2));
      t.mutate(List.of(put(1, 10)));
    }
    assertThat(dir.resolve("store").resolve(TimeIndex.FILE_NAME)).exists();
    Thread.sleep(1200);
    long reopened = System.currentTimeMillis();
    try (EmbeddedStore store = open()) {
      KvTable t = store.table("T").orElseThrow();
      assertThat(t.options()).containsEntry("TTL", "2");
      long gone = awaitRows(t, 0);
      assertThat(gone - written).isGreaterThanOrEqualTo(2000);
      assertThat(gone - reopened).as("counted from the write, not the reopen").isLessThan(1900);
    }
  }

  @Test
  void aCrashLosesOnlyPrecision() throws Exception {
    EmbeddedStore crashed = open();
    KvTable c = crashed.createTable("T", ttl(1));
    c.mutate(List.of(put(1, 10)));
    crashed.abandonForTesting();
    Files.deleteIfExists(dir.resolve("store").resolve(TimeIndex.FILE_NAME));
    long reopened = System.currentTimeMillis();
    try (EmbeddedStore store = open()) {
      KvTable t = store.table("T").orElseThrow();
      assertThat(readAll(t, scanAll())).as("counted from the open").hasSize(1);
      long gone = awaitRows(t, 0);
      assertThat(gone - reopened).isGreaterThanOrEqualTo(1000);
    }
  }

  /**
   * A store of an earlier release (golden/store-v1, no time index): its rows count from the open.
   */
  @Test
  void rowsOfAStoreWithoutTimeIndexCountFromTheOpen() throws Exception {
    Path golden =
        Path.of(TestTableTtl.class.getResource("/golden/store-v1/store.manifest").toURI())
            .getParent();
    Path copy = dir.resolve("store");
    try (Stream<Path> walk = Files.walk(golden)) {
      for (Path p : walk.toList()) {
        Path target = copy.resolve(golden.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    assertThat(copy.resolve(TimeIndex.FILE_NAME)).doesNotExist();
    long opened = System.currentTimeMillis();
    try (EmbeddedStore store = open()) {
      // an open changes no file: the index is written with the next flush or close after a write
      assertThat(copy.resolve(TimeIndex.FILE_NAME)).doesNotExist();
      KvTable t = store.table("T").orElseThrow();
      t.compact(true);
      t.alter(Map.of("TTL", "1"));
      assertThat(readAll(t, scanAll())).hasSize(4);
      long gone = awaitRows(t, 0);
      assertThat(gone - opened).isGreaterThanOrEqualTo(1000);
    }
  }

  @Test
  void inMemoryStoreHidesExpiredRows() throws Exception {
    try (EmbeddedStore store = new EmbeddedStore("ttl")) {
      KvTable t = store.createTable("T", ttl(1));
      long written = System.currentTimeMillis();
      t.mutate(List.of(put(1, 10)));
      assertThat(readAll(t, scanAll())).hasSize(1);
      long gone = awaitRows(t, 0);
      assertThat(gone - written).isGreaterThanOrEqualTo(1000);
      t.mutate(List.of(insert(1, 11)));
      assertThat(readAll(t, scanAll())).containsExactly(List.of(1L, 11));
    }
  }
}
