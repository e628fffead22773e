package io.cairn.tpch.cache;

import io.cairn.store.StoreDirectory;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Map;
import java.util.Properties;

/**
 * The table {@code bench cache} measures, {@code T (K BIGINT PRIMARY KEY, QTY DECIMAL(15,2), PRICE
 * DOUBLE, D DATE, S VARCHAR)} with rows {@code K = 0 .. rows-1}, every value a function of K: QTY
 * from 0.00 to 49.99 ({@code QTY < 10} holds for 20% of the rows), D from 1992-01-01 to 1998-12-31,
 * S of 12 to 16 characters. The same rows as the jmh module's benchmarks.
 */
final class CacheTable {
  static final String NAME = "T";
  static final String COUNT = "SELECT COUNT(*) FROM T";
  static final String COUNT_WHERE = "SELECT COUNT(*) FROM T WHERE QTY < 10";
  static final String POINT_GET = "SELECT * FROM T WHERE K = ?";
  static final String RANGE_SCAN = "SELECT COUNT(*), SUM(PRICE) FROM T WHERE K >= ? AND K < ?";

  private static final int BATCH = 10_000;
  private static final LocalDate FIRST_DATE = LocalDate.of(1992, 1, 1);
  private static final int DATE_SPAN_DAYS = 2557;

  private CacheTable() {}

  static String noCache(String query) {
    return query.replaceFirst("^SELECT ", "SELECT /*+ NO_CACHE */ ");
  }

  static BigDecimal qty(long k) {
    return BigDecimal.valueOf(Math.floorMod(k * 7919, 5000), 2);
  }

  /** Rows in {@code [0, rows)} with {@code QTY < 10}. */
  static long countQtyBelowTen(long rows) {
    long n = 0;
    for (long k = 0; k < rows; k++) {
      if (Math.floorMod(k * 7919, 5000) < 1000) {
        n++;
      }
    }
    return n;
  }

  /**
   * Creates T with {@code COMPRESSION='NONE'} and loads it ({@code durability=SKIP}, batches of
   * 10,000 rows), then flushes and major-compacts it into one block file.
   */
  static void createAndLoad(Connection c, String url, Properties settings, long rows)
      throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE T (K BIGINT PRIMARY KEY, QTY DECIMAL(15,2), PRICE DOUBLE, D DATE,"
              + " S VARCHAR) COMPRESSION='NONE'");
    }
    Properties skip = new Properties();
    skip.putAll(settings);
    skip.setProperty("durability", "SKIP");
    try (Connection load = DriverManager.getConnection(url, skip);
        PreparedStatement upsert = load.prepareStatement("UPSERT INTO T VALUES (?, ?, ?, ?, ?)")) {
      load.setAutoCommit(false);
      for (long k = 0; k < rows; k++) {
        upsert.setLong(1, k);
        upsert.setBigDecimal(2, qty(k));
        upsert.setDouble(3, 900.0 + Math.floorMod(k * 104_729, 100_000) / 100.0);
        upsert.setObject(4, FIRST_DATE.plusDays(Math.floorMod(k * 31, DATE_SPAN_DAYS)));
        upsert.setString(
            5, "supplier#" + Long.toString(Math.floorMod(k * 2_654_435_761L, 1L << 32), 36));
        upsert.addBatch();
        if ((k + 1) % BATCH == 0 || k + 1 == rows) {
          upsert.executeBatch();
          load.commit();
        }
      }
    }
    compact(c);
  }

  /** Rewrites T's files with {@code compression} (a COMPRESSION table option value). */
  static void recompress(Connection c, String compression) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("ALTER TABLE T SET COMPRESSION='" + compression + "'");
    }
    compact(c);
  }

  private static void compact(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("FLUSH TABLE T");
      s.execute("MAJOR_COMPACT TABLE T");
    }
  }

  /** Bytes of block files in the store's table directory holding the most (T, not the catalog). */
  static long blockFileBytes(Path store) throws IOException {
    return StoreDirectory.blockFileBytesByTable(store).values().stream()
        .mapToLong(Long::longValue)
        .max()
        .orElse(0);
  }

  /** Connection properties holding {@code storeSettings}. */
  static Properties properties(Map<String, String> storeSettings) {
    Properties p = new Properties();
    p.putAll(storeSettings);
    return p;
  }
}
