package io.cairn.jmh;

import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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

/**
 * Whole-table queries through JDBC over a table held in the block cache (see {@link
 * SqlReadPathTable}). One invocation is one query over all {@code rows} rows and counts as {@code
 * rows} operations, so the score is rows/s and {@code -prof gc}'s {@code gc.alloc.rate.norm} is
 * bytes allocated per row (planning is done once, in the PreparedStatement). Each thread ({@code -t
 * N}) has its own connection.
 *
 * <p>{@code java -jar jmh/target/benchmarks.jar CachedScan -prof gc}; {@code -p cache=ON_HEAP} or
 * {@code NONE} for the other cache layouts, {@code -p rows=N -opi N} for another size.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@OperationsPerInvocation(ReadPathRows.DEFAULT_ROWS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkCachedScan {
  /** The table, loaded once per fork. */
  @State(Scope.Benchmark)
  public static class Table {
    @Param({"" + ReadPathRows.DEFAULT_ROWS})
    public int rows;

    @Param({"OFF_HEAP"})
    public CacheSetting cache;

    @Param({"512m"})
    public String cacheSize;

    SqlReadPathTable table;
    long qtyBelowLimit;
    BigDecimal qtySumBeforeDateLimit;

    @Setup(Level.Trial)
    public void create(BenchmarkParams params) throws IOException, SQLException {
      ReadPathRows.checkOneOperationPerRow(params, rows);
      table = SqlReadPathTable.create(rows, cache, cacheSize);
      qtyBelowLimit = ReadPathRows.countQtyBelowLimit(rows);
      qtySumBeforeDateLimit = ReadPathRows.sumQtyBeforeDateLimit(rows);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException, SQLException {
      table.close();
    }
  }

  /** One client: its connection and prepared queries, checked once against the expected answers. */
  @State(Scope.Thread)
  public static class Client {
    Connection connection;
    PreparedStatement count;
    PreparedStatement countWhere;
    PreparedStatement sumWhere;
    PreparedStatement countNoCache;

    @Setup(Level.Trial)
    public void open(Table table) throws SQLException {
      connection = table.table.connect();
      count = connection.prepareStatement("SELECT COUNT(*) FROM T");
      countWhere = connection.prepareStatement("SELECT COUNT(*) FROM T WHERE QTY < 10");
      sumWhere = connection.prepareStatement("SELECT SUM(QTY) FROM T WHERE D < DATE '1995-01-01'");
      countNoCache = connection.prepareStatement("SELECT /*+ NO_CACHE */ COUNT(*) FROM T");
      check(count, table.rows);
      check(countWhere, table.qtyBelowLimit);
      check(countNoCache, table.rows);
      BigDecimal sum = sum(sumWhere);
      if (sum.compareTo(table.qtySumBeforeDateLimit) != 0) {
        throw new IllegalStateException(
            "SUM(QTY): expected [" + table.qtySumBeforeDateLimit + "], found [" + sum + "]");
      }
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
      connection.close();
    }

    private static void check(PreparedStatement query, long expected) throws SQLException {
      long found = count(query);
      if (found != expected) {
        throw new IllegalStateException(
            "Count: expected [" + expected + "], found [" + found + "]");
      }
    }
  }

  @Benchmark
  public long count(Client client) throws SQLException {
    return count(client.count);
  }

  /** 20% of the rows pass the filter. */
  @Benchmark
  public long countWhereQty(Client client) throws SQLException {
    return count(client.countWhere);
  }

  /** About 43% of the rows pass the filter; QTY is decoded and summed for those. */
  @Benchmark
  public BigDecimal sumQtyWhereDate(Client client) throws SQLException {
    return sum(client.sumWhere);
  }

  /** The COUNT(*) with {@code /*+ NO_CACHE *}{@code /}: the scan adds no block to the cache. */
  @Benchmark
  public long countNoCache(Client client) throws SQLException {
    return count(client.countNoCache);
  }

  static long count(PreparedStatement query) throws SQLException {
    try (ResultSet r = query.executeQuery()) {
      r.next();
      return r.getLong(1);
    }
  }

  static BigDecimal sum(PreparedStatement query) throws SQLException {
    try (ResultSet r = query.executeQuery()) {
      r.next();
      return r.getBigDecimal(1);
    }
  }
}
