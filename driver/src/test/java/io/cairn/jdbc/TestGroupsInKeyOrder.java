package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A GROUP BY that starts with the table's first key column comes from the chunks in key order and
 * the driver merges each group's pieces as they arrive (a group cut by a chunk boundary, or by a
 * region): the answers equal the client's own grouping of the same rows, for groups in key order (a
 * key prefix, the whole key, a column of the joined side that depends on the key) and for groups
 * that are not (a column after the first key column that varies within it: the merge finds a key
 * out of order and merges by hash from there).
 */
class TestGroupsInKeyOrder {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("key-groups");

  private static final List<String> QUERIES =
      List.of(
          "SELECT A, COUNT(*), SUM(V), MIN(X), MAX(B), AVG(V) FROM %s GROUP BY A",
          "SELECT A, B, COUNT(*), SUM(V) FROM %s GROUP BY A, B",
          "SELECT A, X, COUNT(*), SUM(V) FROM %s GROUP BY A, X",
          "SELECT A, COUNT(*) FROM %s WHERE X < 3 GROUP BY A HAVING COUNT(*) > 1",
          "SELECT A, N, SUM(V) FROM %s, NAMES WHERE A = NA GROUP BY A, N");

  @BeforeEach
  void load() throws SQLException {
    db.execute(
        "CREATE TABLE K (A INTEGER NOT NULL, B INTEGER NOT NULL, X INTEGER, V DECIMAL(10,2),"
            + " PRIMARY KEY (A, B)) SPLIT ON (40, 41, 77)",
        "CREATE TABLE NAMES (NA INTEGER PRIMARY KEY, N VARCHAR(10))");
    Random random = new Random(20261129L);
    try (PreparedStatement upsert =
        db.connection().prepareStatement("UPSERT INTO K VALUES (?, ?, ?, ?)")) {
      for (int a = 0; a < 120; a++) {
        int pieces = 1 + random.nextInt(30);
        for (int b = 0; b < pieces; b++) {
          upsert.setInt(1, a);
          upsert.setInt(2, b);
          upsert.setObject(3, random.nextInt(9) == 0 ? null : random.nextInt(5));
          upsert.setBigDecimal(4, java.math.BigDecimal.valueOf(random.nextInt(10_000), 2));
          upsert.addBatch();
        }
      }
      upsert.executeBatch();
    }
    for (int a = 0; a < 120; a += 3) {
      db.execute("UPSERT INTO NAMES VALUES (" + a + ", 'n" + (a % 7) + "')");
    }
  }

  @Test
  void everyChunkingGivesTheClientsGroups() throws SQLException {
    List<List<String>> reference = new ArrayList<>();
    try (Connection c = connect(1)) {
      for (String q : QUERIES) {
        reference.add(sorted(c, String.format(q, "(SELECT * FROM K LIMIT 1000000000) Y")));
      }
    }
    assertThat(reference.get(0)).hasSize(120);
    for (long width : new long[] {1, 300, 5_000, Long.MAX_VALUE / 2}) {
      db.execute("ALTER TABLE K SET GUIDE_POSTS_WIDTH = " + width, "UPDATE STATISTICS K");
      // a chunk a row costs a call to a region server a row on HBase: there, only the most
      // parallel of them (how the driver merges 1 or 2 at a time does not depend on the store)
      int[] parallelisms = width == 1 && TestUrls.hbase() ? new int[] {8} : new int[] {1, 2, 8};
      for (int parallelism : parallelisms) {
        try (Connection c = connect(parallelism)) {
          for (int i = 0; i < QUERIES.size(); i++) {
            String sql = String.format(QUERIES.get(i), "K");
            assertThat(sorted(c, sql))
                .as("width %s, parallelism %s: %s", width, parallelism, sql)
                .isEqualTo(reference.get(i));
          }
        }
      }
    }
  }

  private Connection connect(int parallelism) throws SQLException {
    Properties p = new Properties();
    p.setProperty("parallelism", Integer.toString(parallelism));
    return DriverManager.getConnection(db.url(), p);
  }

  private static List<String> sorted(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          row.append(i > 1 ? "|" : "").append(rs.getObject(i));
        }
        rows.add(row.toString());
      }
    }
    rows.sort(null);
    return rows;
  }
}
