package io.cairn.store;

import static io.cairn.store.TestingTables.LAYOUT;
import static io.cairn.store.TestingTables.V;
import static io.cairn.store.TestingTables.delete;
import static io.cairn.store.TestingTables.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexCheck;
import io.cairn.kv.IndexSpec;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Local indexes under concurrent writers: updates and deletes of the same rows, flushes,
 * compactions and splits meanwhile, and an index built while it all goes on; the indexes agree with
 * their rows at the end.
 */
class TestLocalIndexConcurrency {
  static final IndexSpec FIRST =
      new IndexSpec(1, List.of(V), List.of(SortOrder.ASC), List.of(), true);
  static final IndexSpec BUILT_LATER =
      new IndexSpec(2, List.of(V), List.of(SortOrder.DESC), List.of(0), false);

  @TempDir Path dir;

  @Test
  void indexesAgreeWithTheirRowsAfterConcurrentWritesSplitsAndABuild() throws Exception {
    Map<String, String> small =
        Map.of(
            StoreConfig.MEMSTORE_FLUSH_SIZE, "32k",
            StoreConfig.REGION_SPLIT_SIZE, "16k",
            StoreConfig.COMPACTION_MIN_FILES, "3",
            StoreConfig.COMPACTION_THROUGHPUT, "0");
    try (EmbeddedStore store = EmbeddedStore.open(dir.resolve("s"), StoreConfig.from(small))) {
      KvTable t = store.createTable("T");
      t.defineIndexes(LAYOUT, List.of(FIRST));
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 3; w++) {
        long seed = 17 + w;
        writers.add(
            pool.submit(
                () -> {
                  SplittableRandom random = new SplittableRandom(seed);
                  while (!stop.get()) {
                    List<Mutation> batch = new ArrayList<>();
                    for (int i = 1 + random.nextInt(4); i > 0; i--) {
                      long k = random.nextInt(400);
                      batch.add(random.nextInt(5) == 0 ? delete(k) : put(k, random.nextInt(30)));
                    }
                    t.mutate(batch);
                  }
                  return null;
                }));
      }
      writers.add(
          pool.submit(
              () -> {
                while (!stop.get()) {
                  t.flush();
                  t.split();
                  t.compact(false);
                }
                return null;
              }));
      TimeUnit.MILLISECONDS.sleep(300);
      t.defineIndexes(LAYOUT, List.of(FIRST, BUILT_LATER));
      t.buildIndex(BUILT_LATER.indexId(), n -> {});
      TimeUnit.MILLISECONDS.sleep(300);
      stop.set(true);
      for (Future<?> f : writers) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      IndexCheck first = t.verifyIndex(FIRST.indexId());
      IndexCheck later = t.verifyIndex(BUILT_LATER.indexId());
      assertThat(first.samples()).isEmpty();
      assertThat(later.samples()).isEmpty();
      assertThat(first.consistent()).isTrue();
      assertThat(later.consistent()).isTrue();
      assertThat(first.rows()).isPositive().isEqualTo(later.entries());
      assertThat(t.regions().size()).isGreaterThan(1);
    }
  }
}
