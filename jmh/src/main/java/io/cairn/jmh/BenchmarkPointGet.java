package io.cairn.jmh;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code SELECT * FROM T WHERE K = ?} through a PreparedStatement, on uniformly random keys of a
 * table held in the block cache (see {@link SqlReadPathTable}); every column of the row is read.
 * One operation is one get: {@code -prof gc}'s {@code gc.alloc.rate.norm} is bytes per get.
 *
 * <p>{@code java -jar jmh/target/benchmarks.jar PointGet -prof gc}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class BenchmarkPointGet {
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

    @Setup(Level.Trial)
    public void create(BenchmarkParams params) throws IOException, SQLException {
      ReadPathRows.checkOneOperationPerGet(params);
      table = SqlReadPathTable.create(rows, cache, cacheSize);
    }

    @TearDown(Level.Trial)
    public void close() throws IOException, SQLException {
      table.close();
    }
  }

  /** One client: its connection, its prepared lookup and its random keys. */
  @State(Scope.Thread)
  public static class Client {
    Connection connection;
    PreparedStatement get;
    SplittableRandom random;
    int rows;

    @Setup(Level.Trial)
    public void open(Table table) throws SQLException {
      connection = table.table.connect();
      get = connection.prepareStatement("SELECT * FROM T WHERE K = ?");
      random = new SplittableRandom(42);
      rows = table.rows;
      get.setLong(1, rows - 1);
      try (ResultSet r = get.executeQuery()) {
        if (!r.next() || !ReadPathRows.text(rows - 1).equals(r.getString(5))) {
          throw new IllegalStateException("Row [" + (rows - 1) + "] not found or wrong");
        }
      }
    }

    @TearDown(Level.Trial)
    public void close() throws SQLException {
      connection.close();
    }
  }

  @Benchmark
  public void get(Client client, Blackhole bh) throws SQLException {
    client.get.setLong(1, client.random.nextInt(client.rows));
    try (ResultSet r = client.get.executeQuery()) {
      if (!r.next()) {
        throw new IllegalStateException("A key of the table was not found");
      }
      bh.consume(r.getLong(1));
      bh.consume(r.getBigDecimal(2));
      bh.consume(r.getDouble(3));
      bh.consume(r.getObject(4));
      bh.consume(r.getString(5));
    }
  }
}
