package io.cairn.tpch.server;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Objects;

/**
 * The table {@code bench server} measures: {@code T (ID BIGINT PRIMARY KEY, GRP INTEGER, QTY
 * DECIMAL(15,2), PRICE DOUBLE, D DATE, NAME VARCHAR(40), NOTE VARCHAR(80))} with rows {@code ID = 0
 * .. rows-1}, every value a function of ID: GRP from 0 to 999 (scattered, so {@code GRP = 7} keeps
 * one row in 1,000 spread over the whole table), NAME of 15 to 17 characters, NOTE of 30 to 60.
 * About 100 bytes of raw values per row (8 bytes per BIGINT, DOUBLE and DECIMAL, 4 per INTEGER and
 * DATE, the strings' UTF-8 bytes).
 */
final class BenchTable {
  static final String CREATE =
      "CREATE TABLE T (ID BIGINT PRIMARY KEY, GRP INTEGER, QTY DECIMAL(15,2), PRICE DOUBLE,"
          + " D DATE, NAME VARCHAR(40), NOTE VARCHAR(80))";
  static final String UPSERT = "UPSERT INTO T VALUES (?, ?, ?, ?, ?, ?, ?)";
  static final String LOOKUP = "SELECT * FROM T WHERE ID = ?";
  static final String SCAN_ALL = "SELECT * FROM T";
  static final String COUNT = "SELECT COUNT(*) FROM T";
  static final int SELECTIVE_GROUP = 7;
  static final String SCAN_SELECTIVE = "SELECT * FROM T WHERE GRP = " + SELECTIVE_GROUP;
  static final int COLUMNS = 7;

  private static final LocalDate FIRST_DATE = LocalDate.of(1992, 1, 1);
  private static final int DATE_SPAN_DAYS = 2557;
  private static final int FIXED_BYTES = 8 + 4 + 8 + 8 + 4;
  private static final String[] WORDS = {
    "quickly", "regular", "deposits", "sleep", "furiously", "pending", "requests", "boost",
    "carefully", "final", "accounts", "haggle", "slyly", "ironic", "packages", "nag"
  };

  private BenchTable() {}

  static int group(long id) {
    return (int) Math.floorMod(id * 7919, 1000);
  }

  static BigDecimal qty(long id) {
    return BigDecimal.valueOf(Math.floorMod(id * 104_729, 5000), 2);
  }

  static double price(long id) {
    return 900.0 + Math.floorMod(id * 15_485_863L, 100_000) / 100.0;
  }

  static LocalDate date(long id) {
    return FIRST_DATE.plusDays(Math.floorMod(id * 31, DATE_SPAN_DAYS));
  }

  static String name(long id) {
    return "customer#" + Long.toString(Math.floorMod(id * 2_654_435_761L, 1L << 32), 36);
  }

  /** Words of the TPC-H comment vocabulary, 30 to 60 characters. */
  static String note(long id) {
    long h = Math.floorMod(id * 0x9E3779B97F4A7C15L, Long.MAX_VALUE);
    StringBuilder s = new StringBuilder(64);
    int target = 30 + (int) (h % 31);
    while (s.length() < target) {
      if (s.length() > 0) {
        s.append(' ');
      }
      s.append(WORDS[(int) (h & 15)]);
      h = h >>> 4 | (h & 15) << 59;
    }
    return s.length() > 60 ? s.substring(0, 60) : s.toString();
  }

  /** Raw bytes of the row's values. */
  static long rawBytes(long id) {
    return FIXED_BYTES
        + name(id).getBytes(StandardCharsets.UTF_8).length
        + note(id).getBytes(StandardCharsets.UTF_8).length;
  }

  /** What the table holds: its rows, their raw bytes, the rows and raw bytes with GRP = 7. */
  record Contents(long rows, long rawBytes, long selectiveRows, long selectiveRawBytes) {
    static Contents of(long rows) {
      long raw = 0;
      long selective = 0;
      long selectiveRaw = 0;
      for (long id = 0; id < rows; id++) {
        long bytes = BenchTable.rawBytes(id);
        raw += bytes;
        if (group(id) == SELECTIVE_GROUP) {
          selective++;
          selectiveRaw += bytes;
        }
      }
      return new Contents(rows, raw, selective, selectiveRaw);
    }
  }

  /** Creates T and loads {@code rows} rows, {@code batch} rows per executeBatch and commit. */
  static void createAndLoad(Connection c, long rows, int batch) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(CREATE);
    }
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try (PreparedStatement upsert = c.prepareStatement(UPSERT)) {
      for (long id = 0; id < rows; id++) {
        upsert.setLong(1, id);
        upsert.setInt(2, group(id));
        upsert.setBigDecimal(3, qty(id));
        upsert.setDouble(4, price(id));
        upsert.setObject(5, date(id));
        upsert.setString(6, name(id));
        upsert.setString(7, note(id));
        upsert.addBatch();
        if ((id + 1) % batch == 0 || id + 1 == rows) {
          upsert.executeBatch();
          c.commit();
        }
      }
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }

  /** Writes T's memstore to block files and merges them into one (durable stores). */
  static void flushAndCompact(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("FLUSH TABLE T");
      s.execute("MAJOR_COMPACT TABLE T");
    }
  }

  static void drop(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("DROP TABLE T");
    }
  }

  /** Looks up {@code id} and reads every column; fails when the row is missing or wrong. */
  static void lookup(PreparedStatement lookup, long id) throws SQLException {
    lookup.setLong(1, id);
    try (ResultSet r = lookup.executeQuery()) {
      if (!r.next()) {
        throw new SQLException("Row [" + id + "] not found");
      }
      long found = r.getLong(1);
      int group = r.getInt(2);
      for (int i = 3; i <= COLUMNS; i++) {
        Objects.requireNonNull(r.getObject(i), "column is null");
      }
      if (found != id || group != group(id) || r.next()) {
        throw new SQLException("Wrong row for ID [" + id + "]: found ID [" + found + "]");
      }
    }
  }

  /** Runs a SELECT *, reads every column of every row and returns the number of rows. */
  static long readAll(PreparedStatement query) throws SQLException {
    long rows = 0;
    try (ResultSet r = query.executeQuery()) {
      while (r.next()) {
        for (int i = 1; i <= COLUMNS; i++) {
          if (r.getObject(i) == null) {
            throw new SQLException("Column " + i + " of row " + rows + " is null");
          }
        }
        rows++;
      }
    }
    return rows;
  }

  /** Runs a query answering one number and returns it. */
  static long readCount(PreparedStatement query) throws SQLException {
    try (ResultSet r = query.executeQuery()) {
      if (!r.next()) {
        throw new SQLException("No row from " + query);
      }
      return r.getLong(1);
    }
  }
}
