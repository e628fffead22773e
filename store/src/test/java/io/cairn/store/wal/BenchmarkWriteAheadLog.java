package io.cairn.store.wal;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.Durability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Group-commit throughput: N threads each appending small records (one put, 16-byte key, 32-byte
 * value) and awaiting each with a durability. Not a JMH benchmark and not a test: run by hand, e.g.
 * {@code java -cp ... io.cairn.store.wal.BenchmarkWriteAheadLog [seconds] [dir]}.
 */
public final class BenchmarkWriteAheadLog {
  private BenchmarkWriteAheadLog() {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    Path base = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("wal-bench");
    for (Durability durability : List.of(Durability.SYNC, Durability.FSYNC, Durability.ASYNC)) {
      for (int threads : new int[] {1, 2, 4, 8}) {
        Path dir = Files.createTempDirectory(base, "run");
        double rate = run(dir, threads, durability, seconds);
        System.out.printf(
            Locale.ROOT, "%-6s threads=%d  %,12.0f records/s%n", durability, threads, rate);
      }
    }
  }

  static double run(Path dir, int threads, Durability durability, int seconds) throws Exception {
    LongAdder count = new LongAdder();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong sequence = new AtomicLong();
    try (WriteAheadLog wal = WriteAheadLog.open(dir, WalConfig.DEFAULT)) {
      wal.replay(r -> {});
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        Thread worker =
            new Thread(
                () -> {
                  byte[] key = new byte[16];
                  Bytes value = Bytes.wrap(new byte[32]);
                  while (!stop.get()) {
                    long seq = sequence.incrementAndGet();
                    key[0] = (byte) seq;
                    WalRecord record =
                        new WalRecord(seq, List.of(WalEdit.put(1, Bytes.copyOf(key), value)));
                    wal.await(wal.enqueue(record), durability);
                    count.increment();
                  }
                });
        workers.add(worker);
        worker.start();
      }
      Thread.sleep(1000);
      long start = System.nanoTime();
      long before = count.sum();
      Thread.sleep(seconds * 1000L);
      long done = count.sum() - before;
      double elapsed = (System.nanoTime() - start) / 1e9;
      stop.set(true);
      for (Thread worker : workers) {
        worker.join();
      }
      return done / elapsed;
    }
  }
}
