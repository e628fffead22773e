package io.cairn.store;

import static io.cairn.store.TestingTables.put;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TestEmbeddedStoreConcurrency {
  private static final int KEYS = 20;
  private static final int MAX_BATCHES = 10_000;

  /**
   * Every batch sets all keys to one value unique to the batch, so any consistent snapshot has all
   * keys present with equal values; the scanners read slowly while writers keep going.
   */
  @Test
  void scansSeeWholeBatchesAndAStableSnapshot() throws Exception {
    KvTable table = new EmbeddedStore("c").createTable("T");
    table.mutate(batch(0));
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger nextValue = new AtomicInteger(1);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        writers.add(
            pool.submit(
                () -> {
                  int value;
                  while (!stop.get() && (value = nextValue.getAndIncrement()) < MAX_BATCHES) {
                    table.mutate(batch(value));
                  }
                }));
      }
      List<Future<Integer>> scanners = new ArrayList<>();
      for (int s = 0; s < 2; s++) {
        scanners.add(
            pool.submit(
                () -> {
                  int scans = 0;
                  int lastSeen = -1;
                  for (int round = 0; round < 200; round++) {
                    try (RowScanner scanner = table.scan(TestingTables.scanAll())) {
                      List<Object[]> rows = new ArrayList<>();
                      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
                        rows.add(row);
                        if (rows.size() % 10 == 0) {
                          Thread.yield();
                        }
                      }
                      assertThat(rows).hasSize(KEYS);
                      Object value = rows.get(0)[1];
                      for (int i = 0; i < rows.size(); i++) {
                        assertThat(rows.get(i)[0]).isEqualTo((long) i);
                        assertThat(rows.get(i)[1]).as("key %s", i).isEqualTo(value);
                      }
                      scans++;
                      lastSeen = (Integer) value;
                    }
                  }
                  return lastSeen >= 0 ? scans : -1;
                }));
      }
      for (Future<Integer> scanner : scanners) {
        assertThat(scanner.get(60, TimeUnit.SECONDS)).isEqualTo(200);
      }
      stop.set(true);
      for (Future<?> writer : writers) {
        writer.get(60, TimeUnit.SECONDS);
      }
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
    assertThat(nextValue.get()).isGreaterThan(1);
  }

  /** Racing inserts of the same keys: exactly one wins per key. */
  @Test
  void mustNotExistHasOneWinnerPerKey() throws Exception {
    KvTable table = new EmbeddedStore("c").createTable("T");
    int threads = 4;
    ConcurrentLinkedQueue<String> wins = new ConcurrentLinkedQueue<>();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  for (long k = 0; k < 500; k++) {
                    try {
                      table.mutate(List.of(TestingTables.insert(k, thread)));
                      wins.add(k + "");
                    } catch (ConditionFailedException e) {
                      // another thread won
                    }
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(wins).hasSize(500).doesNotHaveDuplicates();
    assertThat(TestingTables.readAll(table, TestingTables.scanAll())).hasSize(500);
  }

  private static List<Mutation> batch(int value) {
    List<Mutation> batch = new ArrayList<>();
    for (long k = 0; k < KEYS; k++) {
      batch.add(put(k, value));
    }
    return batch;
  }
}
