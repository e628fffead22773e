package io.cairn.store;

import static io.cairn.store.TestingTables.key;
import static io.cairn.store.TestingTables.put;
import static io.cairn.store.TestingTables.readAll;
import static io.cairn.store.TestingTables.scanAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.TableSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers, scans, flushes, compactions and splits at once: every batch writes the same value to all
 * keys of its writer, spread over several regions, so a scan that ever sees two different values
 * among one writer's keys saw a partial batch.
 */
class TestDurableStoreConcurrency {
  private static final int WRITERS = 3;
  private static final int KEYS_PER_WRITER = 200;
  private static final int BATCHES = 300;

  @TempDir Path dir;

  @Test
  void scansNeverSeePartialBatchesWhileFilesChange() throws Exception {
    Map<String, String> settings =
        Map.of(
            StoreConfig.MEMSTORE_FLUSH_SIZE, "32k",
            StoreConfig.REGION_SPLIT_SIZE, "1k",
            StoreConfig.COMPACTION_MIN_FILES, "2",
            StoreConfig.COMPACTION_THROUGHPUT, "0");
    try (EmbeddedStore store = EmbeddedStore.open(dir, StoreConfig.from(settings))) {
      KvTable t =
          store.createTable(
              "T", new TableSpec(Map.of(), List.of(key(1_000), key(2_000), key(3_000))));
      AtomicBoolean done = new AtomicBoolean();
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      AtomicInteger scans = new AtomicInteger();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        threads.add(
            new Thread(
                () -> {
                  try {
                    for (int c = 1; c <= BATCHES; c++) {
                      List<Mutation> batch = new ArrayList<>();
                      for (int i = 0; i < KEYS_PER_WRITER; i++) {
                        // writer w owns keys w, w + WRITERS, ... spread over all regions
                        batch.add(put((long) i * 100 + writer, writer * 1_000_000 + c));
                      }
                      t.mutate(batch);
                    }
                  } catch (Throwable e) {
                    failures.add(e);
                  }
                }));
      }
      for (int s = 0; s < 2; s++) {
        threads.add(
            new Thread(
                () -> {
                  try {
                    while (!done.get()) {
                      checkConsistent(readAll(t, scanAll()));
                      scans.incrementAndGet();
                    }
                  } catch (Throwable e) {
                    failures.add(e);
                  }
                }));
      }
      threads.add(
          new Thread(
              () -> {
                try {
                  for (int i = 0; !done.get(); i++) {
                    if (i % 3 == 0) {
                      t.compact(i % 2 == 0);
                    } else {
                      t.flush();
                    }
                  }
                } catch (Throwable e) {
                  failures.add(e);
                }
              }));
      threads.forEach(Thread::start);
      for (int i = 0; i < WRITERS; i++) {
        threads.get(i).join();
      }
      done.set(true);
      for (Thread thread : threads) {
        thread.join();
      }
      assertThat(failures).isEmpty();
      assertThat(scans.get()).isPositive();
      List<List<Object>> last = readAll(t, scanAll());
      assertThat(last).hasSize(WRITERS * KEYS_PER_WRITER);
      assertThat(t.regions()).as("regions after splits").hasSizeGreaterThan(4);
      for (List<Object> row : last) {
        assertThat((Integer) row.get(1) % 1_000_000).isEqualTo(BATCHES);
      }
    }
    try (EmbeddedStore store = EmbeddedStore.open(dir, StoreConfig.from(Map.of()))) {
      List<List<Object>> rows = readAll(store.table("T").orElseThrow(), scanAll());
      assertThat(rows).hasSize(WRITERS * KEYS_PER_WRITER);
      checkConsistent(rows);
    }
  }

  private static void checkConsistent(List<List<Object>> rows) {
    Map<Integer, Set<Integer>> valuesByWriter = new java.util.HashMap<>();
    for (List<Object> row : rows) {
      int writer = (int) ((Long) row.get(0) % 100);
      valuesByWriter.computeIfAbsent(writer, w -> new HashSet<>()).add((Integer) row.get(1));
    }
    valuesByWriter.forEach(
        (writer, values) -> assertThat(values).as("values of writer %s", writer).hasSize(1));
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      long count = rows.stream().filter(r -> (Long) r.get(0) % 100 == writer).count();
      assertThat(count).as("rows of writer %s", w).isIn(0L, (long) KEYS_PER_WRITER);
    }
  }
}
