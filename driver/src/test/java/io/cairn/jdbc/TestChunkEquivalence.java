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
import java.util.Properties;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every query gives the same answer whatever the chunks: SERIAL or parallel (1, 2, 8 chunks at a
 * time), guide posts from one row to the whole table, over a table of several regions. The
 * reference answer is the same query computed on the client (a LIMIT in a subquery keeps the scan's
 * rows, so nothing is aggregated, sorted or skipped in the store) over one chunk per region,
 * serially; a few answers are also checked against values computed here.
 */
class TestChunkEquivalence {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("chunk-eq");

  private static final long SEED = Long.getLong("cairn.test.seed", 20261122L);
  private static final int ROWS = 1_500;

  private static final String[] NO_HINT = {""};

  /** Queries whose rows come in a defined order (compared as lists). */
  private static final List<String> ORDERED =
      List.of(
          "SELECT * FROM %s",
          "SELECT ID, Q FROM %s WHERE Q > 50",
          "SELECT ID, P FROM %s WHERE ID BETWEEN 90 AND 1010",
          "SELECT ID FROM %s WHERE ID IN (1, 99, 100, 101, 499, 500, 501, 777, 1499, 5000)",
          "SELECT * FROM %s ORDER BY P DESC, ID LIMIT 7",
          "SELECT ID, Q FROM %s ORDER BY Q NULLS FIRST, ID OFFSET 5 LIMIT 20",
          "SELECT ID, G FROM %s ORDER BY G DESC NULLS LAST, ID",
          "SELECT ID, D FROM %s ORDER BY D, ID OFFSET 1490",
          "SELECT ID FROM %s OFFSET 700 LIMIT 10",
          "SELECT ID, Q * 2 + 1 AS X FROM %s ORDER BY 2 DESC NULLS LAST, ID LIMIT 9",
          "SELECT ID, P FROM %s WHERE G IS NOT NULL ORDER BY MOD(ID, 13), P DESC LIMIT 11",
          "SELECT ID FROM %s WHERE Q IS NULL OFFSET 3",
          "SELECT COUNT(*), COUNT(Q), SUM(Q), AVG(Q), MIN(P), MAX(P), SUM(P), AVG(P), SUM(D),"
              + " MIN(G), MAX(G), COUNT(DISTINCT G), COUNT(DISTINCT Q) FROM %s",
          "SELECT COUNT(*), SUM(P), AVG(Q) FROM %s WHERE Q > 1000",
          "SELECT G, COUNT(*), SUM(P), AVG(P), AVG(Q), MIN(D), MAX(ID), COUNT(DISTINCT Q)"
              + " FROM %s GROUP BY G ORDER BY G NULLS FIRST",
          "SELECT Q / 10, SUM(P * 2), COUNT(G) FROM %s WHERE ID > 200 GROUP BY Q / 10"
              + " ORDER BY 1 NULLS LAST");

  /** Queries whose row order is not defined (compared as sorted lists). */
  private static final List<String> UNORDERED =
      List.of(
          "SELECT G, SUM(Q), COUNT(*) FROM %s GROUP BY G",
          "SELECT MOD(ID, 7), AVG(P), MIN(G) FROM %s WHERE D > 0.25 GROUP BY MOD(ID, 7)",
          "SELECT ID FROM %s WHERE P > 500 LIMIT 5000");

  @BeforeEach
  void load() throws SQLException {
    db.execute(
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, G VARCHAR(3), Q INTEGER, P DECIMAL(10,2),"
            + " D DOUBLE) SPLIT ON (100, 500, 501, 1000)");
    Random random = new Random(SEED);
    try (PreparedStatement upsert =
        db.connection().prepareStatement("UPSERT INTO T VALUES (?, ?, ?, ?, ?)")) {
      for (int id = 0; id < ROWS; id++) {
        upsert.setInt(1, id);
        upsert.setString(2, random.nextInt(8) == 0 ? null : "g" + random.nextInt(5));
        upsert.setObject(3, random.nextInt(6) == 0 ? null : random.nextInt(2_000) - 100);
        upsert.setBigDecimal(4, BigDecimal.valueOf(random.nextInt(100_000), 2));
        upsert.setDouble(5, random.nextDouble());
        upsert.addBatch();
      }
      upsert.executeBatch();
    }
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          Object v = rs.getObject(i);
          row.append(i > 1 ? "|" : "")
              .append(v == null ? "null" : v + ":" + v.getClass().getName());
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  private Connection connect(int parallelism) throws SQLException {
    Properties p = new Properties();
    p.setProperty("parallelism", Integer.toString(parallelism));
    return DriverManager.getConnection(db.url(), p);
  }

  /** The statistics of T with guide posts every {@code width} bytes. */
  private void guidePosts(long width) throws SQLException {
    db.execute("ALTER TABLE T SET GUIDE_POSTS_WIDTH = " + width);
    db.execute("UPDATE STATISTICS T");
  }

  private static String clientSide(String query) {
    return String.format(query, "(SELECT * FROM T LIMIT 1000000000) X");
  }

  @Test
  void everyChunkingGivesTheClientsAnswer() throws SQLException {
    guidePosts(Long.MAX_VALUE / 2);
    List<List<String>> reference = new ArrayList<>();
    try (Connection serial = connect(1)) {
      for (String q : ORDERED) {
        reference.add(rows(serial, clientSide(q)));
      }
      for (String q : UNORDERED) {
        reference.add(rows(serial, clientSide(q)).stream().sorted().toList());
      }
    }
    assertThat(reference.get(0)).hasSize(ROWS);
    for (long width : new long[] {1, 700, 20_000, Long.MAX_VALUE / 2}) {
      guidePosts(width);
      // a chunk a row costs a call to a region server a row on HBase: there, only the most
      // parallel of them (how the driver merges 1 or 2 at a time does not depend on the store)
      int[] parallelisms = width == 1 && TestUrls.hbase() ? new int[] {8} : new int[] {1, 2, 8};
      for (int parallelism : parallelisms) {
        try (Connection c = connect(parallelism)) {
          // SERIAL reads one chunk at a time whatever the parallelism: checked once, at the
          // largest (the suite's HBase run paid 47 s for the other two)
          for (String hint : parallelism == 8 ? new String[] {"", "/*+ SERIAL */ "} : NO_HINT) {
            String where = "width " + width + ", parallelism " + parallelism + " " + hint;
            for (int i = 0; i < ORDERED.size(); i++) {
              String sql = "SELECT " + hint + String.format(ORDERED.get(i), "T").substring(7);
              assertThat(rows(c, sql)).as(where + sql).isEqualTo(reference.get(i));
            }
            for (int i = 0; i < UNORDERED.size(); i++) {
              String sql = "SELECT " + hint + String.format(UNORDERED.get(i), "T").substring(7);
              assertThat(rows(c, sql).stream().sorted().toList())
                  .as(where + sql)
                  .isEqualTo(reference.get(ORDERED.size() + i));
            }
          }
        }
      }
    }
  }

  @Test
  void theReferenceItselfIsRight() throws SQLException {
    guidePosts(1);
    List<String> all = rows(db.connection(), "SELECT ID FROM T");
    assertThat(all).hasSize(ROWS);
    for (int i = 0; i < ROWS; i++) {
      assertThat(all.get(i)).isEqualTo(i + ":java.lang.Integer");
    }
    assertThat(rows(db.connection(), "SELECT COUNT(*) FROM T"))
        .containsExactly(ROWS + ":java.lang.Long");
    assertThat(rows(db.connection(), "SELECT ID FROM T OFFSET 1497"))
        .containsExactly(
            "1497:java.lang.Integer", "1498:java.lang.Integer", "1499:java.lang.Integer");
    BigDecimal sum = BigDecimal.ZERO;
    try (Statement s = db.connection().createStatement();
        ResultSet rs = s.executeQuery("SELECT P FROM T")) {
      while (rs.next()) {
        sum = sum.add(rs.getBigDecimal(1));
      }
    }
    assertThat(rows(db.connection(), "SELECT SUM(P) FROM T"))
        .containsExactly(sum.toPlainString() + ":java.math.BigDecimal");
  }

  @Test
  void explainShowsTheChunksAndWhatRunsWhere() throws SQLException {
    guidePosts(1_000);
    List<String> plan =
        rows(db.connection(), "EXPLAIN SELECT G, SUM(P) FROM T WHERE Q < 7 GROUP BY G");
    String text = String.join("\n", plan);
    assertThat(text).containsPattern("PARALLEL \\d+-WAY \\d+-CHUNK FULL SCAN OVER PUBLIC.T");
    assertThat(text).contains("SERVER FILTER BY", "SERVER AGGREGATE INTO DISTINCT ROWS BY");
    String serial =
        String.join("\n", rows(db.connection(), "EXPLAIN SELECT /*+ SERIAL */ * FROM T"));
    assertThat(serial).containsPattern("SERIAL \\d+-CHUNK FULL SCAN OVER PUBLIC.T");
  }
}
