package io.cairn.tpch.pe;

import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.RowScanner;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * One client's run of one PE command, as HBase PE's Test classes: {@link #ops()} operations, each
 * {@link #testRow} call timed into a histogram of nanoseconds. Client {@code i} owns rows {@code
 * [i*rows, (i+1)*rows)}; random commands pick rows anywhere in {@code [0, clients*rows)}. Not
 * thread-safe: one instance per client thread.
 */
abstract class PeWorkload {
  /** What every client of a run shares. */
  record Config(long rows, int valueSize, int clients, int multiGet, double sampleRate, long seed) {
    long totalRows() {
      return rows * clients;
    }
  }

  final Config config;
  final KvTable table;
  final int client;
  final long startRow;
  final SplittableRandom random;

  /** Rows written, read or scanned (for MB/s). */
  long rows;

  /** Rows a read found, and how many it should have found. */
  long found;

  long expected;

  PeWorkload(Config config, KvTable table, int client) {
    this.config = config;
    this.table = table;
    this.client = client;
    this.startRow = client * config.rows();
    this.random = new SplittableRandom(config.seed() + 31L * client);
  }

  /** Number of timed operations. */
  long ops() {
    return config.rows();
  }

  /** True when the command reads, so the table must hold every row first. */
  abstract boolean reads();

  void setup() {}

  abstract void testRow(long i);

  void teardown() {}

  /** Null when every read found what it should; else what went wrong. */
  String verify() {
    return found == expected
        ? null
        : "found " + found + " rows, expected " + expected + " (client " + client + ")";
  }

  /** Runs all operations; returns the histogram (nanoseconds) and elapsed nanoseconds. */
  final Histogram run() {
    Histogram latency = new Histogram(3);
    setup();
    try {
      long n = ops();
      for (long i = 0; i < n; i++) {
        long t0 = System.nanoTime();
        testRow(i);
        latency.recordValue(System.nanoTime() - t0);
      }
    } finally {
      teardown();
    }
    return latency;
  }

  byte[] value() {
    byte[] v = new byte[config.valueSize()];
    random.nextBytes(v);
    return v;
  }

  long randomRow() {
    return random.nextLong(config.totalRows());
  }

  /** Counts the rows a scanner returns whose value has the written size; closes it. */
  int drain(RowScanner scanner) {
    int n = 0;
    try (scanner) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        if (row[0] instanceof byte[] v && v.length == config.valueSize()) {
          n++;
        }
      }
    }
    return n;
  }

  static final class SequentialWriteTest extends PeWorkload {
    SequentialWriteTest(Config config, KvTable table, int client) {
      super(config, table, client);
    }

    @Override
    boolean reads() {
      return false;
    }

    @Override
    void testRow(long i) {
      table.mutate(List.of(PeTable.put(startRow + i, value())));
      rows++;
    }
  }

  static final class RandomWriteTest extends PeWorkload {
    RandomWriteTest(Config config, KvTable table, int client) {
      super(config, table, client);
    }

    @Override
    boolean reads() {
      return false;
    }

    @Override
    void testRow(long i) {
      table.mutate(List.of(PeTable.put(randomRow(), value())));
      rows++;
    }
  }

  static final class SequentialReadTest extends PeWorkload {
    SequentialReadTest(Config config, KvTable table, int client) {
      super(config, table, client);
    }

    @Override
    boolean reads() {
      return true;
    }

    @Override
    void testRow(long i) {
      long row = startRow + i;
      found += drain(table.scan(PeTable.read(List.of(KeyRange.point(PeTable.key(row))), 1)));
      expected++;
      rows++;
    }
  }

  /** Random gets; with multiGet N, each operation reads N distinct keys in one scan. */
  static final class RandomReadTest extends PeWorkload {
    RandomReadTest(Config config, KvTable table, int client) {
      super(config, table, client);
    }

    @Override
    boolean reads() {
      return true;
    }

    /** Keys read in all: rows * sampleRate (HBase PE's --sampleRate applies to randomRead). */
    long keys() {
      return Math.max(1, Math.round(config.rows() * config.sampleRate()));
    }

    @Override
    long ops() {
      int batch = Math.max(1, config.multiGet());
      return (keys() + batch - 1) / batch;
    }

    @Override
    void testRow(long i) {
      int batch = Math.max(1, config.multiGet());
      long want = Math.min(batch, keys() - i * batch);
      want = Math.min(want, config.totalRows());
      if (want == 1) {
        long row = randomRow();
        found += drain(table.scan(PeTable.read(List.of(KeyRange.point(PeTable.key(row))), 1)));
      } else {
        TreeSet<Long> picked = new TreeSet<>();
        while (picked.size() < want) {
          picked.add(randomRow());
        }
        List<KeyRange> ranges = new ArrayList<>(picked.size());
        for (long row : picked) {
          ranges.add(KeyRange.point(PeTable.key(row)));
        }
        found += drain(table.scan(PeTable.read(ranges, ranges.size())));
      }
      expected += want;
      rows += want;
    }
  }

  /** One scanner over the client's rows; each operation is one next(). */
  static final class ScanTest extends PeWorkload {
    private RowScanner scanner;

    ScanTest(Config config, KvTable table, int client) {
      super(config, table, client);
    }

    @Override
    boolean reads() {
      return true;
    }

    @Override
    void setup() {
      scanner =
          table.scan(
              PeTable.read(
                  List.of(PeTable.range(startRow, startRow + config.rows())),
                  io.cairn.kv.ScanProgram.NO_LIMIT));
    }

    @Override
    void testRow(long i) {
      Object[] row = scanner.next();
      if (row != null && row[0] instanceof byte[] v && v.length == config.valueSize()) {
        found++;
      }
      expected++;
      rows++;
    }

    @Override
    void teardown() {
      if (scanner != null) {
        scanner.close();
      }
    }
  }

  /** A scan of {@code range} rows from a random start key (limit {@code range}). */
  static final class RandomScanWithRangeTest extends PeWorkload {
    private final int range;

    RandomScanWithRangeTest(Config config, KvTable table, int client, int range) {
      super(config, table, client);
      this.range = range;
    }

    @Override
    boolean reads() {
      return true;
    }

    /** rows / range scans, so that each client reads about {@code rows} rows in all. */
    @Override
    long ops() {
      return Math.max(1, config.rows() / range);
    }

    @Override
    void testRow(long i) {
      long total = config.totalRows();
      long start = random.nextLong(Math.max(1, total - range + 1));
      long stop = Math.min(total, start + range);
      int n = drain(table.scan(PeTable.read(List.of(PeTable.range(start, stop)), range)));
      found += n;
      expected += stop - start;
      rows += n;
    }
  }

  /**
   * One full scan of the client's rows with a server-side filter that matches nothing: measures
   * filtering inside the store, not transfer of results.
   */
  static final class FilterAllTest extends PeWorkload {
    FilterAllTest(Config config, KvTable table, int client) {
      super(config, table, client);
    }

    @Override
    boolean reads() {
      return true;
    }

    @Override
    long ops() {
      return 1;
    }

    @Override
    void testRow(long i) {
      found +=
          drain(
              table.scan(
                  PeTable.filterAll(
                      PeTable.range(startRow, startRow + config.rows()), config.valueSize())));
      rows += config.rows();
    }

    @Override
    String verify() {
      return found == 0 ? null : "filter matched " + found + " rows, expected none";
    }
  }
}
