package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.server.rpc.CairnServer;
import io.cairn.server.rpc.ServerConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * ORDER BY over a local index (issue 17): when the order is the index's (after parts fixed by
 * equality; ascending and descending parts, NULLs where the encoding puts them), the store streams
 * each region's rows in index order and the driver merges the regions' requests; the answers are
 * those without the index ({@code NO_INDEX}), embedded and over a server, over a table of several
 * regions, also after its regions split.
 */
class TestIndexOrder {
  private static final long SEED = Long.getLong("cairn.test.seed", 20261126L);
  private static final int ROWS = 1_200;

  /** Queries whose order comes from the index they force. */
  private static final List<String> IN_INDEX_ORDER =
      List.of(
          "SELECT /*+ INDEX(T T_A) */ ID, A, C FROM T ORDER BY A, ID",
          "SELECT /*+ INDEX(T T_A) */ ID, A FROM T ORDER BY A LIMIT 1",
          "SELECT /*+ INDEX(T T_A) */ ID, A, C FROM T ORDER BY A, ID LIMIT 25",
          "SELECT /*+ INDEX(T T_A) */ ID, A, C FROM T ORDER BY A, ID LIMIT 10 OFFSET 95",
          "SELECT /*+ INDEX(T T_A) */ ID, A FROM T WHERE A > 40 ORDER BY A, ID LIMIT 12",
          "SELECT /*+ INDEX(T T_A) */ ID, A, B FROM T WHERE A < 5 ORDER BY A, ID",
          "SELECT /*+ INDEX(T T_A) */ ID, A FROM T WHERE A IN (3, 17, 44) ORDER BY A, ID",
          "SELECT /*+ INDEX(T T_A) */ ID, A FROM T WHERE A > 10 AND ID >= 700"
              + " ORDER BY A, ID LIMIT 9",
          "SELECT /*+ INDEX(T T_AB) */ ID, A, B FROM T ORDER BY A, B DESC, ID LIMIT 40",
          "SELECT /*+ INDEX(T T_AB) */ ID, B FROM T WHERE A = 7 ORDER BY B DESC, ID",
          "SELECT /*+ INDEX(T T_AB) */ ID, B FROM T WHERE A = 7 ORDER BY A, B DESC, ID LIMIT 3",
          "SELECT /*+ INDEX(T T_B) */ ID, B FROM T ORDER BY B DESC, ID LIMIT 30",
          "SELECT /*+ INDEX(T T_B) */ ID, B FROM T ORDER BY B DESC NULLS LAST, ID",
          "SELECT /*+ INDEX(T T_UB) */ ID, UPPER(B) FROM T ORDER BY UPPER(B), ID LIMIT 20");

  /** Queries over the same indexes whose order is not the index's: the store sorts. */
  private static final List<String> SORTED =
      List.of(
          "SELECT /*+ INDEX(T T_A) */ ID, A FROM T ORDER BY A DESC, ID LIMIT 10",
          "SELECT /*+ INDEX(T T_A) */ ID, A FROM T ORDER BY A NULLS LAST, ID LIMIT 10",
          "SELECT /*+ INDEX(T T_A) */ ID, A FROM T ORDER BY ID LIMIT 10",
          "SELECT /*+ INDEX(T T_AB) */ ID, A, B FROM T ORDER BY A, B, ID LIMIT 10",
          "SELECT /*+ INDEX(T T_AB) */ ID, B FROM T WHERE A IN (3, 7) ORDER BY B DESC, ID");

  /** Aggregations whose groups come in the index's order: the store aggregates them as they end. */
  private static final List<String> GROUPED =
      List.of(
          "SELECT /*+ INDEX(T T_A) */ A, COUNT(*), SUM(C), MIN(C) FROM T GROUP BY A",
          "SELECT /*+ INDEX(T T_A) */ DISTINCT A FROM T WHERE A > 20",
          "SELECT /*+ INDEX(T T_AB) */ A, B, COUNT(*), MAX(ID) FROM T GROUP BY A, B",
          "SELECT /*+ INDEX(T T_AB) */ B, COUNT(*), AVG(C) FROM T WHERE A = 7 GROUP BY B",
          "SELECT /*+ INDEX(T T_B) */ B, COUNT(*) FROM T WHERE ID >= 300 GROUP BY B",
          "SELECT /*+ INDEX(T T_UB) */ UPPER(B), COUNT(*) FROM T GROUP BY UPPER(B)",
          "SELECT /*+ INDEX(T T_A) */ A, COUNT(*) FROM T GROUP BY A ORDER BY A LIMIT 5");

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
    String name = "idx-order-" + UUID.randomUUID();
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
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, A INTEGER, B VARCHAR(10), C INTEGER)"
            + " SPLIT ON (200, 500, 800)",
        "CREATE INDEX T_A ON T (A) INCLUDE (C)");
    Random random = new Random(SEED);
    try (PreparedStatement upsert = c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?, ?)")) {
      for (int id = 0; id < ROWS; id++) {
        upsert.setInt(1, id);
        upsert.setObject(2, random.nextInt(8) == 0 ? null : random.nextInt(60));
        upsert.setString(3, random.nextInt(6) == 0 ? null : "b" + random.nextInt(40));
        upsert.setInt(4, random.nextInt(1000));
        upsert.addBatch();
      }
      upsert.executeBatch();
    }
    TestingDatabase.execute(
        c,
        "CREATE INDEX T_AB ON T (A, B DESC)",
        "CREATE INDEX T_B ON T (B DESC)",
        "CREATE INDEX T_UB ON T (UPPER(B))");
  }

  private static String explain(Connection c, String sql) throws SQLException {
    return String.join("\n", TestingDatabase.rows(c, "EXPLAIN " + sql));
  }

  private static void checkAll(Connection c) throws SQLException {
    for (String sql : IN_INDEX_ORDER) {
      String plan = explain(c, sql);
      assertThat(plan).as(sql).contains("(index order)").doesNotContain("SORTED BY");
      assertThat(plan)
          .as(sql)
          .containsPattern("CLIENT (PARALLEL \\d+-WAY \\d+|1)-CHUNK SCAN INDEX");
      assertThat(TestingDatabase.rows(c, sql))
          .as(sql)
          .isEqualTo(TestingDatabase.rows(c, sql.replaceFirst("INDEX\\(T \\w+\\)", "NO_INDEX")));
    }
    for (String sql : GROUPED) {
      assertThat(explain(c, sql)).as(sql).contains("SERVER AGGREGATE INTO ORDERED DISTINCT ROWS");
      List<String> expected =
          new java.util.ArrayList<>(
              TestingDatabase.rows(c, sql.replaceFirst("INDEX\\(T \\w+\\)", "NO_INDEX")));
      List<String> actual = new java.util.ArrayList<>(TestingDatabase.rows(c, sql));
      if (!sql.contains("ORDER BY")) {
        expected.sort(null);
        actual.sort(null);
      }
      assertThat(actual).as(sql).isEqualTo(expected);
    }
    for (String sql : SORTED) {
      assertThat(explain(c, sql)).as(sql).contains("SORTED BY").doesNotContain("(index order)");
      assertThat(TestingDatabase.rows(c, sql))
          .as(sql)
          .isEqualTo(TestingDatabase.rows(c, sql.replaceFirst("INDEX\\(T \\w+\\)", "NO_INDEX")));
    }
  }

  @ParameterizedTest
  @MethodSource("remoteOrNot")
  void orderByOnIndexPartsGivesTheTablesAnswers(boolean remote) throws SQLException {
    try (Connection c = DriverManager.getConnection(url(remote))) {
      load(c);
      checkAll(c);
      assertThat(
              TestingDatabase.rows(
                      c, "EXPLAIN SELECT /*+ INDEX(T T_A) */ ID, A FROM T ORDER BY A LIMIT 5")
                  .stream()
                  .map(l -> l.strip().replaceAll("PARALLEL \\d+-WAY", "PARALLEL n-WAY")))
          .containsExactlyElementsOf(
              TestUrls.hbase() // an index of its own, read as one chunk in its order
                  ? List.of(
                      "CLIENT MERGE SORT",
                      "CLIENT 1-CHUNK SCAN INDEX T_A ON PUBLIC.T (covered) FULL",
                      "SERVER PROJECT ID, A",
                      "SERVER ORDER BY [A] (index order)",
                      "SERVER 5 ROW LIMIT")
                  : List.of(
                      "CLIENT MERGE SORT",
                      "CLIENT PARALLEL n-WAY 4-CHUNK SCAN INDEX T_A ON PUBLIC.T (covered) FULL",
                      "SERVER PROJECT ID, A",
                      "SERVER ORDER BY [A] (index order)",
                      "SERVER 5 ROW LIMIT"));
      // rows written after the builds, then the regions split: each region's entries stay in order
      TestingDatabase.execute(
          c,
          "UPDATE T SET A = A + 1 WHERE MOD(ID, 3) = 0",
          "UPDATE T SET B = NULL WHERE MOD(ID, 11) = 0",
          "DELETE FROM T WHERE MOD(ID, 7) = 0");
      checkAll(c);
      TestingDatabase.execute(c, "FLUSH TABLE T", "SPLIT TABLE T", "MAJOR_COMPACT TABLE T");
      checkAll(c);
    }
  }
}
