package io.cairn.jmh;

import io.cairn.kv.RowScanner;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * A point get on the store's scanner alone ({@code KvTable.scan} of a one-key range, the whole row
 * decoded), on uniformly random keys of a table held in the block cache (see {@link
 * KvReadPathTable}). One operation is one get; the request (key encoding included) is built inside
 * the measurement, as a client would.
 *
 * <p>{@code java -jar jmh/target/benchmarks.jar KvGet -prof gc}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class BenchmarkKvGet {
  @Param({"" + ReadPathRows.DEFAULT_ROWS})
  public int rows;

  @Param({"OFF_HEAP"})
  public CacheSetting cache;

  @Param({"512m"})
  public String cacheSize;

  private KvReadPathTable table;

  /** Each thread's own keys. */
  @State(Scope.Thread)
  public static class Keys {
    final SplittableRandom random = new SplittableRandom(42);
  }

  @Setup(Level.Trial)
  public void create(BenchmarkParams params) throws IOException {
    ReadPathRows.checkOneOperationPerGet(params);
    table = KvReadPathTable.create(rows, cache, cacheSize);
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    table.close();
  }

  @Benchmark
  public Object[] get(Keys keys) {
    try (RowScanner scanner = table.table().scan(KvReadPathTable.get(keys.random.nextInt(rows)))) {
      Object[] row = scanner.next();
      if (row == null) {
        throw new IllegalStateException("A key of the table was not found");
      }
      return row;
    }
  }
}
