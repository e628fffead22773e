package io.cairn.jmh;

import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The store's scanner alone, without the SQL layer: {@code KvTable.scan} with a scan program over a
 * table held in the block cache (see {@link KvReadPathTable}): aggregates in the program (as SQL's
 * ungrouped aggregates run), and rows handed out of the scanner. One invocation is one scan of all
 * {@code rows} rows and counts as {@code rows} operations: the score is rows/s and {@code -prof
 * gc}'s {@code gc.alloc.rate.norm} is bytes per row scanned.
 *
 * <p>{@code java -jar jmh/target/benchmarks.jar KvScan -prof gc}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(ReadPathRows.DEFAULT_ROWS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class BenchmarkKvScan {
  @Param({"" + ReadPathRows.DEFAULT_ROWS})
  public int rows;

  @Param({"OFF_HEAP"})
  public CacheSetting cache;

  @Param({"512m"})
  public String cacheSize;

  private KvReadPathTable table;
  private final ScanRequest all = KvReadPathTable.scanAll();
  private final ScanRequest qtyBelowLimit = KvReadPathTable.scanQtyBelowLimit();
  private final ScanRequest projectQty = KvReadPathTable.scanProjectQty();
  private final ScanRequest countStar = KvReadPathTable.countStar();
  private final ScanRequest countStarWhereQty = KvReadPathTable.countStarQtyBelowLimit();
  private final ScanRequest sumQtyWhereDate = KvReadPathTable.sumQtyBeforeDateLimit();

  @Setup(Level.Trial)
  public void create(BenchmarkParams params) throws IOException {
    ReadPathRows.checkOneOperationPerRow(params, rows);
    table = KvReadPathTable.create(rows, cache, cacheSize);
    long expected = ReadPathRows.countQtyBelowLimit(rows);
    long found = table.countRows(qtyBelowLimit);
    Object counted = table.aggregateValue(countStarWhereQty);
    if (found != expected || !Long.valueOf(expected).equals(counted)) {
      throw new IllegalStateException(
          "QTY < 10: expected ["
              + expected
              + "] rows, found ["
              + found
              + "] rows and a count of ["
              + counted
              + "]");
    }
    Object sum = table.aggregateValue(sumQtyWhereDate);
    BigDecimal expectedSum = ReadPathRows.sumQtyBeforeDateLimit(rows);
    if (!(sum instanceof BigDecimal s) || s.compareTo(expectedSum) != 0) {
      throw new IllegalStateException(
          "SUM(QTY): expected [" + expectedSum + "], found [" + sum + "]");
    }
  }

  @TearDown(Level.Trial)
  public void close() throws IOException {
    table.close();
  }

  /** {@code COUNT(*)} as SQL sends it: the aggregate runs in the scan program, one row out. */
  @Benchmark
  public Object countStar() {
    return table.aggregateValue(countStar);
  }

  /** {@code COUNT(*) WHERE QTY < 10} in the scan program (20% of the rows pass). */
  @Benchmark
  public Object countStarWhereQty() {
    return table.aggregateValue(countStarWhereQty);
  }

  /** {@code SUM(QTY) WHERE D < DATE '1995-01-01'} in the scan program (43% pass). */
  @Benchmark
  public Object sumQtyWhereDate() {
    return table.aggregateValue(sumQtyWhereDate);
  }

  /** Every row handed out of the scanner, nothing projected. */
  @Benchmark
  public long scanAll() {
    return table.countRows(all);
  }

  /** A server-side filter on a DECIMAL value column that 20% of the rows pass. */
  @Benchmark
  public long scanWhereQty() {
    return table.countRows(qtyBelowLimit);
  }

  /** Every row with one DECIMAL column decoded and handed out. */
  @Benchmark
  public void scanProjectQty(Blackhole bh) {
    try (RowScanner scanner = table.table().scan(projectQty)) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        bh.consume(row[0]);
      }
    }
  }
}
