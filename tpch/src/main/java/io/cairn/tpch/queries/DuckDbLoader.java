package io.cairn.tpch.queries;

import io.cairn.tpch.load.TpchLoader;
import io.cairn.tpch.load.TpchSchema;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongConsumer;

/**
 * Loads DuckDB with the TPC-H data much faster than row-by-row INSERTs: the same io.trino.tpch
 * generators and the same value conversions as {@link TpchLoader}, written to a CSV file that
 * DuckDB's {@code COPY} reads. Same generator, same data.
 */
final class DuckDbLoader {
  private DuckDbLoader() {}

  static boolean handles(String url) {
    return url.startsWith("jdbc:duckdb:");
  }

  /** Loads the tables that are missing or hold another scale factor; returns what was loaded. */
  static List<TpchLoader.TableResult> ensureLoaded(
      String url, double scaleFactor, List<String> tables, LongConsumer progress)
      throws SQLException, IOException {
    List<TpchLoader.TableResult> loaded = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String table : tables) {
        String name = table.toUpperCase(Locale.ROOT);
        if (TpchLoader.isLoaded(c, name, scaleFactor)) {
          continue;
        }
        long start = System.nanoTime();
        s.execute("DROP TABLE IF EXISTS " + name);
        s.execute(TpchSchema.ddl(name));
        Path csv = Files.createTempFile("cairn-tpch-" + name.toLowerCase(Locale.ROOT), ".csv");
        try {
          long rows = writeCsv(TpchTable.getTable(name.toLowerCase(Locale.ROOT)), scaleFactor, csv);
          s.execute(
              "COPY "
                  + name
                  + " FROM '"
                  + csv.toAbsolutePath().toString().replace("'", "''")
                  + "' (FORMAT CSV, HEADER false, DELIMITER ',', QUOTE '\"', ESCAPE '\"')");
          progress.accept(rows);
          loaded.add(new TpchLoader.TableResult(name, rows, System.nanoTime() - start));
        } finally {
          Files.deleteIfExists(csv);
        }
      }
    }
    return loaded;
  }

  private static <E extends TpchEntity> long writeCsv(
      TpchTable<E> generator, double scaleFactor, Path csv) throws IOException {
    List<TpchColumn<E>> columns = generator.getColumns();
    long rows = 0;
    try (BufferedWriter w = Files.newBufferedWriter(csv, StandardCharsets.UTF_8)) {
      StringBuilder line = new StringBuilder();
      for (E row : generator.createGenerator(scaleFactor, 1, 1)) {
        line.setLength(0);
        for (int i = 0; i < columns.size(); i++) {
          if (i > 0) {
            line.append(',');
          }
          append(line, columns.get(i), row);
        }
        w.append(line).append('\n');
        rows++;
      }
    }
    return rows;
  }

  /** The same conversions as TpchLoader's bind: DOUBLE as a DECIMAL with 2 decimals. */
  private static <E extends TpchEntity> void append(
      StringBuilder line, TpchColumn<E> column, E row) {
    switch (column.getType().getBase()) {
      case INTEGER -> line.append(column.getInteger(row));
      case IDENTIFIER -> line.append(column.getIdentifier(row));
      case DATE -> line.append(LocalDate.ofEpochDay(column.getDate(row)));
      case DOUBLE ->
          line.append(
              BigDecimal.valueOf(Math.round(column.getDouble(row) * 100), 2).toPlainString());
      case VARCHAR ->
          line.append('"').append(column.getString(row).replace("\"", "\"\"")).append('"');
    }
  }
}
