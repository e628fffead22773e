package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * GROUP BY, ORDER BY, top-N, OFFSET and FETCH computed in the store's scans (over a table of four
 * regions) give what the client computes: the client path is forced by a LIMIT inside a subquery (a
 * scan with a limit keeps its rows), which EXPLAIN confirms; some answers are computed in Java.
 */
class TestServerGroupsAndSorts {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("server-groups");

  private static final long SEED = Long.getLong("cairn.test.seed", System.nanoTime());
  private static final int ROWS = 1200;

  static {
    System.err.println(
        "TestServerGroupsAndSorts seed: " + SEED + " (-Dcairn.test.seed=" + SEED + ")");
  }

  /** TPC-H Q1 with DELTA = 90. */
  private static final String Q1 =
      "SELECT l_returnflag, l_linestatus, SUM(l_quantity) AS sum_qty,"
          + " SUM(l_extendedprice) AS sum_base_price,"
          + " SUM(l_extendedprice * (1 - l_discount)) AS sum_disc_price,"
          + " SUM(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,"
          + " AVG(l_quantity) AS avg_qty, AVG(l_extendedprice) AS avg_price,"
          + " AVG(l_discount) AS avg_disc, COUNT(*) AS count_order"
          + " FROM %s"
          + " WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL '90' DAY"
          + " GROUP BY l_returnflag, l_linestatus"
          + " ORDER BY l_returnflag, l_linestatus";

  /** The rows of T: ID, G, N, DE, VC (G, N, DE, VC sometimes NULL). */
  private final List<Object[]> rows = new ArrayList<>();

  @BeforeEach
  void open() throws SQLException {
    db.execute(
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, G VARCHAR(10), N INTEGER, DE DECIMAL(12,3),"
            + " VC VARCHAR(10)) SPLIT ON (300, 600, 900)");
    db.execute(
        "CREATE TABLE LINEITEM (L_ORDERKEY BIGINT NOT NULL, L_LINENUMBER INTEGER NOT NULL,"
            + " L_QUANTITY DECIMAL(15,2) NOT NULL, L_EXTENDEDPRICE DECIMAL(15,2) NOT NULL,"
            + " L_DISCOUNT DECIMAL(15,2) NOT NULL, L_TAX DECIMAL(15,2) NOT NULL,"
            + " L_RETURNFLAG CHAR(1) NOT NULL, L_LINESTATUS CHAR(1) NOT NULL,"
            + " L_SHIPDATE DATE NOT NULL, PRIMARY KEY (L_ORDERKEY, L_LINENUMBER))"
            + " SPLIT ON (100, 200, 300)");
    Random random = new Random(SEED);
    try (PreparedStatement upsert =
        db.connection().prepareStatement("UPSERT INTO T VALUES (?, ?, ?, ?, ?)")) {
      for (int id = 0; id < ROWS; id++) {
        Object[] row = {
          id,
          random.nextInt(8) == 0 ? null : "g" + random.nextInt(12),
          random.nextInt(6) == 0 ? null : random.nextInt(50),
          random.nextInt(7) == 0 ? null : BigDecimal.valueOf(random.nextLong() % 100_000_000L, 3),
          random.nextInt(5) == 0 ? null : "v" + random.nextInt(300)
        };
        rows.add(row);
        for (int i = 0; i < row.length; i++) {
          upsert.setObject(i + 1, row[i]);
        }
        upsert.addBatch();
      }
      upsert.executeBatch();
    }
    try (PreparedStatement upsert =
        db.connection()
            .prepareStatement("UPSERT INTO LINEITEM VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (int order = 0; order < 400; order++) {
        for (int line = 1; line <= 1 + random.nextInt(4); line++) {
          upsert.setLong(1, order);
          upsert.setInt(2, line);
          upsert.setBigDecimal(3, BigDecimal.valueOf(1 + random.nextInt(50)));
          upsert.setBigDecimal(4, BigDecimal.valueOf(90_000 + random.nextInt(10_000_000), 2));
          upsert.setBigDecimal(5, BigDecimal.valueOf(random.nextInt(11), 2));
          upsert.setBigDecimal(6, BigDecimal.valueOf(random.nextInt(9), 2));
          upsert.setString(7, List.of("A", "N", "R").get(random.nextInt(3)));
          upsert.setString(8, random.nextBoolean() ? "F" : "O");
          upsert.setObject(
              9, java.sql.Date.valueOf(LocalDate.of(1992, 1, 1).plusDays(random.nextInt(2500))));
          upsert.addBatch();
        }
      }
      upsert.executeBatch();
    }
  }

  /** The column metadata, then each row as one string of (class, value, scale) descriptions. */
  private static List<String> result(ResultSet rs) throws SQLException {
    List<String> out = new ArrayList<>();
    ResultSetMetaData meta = rs.getMetaData();
    StringBuilder header = new StringBuilder();
    for (int i = 1; i <= meta.getColumnCount(); i++) {
      header
          .append(meta.getColumnTypeName(i))
          .append('(')
          .append(meta.getPrecision(i))
          .append(',')
          .append(meta.getScale(i))
          .append(") ");
    }
    out.add(header.toString());
    while (rs.next()) {
      StringBuilder row = new StringBuilder();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        Object v = rs.getObject(i);
        row.append(
                v == null
                    ? "NULL"
                    : v.getClass().getSimpleName()
                        + " "
                        + (v instanceof BigDecimal d
                            ? d.toPlainString() + " scale " + d.scale()
                            : v.toString()))
            .append(" | ");
      }
      out.add(row.toString());
    }
    return out;
  }

  private List<String> result(String sql) throws SQLException {
    try (Statement s = db.connection().createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return result(rs);
    }
  }

  /**
   * {@code sql} over {@code table}, and over a subquery of it that keeps everything on the client.
   */
  private static String client(String sql, String table) {
    return sql.replace(
        "FROM " + table, "FROM (SELECT * FROM " + table + " LIMIT 2000000000) " + table);
  }

  /**
   * Checks that {@code sql} (over T) runs {@code serverLine} in the store, the client version not,
   * and both give the same rows: in the same order when {@code ordered}, else as multisets.
   */
  private void assertSameAsClient(String sql, String table, String serverLine, boolean ordered)
      throws SQLException {
    String client = client(sql, table);
    assertThat(db.explain(sql)).as(sql).anySatisfy(l -> assertThat(l).contains(serverLine));
    assertThat(db.explain(client)).as(client).noneSatisfy(l -> assertThat(l).contains(serverLine));
    List<String> expected = result(client);
    List<String> actual = result(sql);
    if (!ordered) {
      expected = sorted(expected);
      actual = sorted(actual);
    }
    assertThat(actual).as(sql + " (seed " + SEED + ")").isEqualTo(expected);
  }

  private static List<String> sorted(List<String> lines) {
    List<String> tail = new ArrayList<>(lines.subList(1, lines.size()));
    tail.sort(null);
    List<String> out = new ArrayList<>();
    out.add(lines.get(0));
    out.addAll(tail);
    return out;
  }

  @Test
  void tpchQ1GroupsInTheStore() throws SQLException {
    String q1 = String.format(Q1, "lineitem");
    assertThat(db.explain(q1))
        .contains(
            "CLIENT SORT BY $0 ASC NULLS FIRST, $1 ASC NULLS FIRST",
            "    CLIENT MERGE AGGREGATE INTO DISTINCT ROWS BY [L_RETURNFLAG, L_LINESTATUS]",
            // DATE '1998-12-01' - INTERVAL '90' DAY, folded while planning
            "            SERVER FILTER BY (L_SHIPDATE <= DATE '1998-09-02')");
    assertThat(db.explain(q1).get(2))
        .matches("        CLIENT PARALLEL \\d+-WAY \\d+-CHUNK FULL SCAN OVER PUBLIC.LINEITEM.*");
    assertThat(db.explain(q1))
        .anySatisfy(
            l ->
                assertThat(l)
                    .startsWith(
                        "            SERVER AGGREGATE INTO DISTINCT ROWS BY [L_RETURNFLAG,"
                            + " L_LINESTATUS] COMPUTE SUM(L_QUANTITY), SUM(L_EXTENDEDPRICE),"));
    assertSameAsClient(q1, "lineitem", "SERVER AGGREGATE INTO DISTINCT ROWS", true);
    assertThat(result(q1)).hasSizeBetween(2, 7);
  }

  @Test
  void groupedAggregatesGiveTheClientResult() throws SQLException {
    String line = "SERVER AGGREGATE INTO DISTINCT ROWS BY";
    String calls =
        "COUNT(*), COUNT(N), SUM(N), AVG(N), SUM(DE), AVG(DE), MIN(DE), MAX(DE), MIN(VC), MAX(VC),"
            + " SUM(N * 2 + 1), AVG(DE * 3)";
    assertSameAsClient("SELECT G, " + calls + " FROM T GROUP BY G", "T", line, false);
    assertSameAsClient(
        "SELECT N, G, " + calls + " FROM T WHERE DE > 0 OR VC LIKE 'v1%' GROUP BY G, N",
        "T",
        line,
        false);
    assertSameAsClient(
        "SELECT N / 7, COUNT(*), MAX(G) FROM T WHERE ID >= 250 AND ID < 950 GROUP BY N / 7",
        "T",
        line,
        false);
    // every row its own group: many groups, over all regions
    assertSameAsClient("SELECT ID, SUM(N), MIN(VC) FROM T GROUP BY ID", "T", line, false);
    // no matching rows: no groups
    assertThat(result("SELECT G, COUNT(*) FROM T WHERE N > 1000 GROUP BY G")).hasSize(1);
    // HAVING and ORDER BY over the merged groups
    assertSameAsClient(
        "SELECT G, COUNT(*) FROM T GROUP BY G HAVING COUNT(*) > 90 ORDER BY 2 DESC, 1",
        "T",
        line,
        true);
  }

  @Test
  void countsPerGroupMatchJava() throws SQLException {
    Map<String, Long> counts = new TreeMap<>();
    Map<String, Set<Integer>> distinct = new HashMap<>();
    for (Object[] row : rows) {
      String g = String.valueOf(row[1]);
      counts.merge(g, 1L, Long::sum);
      Set<Integer> values = distinct.computeIfAbsent(g, x -> new HashSet<>());
      if (row[2] != null) {
        values.add((Integer) row[2]);
      }
    }
    Map<String, String> actual = new TreeMap<>();
    // COUNT(DISTINCT) stays on the client; COUNT(*) beside it too
    String sql = "SELECT G, COUNT(*), COUNT(DISTINCT N) FROM T GROUP BY G";
    assertThat(db.explain(sql).get(0)).startsWith("CLIENT AGGREGATE GROUP BY");
    try (Statement s = db.connection().createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        actual.put(String.valueOf(rs.getString(1)), rs.getLong(2) + "," + rs.getLong(3));
      }
    }
    Map<String, String> expected = new TreeMap<>();
    counts.forEach((g, c) -> expected.put(g, c + "," + distinct.get(g).size()));
    assertThat(actual).isEqualTo(expected);
    // SELECT DISTINCT groups in the store
    List<String> groups = new ArrayList<>();
    try (Statement s = db.connection().createStatement();
        ResultSet rs = s.executeQuery("SELECT DISTINCT G FROM T")) {
      while (rs.next()) {
        groups.add(String.valueOf(rs.getString(1)));
      }
    }
    assertThat(groups).containsExactlyInAnyOrderElementsOf(counts.keySet());
    assertThat(db.explain("SELECT DISTINCT G FROM T"))
        .anySatisfy(l -> assertThat(l).contains("SERVER AGGREGATE INTO DISTINCT ROWS BY [G]"));
  }

  /**
   * A GROUP BY of a key prefix over thousands of groups: the store emits its groups every thousand
   * or so as the rows come in key order (a group may go out in two pieces), the driver merges the
   * pieces; the answers are Java's, with HAVING over the merged sums.
   */
  @Test
  void groupsOfAKeyPrefixEmittedAsTheyEndAreMerged() throws SQLException {
    db.execute(
        "CREATE TABLE OL (O BIGINT NOT NULL, L INTEGER NOT NULL, Q DECIMAL(15,2) NOT NULL,"
            + " PRIMARY KEY (O, L))");
    Random random = new Random(SEED);
    Map<Long, BigDecimal> sums = new TreeMap<>();
    Map<Long, Long> lines = new TreeMap<>();
    try (PreparedStatement upsert =
        db.connection().prepareStatement("UPSERT INTO OL VALUES (?, ?, ?)")) {
      for (long order = 0; order < 6000; order++) {
        for (int line = 1; line <= 1 + random.nextInt(5); line++) {
          BigDecimal q = BigDecimal.valueOf(1 + random.nextInt(5000), 2);
          upsert.setLong(1, order);
          upsert.setInt(2, line);
          upsert.setBigDecimal(3, q);
          upsert.addBatch();
          sums.merge(order, q, BigDecimal::add);
          lines.merge(order, 1L, Long::sum);
        }
      }
      upsert.executeBatch();
    }
    String sql = "SELECT O, COUNT(*), SUM(Q) FROM OL GROUP BY O HAVING SUM(Q) > 60";
    assertThat(db.explain(sql))
        .anySatisfy(l -> assertThat(l).contains("SERVER AGGREGATE INTO DISTINCT ROWS BY [O]"))
        .anySatisfy(l -> assertThat(l).contains("SERVER FILTER COMPLETE GROUPS BY (SUM(Q) > 60"));
    Map<Long, String> expected = new TreeMap<>();
    sums.forEach(
        (o, q) -> {
          if (q.compareTo(BigDecimal.valueOf(60)) > 0) {
            expected.put(o, lines.get(o) + "," + q);
          }
        });
    Map<Long, String> actual = new TreeMap<>();
    try (Statement s = db.connection().createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        assertThat(actual.put(rs.getLong(1), rs.getLong(2) + "," + rs.getBigDecimal(3)))
            .as("order %s once", rs.getLong(1))
            .isNull();
      }
    }
    assertThat(expected).hasSizeGreaterThan(1000);
    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void sortsAndTopNGiveTheClientResult() throws SQLException {
    for (String order :
        List.of(
            "N, ID",
            "N DESC, ID",
            "N NULLS LAST, ID DESC",
            "N DESC NULLS FIRST, ID",
            "VC, DE DESC, ID",
            "DE NULLS FIRST, ID",
            "G DESC NULLS LAST, N NULLS FIRST, ID")) {
      String sql = "SELECT ID, G, N, DE, VC FROM T ORDER BY " + order;
      assertSameAsClient(sql, "T", "SERVER SORTED BY", true);
      assertSameAsClient(sql + " LIMIT 17", "T", "SERVER TOP 17 ROWS SORTED BY", true);
      assertSameAsClient(sql + " LIMIT 10 OFFSET 295", "T", "SERVER OFFSET 295", true);
      assertSameAsClient(sql + " OFFSET 1190 ROWS", "T", "SERVER OFFSET 1190", true);
      assertSameAsClient(sql + " OFFSET 5000 ROWS", "T", "SERVER OFFSET 5000", true);
      assertSameAsClient(
          "SELECT ID, N FROM T WHERE ID > 100 AND ID < 1000 ORDER BY " + order + " LIMIT 40",
          "T",
          "SERVER TOP 40 ROWS",
          true);
    }
    // ties: the keys come in order, whichever rows carry them
    List<String> groups = new ArrayList<>();
    try (Statement s = db.connection().createStatement();
        ResultSet rs = s.executeQuery("SELECT G FROM T ORDER BY G DESC LIMIT 200 OFFSET 100")) {
      while (rs.next()) {
        groups.add(String.valueOf(rs.getString(1)));
      }
    }
    List<String> expected =
        rows.stream()
            .map(r -> (String) r[1])
            .sorted(java.util.Comparator.nullsLast(java.util.Comparator.<String>reverseOrder()))
            .map(String::valueOf)
            .toList()
            .subList(100, 300);
    assertThat(groups).isEqualTo(expected);
  }

  @Test
  void parameterLimitsAndOffsetsOverASortedScan() throws SQLException {
    String sql = "SELECT ID, N FROM T ORDER BY N DESC, ID LIMIT ? OFFSET ?";
    assertThat(db.explain("SELECT ID, N FROM T ORDER BY N DESC, ID LIMIT 3"))
        .contains("CLIENT MERGE SORT");
    try (PreparedStatement p = db.connection().prepareStatement(sql)) {
      for (int[] limitOffset : new int[][] {{5, 0}, {10, 300}, {0, 3}, {100, 1150}}) {
        p.setInt(1, limitOffset[0]);
        p.setInt(2, limitOffset[1]);
        try (ResultSet rs = p.executeQuery()) {
          assertThat(result(rs))
              .isEqualTo(
                  result(
                      client(
                          "SELECT ID, N FROM T ORDER BY N DESC, ID LIMIT "
                              + limitOffset[0]
                              + " OFFSET "
                              + limitOffset[1],
                          "T")));
        }
      }
    }
  }

  @Test
  void offsetAndFetchWithoutOrderSkipInTheStore() throws SQLException {
    String sql = "SELECT ID FROM T OFFSET 290 ROWS FETCH NEXT 20 ROWS ONLY";
    assertThat(db.explain(sql)).contains("    SERVER OFFSET 290", "    SERVER 20 ROW LIMIT");
    List<Integer> ids = new ArrayList<>();
    try (Statement s = db.connection().createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        ids.add(rs.getInt(1));
      }
    }
    // a scan emits its rows in key order across regions
    List<Integer> expected = new ArrayList<>();
    for (int i = 290; i < 310; i++) {
      expected.add(i);
    }
    assertThat(ids).isEqualTo(expected);
    assertThat(result("SELECT ID FROM T WHERE N > 10 OFFSET 100000 ROWS")).hasSize(1);
  }

  private static void drain(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
  }

  @Test
  void theDriversGroupingSpillsPastItsMemoryLimit() throws SQLException {
    String url = TestUrls.database("server-groups-limit-" + UUID.randomUUID());
    try (Connection small = DriverManager.getConnection(url + ";aggregateMaxBytes=4k")) {
      try (Statement s = small.createStatement()) {
        s.execute("CREATE TABLE W (ID INTEGER PRIMARY KEY, N INTEGER)");
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 300; i++) {
          values
              .append(i == 0 ? "" : ", ")
              .append("(")
              .append(i)
              .append(", ")
              .append(i)
              .append(")");
        }
        s.execute("UPSERT INTO W VALUES " + values);
        // a few groups fit; COUNT(DISTINCT) keeps the grouping on the client
        try (ResultSet rs =
            s.executeQuery("SELECT MOD(N, 3), COUNT(DISTINCT N) FROM W GROUP BY MOD(N, 3)")) {
          assertThat(result(rs)).hasSize(4);
        }
        // hundreds do not, merged from the store or grouped here: they spill to disk
        for (String sql :
            List.of(
                "SELECT N, COUNT(DISTINCT ID) FROM W GROUP BY N",
                "SELECT N, COUNT(*) FROM W GROUP BY N")) {
          try (ResultSet rs = s.executeQuery(sql)) {
            assertThat(result(rs)).hasSize(301); // the header and 300 groups
            assertThat(rs.getWarnings().getMessage()).contains("GROUP BY spilled");
          }
        }
        // grouping sets do not spill
        for (String sql : List.of("SELECT N, ID, COUNT(*) FROM W GROUP BY ROLLUP (N, ID)")) {
          assertThatThrownBy(() -> drain(s, sql))
              .isInstanceOfSatisfying(
                  SQLException.class,
                  e -> {
                    assertThat(e.getSQLState()).isEqualTo("53200");
                    assertThat(e.getMessage())
                        .contains("[4096] bytes", "[aggregateMaxBytes (connection property)]");
                  });
        }
      }
    }
    for (String bad : List.of("12x", "100")) {
      assertThatThrownBy(() -> DriverManager.getConnection(url + ";aggregateMaxBytes=" + bad))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"))
          .hasMessageContaining("[aggregateMaxBytes]")
          .hasMessageContaining("found [" + bad + "]");
    }
  }

  @Test
  void theStoresGroupingStopsAtItsMemoryLimit(@TempDir Path directory) throws Exception {
    // the store's limit is a store setting: an embedded file database opened with it
    Path dir = Files.createDirectories(directory.resolve("db"));
    String url = "jdbc:cairn:file:" + dir + ";cairn.aggregate.max-bytes=8k";
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE W (ID INTEGER PRIMARY KEY, N INTEGER)");
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < 500; i++) {
        values
            .append(i == 0 ? "" : ", ")
            .append("(")
            .append(i)
            .append(", ")
            .append(i % 5)
            .append(")");
      }
      s.execute("UPSERT INTO W VALUES " + values);
      s.execute("SPLIT TABLE W");
      try (ResultSet rs = s.executeQuery("SELECT N, COUNT(*) FROM W GROUP BY N")) {
        assertThat(result(rs)).hasSize(6);
      }
      assertThatThrownBy(() -> drain(s, "SELECT ID, COUNT(*) FROM W GROUP BY ID"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("53200");
                assertThat(e.getMessage())
                    .contains("in the store", "[8192] bytes", "[cairn.aggregate.max-bytes]");
              });
    }
  }

  /**
   * An ORDER BY whose rows pass the store's memory limit spills sorted runs to the store's spill
   * directory and merges them: every row, in order; the runs are gone after the query.
   */
  @Test
  void theStoresSortSpillsPastItsMemoryLimit(@TempDir Path directory) throws Exception {
    Path dir = Files.createDirectories(directory.resolve("db"));
    Path spill = directory.resolve("spill");
    String url =
        "jdbc:cairn:file:" + dir + ";cairn.aggregate.max-bytes=256k;cairn.spill.directory=" + spill;
    Random random = new Random(20261128L);
    List<String> expected = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE P (ID INTEGER PRIMARY KEY, T VARCHAR(80))");
      try (PreparedStatement insert = c.prepareStatement("UPSERT INTO P VALUES (?, ?)")) {
        for (int i = 0; i < 20_000; i++) {
          String t = Long.toString(random.nextLong() % 1000, 36) + "-" + "x".repeat(50) + i % 97;
          insert.setInt(1, i);
          insert.setString(2, t);
          insert.addBatch();
          expected.add(t + " " + i);
        }
        insert.executeBatch();
      }
      expected.sort(
          (a, b) -> {
            int c1 = b.substring(0, b.indexOf(' ')).compareTo(a.substring(0, a.indexOf(' ')));
            return c1 != 0
                ? c1
                : Integer.compare(
                    Integer.parseInt(a.substring(a.indexOf(' ') + 1)),
                    Integer.parseInt(b.substring(b.indexOf(' ') + 1)));
          });
      List<String> actual = new ArrayList<>();
      try (ResultSet rs = s.executeQuery("SELECT T, ID FROM P ORDER BY T DESC, ID")) {
        while (rs.next()) {
          actual.add(rs.getString(1) + " " + rs.getInt(2));
        }
      }
      assertThat(actual).hasSize(expected.size()).isEqualTo(expected);
      assertThat(spill).isDirectory().isEmptyDirectory(); // runs were written, and are gone
    }
    assertThatThrownBy(() -> DriverManager.getConnection(url.replace("=" + spill, "= ")))
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getMessage()).contains("cairn.spill.directory"));
  }
}
