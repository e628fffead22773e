package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Lookups by every primary key column read one key (a point range, which the store checks against
 * its files' row blooms): over keys whose encodings of one column are prefixes of another's
 * (strings, decimals), descending columns and CHAR padding, with the rows in several files and the
 * memstore, each lookup finds exactly the row of its key, or nothing.
 */
class TestFullKeyLookups {
  @Test
  void aWholeKeyFindsOnlyItsRow() throws SQLException {
    try (Connection c =
            DriverManager.getConnection(TestUrls.database("full-key-" + UUID.randomUUID()));
        Statement s = c.createStatement()) {
      s.executeUpdate(
          "CREATE TABLE K (A VARCHAR(10) NOT NULL, B DECIMAL(10, 3) NOT NULL, C CHAR(4) NOT NULL,"
              + " D BIGINT NOT NULL, V INTEGER, CONSTRAINT PK PRIMARY KEY (A, B DESC, C, D))");
      String[] as = {"", "a", "ab", "abc", "b"};
      String[] bs = {"1", "1.5", "1.52", "-1.5", "0"};
      String[] cs = {"x", "xy", "xyz"};
      List<Object[]> rows = new ArrayList<>();
      int v = 0;
      try (PreparedStatement p = c.prepareStatement("UPSERT INTO K VALUES (?, ?, ?, ?, ?)")) {
        for (String a : as) {
          for (String b : bs) {
            for (String cc : cs) {
              for (long d = 0; d < 3; d++) {
                p.setString(1, a);
                p.setBigDecimal(2, new BigDecimal(b));
                p.setString(3, cc);
                p.setLong(4, d);
                p.setInt(5, ++v);
                p.executeUpdate();
                rows.add(new Object[] {a, b, cc, d, v});
              }
            }
          }
          if (!TestUrls.remote()) {
            s.execute("FLUSH TABLE K"); // a file per first value: lookups pass over the others
          }
        }
      }
      s.executeUpdate("UPSERT INTO K VALUES ('ab', 1.52, 'xy', 1, -1)"); // in the memstore
      try (PreparedStatement p =
          c.prepareStatement("SELECT V FROM K WHERE A = ? AND B = ? AND C = ? AND D = ?")) {
        for (Object[] row : rows) {
          int expected =
              row[0].equals("ab")
                      && row[1].equals("1.52")
                      && row[2].equals("xy")
                      && (long) row[3] == 1
                  ? -1
                  : (int) row[4];
          assertThat(
                  lookup(
                      p,
                      (String) row[0],
                      new BigDecimal((String) row[1]),
                      (String) row[2],
                      (long) row[3]))
              .as("%s, %s, %s, %s", row[0], row[1], row[2], row[3])
              .containsExactly(expected);
        }
        // the same value at another scale, and keys that are no row's
        assertThat(lookup(p, "ab", new BigDecimal("1.500"), "x", 2)).hasSize(1);
        assertThat(lookup(p, "ab", new BigDecimal("1.5"), "x", 3)).isEmpty();
        assertThat(lookup(p, "abcd", new BigDecimal("1.5"), "x", 0)).isEmpty();
        assertThat(lookup(p, "ab", new BigDecimal("1.51"), "x", 0)).isEmpty();
        assertThat(lookup(p, "ab", new BigDecimal("1.5"), "xyzw", 0)).isEmpty();
      }
    }
  }

  private static List<Integer> lookup(PreparedStatement p, String a, BigDecimal b, String c, long d)
      throws SQLException {
    p.setString(1, a);
    p.setBigDecimal(2, b);
    p.setString(3, c);
    p.setLong(4, d);
    List<Integer> found = new ArrayList<>();
    try (ResultSet rs = p.executeQuery()) {
      while (rs.next()) {
        found.add(rs.getInt(1));
      }
    }
    return found;
  }
}
