package io.cairn.jmh;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
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

/**
 * Planning a join of {@code tables} tables (issue 18: at most 50 ms for 16): tables T0..T(n-1) of
 * 100 * (i + 1) rows (ID primary key, A, B) with statistics collected, joined as a chain ({@code
 * Ti.A = Ti+1.ID}) or a star (the last table's A against every other's ID), with a filter on one
 * table. One operation prepares the statement once: parse, validate, the rule phases with join
 * ordering from column statistics, and the physical plan; a comment numbered per operation keeps
 * the plan cache out of it.
 *
 * <p>{@code java -jar jmh/target/benchmarks.jar JoinPlanning}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class BenchmarkJoinPlanning {
  /** Join shapes. */
  public enum Shape {
    CHAIN,
    STAR
  }

  @Param({"16"})
  public int tables;

  @Param({"CHAIN", "STAR"})
  public Shape shape;

  private Connection connection;
  private String sql;
  private long round;

  @Setup(Level.Trial)
  public void create() throws SQLException {
    connection = DriverManager.getConnection("jdbc:cairn:mem:join-planning-" + System.nanoTime());
    try (Statement s = connection.createStatement()) {
      for (int i = 0; i < tables; i++) {
        s.execute("CREATE TABLE T" + i + " (ID INTEGER PRIMARY KEY, A INTEGER, B INTEGER)");
        try (PreparedStatement insert =
            connection.prepareStatement("UPSERT INTO T" + i + " VALUES (?, ?, ?)")) {
          for (int k = 0; k < 100 * (i + 1); k++) {
            insert.setInt(1, k);
            insert.setInt(2, k % 97);
            insert.setInt(3, k % 13);
            insert.addBatch();
          }
          insert.executeBatch();
        }
        s.execute("UPDATE STATISTICS T" + i);
      }
    }
    sql = shape == Shape.CHAIN ? chain(tables) : star(tables);
  }

  static String chain(int tables) {
    StringBuilder from = new StringBuilder("SELECT COUNT(*) FROM T0");
    StringBuilder where = new StringBuilder(" WHERE T0.B = 1");
    for (int i = 1; i < tables; i++) {
      from.append(", T").append(i);
      where.append(" AND T").append(i - 1).append(".A = T").append(i).append(".ID");
    }
    return from.append(where).toString();
  }

  static String star(int tables) {
    int center = tables - 1;
    StringBuilder from = new StringBuilder("SELECT COUNT(*) FROM T" + center);
    StringBuilder where = new StringBuilder(" WHERE T" + center + ".B = 1");
    for (int i = 0; i < center; i++) {
      from.append(", T").append(i);
      where.append(" AND T").append(center).append(".A = T").append(i).append(".ID");
    }
    return from.append(where).toString();
  }

  @TearDown(Level.Trial)
  public void close() throws SQLException {
    connection.close();
  }

  @Benchmark
  public PreparedStatement plan() throws SQLException {
    PreparedStatement p = connection.prepareStatement(sql + " /* " + round++ + " */");
    p.close();
    return p;
  }
}
