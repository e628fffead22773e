package io.cairn.tpch.load;

import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Loads DuckDB (the reference and comparison engine) through its Appender: the same generator and
 * values as {@link TpchLoader}'s JDBC path, which DuckDB takes at under 1,000 rows/s against about
 * 70,000 rows/s here.
 */
final class DuckDbLoader {
  private static final int PROGRESS_STEP = 10_000;

  private DuckDbLoader() {}

  static boolean handles(String url) {
    return url.startsWith("jdbc:duckdb:");
  }

  static List<TpchLoader.TableResult> load(
      String url, double scaleFactor, List<String> tables, LongConsumer progress)
      throws SQLException {
    List<TpchLoader.TableResult> results = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url)) {
      for (String table : tables) {
        long start = System.nanoTime();
        try (Statement s = c.createStatement()) {
          s.execute("DROP TABLE IF EXISTS " + table);
          s.execute(TpchSchema.ddl(table));
        }
        long rows =
            append(
                c,
                table,
                TpchTable.getTable(TpchSchema.generatorName(table)),
                scaleFactor,
                progress);
        results.add(new TpchLoader.TableResult(table, rows, System.nanoTime() - start));
      }
    }
    return results;
  }

  private static <E extends TpchEntity> long append(
      Connection c, String table, TpchTable<E> generator, double scaleFactor, LongConsumer progress)
      throws SQLException {
    List<TpchColumn<E>> columns = generator.getColumns();
    boolean[] intColumn = intColumns(c, table, columns.size());
    long rows = 0;
    Object[] values = new Object[columns.size()];
    try (DuckDBAppender appender = c.unwrap(DuckDBConnection.class).createAppender("main", table)) {
      for (E row : generator.createGenerator(scaleFactor, 1, 1)) {
        for (int i = 0; i < values.length; i++) {
          values[i] = TpchLoader.value(columns.get(i), row);
        }
        appendRow(appender, values, intColumn);
        if (++rows % PROGRESS_STEP == 0) {
          progress.accept(PROGRESS_STEP);
        }
      }
      appender.flush();
    }
    progress.accept(rows % PROGRESS_STEP);
    return rows;
  }

  /** Appends rows of {@link TpchLoader#value} values to {@code table} of schema main. */
  static void append(Connection c, String table, List<Object[]> rows) throws SQLException {
    if (rows.isEmpty()) {
      return;
    }
    boolean[] intColumn = intColumns(c, table, rows.get(0).length);
    try (DuckDBAppender appender = c.unwrap(DuckDBConnection.class).createAppender("main", table)) {
      for (Object[] row : rows) {
        appendRow(appender, row, intColumn);
      }
      appender.flush();
    }
  }

  /**
   * Which columns of {@code table} are INTEGER: the generator's identifiers are longs; the
   * specification's INTEGER key columns (e.g. R_REGIONKEY) need ints, and the Appender does not
   * convert.
   */
  private static boolean[] intColumns(Connection c, String table, int count) throws SQLException {
    boolean[] intColumn = new boolean[count];
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM " + table + " LIMIT 0")) {
      ResultSetMetaData md = rs.getMetaData();
      for (int i = 0; i < intColumn.length; i++) {
        intColumn[i] = md.getColumnType(i + 1) == Types.INTEGER;
      }
    }
    return intColumn;
  }

  private static void appendRow(DuckDBAppender appender, Object[] values, boolean[] intColumn)
      throws SQLException {
    appender.beginRow();
    for (int i = 0; i < values.length; i++) {
      Object value = values[i];
      if (value instanceof Number n && intColumn[i]) {
        appender.append(Math.toIntExact(n.longValue()));
      } else if (value instanceof Long l) {
        appender.append(l.longValue());
      } else if (value instanceof LocalDate d) {
        appender.append(d);
      } else if (value instanceof BigDecimal d) {
        appender.append(d);
      } else {
        appender.append((String) value);
      }
    }
    appender.endRow();
  }
}
