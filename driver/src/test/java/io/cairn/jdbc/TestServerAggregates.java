package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ungrouped aggregates computed in the store's scan give exactly what the client aggregation gives:
 * values, Java classes, DECIMAL scales, column metadata and errors. The client path is forced by a
 * LIMIT inside a subquery (a scan with a limit keeps its rows), which EXPLAIN confirms.
 */
class TestServerAggregates {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("server-agg");

  /** Every aggregate the store computes, over every column type of {@code V}. */
  private static final String CALLS =
      "COUNT(*), COUNT(I), SUM(I), MIN(I), MAX(I), AVG(I), SUM(BI), AVG(BI), MIN(BI),"
          + " SUM(SI), AVG(TI), SUM(DE), AVG(DE), MIN(DE), MAX(DE), SUM(D), AVG(D), MIN(D),"
          + " SUM(F), AVG(F), MAX(F), MIN(VC), MAX(VC), MIN(DA), MAX(DA), MAX(TS), MIN(CH),"
          + " SUM(SI * 2 + TI), AVG(DE * 3), COUNT(VC), EVERY(BO), SOME(BO), SUM(DE) + COUNT(*)";

  private static final long SEED = Long.getLong("cairn.test.seed", 20261122L);

  static {
    System.err.println("TestServerAggregates seed: " + SEED + " (-Dcairn.test.seed=" + SEED + ")");
  }

  @BeforeEach
  void open() throws SQLException {
    String columns =
        " (ID INTEGER PRIMARY KEY, BO BOOLEAN, TI TINYINT, SI SMALLINT, I INTEGER, BI BIGINT,"
            + " F FLOAT, D DOUBLE, DE DECIMAL(12,3), CH CHAR(3), VC VARCHAR(10), DA DATE,"
            + " TS TIMESTAMP)";
    db.execute("CREATE TABLE V" + columns + " SPLIT ON (100, 200, 300)");
    db.execute("CREATE TABLE NOROWS" + columns);
    Random random = new Random(SEED);
    try (PreparedStatement upsert =
        db.connection()
            .prepareStatement("UPSERT INTO V VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (int id = 0; id < 400; id++) {
        upsert.setInt(1, id);
        upsert.setObject(2, nullOr(random, random.nextInt(10) > 0));
        upsert.setObject(3, nullOr(random, (byte) (random.nextInt(200) - 100)));
        upsert.setObject(4, nullOr(random, (short) (random.nextInt(60000) - 30000)));
        upsert.setObject(5, nullOr(random, random.nextInt()));
        upsert.setObject(6, nullOr(random, random.nextLong() >> 12));
        upsert.setObject(7, nullOr(random, random.nextFloat() * 100 - 50));
        upsert.setObject(8, nullOr(random, random.nextGaussian() * 1e6));
        upsert.setObject(
            9, nullOr(random, BigDecimal.valueOf(random.nextLong() % 1_000_000_000L, 3)));
        upsert.setObject(10, nullOr(random, "c" + random.nextInt(10)));
        upsert.setObject(11, nullOr(random, "v" + random.nextInt(1000)));
        upsert.setObject(
            12,
            nullOr(
                random,
                java.sql.Date.valueOf(java.time.LocalDate.ofEpochDay(random.nextInt(30000)))));
        upsert.setObject(
            13,
            nullOr(
                random,
                java.sql.Timestamp.valueOf(
                    java.time.LocalDateTime.of(2024, 1, 1, 0, 0)
                        .plusSeconds(random.nextInt(1 << 30)))));
        upsert.addBatch();
      }
      upsert.executeBatch();
    }
    // a row of NULLs only (but the key)
    db.execute("UPSERT INTO V (ID) VALUES (400)");
  }

  private static Object nullOr(Random random, Object value) {
    return random.nextInt(8) == 0 ? null : value;
  }

  /** Rows as lists of (class, value, scale) descriptions, plus the column metadata. */
  private List<String> result(String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = db.connection().createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData meta = rs.getMetaData();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        out.add(
            meta.getColumnTypeName(i)
                + "("
                + meta.getPrecision(i)
                + ","
                + meta.getScale(i)
                + ") nullable="
                + meta.isNullable(i));
      }
      while (rs.next()) {
        for (int i = 1; i <= meta.getColumnCount(); i++) {
          Object v = rs.getObject(i);
          out.add(v == null ? "NULL" : v.getClass().getSimpleName() + " " + describe(v));
        }
      }
    }
    return out;
  }

  private static String describe(Object v) {
    return v instanceof BigDecimal d ? d.toPlainString() + " scale " + d.scale() : v.toString();
  }

  /**
   * Runs {@code SELECT calls FROM table WHERE where} with the aggregates in the scan and on the
   * client, and checks that both give the same.
   */
  private void assertSameAsClient(String calls, String table, String where) throws SQLException {
    String filter = where.isEmpty() ? "" : " WHERE " + where;
    String pushed = "SELECT " + calls + " FROM " + table + filter;
    String client =
        "SELECT "
            + calls
            + " FROM (SELECT * FROM "
            + table
            + filter
            + " LIMIT 2000000000) "
            + table;
    assertThat(db.explain(pushed)).anySatisfy(l -> assertThat(l).contains("SERVER AGGREGATE"));
    assertThat(db.explain(client)).noneSatisfy(l -> assertThat(l).contains("SERVER AGGREGATE"));
    List<String> expected = result(client);
    List<String> actual = result(pushed);
    assertThat(actual).as(pushed + " (seed " + SEED + ")").hasSameSizeAs(expected);
    for (int i = 0; i < actual.size(); i++) {
      String a = actual.get(i);
      String e = expected.get(i);
      if (a.startsWith("Double ") && e.startsWith("Double ")
          || a.startsWith("Float ") && e.startsWith("Float ")) {
        // the chunks of a parallel scan add floating-point values in another order
        double x = Double.parseDouble(a.substring(a.indexOf(' ') + 1));
        double y = Double.parseDouble(e.substring(e.indexOf(' ') + 1));
        assertThat(x)
            .as(pushed + " (seed " + SEED + "), value " + i)
            .isCloseTo(y, within(Math.abs(y) * (a.startsWith("Float") ? 1e-5 : 1e-12)));
      } else {
        assertThat(a).as(pushed + " (seed " + SEED + "), value " + i).isEqualTo(e);
      }
    }
  }

  @Test
  void everyTypeGivesTheClientResult() throws SQLException {
    assertSameAsClient(CALLS, "V", "");
    assertSameAsClient(CALLS, "V", "I < 0 AND DE IS NOT NULL");
    assertSameAsClient(CALLS, "V", "VC LIKE 'v1%' OR D > 0");
  }

  @Test
  void keyRangesAcrossRegions() throws SQLException {
    assertThat(db.explain("SELECT COUNT(*) FROM V WHERE ID >= 50 AND ID < 250"))
        .anyMatch(
            l -> l.startsWith("    CLIENT ") && l.contains("RANGE SCAN OVER PUBLIC.V [50 - 250)"));
    assertSameAsClient(CALLS, "V", "ID >= 50 AND ID < 250");
    assertSameAsClient(CALLS, "V", "ID IN (1, 150, 399, 400, 1000)");
    assertSameAsClient(CALLS, "V", "ID = 400");
    assertSameAsClient(CALLS, "V", "ID > 10000");
  }

  @Test
  void emptyTablesAndNoMatchingRows() throws SQLException {
    assertSameAsClient(CALLS, "NOROWS", "");
    assertSameAsClient(CALLS, "V", "VC = 'none'");
    assertThat(result("SELECT COUNT(*), SUM(I), AVG(DE), MIN(VC) FROM NOROWS"))
        .endsWith("Long 0", "NULL", "NULL", "NULL");
  }

  @Test
  void exactResults() throws SQLException {
    db.execute("CREATE TABLE N (ID INTEGER PRIMARY KEY, I INTEGER, DE DECIMAL(5,2))");
    db.execute(
        "UPSERT INTO N VALUES (1, 2147483647, 1.00), (2, 2147483647, 1.00), (3, NULL, 2.00),"
            + " (4, 1, NULL)");
    assertThat(result("SELECT SUM(I), AVG(I), AVG(DE), SUM(DE), COUNT(DE) FROM N"))
        .endsWith(
            "Long 4294967295",
            "BigDecimal 1431655765.000000000000 scale 12",
            "BigDecimal 1.333333333333 scale 12",
            "BigDecimal 4.00 scale 2",
            "Long 3");
    assertSameAsClient("SUM(I), AVG(I), AVG(DE), SUM(DE), COUNT(DE)", "N", "");
  }

  @Test
  void errorsAreTheClientErrors() throws SQLException {
    db.execute("CREATE TABLE B (ID INTEGER PRIMARY KEY, BI BIGINT, I INTEGER)");
    db.execute("UPSERT INTO B VALUES (1, 9223372036854775807, 1), (2, 1, 0), (3, -5, NULL)");
    SQLException pushed = failure("SELECT SUM(BI) FROM B");
    SQLException client = failure("SELECT SUM(BI) FROM (SELECT * FROM B LIMIT 10) B");
    assertThat(pushed.getSQLState()).isEqualTo("22003").isEqualTo(client.getSQLState());
    assertThat(pushed.getMessage())
        .contains("SUM overflow: [9223372036854775807] + [1]")
        .isEqualTo(client.getMessage());
    SQLException divide = failure("SELECT COUNT(*), SUM(BI / I) FROM B");
    assertThat(divide.getSQLState()).isEqualTo("22012");
    assertThat(divide.getMessage())
        .isEqualTo(
            failure("SELECT COUNT(*), SUM(BI / I) FROM (SELECT * FROM B LIMIT 10) B").getMessage());
    // AVG sums exactly past the BIGINT range, in the store as on the client
    assertSameAsClient("AVG(BI), COUNT(BI)", "B", "");
  }

  private SQLException failure(String sql) {
    assertThatThrownBy(() -> result(sql)).isInstanceOf(SQLException.class);
    try {
      result(sql);
    } catch (SQLException e) {
      return e;
    }
    throw new AssertionError(sql);
  }

  @Test
  void parametersInTheFilterAndPlanReuse() throws SQLException {
    try (PreparedStatement p =
        db.connection().prepareStatement("SELECT COUNT(*), SUM(SI), MAX(DA) FROM V WHERE ID < ?")) {
      for (int limit : new int[] {0, 1, 150, 1000}) {
        p.setInt(1, limit);
        List<Object> pushed = new ArrayList<>();
        try (ResultSet rs = p.executeQuery()) {
          assertThat(rs.next()).isTrue();
          for (int i = 1; i <= 3; i++) {
            pushed.add(rs.getObject(i));
          }
          assertThat(rs.next()).isFalse();
        }
        List<String> client =
            result(
                "SELECT COUNT(*), SUM(SI), MAX(DA) FROM (SELECT * FROM V WHERE ID < "
                    + limit
                    + " LIMIT 2000000000) V");
        assertThat(result("SELECT COUNT(*), SUM(SI), MAX(DA) FROM V WHERE ID < " + limit))
            .isEqualTo(client);
        assertThat(pushed.get(0)).isEqualTo((long) Math.min(limit, 401));
      }
    }
  }
}
