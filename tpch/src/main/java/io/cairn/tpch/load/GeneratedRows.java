package io.cairn.tpch.load;

import static java.util.Objects.requireNonNull;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The first rows of a TPC-H table, generated once and held in memory, so that writing them into a
 * table (of any name) times the database's writes alone, without the generator: {@code bench
 * lineitem}'s {@code load-indexes} writes the same rows into a copy of LINEITEM with 0, 1 and 3
 * indexes. Values are the ones every loader writes ({@link TpchLoader#value}); Cairn is written
 * with UPSERT, DuckDB through its Appender (one writer), the others with INSERT, in batches of
 * {@link TpchLoader#BATCH} rows, each committed.
 */
public final class GeneratedRows {
  private final String table;
  private final List<Object[]> rows;

  private GeneratedRows(String table, List<Object[]> rows) {
    this.table = table;
    this.rows = rows;
  }

  /**
   * The first {@code maxRows} rows the generator makes for {@code table} at {@code scaleFactor}
   * (all of them when the scale factor gives fewer).
   */
  public static GeneratedRows first(String table, double scaleFactor, long maxRows) {
    requireNonNull(table, "table is null");
    if (scaleFactor <= 0 || maxRows < 1) {
      throw new IllegalArgumentException(
          String.format(
              Locale.ROOT,
              "Expected a scale factor > 0 and rows >= 1; found [%s] and [%d]",
              scaleFactor,
              maxRows));
    }
    String name = table.toUpperCase(Locale.ROOT);
    TpchSchema.ddl(name); // fails on a table that is not TPC-H's
    return new GeneratedRows(
        name, generate(TpchTable.getTable(TpchSchema.generatorName(name)), scaleFactor, maxRows));
  }

  private static <E extends TpchEntity> List<Object[]> generate(
      TpchTable<E> generator, double scaleFactor, long maxRows) {
    List<TpchColumn<E>> columns = generator.getColumns();
    List<Object[]> rows = new ArrayList<>();
    for (E row : generator.createGenerator(scaleFactor, 1, 1)) {
      Object[] values = new Object[columns.size()];
      for (int i = 0; i < values.length; i++) {
        values[i] = TpchLoader.value(columns.get(i), row);
      }
      rows.add(values);
      if (rows.size() == maxRows) {
        break;
      }
    }
    return List.copyOf(rows);
  }

  /** The TPC-H table the rows come from (upper case). */
  public String table() {
    return table;
  }

  /** How many rows there are. */
  public int size() {
    return rows.size();
  }

  /**
   * CREATE TABLE {@code target} with the columns and primary key of the rows' TPC-H table; the
   * caller drops an existing one.
   */
  public String createTable(String target) {
    String ddl = TpchSchema.ddl(table);
    String head = "CREATE TABLE " + table + " ";
    if (!ddl.startsWith(head)) {
      throw new IllegalStateException("Unexpected DDL of " + table + ": " + ddl);
    }
    return "CREATE TABLE " + target + " " + ddl.substring(head.length());
  }

  /**
   * Writes every row into {@code target} (which must exist with the columns of {@link
   * #createTable}) with {@code writers} connections at once, each writing an equal share; returns
   * what it did, timed from the first write to the last commit.
   */
  public TpchLoader.TableResult writeTo(String url, String target, int writers)
      throws SQLException {
    long start = System.nanoTime();
    if (DuckDbLoader.handles(url)) {
      try (Connection c = DriverManager.getConnection(url)) {
        DuckDbLoader.append(c, target, rows);
      }
      return new TpchLoader.TableResult(target, rows.size(), System.nanoTime() - start);
    }
    int parts = Math.max(1, Math.min(writers, rows.size()));
    ExecutorService pool = Executors.newFixedThreadPool(parts);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int p = 0; p < parts; p++) {
        List<Object[]> share =
            rows.subList(
                (int) ((long) rows.size() * p / parts),
                (int) ((long) rows.size() * (p + 1) / parts));
        futures.add(
            pool.submit(
                () -> {
                  write(url, target, share);
                  return null;
                }));
      }
      for (Future<?> f : futures) {
        try {
          f.get();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new SQLException("Interrupted while writing " + target, e);
        } catch (ExecutionException e) {
          futures.forEach(other -> other.cancel(true));
          Throwable cause = e.getCause();
          if (cause instanceof SQLException sql) {
            throw sql;
          }
          throw new SQLException("Writing " + target + " failed: " + cause, cause);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return new TpchLoader.TableResult(target, rows.size(), System.nanoTime() - start);
  }

  private static void write(String url, String target, List<Object[]> share) throws SQLException {
    if (share.isEmpty()) {
      return;
    }
    int columns = share.get(0).length;
    String marks = String.join(", ", Collections.nCopies(columns, "?"));
    String verb = TpchLoader.isCairn(url) ? "UPSERT" : "INSERT";
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement insert =
            c.prepareStatement(verb + " INTO " + target + " VALUES (" + marks + ")")) {
      c.setAutoCommit(false);
      int pending = 0;
      for (Object[] row : share) {
        for (int i = 0; i < columns; i++) {
          insert.setObject(i + 1, row[i]);
        }
        insert.addBatch();
        if (++pending == TpchLoader.BATCH) {
          insert.executeBatch();
          c.commit();
          pending = 0;
        }
      }
      if (pending > 0) {
        insert.executeBatch();
        c.commit();
      }
    }
  }
}
