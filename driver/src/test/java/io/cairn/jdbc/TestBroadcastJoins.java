package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Joins probed in the store (a broadcast hash join) answer what the client join answers (forced by
 * the NO_SERVER_JOIN hint; run embedded and, in the remote-contract execution, over a server):
 * INNER, LEFT, SEMI (IN, EXISTS), ANTI (NOT EXISTS, NOT IN with NULLs), duplicate and NULL build
 * keys, multi-column keys, residual conditions, aggregates, sorts.
 */
class TestBroadcastJoins {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("broadcast-join");

  @BeforeEach
  void load() throws SQLException {
    db.execute(
        "CREATE TABLE P (ID INTEGER PRIMARY KEY, K INTEGER, K2 VARCHAR(4), V DECIMAL(10,2))"
            + " SPLIT ON (500, 1000, 1500)",
        "CREATE TABLE B (ID INTEGER PRIMARY KEY, K INTEGER, K2 VARCHAR(4), NAME VARCHAR(10))",
        "CREATE TABLE NB (ID INTEGER PRIMARY KEY, K INTEGER)");
    try (PreparedStatement p =
        db.connection().prepareStatement("UPSERT INTO P VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < 2000; i++) {
        p.setInt(1, i);
        p.setObject(2, i % 11 == 0 ? null : i % 37);
        p.setString(3, "k" + (i % 3));
        p.setBigDecimal(4, java.math.BigDecimal.valueOf(i * 7L % 1000, 2));
        p.addBatch();
      }
      p.executeBatch();
    }
    try (PreparedStatement b =
        db.connection().prepareStatement("UPSERT INTO B VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < 30; i++) {
        b.setInt(1, i);
        b.setObject(2, i == 29 ? null : i % 20); // keys 0..9 twice, 10..19 once, one NULL
        b.setString(3, "k" + (i % 2));
        b.setString(4, "n" + i);
        b.addBatch();
      }
      b.executeBatch();
    }
    db.execute("UPSERT INTO NB VALUES (1, 3)", "UPSERT INTO NB VALUES (2, 5)");
  }

  /** The query's rows (sorted unless ordered) probed in the store and with the client join. */
  private void assertSameAsClient(String select, boolean ordered) throws SQLException {
    String sql = "SELECT " + select;
    String client = "SELECT /*+ NO_SERVER_JOIN */ " + select;
    // which side probes follows the tables' row counts (a remote connection's are cached 1 s)
    assertThat(String.join("\n", db.explain(client))).doesNotContain("SERVER HASH JOIN PROBE");
    List<String> probed = new ArrayList<>(db.rows(sql));
    List<String> expected = new ArrayList<>(db.rows(client));
    if (!ordered) {
      probed.sort(null);
      expected.sort(null);
    }
    assertThat(probed).as(sql).isEqualTo(expected);
  }

  @Test
  void innerAndLeftJoins() throws SQLException {
    assertThat(String.join("\n", db.explain("SELECT P.ID, B.NAME FROM P JOIN B ON P.K = B.K")))
        .contains("SERVER HASH JOIN PROBE INNER");
    assertSameAsClient("P.ID, P.K, B.NAME FROM P JOIN B ON P.K = B.K", false);
    assertSameAsClient("P.ID, B.ID, B.NAME FROM P LEFT JOIN B ON P.K = B.K", false);
    assertSameAsClient("P.ID, B.NAME FROM P JOIN B ON P.K = B.K AND P.K2 = B.K2", false);
    assertSameAsClient("P.ID, B.NAME FROM P LEFT JOIN B ON P.K = B.K AND P.V > B.ID", false);
    assertSameAsClient("P.ID, B.NAME FROM P JOIN B ON P.K = B.K WHERE B.NAME LIKE 'n1%'", false);
    assertSameAsClient("P.ID, B.NAME FROM P JOIN B ON P.K = B.K WHERE P.ID < 100", false);
    assertSameAsClient(
        "P.ID, B.NAME FROM P JOIN B ON P.K = B.K ORDER BY P.ID DESC, B.NAME LIMIT 25", true);
    assertThat(db.rows("SELECT COUNT(*) FROM P JOIN B ON P.K = B.K")).hasSize(1);
  }

  /** A build side that itself probes (a join of joins, each in the store) answers the same. */
  @Test
  void aBuildSideThatProbesItself() throws SQLException {
    String nested =
        "A.ID, C.NAME FROM P A JOIN (SELECT Q.K, B.NAME FROM P Q JOIN B ON Q.ID = B.K"
            + " WHERE Q.ID < 40) C ON A.K = C.K";
    assertThat(
            db.explain("SELECT " + nested).stream()
                .filter(l -> l.contains("SERVER HASH JOIN PROBE"))
                .count())
        .isEqualTo(2);
    assertSameAsClient(nested, false);
    assertSameAsClient("COUNT(*) FROM (SELECT " + nested + ")", false);
  }

  /** A probe on the first primary-key column with few build keys reads only their rows. */
  @Test
  void aLookupJoinOnTheKeyAnswersAsTheClientJoin() throws SQLException {
    assertSameAsClient("P.ID, P.V, B.NAME FROM P JOIN B ON P.ID = B.K", false);
    assertSameAsClient("P.ID, B.NAME FROM P JOIN B ON P.ID = B.K AND P.K2 = B.K2", false);
    assertSameAsClient("P.ID, B.NAME FROM P JOIN B ON P.ID = B.K WHERE P.ID > 5", false);
    assertSameAsClient("COUNT(*), SUM(P.V) FROM P JOIN B ON P.ID = B.ID + 1500", false);
    assertSameAsClient("ID, V FROM P WHERE ID IN (SELECT K FROM B) ORDER BY ID DESC", true);
  }

  /** The dynamic filter (build keys tested on the probe rows' bytes) keeps every match. */
  @Test
  void theDynamicFilterKeepsEveryMatchOfIntegerAndDecimalKeys() throws SQLException {
    String decimals =
        "COUNT(*), SUM(A.ID) FROM P A, (SELECT V V2 FROM P WHERE ID < 40) C WHERE A.V = C.V2";
    assertThat(String.join("\n", db.explain("SELECT " + decimals)))
        .contains("SERVER DYNAMIC FILTER V IN (build keys)");
    assertSameAsClient(decimals, false);
    assertSameAsClient("P.ID, B.NAME FROM P JOIN B ON P.K = B.K AND P.K2 = B.K2", false);
    assertSameAsClient("ID FROM P WHERE V IN (SELECT V FROM P WHERE K = 3)", false);
  }

  @Test
  void aggregatesAboveTheJoinRunInTheProbeScan() throws SQLException {
    String count = "SELECT COUNT(*) FROM P, B WHERE P.K = B.K";
    assertThat(String.join("\n", db.explain(count)))
        .contains("SERVER AGGREGATE INTO SINGLE ROW", "SERVER HASH JOIN PROBE INNER");
    assertSameAsClient("COUNT(*) FROM P, B WHERE P.K = B.K", false);
    assertSameAsClient(
        "B.NAME, SUM(P.V), COUNT(*) FROM P JOIN B ON P.K = B.K GROUP BY B.NAME", false);
    assertSameAsClient("COUNT(B.ID), MAX(P.V) FROM P LEFT JOIN B ON P.K = B.K", false);
  }

  @Test
  void semiAndAntiJoins() throws SQLException {
    assertSameAsClient("ID FROM P WHERE K IN (SELECT K FROM B WHERE ID < 15)", false);
    assertSameAsClient("ID FROM P WHERE EXISTS (SELECT 1 FROM B WHERE B.K = P.K)", false);
    assertSameAsClient("ID FROM P WHERE NOT EXISTS (SELECT 1 FROM B WHERE B.K = P.K)", false);
  }

  /**
   * An aggregate over P joined on its group key with few of B's rows is computed only for their
   * keys: P's scan probes them first (EXISTS and correlated subqueries, TPC-H Q4 and Q17).
   */
  @Test
  void anAggregateJoinedWithFewKeysIsReducedByThem() throws SQLException {
    db.execute("UPDATE STATISTICS P", "UPDATE STATISTICS B");
    String exists =
        "B.NAME FROM B WHERE B.ID < 5 AND EXISTS (SELECT 1 FROM P WHERE P.K = B.K AND P.V > 1)";
    // EXISTS needs no aggregate at all: P's scan probes B's few rows (a mark join)
    assertThat(String.join("\n", db.explain("SELECT " + exists)))
        .contains("MARK SEMI JOIN")
        .doesNotContain("DISTINCT ROWS");
    assertSameAsClient(exists, false);
    String average =
        "B.NAME, P.ID FROM P, B WHERE P.K = B.K AND B.ID < 5"
            + " AND P.V < (SELECT AVG(Q.V) FROM P Q WHERE Q.K = B.K)";
    assertThat(String.join("\n", db.explain("SELECT " + average)))
        .contains("SERVER HASH JOIN PROBE SEMI");
    assertSameAsClient(average, false);
    assertSameAsClient(
        "B.ID FROM B WHERE B.ID < 5 AND NOT EXISTS (SELECT 1 FROM P WHERE P.K = B.K)", false);
  }

  /**
   * A correlated MIN over a join (TPC-H Q2: the cheapest supplier's cost of each part, over
   * PARTSUPP joined with the suppliers of a region) is computed only for the outer rows' keys: the
   * semi join on the group key is placed on the table the key comes from, inside the subquery's
   * join, so that table's scan probes the few keys.
   */
  @Test
  void anAggregateOverAJoinIsReducedOnTheTableOfItsKey() throws SQLException {
    db.execute("UPDATE STATISTICS P", "UPDATE STATISTICS B");
    String cheapest =
        "B.NAME, P.ID, P.V FROM P, B WHERE P.K = B.K AND B.ID < 5"
            + " AND P.V = (SELECT MIN(Q.V) FROM P Q JOIN B C ON Q.K2 = C.K2"
            + " WHERE Q.K = B.K AND C.NAME <> 'n3')";
    assertThat(String.join("\n", db.explain("SELECT " + cheapest)))
        .contains("SERVER HASH JOIN PROBE SEMI ON K = $B0");
    assertSameAsClient(cheapest, false);
    assertThat(db.rows("SELECT " + cheapest)).isNotEmpty();
  }

  /**
   * A probe whose keys include the table's first primary-key column looks that column's keys up,
   * whichever order the join condition names them in; the same rows as the client join.
   */
  @Test
  void aProbeLooksUpThePrimaryKeyWhereverTheConditionNamesIt() throws SQLException {
    db.execute("UPDATE STATISTICS P", "UPDATE STATISTICS B");
    String join = "P.ID, B.NAME FROM P JOIN B ON P.K = B.K AND P.ID = B.ID * 3";
    assertThat(String.join("\n", db.explain("SELECT " + join)))
        .contains("SERVER HASH JOIN PROBE INNER ON ID = $B")
        .contains("SERVER LOOKUP BY ID IN (build keys) WHEN FEW");
    assertSameAsClient(join, false);
    assertThat(db.rows("SELECT " + join)).isNotEmpty();
  }

  /** BROADCAST(P) builds on P (B's scan probes it): the same rows, the residual kept. */
  @Test
  void theBroadcastHintSwapsTheSidesWithTheSameRows() throws SQLException {
    String join = " P.ID, P.K, B.NAME FROM P JOIN B ON P.K = B.K AND P.ID > B.ID * 40";
    String hinted = "SELECT /*+ BROADCAST(P) */" + join;
    assertThat(String.join("\n", db.explain(hinted)))
        .contains("FULL SCAN OVER PUBLIC.B")
        .contains("SERVER HASH JOIN PROBE INNER ON K = $B");
    List<String> swapped = new ArrayList<>(db.rows(hinted));
    List<String> plain = new ArrayList<>(db.rows("SELECT" + join));
    swapped.sort(null);
    plain.sort(null);
    assertThat(swapped).isNotEmpty().isEqualTo(plain);
  }

  @Test
  void notInKeepsSqlNullRules() throws SQLException {
    // B.K has a NULL: NOT IN keeps no row; without it, rows with a NULL P.K are not kept either
    String withNull = "SELECT ID FROM P WHERE K NOT IN (SELECT K FROM B)";
    String without = "SELECT ID FROM P WHERE K NOT IN (SELECT K FROM NB)";
    assertThat(db.rows(withNull)).isEmpty();
    assertThat(db.rows(without))
        .isEqualTo(db.rows("SELECT ID FROM P WHERE K IS NOT NULL AND K <> 3 AND K <> 5"));
  }

  /**
   * Past {@code hashJoinMaxBytes} a server would hold too much: over the wire the join is probed in
   * passes of at most that many bytes, with a warning; embedded the store probes the driver's own
   * table, so the budget does not apply. The same rows either way.
   */
  @Test
  void aBuildSideOverTheBudgetIsProbedInPassesOnAServer() throws SQLException {
    String sql = "SELECT P.ID, B.NAME FROM P JOIN B ON P.K = B.K";
    List<String> expected = new ArrayList<>(db.rows(sql));
    expected.sort(null);
    try (java.sql.Connection small =
            java.sql.DriverManager.getConnection(db.url() + ";hashJoinMaxBytes=1k");
        java.sql.Statement s = small.createStatement()) {
      List<String> rows = new ArrayList<>();
      List<String> warnings = new ArrayList<>();
      try (java.sql.ResultSet rs = s.executeQuery(sql)) {
        while (rs.next()) {
          rows.add(rs.getObject(1) + "," + rs.getObject(2));
        }
        for (java.sql.SQLWarning w = rs.getWarnings(); w != null; w = w.getNextWarning()) {
          warnings.add(w.getMessage());
        }
      }
      rows.sort(null);
      assertThat(rows).isEqualTo(expected);
      if (TestUrls.remote()) {
        assertThat(warnings)
            .anyMatch(
                w ->
                    w.contains("[hashJoinMaxBytes] [1024] bytes")
                        && w.contains("is probed in the store in ["));
      } else {
        assertThat(warnings).isEmpty();
      }
      assertThat(TestingDatabase.rows(small, "SELECT COUNT(*) FROM P, B WHERE P.K = B.K"))
          .isEqualTo(db.rows("SELECT /*+ NO_SERVER_JOIN */ COUNT(*) FROM P, B WHERE P.K = B.K"));
    }
  }

  /**
   * A build side past the query's memory is written to disk by hash partition and probed in passes,
   * each with its own hash cache (over the wire too): the same rows, with a warning.
   */
  @Test
  void aBuildSideOverTheQuerysMemoryIsProbedInPasses() throws SQLException {
    for (String sql :
        List.of(
            "SELECT P.ID, B.NAME FROM P LEFT JOIN B ON P.K = B.K",
            "SELECT P.K, COUNT(*), MAX(B.NAME) FROM P JOIN B ON P.K = B.K GROUP BY P.K",
            "SELECT ID FROM P WHERE NOT EXISTS (SELECT 1 FROM B WHERE B.K = P.K)",
            "SELECT P.ID, B.ID FROM P, B WHERE P.K = B.K ORDER BY B.ID DESC, P.ID LIMIT 7")) {
      assertThat(String.join("\n", db.explain(sql))).contains("SERVER HASH JOIN PROBE");
      List<String> expected = new ArrayList<>(db.rows(sql));
      try (java.sql.Connection small =
              java.sql.DriverManager.getConnection(db.url() + ";queryMemoryMaxBytes=2k");
          java.sql.Statement s = small.createStatement();
          java.sql.ResultSet rs = s.executeQuery(sql)) {
        List<String> rows = new ArrayList<>();
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          for (int i = 1; i <= columns; i++) {
            row.append(i > 1 ? "," : "").append(rs.getObject(i));
          }
          rows.add(row.toString());
        }
        if (!sql.contains("ORDER BY")) {
          rows.sort(null);
          expected.sort(null);
        }
        assertThat(rows).as(sql).isEqualTo(expected);
        List<String> warnings = new ArrayList<>();
        for (java.sql.SQLWarning w = rs.getWarnings(); w != null; w = w.getNextWarning()) {
          warnings.add(w.getMessage());
        }
        assertThat(warnings).as(sql).anyMatch(w -> w.contains("is probed in the store in ["));
      }
    }
  }

  @Test
  void theBudgetPropertyIsChecked() {
    for (String bad : new String[] {"0", "-5", "lots"}) {
      assertThatThrownBy(
              () -> java.sql.DriverManager.getConnection(db.url() + ";hashJoinMaxBytes=" + bad))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("hashJoinMaxBytes")
          .hasMessageContaining("[" + bad + "]");
    }
  }
}
