package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * EXISTS, NOT EXISTS, IN and NOT IN subqueries correlated by an equality and another comparison
 * (TPC-H Q21's shape) run as SEMI and ANTI hash joins with the comparison as the join's residual:
 * their answers against the rows expected from the inserted data, evaluated here with SQL's
 * three-valued logic (NULL keys, NULLs in the compared columns on either side, duplicate inner
 * rows), and against the same condition written as a COUNT subquery. Each query runs as planned
 * (the small outer table O builds a mark join that I's scan probes in the store) and with
 * NO_SERVER_JOIN (the driver's hash join, building I); with the roles reversed (I outside), I's
 * scan probes O's rows as a SEMI or ANTI probe with a residual. Run embedded and, in the
 * remote-contract execution, over a server.
 */
class TestCorrelatedSubqueryJoins {
  private static final long SEED = Long.getLong("cairn.test.seed", 20261127L);

  @RegisterExtension final TestingDatabase db = new TestingDatabase("subquery-joins");

  /** O's rows: ID, K, S, T, G (G joins P.ID). */
  private final List<Integer[]> outer = new ArrayList<>();

  /** I's rows: ID, K, S, A, B. */
  private final List<Integer[]> inner = new ArrayList<>();

  @BeforeEach
  void load() throws SQLException {
    db.execute(
        "CREATE TABLE O (ID INTEGER PRIMARY KEY, K INTEGER, S INTEGER, T INTEGER, G INTEGER)"
            + " SPLIT ON (100, 200)",
        "CREATE TABLE I (ID INTEGER PRIMARY KEY, K INTEGER, S INTEGER, A INTEGER, B INTEGER)"
            + " SPLIT ON (1000, 2000)",
        "CREATE TABLE P (ID INTEGER PRIMARY KEY, NAME VARCHAR(10))");
    Random random = new Random(SEED);
    // about four rows of I per key; a sixth of O's keys have none
    for (int id = 0; id < 300; id++) {
      outer.add(
          new Integer[] {
            id, maybe(random, 900), maybe(random, 6), maybe(random, 8), random.nextInt(5)
          });
    }
    for (int id = 0; id < 3000; id++) {
      inner.add(
          new Integer[] {
            id, maybe(random, 750), maybe(random, 6), maybe(random, 8), maybe(random, 8)
          });
    }
    // the cases the NULL rules decide, whatever the seed
    outer.add(new Integer[] {1000, 1000, 1, 1, 0}); // its only candidate's S is NULL
    inner.add(new Integer[] {5000, 1000, null, 1, 0});
    outer.add(new Integer[] {1001, 1001, null, 1, 0}); // its own S is NULL
    inner.add(new Integer[] {5001, 1001, 5, 1, 0});
    outer.add(new Integer[] {1002, null, 1, 1, 0}); // a NULL key: no candidate
    inner.add(new Integer[] {5002, null, 2, 1, 0});
    outer.add(new Integer[] {1003, 1003, 1, 1, 0}); // several matching candidates
    inner.add(new Integer[] {5003, 1003, 2, 1, 0});
    inner.add(new Integer[] {5004, 1003, 3, 1, 0});
    inner.add(new Integer[] {5005, 1003, 4, 1, 0});
    insert("UPSERT INTO O VALUES (?, ?, ?, ?, ?)", outer);
    insert("UPSERT INTO I VALUES (?, ?, ?, ?, ?)", inner);
    for (int id = 0; id < 5; id++) {
      db.execute("UPSERT INTO P VALUES (" + id + ", 'p" + id + "')");
    }
  }

  /** A value below {@code bound}, or NULL one time in eight. */
  private static Integer maybe(Random random, int bound) {
    return random.nextInt(8) == 0 ? null : random.nextInt(bound);
  }

  private void insert(String sql, List<Integer[]> rows) throws SQLException {
    try (PreparedStatement p = db.connection().prepareStatement(sql)) {
      for (Integer[] row : rows) {
        for (int i = 0; i < row.length; i++) {
          p.setObject(i + 1, row[i]);
        }
        p.addBatch();
      }
      p.executeBatch();
    }
  }

  // SQL's three-valued logic: null is UNKNOWN

  private static Boolean eq(Integer a, Integer b) {
    return a == null || b == null ? null : a.equals(b);
  }

  private static Boolean ne(Integer a, Integer b) {
    return a == null || b == null ? null : !a.equals(b);
  }

  private static Boolean lt(Integer a, Integer b) {
    return a == null || b == null ? null : a < b;
  }

  private static Boolean gt(Integer a, Integer b) {
    return a == null || b == null ? null : a > b;
  }

  private static Boolean and(Boolean... values) {
    Boolean result = true;
    for (Boolean v : values) {
      if (Boolean.FALSE.equals(v)) {
        return false;
      }
      if (v == null) {
        result = null;
      }
    }
    return result;
  }

  private interface Correlation {
    /** The subquery's WHERE for outer row {@code o} and inner row {@code i}. */
    Boolean where(Integer[] o, Integer[] i);
  }

  /** Whether some row of {@code rows} makes {@code c} TRUE for {@code o} (EXISTS). */
  private static boolean exists(Integer[] o, List<Integer[]> rows, Correlation c) {
    for (Integer[] i : rows) {
      if (Boolean.TRUE.equals(c.where(o, i))) {
        return true;
      }
    }
    return false;
  }

  private boolean exists(Integer[] o, Correlation c) {
    return exists(o, inner, c);
  }

  /** The IDs of {@code rows} that {@code keep} keeps, as the query's rows. */
  private static List<String> expectedIds(List<Integer[]> rows, Predicate<Integer[]> keep) {
    List<String> ids = new ArrayList<>();
    for (Integer[] o : rows) {
      if (keep.test(o)) {
        ids.add(String.valueOf(o[0]));
      }
    }
    ids.sort(null);
    return ids;
  }

  private List<String> expectedIds(Predicate<Integer[]> keep) {
    return expectedIds(outer, keep);
  }

  private List<String> sortedRows(String sql) throws SQLException {
    List<String> rows = new ArrayList<>(db.rows(sql));
    rows.sort(null);
    return rows;
  }

  /** {@code select} with NO_SERVER_JOIN: every join runs in the driver. */
  private static String inTheDriver(String select) {
    return select.replaceFirst("^SELECT ", "SELECT /*+ NO_SERVER_JOIN */ ");
  }

  /**
   * The rows of {@code select} (sorted) as planned and with every join in the driver are {@code
   * expected}; the plan as planned has the {@code kind} join with a residual as {@code strategy}
   * ("MARK": a mark join; "SERVER HASH JOIN PROBE": a probe in the store), that in the driver the
   * driver's hash join with a residual, and neither a value generator.
   */
  private void assertAnswers(String select, String kind, String strategy, List<String> expected)
      throws SQLException {
    freshCounts();
    List<String> plan = db.explain(select);
    assertThat(plan)
        .as(String.join("\n", plan))
        .anyMatch(l -> l.contains(strategy + " " + kind + " ") && l.contains(" FILTER ("))
        .noneMatch(l -> l.contains("DISTINCT ROWS"));
    List<String> client = db.explain(inTheDriver(select));
    assertThat(client)
        .as(String.join("\n", client))
        .anyMatch(l -> l.contains("CLIENT HASH " + kind + " JOIN ON ") && l.contains(" FILTER ("))
        .noneMatch(l -> l.contains("PROBE") || l.contains("DISTINCT ROWS"));
    assertThat(sortedRows(select)).as(select).isEqualTo(expected);
    assertThat(sortedRows(inTheDriver(select))).as(select).isEqualTo(expected);
  }

  /** Whether this test made its tables' row counts fresh ({@link #freshCounts}). */
  private boolean countsFresh;

  /**
   * Makes the plan's estimates see the rows just loaded, once per test: a remote connection reads a
   * table's row count at most once a second; HBase tells region sizes in whole megabytes, so until
   * UPDATE STATISTICS counts them tables of a few hundred rows look like megabytes and the planner
   * chooses other joins.
   */
  private void freshCounts() throws SQLException {
    if (countsFresh) {
      return;
    }
    countsFresh = true;
    if (TestUrls.remote()) {
      try {
        Thread.sleep(1_100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else if (TestUrls.hbase()) {
      db.execute("UPDATE STATISTICS O", "UPDATE STATISTICS I", "UPDATE STATISTICS P");
    }
  }

  private static final String NOT_EQUAL = "I.K = O.K AND I.S <> O.S";
  private static final Correlation NOT_EQUAL_WHERE = (o, i) -> and(eq(i[1], o[1]), ne(i[2], o[2]));

  @Test
  void existsAndNotExistsWithAnInequality() throws SQLException {
    String exists = "SELECT O.ID FROM O WHERE EXISTS (SELECT * FROM I WHERE " + NOT_EQUAL + ")";
    String notExists =
        "SELECT O.ID FROM O WHERE NOT EXISTS (SELECT * FROM I WHERE " + NOT_EQUAL + ")";
    List<String> kept = expectedIds(o -> exists(o, NOT_EQUAL_WHERE));
    List<String> notKept = expectedIds(o -> !exists(o, NOT_EQUAL_WHERE));
    assertAnswers(exists, "SEMI", "MARK", kept);
    assertAnswers(notExists, "ANTI", "MARK", notKept);
    // the NULL rules, named: a candidate whose residual is UNKNOWN (a NULL S on either side) is
    // no match, and a NULL key has no candidate; several matches keep the row once
    assertThat(kept).doesNotContain("1000", "1001", "1002").contains("1003");
    assertThat(notKept).contains("1000", "1001", "1002").doesNotContain("1003");
    // the plan: O's rows are the build side, I's scan probes them with the residual
    assertThat(
            db.explain(exists).stream()
                .map(l -> l.replaceAll("CLIENT .*(SCAN OVER [A-Z.]+).*", "$1"))
                .toList())
        .containsExactly(
            "CLIENT PROJECT $0",
            "    CLIENT MARK SEMI JOIN ON $1 = $3 FILTER ($4 <> $2) (build: left, probed in the"
                + " store)",
            "        SCAN OVER PUBLIC.O",
            "            SERVER PROJECT ID, K, S",
            "        SCAN OVER PUBLIC.I",
            "            SERVER HASH JOIN PROBE INNER ON K = $B0 FILTER (S <> $B1) (build:)",
            "                CLIENT LEFT ROWS $1, $2 NUMBERED",
            "            SERVER DYNAMIC FILTER K IN (build keys)",
            "            SERVER PROJECT $B2");
    // the same condition as a count, which Calcite decorrelates another way
    String count = "(SELECT COUNT(*) FROM I WHERE " + NOT_EQUAL + ")";
    assertThat(sortedRows("SELECT O.ID FROM O WHERE " + count + " > 0")).isEqualTo(kept);
    assertThat(sortedRows("SELECT O.ID FROM O WHERE " + count + " = 0")).isEqualTo(notKept);
  }

  @Test
  void existsAndNotExistsWithALessThan() throws SQLException {
    String where = "I.K = O.K AND I.S < O.S";
    Correlation model = (o, i) -> and(eq(i[1], o[1]), lt(i[2], o[2]));
    assertAnswers(
        "SELECT O.ID FROM O WHERE EXISTS (SELECT 1 FROM I WHERE " + where + ")",
        "SEMI",
        "MARK",
        expectedIds(o -> exists(o, model)));
    assertAnswers(
        "SELECT O.ID FROM O WHERE NOT EXISTS (SELECT 1 FROM I WHERE " + where + ")",
        "ANTI",
        "MARK",
        expectedIds(o -> !exists(o, model)));
  }

  /**
   * With the big table outside, its scan probes the small one's rows in the store: a SEMI or ANTI
   * probe whose residual the store evaluates per candidate.
   */
  @Test
  void theBigTableOutsideProbesInTheStore() throws SQLException {
    Correlation model = (i, o) -> and(eq(o[1], i[1]), ne(o[2], i[2]));
    String where = "O.K = I.K AND O.S <> I.S";
    assertAnswers(
        "SELECT I.ID FROM I WHERE EXISTS (SELECT * FROM O WHERE " + where + ")",
        "SEMI",
        "SERVER HASH JOIN PROBE",
        expectedIds(inner, i -> exists(i, outer, model)));
    assertAnswers(
        "SELECT I.ID FROM I WHERE NOT EXISTS (SELECT * FROM O WHERE " + where + ")",
        "ANTI",
        "SERVER HASH JOIN PROBE",
        expectedIds(inner, i -> !exists(i, outer, model)));
  }

  /**
   * TPC-H Q21's shape: both subqueries over the rows of a join, the second with a condition of its
   * own (A > B, NULL on some rows), a count per group above.
   */
  @Test
  void existsAndNotExistsOverAJoinAsInTpchQ21() throws SQLException {
    Correlation late = (o, i) -> and(eq(i[1], o[1]), ne(i[2], o[2]), gt(i[3], i[4]));
    String sql =
        "SELECT P.NAME, COUNT(*) FROM O, P WHERE O.G = P.ID"
            + " AND EXISTS (SELECT * FROM I WHERE "
            + NOT_EQUAL
            + ") AND NOT EXISTS (SELECT * FROM I WHERE "
            + NOT_EQUAL
            + " AND I.A > I.B) GROUP BY P.NAME";
    java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
    for (Integer[] o : outer) {
      if (exists(o, NOT_EQUAL_WHERE) && !exists(o, late)) {
        counts.merge("p" + o[4], 1, Integer::sum);
      }
    }
    List<String> expected = new ArrayList<>();
    counts.forEach((name, n) -> expected.add(name + "," + n));
    assertThat(expected).isNotEmpty();
    assertAnswers(sql, "SEMI", "MARK", expected);
    assertAnswers(sql, "ANTI", "MARK", expected);
  }

  /** A SEMI join never repeats an outer row, however many inner rows match it. */
  /**
   * EXISTS and NOT EXISTS on an equality alone: the inner table's distinct keys (what decorrelation
   * makes of the subquery: an inner join with them, or an outer join turned ANTI) are not computed,
   * the inner table's scan probes the outer rows in the store (a mark join; TPC-H Q4 and Q22), and
   * the answers are SQL's: a NULL key matches nothing.
   */
  @Test
  void existsAndNotExistsOnAnEqualityNeedNoDistinct() throws SQLException {
    String exists = "SELECT O.ID FROM O WHERE EXISTS (SELECT * FROM I WHERE I.K = O.K)";
    String notExists = "SELECT O.ID FROM O WHERE NOT EXISTS (SELECT * FROM I WHERE I.K = O.K)";
    freshCounts();
    Correlation equal = (o, i) -> eq(i[1], o[1]);
    for (String sql : List.of(exists, notExists)) {
      boolean anti = sql == notExists;
      List<String> plan = db.explain(sql);
      assertThat(plan)
          .as(String.join("\n", plan))
          .anyMatch(l -> l.contains("MARK " + (anti ? "ANTI" : "SEMI") + " JOIN ON "))
          .noneMatch(l -> l.contains("DISTINCT ROWS"));
      List<String> expected = expectedIds(o -> exists(o, equal) != anti);
      assertThat(sortedRows(sql)).as(sql).isEqualTo(expected);
      assertThat(sortedRows(inTheDriver(sql))).as(sql).isEqualTo(expected);
    }
  }

  /**
   * A join with grouped rows stays a join where a semi join would change the answer: the query
   * reads the grouped side's columns, or the groups are finer than the join key (an outer row then
   * appears once per group of its key).
   */
  @Test
  void aJoinWithGroupsThatIsNotASemiJoinKeepsItsRows() throws SQLException {
    java.util.Map<Integer, java.util.Set<Integer>> sByK = new java.util.HashMap<>();
    java.util.Map<Integer, Integer> countByK = new java.util.HashMap<>();
    for (Integer[] i : inner) {
      if (i[1] != null) {
        sByK.computeIfAbsent(i[1], k -> new java.util.HashSet<>()).add(i[2]);
        countByK.merge(i[1], 1, Integer::sum);
      }
    }
    List<String> counts = new ArrayList<>();
    List<String> perGroup = new ArrayList<>();
    for (Integer[] o : outer) {
      if (o[1] != null && countByK.containsKey(o[1])) {
        counts.add(o[0] + "," + countByK.get(o[1]));
        for (int n = 0; n < sByK.get(o[1]).size(); n++) {
          perGroup.add(String.valueOf(o[0]));
        }
      }
    }
    counts.sort(null);
    perGroup.sort(null);
    assertThat(
            sortedRows(
                "SELECT O.ID, X.C FROM O JOIN (SELECT K, COUNT(*) AS C FROM I GROUP BY K) X"
                    + " ON X.K = O.K"))
        .isEqualTo(counts);
    assertThat(
            sortedRows("SELECT O.ID FROM O JOIN (SELECT K, S FROM I GROUP BY K, S) X ON X.K = O.K"))
        .isEqualTo(perGroup);
  }

  @Test
  void existsKeepsEachOuterRowOnce() throws SQLException {
    String sql =
        "SELECT O.K, COUNT(*) FROM O WHERE EXISTS (SELECT * FROM I WHERE "
            + NOT_EQUAL
            + ") GROUP BY O.K";
    java.util.Map<Integer, Integer> counts = new java.util.HashMap<>();
    for (Integer[] o : outer) {
      if (exists(o, NOT_EQUAL_WHERE)) {
        counts.merge(o[1], 1, Integer::sum);
      }
    }
    List<String> expected = new ArrayList<>();
    counts.forEach((k, n) -> expected.add(k + "," + n));
    expected.sort(null);
    assertAnswers(sql, "SEMI", "MARK", expected);
  }

  @Test
  void inWithAnInequalityCorrelation() throws SQLException {
    Correlation model = (o, i) -> and(eq(i[1], o[1]), lt(i[2], o[2]), eq(o[3], i[3]));
    assertAnswers(
        "SELECT O.ID FROM O WHERE O.T IN (SELECT I.A FROM I WHERE I.K = O.K AND I.S < O.S)",
        "SEMI",
        "MARK",
        expectedIds(o -> exists(o, model)));
  }

  /**
   * NOT IN is TRUE only when no row of the correlated subquery has {@code x = y} TRUE or UNKNOWN: a
   * NULL on either side excludes the outer row unless the subquery is empty for it.
   */
  @Test
  void notInWithNullableColumnsKeepsSqlNullRules() throws SQLException {
    Correlation excluding =
        (o, i) -> and(NOT_EQUAL_WHERE.where(o, i), !Boolean.FALSE.equals(eq(o[3], i[3])));
    assertAnswers(
        "SELECT O.ID FROM O WHERE O.T NOT IN (SELECT I.A FROM I WHERE " + NOT_EQUAL + ")",
        "ANTI",
        "MARK",
        expectedIds(o -> !exists(o, excluding)));
  }

  @Test
  void notInOverColumnsThatCannotBeNull() throws SQLException {
    Correlation member = (o, i) -> and(NOT_EQUAL_WHERE.where(o, i), eq(o[0], i[0]));
    assertAnswers(
        "SELECT O.ID FROM O WHERE O.ID NOT IN (SELECT I.ID FROM I WHERE " + NOT_EQUAL + ")",
        "ANTI",
        "MARK",
        expectedIds(o -> !exists(o, member)));
  }

  /**
   * A mark join probing the right table's first key column with few left keys reads only their rows
   * (a lookup join), for SEMI and ANTI alike: what is looked up is the right side.
   */
  @Test
  void aMarkJoinOnTheFirstKeyColumnLooksUpFewKeys() throws SQLException {
    String where = "I.ID = O.K AND I.S <> O.S";
    Correlation model = (o, i) -> and(eq(i[0], o[1]), ne(i[2], o[2]));
    String exists =
        "SELECT O.ID FROM O WHERE O.ID < 20 AND EXISTS (SELECT * FROM I WHERE " + where + ")";
    String notExists =
        "SELECT O.ID FROM O WHERE O.ID < 20 AND NOT EXISTS (SELECT * FROM I WHERE " + where + ")";
    assertAnswers(exists, "SEMI", "MARK", expectedIds(o -> o[0] < 20 && exists(o, model)));
    assertAnswers(notExists, "ANTI", "MARK", expectedIds(o -> o[0] < 20 && !exists(o, model)));
    assertThat(db.explain(notExists))
        .anyMatch(l -> l.contains("SERVER LOOKUP BY ID IN (build keys) WHEN FEW"));
  }

  /**
   * In a transaction that wrote to the probed table, the probe runs in the driver over its rows.
   */
  @Test
  void aTransactionSeesItsOwnWritesInTheProbedTable() throws SQLException {
    String sql = "SELECT O.ID FROM O WHERE EXISTS (SELECT * FROM I WHERE " + NOT_EQUAL + ")";
    java.sql.Connection c = db.connection();
    c.setAutoCommit(false);
    try {
      // O's row 1000 (K 1000, S 1) gets a candidate whose S differs
      db.execute("UPSERT INTO I VALUES (6000, 1000, 2, 1, 0)");
      inner.add(new Integer[] {6000, 1000, 2, 1, 0});
      List<String> expected = expectedIds(o -> exists(o, NOT_EQUAL_WHERE));
      assertThat(expected).contains("1000");
      assertAnswers(sql, "SEMI", "MARK", expected);
    } finally {
      c.rollback();
      c.setAutoCommit(true);
    }
    assertThat(sortedRows(sql)).doesNotContain("1000");
  }

  /**
   * A mark join whose left rows do not fit the query's memory runs as the driver's hash join (which
   * spills), with a warning; over a server past {@code hashJoinMaxBytes} its probe runs in passes.
   */
  @Test
  void aMarkJoinOverItsMemoryRunsInTheDriverOrInPasses() throws SQLException {
    String sql = "SELECT O.ID FROM O WHERE NOT EXISTS (SELECT * FROM I WHERE " + NOT_EQUAL + ")";
    List<String> expected = expectedIds(o -> !exists(o, NOT_EQUAL_WHERE));
    assertAnswers(sql, "ANTI", "MARK", expected);
    assertThat(rowsAndWarnings(";queryMemoryMaxBytes=8k", sql))
        .satisfies(r -> assertThat(r.rows()).isEqualTo(expected))
        .satisfies(r -> assertThat(r.warnings()).anyMatch(w -> w.contains("mark join")));
    RowsAndWarnings passes = rowsAndWarnings(";hashJoinMaxBytes=1k", sql);
    assertThat(passes.rows()).isEqualTo(expected);
    if (TestUrls.remote()) {
      assertThat(passes.warnings()).anyMatch(w -> w.contains("is probed in the store in ["));
    } else {
      assertThat(passes.warnings()).isEmpty();
    }
  }

  private record RowsAndWarnings(List<String> rows, List<String> warnings) {}

  /** The sorted rows of {@code sql} on a connection with {@code properties}, and its warnings. */
  private RowsAndWarnings rowsAndWarnings(String properties, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(db.url() + properties);
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rows.add(String.valueOf(rs.getObject(1)));
      }
      for (java.sql.SQLWarning w = rs.getWarnings(); w != null; w = w.getNextWarning()) {
        warnings.add(w.getMessage());
      }
    }
    rows.sort(null);
    return new RowsAndWarnings(rows, warnings);
  }
}
