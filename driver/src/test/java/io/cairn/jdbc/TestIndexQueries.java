package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.server.rpc.CairnServer;
import io.cairn.server.rpc.ServerConfig;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Queries over local indexes (issue 17) give the rows they give without them, embedded and over a
 * server: each query runs as planned, with {@code NO_INDEX} and with the index forced by {@code
 * INDEX(T idx)}, over a table of several regions whose indexes were built both before and after its
 * rows were written, and again after updates and deletes; EXPLAIN shows the index chosen. A
 * transaction that wrote the table reads the table, and so sees its own writes.
 */
class TestIndexQueries {
  private static final long SEED = Long.getLong("cairn.test.seed", 20261126L);
  private static final int ROWS = 1_500;

  /** Each query with the index the planner should choose for it ("" for the table). */
  private static final List<String[]> QUERIES =
      List.of(
          new String[] {"SELECT ID, P FROM T WHERE Q = 77", "T_Q (covered)"},
          new String[] {"SELECT * FROM T WHERE Q = 77", "T_Q (lookup)"},
          new String[] {
            "SELECT COUNT(*), SUM(P), MIN(ID) FROM T WHERE Q BETWEEN 100 AND 300", "T_Q (covered)"
          },
          new String[] {"SELECT ID FROM T WHERE Q IN (5, 77, 300, 1200, 5000)", "T_Q (covered)"},
          new String[] {"SELECT ID, Q FROM T WHERE G = 'g1' AND Q > 500", "T_GQ (covered)"},
          new String[] {"SELECT G, COUNT(*), MAX(Q) FROM T WHERE G = 'g2' GROUP BY G", "T_GQ"},
          new String[] {"SELECT ID, NAME FROM T WHERE UPPER(NAME) = 'N17'", "T_UP (lookup)"},
          new String[] {"SELECT ID FROM T WHERE Q = 77 ORDER BY ID DESC LIMIT 3", "T_Q (covered)"},
          new String[] {"SELECT ID, Q FROM T WHERE Q > 1500 ORDER BY Q, ID", "T_Q (covered)"},
          new String[] {"SELECT DISTINCT G FROM T WHERE G > 'g2'", "T_GQ (covered)"},
          new String[] {"SELECT ID FROM T WHERE Q IS NULL AND ID < 50", ""},
          new String[] {"SELECT ID FROM T WHERE ID = 7 AND Q = 77", ""});

  /**
   * Queries whose index is forced ({@code INDEX(T T_Q)}) and bound the primary key too: the index
   * scan reads only the regions those bounds allow.
   */
  private static final List<String> PRUNED =
      List.of(
          "SELECT ID, P FROM T WHERE Q > 1000 AND ID BETWEEN 90 AND 510",
          "SELECT ID, NAME FROM T WHERE Q < 0 AND ID >= 999",
          "SELECT ID FROM T WHERE Q >= 0 AND (ID < 50 OR ID BETWEEN 1200 AND 1300)");

  private static CairnServer server;

  @BeforeAll
  static void start() throws Exception {
    server = CairnServer.start(ServerConfig.from(Map.of("port", "0", "http.port", "-1")));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** Embedded and remote; on HBase (the contract suite), where both would be HBase, once. */
  static List<Boolean> remoteOrNot() {
    return TestUrls.hbase() ? List.of(false) : List.of(false, true);
  }

  private static String url(boolean remote) {
    String name = "idx-" + UUID.randomUUID();
    if (TestUrls.hbase()) {
      return TestUrls.database(name); // where an index is a table of its own: one chunk
    }
    return remote
        ? "jdbc:cairn://127.0.0.1:" + server.port() + "/" + name
        : "jdbc:cairn:mem:" + name;
  }

  private static void load(Connection c) throws SQLException {
    TestingDatabase.execute(
        c,
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, G VARCHAR(3), Q INTEGER, P DECIMAL(10,2),"
            + " NAME VARCHAR(20)) SPLIT ON (100, 500, 1000)",
        // one index built while the table is empty, the others over its rows
        "CREATE INDEX T_Q ON T (Q) INCLUDE (P)");
    Random random = new Random(SEED);
    try (PreparedStatement upsert = c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?, ?, ?)")) {
      for (int id = 0; id < ROWS; id++) {
        upsert.setInt(1, id);
        upsert.setString(2, random.nextInt(8) == 0 ? null : "g" + random.nextInt(5));
        upsert.setObject(3, random.nextInt(6) == 0 ? null : random.nextInt(2_000) - 100);
        upsert.setBigDecimal(4, BigDecimal.valueOf(random.nextInt(100_000), 2));
        upsert.setString(5, random.nextInt(10) == 0 ? null : "n" + random.nextInt(50));
        upsert.addBatch();
      }
      upsert.executeBatch();
    }
    TestingDatabase.execute(
        c, "CREATE INDEX T_GQ ON T (G, Q DESC)", "CREATE INDEX T_UP ON T (UPPER(NAME))");
  }

  private static String hinted(String sql, String hint) {
    return sql.replaceFirst("^SELECT ", "SELECT /*+ " + hint + " */ ");
  }

  private static List<String> sorted(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>(TestingDatabase.rows(c, sql));
    if (!sql.contains("ORDER BY")) {
      rows.sort(null);
    }
    return rows;
  }

  private static List<String> explain(Connection c, String sql) throws SQLException {
    return TestingDatabase.rows(c, "EXPLAIN " + sql);
  }

  /**
   * Runs every query three ways. The planner's own choice is checked embedded only: a remote
   * connection's row counts, which the choice depends on, may be up to a second old (and then the
   * forced index is checked instead).
   */
  private static void checkAll(Connection c, boolean remote) throws SQLException {
    for (String[] q : QUERIES) {
      String sql = q[0];
      List<String> expected = sorted(c, hinted(sql, "NO_INDEX"));
      assertThat(sorted(c, sql)).as(sql).isEqualTo(expected);
      if (q[1].isEmpty()) {
        if (!remote) {
          assertThat(String.join("\n", explain(c, sql))).as(sql).doesNotContain("SCAN INDEX");
        }
        continue;
      }
      String index = q[1].split(" ")[0];
      String mode = q[1].substring(index.length());
      String head =
          String.join("\n", explain(c, remote ? hinted(sql, "INDEX(T " + index + ")") : sql));
      assertThat(head).as(sql).contains("SCAN INDEX " + index + " ON PUBLIC.T" + mode);
      assertThat(sorted(c, hinted(sql, "INDEX(T " + index + ")")))
          .as("forced " + sql)
          .isEqualTo(expected);
    }
    for (String sql : PRUNED) {
      assertThat(sorted(c, hinted(sql, "INDEX(T T_Q)")))
          .as("forced " + sql)
          .isEqualTo(sorted(c, hinted(sql, "NO_INDEX")));
    }
    // every index, forced to be read whole, holds every row
    for (String index : List.of("T_Q", "T_GQ", "T_UP")) {
      assertThat(sorted(c, "SELECT /*+ INDEX(T " + index + ") */ ID, G, Q, P, NAME FROM T"))
          .as(index)
          .isEqualTo(sorted(c, "SELECT /*+ NO_INDEX */ ID, G, Q, P, NAME FROM T"));
    }
    try (PreparedStatement p = c.prepareStatement("SELECT ID, P FROM T WHERE Q = ?");
        PreparedStatement plain =
            c.prepareStatement("SELECT /*+ NO_INDEX */ ID, P FROM T WHERE Q = ?")) {
      for (int q : new int[] {-100, 0, 77, 1899, 5000}) {
        p.setInt(1, q);
        plain.setInt(1, q);
        assertThat(rows(p)).as("Q = " + q).isEqualTo(rows(plain));
      }
    }
  }

  private static List<String> rows(PreparedStatement p) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = p.executeQuery()) {
      while (rs.next()) {
        rows.add(rs.getString(1) + "|" + rs.getString(2));
      }
    }
    rows.sort(null);
    return rows;
  }

  @ParameterizedTest
  @MethodSource("remoteOrNot")
  void indexesGiveTheRowsTheTableGives(boolean remote) throws SQLException {
    try (Connection c = DriverManager.getConnection(url(remote))) {
      load(c);
      // HBase's row counts are estimates until UPDATE STATISTICS: its choice is not checked either
      boolean estimated = remote || TestUrls.hbase();
      checkAll(c, estimated);
      assertThat(
              explain(c, "SELECT /*+ INDEX(T T_Q) */ COUNT(*) FROM T WHERE Q = 77").get(1).strip())
          .matches("CLIENT 1-CHUNK SCAN INDEX T_Q ON PUBLIC.T \\(covered\\) RANGE \\[77\\].*");
      // a range: one chunk per region, only the regions the primary-key bounds leave (on HBase,
      // whose index is a table of its own, one)
      boolean hbase = TestUrls.hbase();
      assertThat(explain(c, "SELECT /*+ INDEX(T T_Q) */ ID FROM T WHERE Q > 77").get(0).strip())
          .matches(
              (hbase ? "CLIENT 1-CHUNK" : "CLIENT PARALLEL \\d+-WAY 4-CHUNK")
                  + " SCAN INDEX T_Q .*");
      assertThat(
              explain(c, "SELECT /*+ INDEX(T T_Q) */ ID FROM T WHERE Q > 77 AND ID >= 500")
                  .get(0)
                  .strip())
          .matches(
              (hbase ? "CLIENT 1-CHUNK" : "CLIENT PARALLEL \\d+-WAY 2-CHUNK")
                  + " SCAN INDEX T_Q .*");
      assertThat(
              explain(c, "SELECT /*+ INDEX(T T_Q) */ ID FROM T WHERE Q > 77 AND ID < 100")
                  .get(0)
                  .strip())
          .matches("CLIENT 1-CHUNK SCAN INDEX T_Q .*");
      // writes after the builds: the entries follow the rows
      TestingDatabase.execute(
          c,
          "UPDATE T SET Q = Q + 1 WHERE MOD(ID, 3) = 0",
          "UPDATE T SET NAME = 'n17' WHERE MOD(ID, 11) = 0",
          "DELETE FROM T WHERE MOD(ID, 7) = 0",
          "UPSERT INTO T VALUES (5000, 'g1', 77, 1.25, 'N17')");
      checkAll(c, estimated);
      // the entries go with their rows into files and split regions
      TestingDatabase.execute(c, "FLUSH TABLE T", "SPLIT TABLE T", "MAJOR_COMPACT TABLE T");
      checkAll(c, estimated);
    }
  }

  @ParameterizedTest
  @MethodSource("remoteOrNot")
  void aTransactionThatWroteTheTableReadsTheTable(boolean remote) throws SQLException {
    try (Connection c = DriverManager.getConnection(url(remote))) {
      load(c);
      String sql = "SELECT ID FROM T WHERE Q = 77";
      List<String> before = sorted(c, sql);
      c.setAutoCommit(false);
      try (Statement s = c.createStatement()) {
        s.executeUpdate("UPSERT INTO T VALUES (6000, 'g1', 77, 1.00, 'x')");
        List<String> expected = new ArrayList<>(before);
        expected.add("6000");
        expected.sort(null);
        assertThat(sorted(c, sql)).isEqualTo(expected);
        c.rollback();
      }
      c.setAutoCommit(true);
      assertThat(sorted(c, sql)).isEqualTo(before);
    }
  }
}
