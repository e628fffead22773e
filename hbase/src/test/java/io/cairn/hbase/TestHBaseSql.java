package io.cairn.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.hbase.server.CairnRegionObserver;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * SQL through the driver's {@code jdbc:cairn:hbase:QUORUM:PORT} URL on the mini-cluster: the driver
 * finds this module's store on the class path, keeps its catalog in HBase, and runs the scan
 * programs in the region server.
 */
@ExtendWith(MiniHBase.class)
class TestHBaseSql {
  private static final AtomicInteger NAMESPACES = new AtomicInteger();

  private String url;

  @BeforeEach
  void url(HBaseTestingUtility hbase) {
    url =
        "jdbc:cairn:hbase:127.0.0.1:"
            + hbase.getConfiguration().get("hbase.zookeeper.property.clientPort")
            + ";cairn.hbase.namespace=sql"
            + NAMESPACES.incrementAndGet();
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
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
    return rows;
  }

  private static void load(Connection c) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(
          "CREATE TABLE ORDERS (ID INTEGER PRIMARY KEY, CUSTOMER INTEGER NOT NULL,"
              + " AMOUNT DECIMAL(10,2)) SPLIT ON (250, 500, 750)");
      s.execute("CREATE TABLE CUSTOMERS (ID INTEGER PRIMARY KEY, NAME VARCHAR(20))");
      s.execute("UPSERT INTO CUSTOMERS VALUES (0, 'ann'), (1, 'bob'), (2, 'cy')");
    }
    try (PreparedStatement p = c.prepareStatement("UPSERT INTO ORDERS VALUES (?, ?, ?)")) {
      for (int id = 0; id < 1_000; id++) {
        p.setInt(1, id);
        p.setInt(2, id % 3);
        p.setBigDecimal(3, java.math.BigDecimal.valueOf(id, 1));
        p.addBatch();
      }
      p.executeBatch();
    }
  }

  @Test
  void queriesAndWritesRunOnHBase() throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      load(c);
      assertThat(rows(c, "SELECT COUNT(*), SUM(AMOUNT), MIN(ID), MAX(ID) FROM ORDERS"))
          .containsExactly("1000|49950.00|0|999");
      assertThat(rows(c, "SELECT CUSTOMER, COUNT(*) FROM ORDERS GROUP BY CUSTOMER ORDER BY 1"))
          .containsExactly("0|334", "1|333", "2|333");
      assertThat(rows(c, "SELECT ID FROM ORDERS WHERE ID BETWEEN 248 AND 252 ORDER BY ID"))
          .containsExactly("248", "249", "250", "251", "252");
      assertThat(rows(c, "SELECT ID, AMOUNT FROM ORDERS ORDER BY AMOUNT DESC LIMIT 2"))
          .containsExactly("999|99.90", "998|99.80");
      assertThat(
              rows(
                  c,
                  "SELECT C.NAME, COUNT(*), SUM(O.AMOUNT) FROM ORDERS O JOIN CUSTOMERS C"
                      + " ON O.CUSTOMER = C.ID WHERE O.ID < 10 GROUP BY C.NAME ORDER BY 1"))
          .containsExactly("ann|4|1.80", "bob|3|1.20", "cy|3|1.50");
      try (Statement s = c.createStatement()) {
        assertThat(s.executeUpdate("UPDATE ORDERS SET AMOUNT = AMOUNT + 1 WHERE ID < 10"))
            .isEqualTo(10);
        assertThat(s.executeUpdate("DELETE FROM ORDERS WHERE ID >= 990")).isEqualTo(10);
      }
      assertThat(rows(c, "SELECT COUNT(*), SUM(AMOUNT) FROM ORDERS"))
          .containsExactly("990|48965.50");
      try (Statement s = c.createStatement()) {
        // a DELETE through a subquery: its rows are checked against the values read too
        assertThat(
                s.executeUpdate(
                    "DELETE FROM ORDERS WHERE ID < 20 AND CUSTOMER IN"
                        + " (SELECT ID FROM CUSTOMERS WHERE NAME = 'cy')"))
            .isEqualTo(6);
      }
      assertThat(rows(c, "SELECT COUNT(*) FROM ORDERS")).containsExactly("984");
      assertThat(String.join("\n", rows(c, "EXPLAIN SELECT COUNT(*) FROM ORDERS WHERE ID > 5")))
          .contains("SERVER AGGREGATE INTO SINGLE ROW");
    }
  }

  @Test
  void aJoinsProbeRunsInTheRegionServersWithItsHashTable() throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      load(c);
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE PICKED (P INTEGER PRIMARY KEY, TAG VARCHAR(5))");
        s.execute("UPSERT INTO PICKED VALUES (1, 'one'), (2, 'two'), (7, 'seven'), (2000, 'none')");
      }
      long before = CairnRegionObserver.probesStarted();
      // a count over the join, and the joined rows, across ORDERS's four regions
      assertThat(rows(c, "SELECT COUNT(*) FROM ORDERS O, PICKED P WHERE O.ID = P.P * 100"))
          .containsExactly("3");
      assertThat(
              rows(
                  c,
                  "SELECT O.ID, P.TAG, O.AMOUNT FROM ORDERS O JOIN PICKED P ON O.ID = P.P * 100"
                      + " ORDER BY O.ID"))
          .containsExactly("100|one|10.00", "200|two|20.00", "700|seven|70.00");
      assertThat(
              rows(
                  c,
                  "SELECT COUNT(*) FROM ORDERS O WHERE O.CUSTOMER = 1 AND O.ID IN"
                      + " (SELECT P * 100 FROM PICKED)"))
          .containsExactly("2");
      assertThat(CairnRegionObserver.probesStarted() - before)
          .as("region scans that probed a hash table that came with them")
          .isGreaterThanOrEqualTo(4);
    }
  }

  @Test
  void anInsertOfADuplicateSaysTheOtherRowsWereWritten() throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE T (K INTEGER PRIMARY KEY, V VARCHAR(5))");
      s.execute("INSERT INTO T VALUES (1, 'a')");
      assertThatThrownBy(() -> s.execute("INSERT INTO T VALUES (1, 'b')"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"))
          .hasMessageNotContaining("other rows");
      assertThatThrownBy(() -> s.execute("INSERT INTO T VALUES (2, 'c'), (1, 'd'), (3, 'e')"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"))
          .hasMessageContaining("other rows of the statement or commit were written");
      assertThat(rows(c, "SELECT K, V FROM T ORDER BY K")).containsExactly("1|a", "2|c", "3|e");
    }
  }

  @Test
  void aTransactionOfSeveralRowsCommitsRowByRowAndAFailedCommitSaysSo() throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE T (K INTEGER PRIMARY KEY, V INTEGER)");
      s.execute("CREATE TABLE U (K INTEGER PRIMARY KEY, V INTEGER)");
      c.setAutoCommit(false);
      s.execute("UPSERT INTO T VALUES (1, 1)");
      s.execute("UPSERT INTO T VALUES (2, 2)");
      s.execute("UPSERT INTO U VALUES (1, 10)");
      // buffered until the commit, and read back over the transaction's writes meanwhile
      assertThat(rows(c, "SELECT COUNT(*) FROM T")).containsExactly("2");
      c.commit();
      try (Connection other = DriverManager.getConnection(url)) {
        assertThat(rows(other, "SELECT K, V FROM T ORDER BY K")).containsExactly("1|1", "2|2");
        assertThat(rows(other, "SELECT K, V FROM U")).containsExactly("1|10");
        // a commit meeting a duplicate key: the error says that other rows were written
        s.execute("UPSERT INTO T VALUES (3, 3)");
        s.execute("INSERT INTO U VALUES (5, 51)");
        s.execute("UPSERT INTO U VALUES (6, 6)");
        try (Statement o = other.createStatement()) {
          o.execute("UPSERT INTO U VALUES (5, 50)"); // before the INSERT's commit
        }
      }
      assertThatThrownBy(c::commit)
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"))
          .hasMessageContaining("other rows of the statement or commit were written");
      c.setAutoCommit(true);
      assertThat(rows(c, "SELECT K, V FROM T ORDER BY K")).containsExactly("1|1", "2|2", "3|3");
      assertThat(rows(c, "SELECT K, V FROM U ORDER BY K")).containsExactly("1|10", "5|50", "6|6");
    }
  }

  @Test
  void aTransactionsReadModifyWritesAreCheckedAtCommitAgainstTheValuesRead() throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE T (K INTEGER PRIMARY KEY, N INTEGER NOT NULL)");
      s.execute("UPSERT INTO T VALUES (1, 0), (2, 0)");
      c.setAutoCommit(false);
      // a row changed three times: each statement reads the one before from the transaction
      s.execute("UPDATE T SET N = N + 1 WHERE K = 1");
      s.execute("UPDATE T SET N = N + 1 WHERE K = 1");
      s.execute("UPSERT INTO T VALUES (1, 0) ON DUPLICATE KEY UPDATE N = N + 10");
      // an INSERT and then a DELETE of one key: nothing, on condition the key is still free
      s.execute("INSERT INTO T VALUES (5, 5)");
      s.execute("DELETE FROM T WHERE K = 5");
      c.commit();
      assertThat(rows(c, "SELECT N FROM T WHERE K = 1")).containsExactly("12");
      assertThat(rows(c, "SELECT COUNT(*) FROM T WHERE K = 5")).containsExactly("0");
      // another client changes the row between the transaction's read and its commit
      s.execute("UPDATE T SET N = N + 1 WHERE K = 2");
      try (Connection other = DriverManager.getConnection(url);
          Statement o = other.createStatement()) {
        o.execute("UPDATE T SET N = N + 100 WHERE K = 2");
      }
      assertThatThrownBy(c::commit)
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("40001"));
      c.setAutoCommit(true);
      assertThat(rows(c, "SELECT N FROM T WHERE K = 2")).containsExactly("100");
    }
  }

  @Test
  void updateStatisticsCountsTheRowsInTheRegionServers() throws SQLException {
    String explain = "EXPLAIN SELECT * FROM ORDERS WHERE AMOUNT > 5";
    try (Connection c = DriverManager.getConnection(url)) {
      load(c);
      assertThat(String.join("\n", rows(c, explain))).doesNotContain("ROWS,");
      String stats =
          "SELECT COUNT(*), COUNT(ROW_COUNT), SUM(ROW_COUNT), COUNT(COLLECTED_AT),"
              + " MIN(START_KEY), MAX(STOP_KEY), MIN(GUIDE_POSTS_WIDTH) FROM SYSTEM.STATS"
              + " WHERE TABLE_SCHEM = 'PUBLIC' AND TABLE_NAME = 'ORDERS'";
      // SYSTEM.STATS: one row per region, nothing counted yet
      assertThat(rows(c, stats)).containsExactly("4|0|null|0||01800002ee|" + (32L << 20));
      try (Statement s = c.createStatement()) {
        s.execute("UPDATE STATISTICS ORDERS");
      }
      assertThat(String.join("\n", rows(c, explain)))
          .contains("4-CHUNK")
          .contains("EST 1,000 ROWS");
      assertThat(rows(c, stats)).containsExactly("4|4|1000|4||01800002ee|" + (32L << 20));
      assertThat(rows(c, "SELECT TABLE_NAME, COUNT(*) FROM SYSTEM.STATS GROUP BY TABLE_NAME"))
          .containsExactlyInAnyOrder("ORDERS|4", "CUSTOMERS|1");
      // no local indexes on HBase; the block cache and buffer pool views are Cairn's own store's
      assertThat(rows(c, "SELECT COUNT(*) FROM SYSTEM.INDEXES")).containsExactly("0");
      assertThatThrownBy(() -> rows(c, "SELECT * FROM SYSTEM.BLOCK_CACHE"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("region servers' metrics");
    }
    // kept in HBase: a store opened again (another client) knows them
    try (Connection c = DriverManager.getConnection(url)) {
      assertThat(String.join("\n", rows(c, explain))).contains("EST 1,000 ROWS");
      try (Statement s = c.createStatement()) {
        s.execute("DELETE FROM ORDERS WHERE ID < 250");
        s.execute("UPDATE STATISTICS ORDERS");
      }
      assertThat(String.join("\n", rows(c, explain))).contains("EST 750 ROWS");
      // guide posts inside the regions: more chunks than regions, scanned in parallel
      try (Statement s = c.createStatement()) {
        s.execute("ALTER TABLE ORDERS SET GUIDE_POSTS_WIDTH = 2000");
        s.execute("UPDATE STATISTICS ORDERS");
      }
      String plan = String.join("\n", rows(c, explain));
      java.util.regex.Matcher chunks =
          java.util.regex.Pattern.compile("(\\d+)-CHUNK").matcher(plan);
      assertThat(chunks.find()).as(plan).isTrue();
      assertThat(Integer.parseInt(chunks.group(1))).as(plan).isGreaterThan(4);
      assertThat(plan).contains("EST 750 ROWS");
      assertThat(rows(c, "SELECT COUNT(*), SUM(AMOUNT), MIN(ID), MAX(ID) FROM ORDERS"))
          .containsExactly("750|46837.50|250|999");
      assertThat(rows(c, "SELECT ID FROM ORDERS WHERE CUSTOMER = 1 ORDER BY AMOUNT DESC LIMIT 2"))
          .containsExactly("997", "994");
      assertThat(rows(c, "SELECT COUNT(*) FROM ORDERS WHERE ID BETWEEN 300 AND 699"))
          .containsExactly("400");
    }
  }

  @Test
  void aCompactionOfAllOfARegionsFilesRefreshesItsStatistics() throws Exception {
    String explain = "EXPLAIN SELECT * FROM ORDERS WHERE AMOUNT > 5";
    try (Connection c = DriverManager.getConnection(url)) {
      load(c); // 1,000 rows in four regions
      try (Statement s = c.createStatement()) {
        s.execute("UPDATE STATISTICS ORDERS");
        s.execute("UPSERT INTO ORDERS SELECT ID + 1000, CUSTOMER, AMOUNT FROM ORDERS");
        s.execute("DELETE FROM ORDERS WHERE ID < 100");
        s.execute("FLUSH TABLE ORDERS");
      }
      assertThat(String.join("\n", rows(c, explain))).contains("EST 1,000 ROWS");
      try (Statement s = c.createStatement()) {
        s.execute("MAJOR_COMPACT TABLE ORDERS");
      }
    }
    // each region counted its rows as the compaction rewrote them (the last region holds the
    // 1,000 new rows, the first lost 100), written by the region server's own thread just after
    // it: a new client reads the refreshed statistics
    String plan = "";
    for (long deadline = System.nanoTime() + 30_000_000_000L; System.nanoTime() < deadline; ) {
      try (Connection c = DriverManager.getConnection(url)) {
        plan = String.join("\n", rows(c, explain));
      }
      if (plan.contains("EST 1,900 ROWS")) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(plan).contains("4-CHUNK").contains("EST 1,900 ROWS");
  }

  @Test
  void theCatalogIsKeptInHBase() throws SQLException {
    try (Connection c = DriverManager.getConnection(url)) {
      load(c);
    }
    // the last connection closed the store; a new one reads the tables back from HBase
    try (Connection c = DriverManager.getConnection(url)) {
      assertThat(rows(c, "SELECT COUNT(*) FROM ORDERS")).containsExactly("1000");
      assertThat(rows(c, "SELECT NAME FROM CUSTOMERS WHERE ID = 1")).containsExactly("bob");
    }
  }
}
