package io.cairn.jmh;

import io.cairn.core.io.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;

/**
 * Table {@code T} of {@link ReadPathRows} in a durable store ({@code jdbc:cairn:file:}) in a new
 * temporary directory: loaded, flushed and major-compacted into one block file, then read once so
 * that the block cache holds it. The store stays open while this object is (the first connection
 * opens it with the cache settings, later ones share it); {@link #close()} closes it and deletes
 * the directory.
 */
final class SqlReadPathTable implements AutoCloseable {
  private static final int BATCH = 10_000;

  private final Path dir;
  private final String url;
  private final Properties properties;
  private final Connection anchor;
  private final int rows;

  private SqlReadPathTable(Path dir, Map<String, String> storeSettings, int rows)
      throws SQLException {
    this.dir = dir;
    this.url = "jdbc:cairn:file:" + dir;
    this.properties = new Properties();
    properties.putAll(storeSettings);
    this.anchor = DriverManager.getConnection(url, properties);
    this.rows = rows;
  }

  /** Creates, loads, compacts and warms the table. */
  static SqlReadPathTable create(int rows, CacheSetting cache, String cacheSize)
      throws IOException, SQLException {
    Map<String, String> storeSettings = cache.storeSettings(cacheSize);
    if (rows <= 0) {
      throw new IllegalArgumentException("rows: expected > 0, found [" + rows + "]");
    }
    Path dir = Files.createTempDirectory("cairn-jmh");
    SqlReadPathTable table = null;
    try {
      table = new SqlReadPathTable(dir, storeSettings, rows);
      table.load();
      table.warm(cacheSize);
      return table;
    } catch (SQLException | RuntimeException e) {
      if (table != null) {
        try {
          table.close();
        } catch (IOException | SQLException | RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      } else {
        FileTrees.deleteRecursively(dir);
      }
      throw e;
    }
  }

  int rows() {
    return rows;
  }

  /** A new connection to the store; the caller closes it. */
  Connection connect() throws SQLException {
    return DriverManager.getConnection(url, properties);
  }

  private void load() throws SQLException {
    try (Statement s = anchor.createStatement()) {
      s.execute(ReadPathRows.CREATE_TABLE);
    }
    Properties skip = new Properties();
    skip.putAll(properties);
    skip.setProperty("durability", "SKIP");
    try (Connection c = DriverManager.getConnection(url, skip);
        PreparedStatement upsert = c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?, ?, ?)")) {
      c.setAutoCommit(false);
      for (long k = 0; k < rows; k++) {
        upsert.setLong(1, k);
        upsert.setBigDecimal(2, ReadPathRows.qty(k));
        upsert.setDouble(3, ReadPathRows.price(k));
        upsert.setObject(4, ReadPathRows.date(k));
        upsert.setString(5, ReadPathRows.text(k));
        upsert.addBatch();
        if ((k + 1) % BATCH == 0 || k + 1 == rows) {
          upsert.executeBatch();
          c.commit();
        }
      }
    }
    try (Statement s = anchor.createStatement()) {
      s.execute("FLUSH TABLE T");
      s.execute("MAJOR_COMPACT TABLE T");
    }
  }

  /**
   * Reads every block of the table twice, and fails unless the second pass found them all in the
   * cache (when the store has one).
   */
  private void warm(String cacheSize) throws SQLException {
    BlockCacheCounters before = null;
    for (int pass = 0; pass < 2; pass++) {
      before = BlockCacheCounters.read(dir);
      try (Statement s = anchor.createStatement();
          ResultSet r = s.executeQuery("SELECT COUNT(*), SUM(PRICE) FROM T")) {
        r.next();
        if (r.getLong(1) != rows) {
          throw new IllegalStateException(
              "COUNT(*) of T: expected [" + rows + "], found [" + r.getLong(1) + "]");
        }
      }
    }
    BlockCacheCounters.read(dir).checkNoMissesSince(before, cacheSize);
  }

  @Override
  public void close() throws IOException, SQLException {
    try {
      anchor.close();
    } finally {
      FileTrees.deleteRecursively(dir);
    }
  }
}
