package io.cairn.tpch.bench;

import io.cairn.tpch.load.TpchLoader;
import io.cairn.tpch.load.TpchSchema;
import io.trino.tpch.LineItem;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.List;
import java.util.function.LongConsumer;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Loads LINEITEM into an in-process DuckDB with its Appender: the same rows as {@link TpchLoader}
 * (same generator, same table definition), but DuckDB takes row-by-row INSERT batches at under
 * 1,000 rows/s, which would make the reference and the comparison take minutes even at SF 0.01.
 */
final class DuckDbLoader {
  private DuckDbLoader() {}

  /** Loads LINEITEM unless it is there at {@code scaleFactor}; returns the load or null. */
  static TpchLoader.TableResult ensureLoaded(String url, double scaleFactor, LongConsumer progress)
      throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      if (TpchLoader.isLoaded(c, "LINEITEM", scaleFactor)) {
        return null;
      }
      long start = System.nanoTime();
      try (Statement s = c.createStatement()) {
        s.execute("DROP TABLE IF EXISTS LINEITEM");
        s.execute(TpchSchema.ddl("LINEITEM"));
      }
      List<TpchColumn<LineItem>> columns = TpchTable.LINE_ITEM.getColumns();
      long rows = 0;
      try (DuckDBAppender appender =
          c.unwrap(DuckDBConnection.class).createAppender("main", "LINEITEM")) {
        for (LineItem row : TpchTable.LINE_ITEM.createGenerator(scaleFactor, 1, 1)) {
          appender.beginRow();
          for (TpchColumn<LineItem> column : columns) {
            switch (column.getType().getBase()) {
              case INTEGER -> appender.append(column.getInteger(row));
              case IDENTIFIER -> appender.append(column.getIdentifier(row));
              case DATE -> appender.append(LocalDate.ofEpochDay(column.getDate(row)));
              case DOUBLE ->
                  appender.append(BigDecimal.valueOf(Math.round(column.getDouble(row) * 100), 2));
              case VARCHAR -> appender.append(column.getString(row));
            }
          }
          appender.endRow();
          if (++rows % 10_000 == 0) {
            progress.accept(10_000);
          }
        }
        appender.flush();
      }
      progress.accept(rows % 10_000);
      return new TpchLoader.TableResult("LINEITEM", rows, System.nanoTime() - start);
    }
  }
}
