package io.cairn.store;

import static io.cairn.store.TestingTables.delete;
import static io.cairn.store.TestingTables.insert;
import static io.cairn.store.TestingTables.key;
import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static io.cairn.store.TestingTables.scanAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import io.cairn.kv.TableSpec;
import io.cairn.store.region.Region;
import io.cairn.store.stats.StatisticsTable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestDurableStore {
  @TempDir Path dir;

  private static final Map<String, String> SMALL =
      Map.of(
          StoreConfig.MEMSTORE_FLUSH_SIZE, "64k",
          StoreConfig.REGION_SPLIT_SIZE, "8k",
          StoreConfig.COMPACTION_MIN_FILES, "3",
          StoreConfig.COMPACTION_THROUGHPUT, "0");

  private EmbeddedStore open(Map<String, String> settings) {
    return EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(settings));
  }

  private static List<List<Object>> rows(long... kv) {
    List<List<Object>> out = new ArrayList<>();
    for (int i = 0; i < kv.length; i += 2) {
      out.add(List.of(kv[i], (int) kv[i + 1]));
    }
    return out;
  }

  @Test
  void keepsRowsAcrossCloseAndReopen() throws Exception {
    try (EmbeddedStore store = open(Map.of())) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 10), put(2, 20)));
      t.mutate(List.of(delete(1), put(3, 30)));
    }
    try (var segments = Files.list(dir.resolve("store").resolve("wal"))) {
      assertThat(segments.map(p -> p.getFileName().toString()))
          .as("log segments after a close that flushed everything (the marker stays)")
          .containsExactly("wal.marker");
    }
    try (EmbeddedStore store = open(Map.of())) {
      KvTable t = store.table("T").orElseThrow();
      assertThat(readAll(t, scanAll())).isEqualTo(rows(2, 20, 3, 30));
      t.mutate(List.of(put(4, 40)));
    }
    try (EmbeddedStore store = open(Map.of())) {
      assertThat(readAll(store.table("T").orElseThrow(), scanAll()))
          .isEqualTo(rows(2, 20, 3, 30, 4, 40));
    }
  }

  @Test
  void replaysTheLogWhenNotClosed() {
    EmbeddedStore crashed = open(Map.of());
    KvTable t = crashed.createTable("T");
    t.mutate(List.of(put(1, 10), put(2, 20)));
    t.flush();
    t.mutate(List.of(put(3, 30), delete(2)));
    // abandon without close, as a killed process would: release the lock by hand
    crashed.abandonForTesting();
    try (EmbeddedStore store = open(Map.of())) {
      assertThat(readAll(store.table("T").orElseThrow(), scanAll())).isEqualTo(rows(1, 10, 3, 30));
    }
  }

  @Test
  void flushCompactionAndSplitKeepAnswers() {
    try (EmbeddedStore store = open(SMALL)) {
      KvTable t = store.createTable("T");
      for (int round = 0; round < 6; round++) {
        List<Mutation> batch = new ArrayList<>();
        for (int k = 0; k < 5000; k++) {
          batch.add(put(k, round * 1000 + k));
        }
        t.mutate(batch);
        t.flush();
        // regions split in the background during the flush are flushed too (their daughters')
        assertThat(t.regions())
            .as("regions after a flush, round " + round)
            .allSatisfy(r -> assertThat(r.memstoreBytes()).isZero());
      }
      t.mutate(List.of(delete(7)));
      t.compact(true);
      assertThat(t.regions().size()).isGreaterThan(1);
      assertThat(t.approximateRowCount())
          .as("files shared after a split count once")
          .isBetween(4999L, 5001L);
      List<List<Object>> all = readAll(t, scanAll());
      assertThat(all).hasSize(4999);
      assertThat(all.get(0)).isEqualTo(List.of(0L, 5000));
      assertThat(all.get(7)).isEqualTo(List.of(8L, 5008));
    }
    try (EmbeddedStore store = open(SMALL)) {
      KvTable t = store.table("T").orElseThrow();
      assertThat(t.regions().size()).isGreaterThan(1);
      assertThat(readAll(t, scanAll())).hasSize(4999);
      assertThat(t.regions().get(0).range().start().isEmpty()).isTrue();
      assertThat(t.regions().get(t.regions().size() - 1).range().stop().isEmpty()).isTrue();
    }
  }

  /**
   * The daughters of a split list their parent's files, half of whose cells are the sister's: a
   * daughter decides to split again on its own half, and compacts the inherited files into files of
   * its own even when the size policy would pick none (before: each daughter counted the whole
   * files, split again, and so did its daughters, thousands of regions while compactions waited).
   */
  @Test
  void aDaughterSplitsOnItsOwnCellsNotOnTheFilesItInherited() {
    Map<String, String> waiting =
        Map.of(
            StoreConfig.COMPACTION_MIN_FILES, "1000",
            StoreConfig.COMPACTION_MAX_FILES, "1000",
            StoreConfig.COMPACTION_THROUGHPUT, "0");
    long fileBytes;
    try (EmbeddedStore store = open(waiting)) {
      KvTable t = store.createTable("T");
      List<Mutation> batch = new ArrayList<>();
      for (int k = 0; k < 20_000; k++) {
        batch.add(put(k, k));
      }
      t.mutate(batch);
      t.flush();
      fileBytes = t.regions().get(0).fileBytes();
      t.split();
      assertThat(t.regions()).hasSize(2);
    }
    Map<String, String> smaller = new java.util.HashMap<>(waiting);
    smaller.put(StoreConfig.REGION_SPLIT_SIZE, Long.toString(fileBytes * 3 / 4));
    try (EmbeddedStore store = open(smaller)) {
      EmbeddedTable t = (EmbeddedTable) store.table("T").orElseThrow();
      Region[] daughters = t.peekRegions().clone();
      assertThat(daughters).hasSize(2);
      for (Region daughter : daughters) {
        t.maybeSplit(daughter);
      }
      assertThat(t.regions()).as("regions after asking the daughters to split").hasSize(2);
      for (Region daughter : daughters) {
        t.compactRegion(daughter, false);
      }
      for (Region daughter : t.peekRegions()) {
        assertThat(daughter.fileBytes())
            .as("a daughter's files after its compaction")
            .isLessThan(fileBytes * 3 / 4);
      }
      assertThat(readAll(t, scanAll())).hasSize(20_000);
    }
  }

  @Test
  void aScanKeepsItsSnapshotWhileFilesAreRewritten() {
    try (EmbeddedStore store = open(SMALL)) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 1), put(2, 2)));
      t.flush();
      try (RowScanner scanner = t.scan(scanAll())) {
        t.mutate(List.of(put(1, 100), delete(2), put(3, 3)));
        t.flush();
        t.compact(true);
        List<Object> first = List.of(scanner.next());
        List<Object> second = List.of(scanner.next());
        assertThat(first).isEqualTo(List.of(1L, 1));
        assertThat(second).isEqualTo(List.of(2L, 2));
        assertThat(scanner.next()).isNull();
      }
      assertThat(readAll(t, scanAll())).isEqualTo(rows(1, 100, 3, 3));
    }
  }

  @Test
  void conditionsSeeRowsInFiles() {
    try (EmbeddedStore store = open(Map.of())) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(insert(1, 1)));
      t.flush();
      assertThatThrownBy(() -> t.mutate(List.of(insert(1, 2))))
          .isInstanceOf(ConditionFailedException.class);
      t.mutate(List.of(delete(1)));
      t.flush();
      t.mutate(List.of(insert(1, 3)));
      assertThat(readAll(t, scanAll())).isEqualTo(rows(1, 3));
    }
  }

  @Test
  void splitPointsMakeRegionsThatScansCross() {
    try (EmbeddedStore store = open(Map.of())) {
      KvTable t = store.createTable("T", new TableSpec(Map.of(), List.of(key(10), key(20))));
      assertThat(t.regions()).hasSize(3);
      List<Mutation> batch = new ArrayList<>();
      for (int k = 0; k < 30; k += 3) {
        batch.add(put(k, k));
      }
      t.mutate(batch);
      t.flush();
      assertThat(readAll(t, scanAll())).hasSize(10);
      assertThat(
              readAll(
                  t,
                  TestingTables.request(
                      List.of(new KeyRange(key(8), key(22))),
                      Optional.empty(),
                      List.of(TestingTables.K),
                      -1)))
          .containsExactly(List.of(9L), List.of(12L), List.of(15L), List.of(18L), List.of(21L));
    }
    try (EmbeddedStore store = open(Map.of())) {
      assertThat(store.table("T").orElseThrow().regions()).hasSize(3);
    }
  }

  @Test
  void commitsAcrossTablesAreAtomic() {
    try (EmbeddedStore store = open(Map.of())) {
      KvTable a = store.createTable("A");
      KvTable b = store.createTable("B");
      b.mutate(List.of(put(5, 5)));
      assertThatThrownBy(
              () ->
                  store.mutate(
                      List.of(
                          new io.cairn.kv.KvStore.TableBatch(a, List.of(put(1, 1))),
                          new io.cairn.kv.KvStore.TableBatch(b, List.of(insert(5, 6)))),
                      null))
          .isInstanceOfSatisfying(
              ConditionFailedException.class, e -> assertThat(e.batchIndex()).isEqualTo(1));
      assertThat(readAll(a, scanAll())).isEmpty();
      store.mutate(
          List.of(
              new io.cairn.kv.KvStore.TableBatch(a, List.of(put(1, 1))),
              new io.cairn.kv.KvStore.TableBatch(b, List.of(delete(5), put(6, 6)))),
          null);
      store.abandonForTesting();
    }
    try (EmbeddedStore store = open(Map.of())) {
      assertThat(readAll(store.table("A").orElseThrow(), scanAll())).isEqualTo(rows(1, 1));
      assertThat(readAll(store.table("B").orElseThrow(), scanAll())).isEqualTo(rows(6, 6));
    }
  }

  @Test
  void closingWhileWritersRunKeepsEveryAcknowledgedWrite() throws Exception {
    EmbeddedStore store = open(SMALL);
    KvTable t = store.createTable("T");
    java.util.concurrent.ConcurrentLinkedQueue<Long> acked =
        new java.util.concurrent.ConcurrentLinkedQueue<>();
    List<Thread> writers = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      long base = w * 1_000_000L;
      writers.add(
          new Thread(
              () -> {
                for (long k = base; ; k++) {
                  try {
                    t.mutate(List.of(put(k, (int) k)));
                  } catch (CairnException e) {
                    return; // the store closed under us
                  }
                  acked.add(k);
                }
              }));
    }
    writers.forEach(Thread::start);
    while (acked.size() < 3_000) {
      Thread.sleep(1);
    }
    store.close();
    for (Thread w : writers) {
      w.join();
    }
    try (EmbeddedStore reopened = open(SMALL)) {
      java.util.Set<Long> found = new java.util.HashSet<>();
      for (List<Object> row : readAll(reopened.table("T").orElseThrow(), scanAll())) {
        found.add((Long) row.get(0));
      }
      assertThat(found).containsAll(acked);
    }
  }

  @Test
  void aDroppedTableFailsNewScansWhileOpenOnesFinish() {
    try (EmbeddedStore store = open(SMALL)) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 1), put(2, 2)));
      t.flush();
      try (RowScanner scanner = t.scan(scanAll())) {
        store.dropTable("T");
        assertThat(scanner.next()).containsExactly(1L, 1);
        assertThat(scanner.next()).containsExactly(2L, 2);
        assertThat(scanner.next()).isNull();
      }
      assertThatThrownBy(() -> t.scan(scanAll()))
          .isInstanceOf(CairnException.class)
          .extracting(e -> ((CairnException) e).errorCode())
          .isEqualTo(ErrorCode.TABLE_NOT_FOUND);
    }
  }

  @Test
  void idsAreNeverHandedOutTwice() {
    long first;
    EmbeddedStore crashed = open(Map.of());
    first = crashed.createTable("T").allocateIds(10);
    crashed.abandonForTesting();
    try (EmbeddedStore store = open(Map.of())) {
      assertThat(store.table("T").orElseThrow().allocateIds(1)).isGreaterThanOrEqualTo(first + 10);
    }
  }

  @Test
  void alterChangesTheOptionsOfNewFiles() {
    try (EmbeddedStore store = open(Map.of())) {
      KvTable t = store.createTable("T", new TableSpec(Map.of("COMPRESSION", "NONE"), List.of()));
      t.alter(Map.of("COMPRESSION", "ZSTD"));
      assertThat(t.options()).containsEntry("COMPRESSION", "ZSTD");
    }
    try (EmbeddedStore store = open(Map.of())) {
      assertThat(store.table("T").orElseThrow().options()).containsEntry("COMPRESSION", "ZSTD");
    }
  }

  @Test
  void dropRemovesTheTableDirectory() throws Exception {
    try (EmbeddedStore store = open(Map.of())) {
      KvTable t = store.createTable("T");
      t.mutate(List.of(put(1, 1)));
      t.flush();
      store.dropTable("T");
      long statisticsId =
          ((EmbeddedTable)
                  store.tables().stream()
                      .filter(k -> k.name().equals(StatisticsTable.NAME))
                      .findFirst()
                      .orElseThrow())
              .tableId();
      try (var entries = Files.list(dir.resolve("store").resolve("tables"))) {
        assertThat(entries.map(p -> p.getFileName().toString()))
            .as("only the store's SYSTEM.STATS is left")
            .containsExactly(Long.toString(statisticsId));
      }
      store.createTable("T").mutate(List.of(put(2, 2)));
    }
    try (EmbeddedStore store = open(Map.of())) {
      assertThat(readAll(store.table("T").orElseThrow(), scanAll())).isEqualTo(rows(2, 2));
    }
  }

  @Test
  void rejectsALockedStoreANonStoreAndANewerFormat() throws Exception {
    try (EmbeddedStore store = open(Map.of())) {
      assertThatThrownBy(() -> open(Map.of()))
          .isInstanceOf(CairnException.class)
          .hasMessageContaining("already open")
          .extracting(e -> ((CairnException) e).errorCode())
          .isEqualTo(ErrorCode.STORE_IN_USE);
    }
    Path other = dir.resolve("other");
    Files.createDirectories(other);
    Files.writeString(other.resolve("notes.txt"), "hello", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> EmbeddedStore.open(other, StoreConfig.defaults()))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("Not a Cairn store")
        .hasMessageContaining("notes.txt");
    Path manifest = dir.resolve("store").resolve(EmbeddedStore.STORE_MANIFEST);
    List<String> lines = io.cairn.store.io.AtomicFiles.read(manifest);
    List<String> newer = new ArrayList<>(lines);
    newer.set(0, "cairn-store 99");
    io.cairn.store.io.AtomicFiles.write(manifest, newer);
    assertThatThrownBy(() -> open(Map.of()))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("format version [99]")
        .extracting(e -> ((CairnException) e).errorCode())
        .isEqualTo(ErrorCode.UNSUPPORTED_FORMAT_VERSION);
    io.cairn.store.io.AtomicFiles.write(manifest, lines);
    open(Map.of()).close(); // still openable
  }

  @Test
  void rejectsUnknownSettings() {
    assertThatThrownBy(() -> StoreConfig.from(Map.of("cairn.nope", "1")))
        .hasMessageContaining("Unknown store setting [cairn.nope]");
    assertThatThrownBy(() -> StoreConfig.from(Map.of(StoreConfig.MEMSTORE_FLUSH_SIZE, "lots")))
        .hasMessageContaining("found [lots]");
  }

  @Test
  void aBlockCacheThatDoesNotFitInDirectMemoryFailsAtOpen() {
    assertThatThrownBy(() -> open(Map.of("cairn.block-cache.size", "100000g")))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining("[107374182400000] bytes (cairn.block-cache.size)")
        .hasMessageContaining("buffer pool of [17039360] bytes")
        .hasMessageContaining("-XX:MaxDirectMemorySize");
    assertThatThrownBy(() -> StoreConfig.from(Map.of("cairn.block-cache.size", "100k")))
        .hasMessageContaining("cairn.block-cache.size")
        .hasMessageContaining("found [100k]");
    assertThatThrownBy(() -> StoreConfig.from(Map.of("cairn.read-buffers", "-1")))
        .hasMessageContaining("cairn.read-buffers");
    open(Map.of("cairn.block-cache.size", "0", "cairn.block-cache.l1-size", "0")).close();
    open(Map.of()).close(); // the failed open left no lock behind
  }

  /** Random writes, flushes, compactions, splits and reopenings against a TreeMap. */
  @Test
  void behavesLikeATreeMapThroughFlushesCompactionsAndReopens() {
    for (long seed = 1; seed <= 4; seed++) {
      Random random = new Random(seed);
      TreeMap<Long, Integer> model = new TreeMap<>();
      Path storeDir = dir.resolve("model-" + seed);
      EmbeddedStore store = EmbeddedStore.open(storeDir, StoreConfig.from(SMALL));
      KvTable t = store.createTable("T");
      for (int step = 0; step < 400; step++) {
        int action = random.nextInt(100);
        if (action < 80) {
          List<Mutation> batch = new ArrayList<>();
          for (int i = random.nextInt(50) + 1; i > 0; i--) {
            long k = random.nextInt(3000);
            if (random.nextInt(5) == 0) {
              batch.add(delete(k));
              model.remove(k);
            } else {
              int v = random.nextInt();
              batch.add(put(k, v));
              model.put(k, v);
            }
          }
          t.mutate(batch);
        } else if (action < 88) {
          t.flush();
        } else if (action < 93) {
          t.compact(random.nextBoolean());
        } else if (action < 97) {
          store.close();
          store = EmbeddedStore.open(storeDir, StoreConfig.from(SMALL));
          t = store.table("T").orElseThrow();
        } else {
          store.abandonForTesting();
          store = EmbeddedStore.open(storeDir, StoreConfig.from(SMALL));
          t = store.table("T").orElseThrow();
        }
        if (step % 50 == 49) {
          List<List<Object>> expected = new ArrayList<>();
          model.forEach((k, v) -> expected.add(List.of(k, v)));
          assertThat(readAll(t, scanAll())).as("seed %s step %s", seed, step).isEqualTo(expected);
        }
      }
      List<List<Object>> expected = new ArrayList<>();
      model.forEach((k, v) -> expected.add(List.of(k, v)));
      assertThat(readAll(t, scanAll())).isEqualTo(expected);
      store.close();
    }
  }
}
