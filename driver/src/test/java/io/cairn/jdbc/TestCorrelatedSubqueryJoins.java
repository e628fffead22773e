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
 * rows), and against the same condition written as a COUNT subquery. Run embedded and, in the
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
            + " SPLIT ON (300, 600)",
        "CREATE TABLE P (ID INTEGER PRIMARY KEY, NAME VARCHAR(10))");
    Random random = new Random(SEED);
    for (int id = 0; id < 300; id++) {
      outer.add(
          new Integer[] {
            id, maybe(random, 240), maybe(random, 6), maybe(random, 8), random.nextInt(5)
          });
    }
    for (int id = 0; id < 800; id++) {
      inner.add(
          new Integer[] {
            id, maybe(random, 200), maybe(random, 6), maybe(random, 8), maybe(random, 8)
          });
    }
    // the cases the NULL rules decide, whatever the seed
    outer.add(new Integer[] {1000, 1000, 1, 1, 0}); // its only candidate's S is NULL
    inner.add(new Integer[] {1000, 1000, null, 1, 0});
    outer.add(new Integer[] {1001, 1001, null, 1, 0}); // its own S is NULL
    inner.add(new Integer[] {1001, 1001, 5, 1, 0});
    outer.add(new Integer[] {1002, null, 1, 1, 0}); // a NULL key: no candidate
    inner.add(new Integer[] {1002, null, 2, 1, 0});
    outer.add(new Integer[] {1003, 1003, 1, 1, 0}); // several matching candidates
    inner.add(new Integer[] {1003, 1003, 2, 1, 0});
    inner.add(new Integer[] {1004, 1003, 3, 1, 0});
    inner.add(new Integer[] {1005, 1003, 4, 1, 0});
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

  /** Whether some inner row's WHERE is TRUE for {@code o} (EXISTS). */
  private boolean exists(Integer[] o, Correlation c) {
    for (Integer[] i : inner) {
      if (Boolean.TRUE.equals(c.where(o, i))) {
        return true;
      }
    }
    return false;
  }

  /** The IDs of the outer rows {@code keep} keeps, as the query's rows. */
  private List<String> expectedIds(Predicate<Integer[]> keep) {
    List<String> ids = new ArrayList<>();
    for (Integer[] o : outer) {
      if (keep.test(o)) {
        ids.add(String.valueOf(o[0]));
      }
    }
    ids.sort(null);
    return ids;
  }

  private List<String> sortedRows(String sql) throws SQLException {
    List<String> rows = new ArrayList<>(db.rows(sql));
    rows.sort(null);
    return rows;
  }

  /** The plan of {@code sql} has a SEMI or ANTI join with a residual, and no value generator. */
  private void assertJoinsWithResidual(String sql, String kind) throws SQLException {
    List<String> plan = db.explain(sql);
    assertThat(plan)
        .as(String.join("\n", plan))
        .anyMatch(l -> l.contains(kind + " ") && l.contains(" FILTER ("))
        .noneMatch(l -> l.contains("DISTINCT ROWS"));
  }

  private static final String NOT_EQUAL = "I.K = O.K AND I.S <> O.S";
  private static final Correlation NOT_EQUAL_WHERE = (o, i) -> and(eq(i[1], o[1]), ne(i[2], o[2]));

  @Test
  void existsAndNotExistsWithAnInequality() throws SQLException {
    String exists = "SELECT O.ID FROM O WHERE EXISTS (SELECT * FROM I WHERE " + NOT_EQUAL + ")";
    String notExists =
        "SELECT O.ID FROM O WHERE NOT EXISTS (SELECT * FROM I WHERE " + NOT_EQUAL + ")";
    assertJoinsWithResidual(exists, "SEMI");
    assertJoinsWithResidual(notExists, "ANTI");
    List<String> kept = expectedIds(o -> exists(o, NOT_EQUAL_WHERE));
    List<String> notKept = expectedIds(o -> !exists(o, NOT_EQUAL_WHERE));
    assertThat(sortedRows(exists)).isEqualTo(kept);
    assertThat(sortedRows(notExists)).isEqualTo(notKept);
    // the NULL rules, named: a candidate whose residual is UNKNOWN (a NULL S on either side) is
    // no match, and a NULL key has no candidate; several matches keep the row once
    assertThat(kept).doesNotContain("1000", "1001", "1002").contains("1003");
    assertThat(notKept).contains("1000", "1001", "1002").doesNotContain("1003");
    // the same condition as a count, which Calcite decorrelates another way
    String count = "(SELECT COUNT(*) FROM I WHERE " + NOT_EQUAL + ")";
    assertThat(sortedRows("SELECT O.ID FROM O WHERE " + count + " > 0")).isEqualTo(kept);
    assertThat(sortedRows("SELECT O.ID FROM O WHERE " + count + " = 0")).isEqualTo(notKept);
  }

  @Test
  void existsAndNotExistsWithALessThan() throws SQLException {
    String where = "I.K = O.K AND I.S < O.S";
    Correlation model = (o, i) -> and(eq(i[1], o[1]), lt(i[2], o[2]));
    String exists = "SELECT O.ID FROM O WHERE EXISTS (SELECT 1 FROM I WHERE " + where + ")";
    String notExists = "SELECT O.ID FROM O WHERE NOT EXISTS (SELECT 1 FROM I WHERE " + where + ")";
    assertJoinsWithResidual(exists, "SEMI");
    assertJoinsWithResidual(notExists, "ANTI");
    assertThat(sortedRows(exists)).isEqualTo(expectedIds(o -> exists(o, model)));
    assertThat(sortedRows(notExists)).isEqualTo(expectedIds(o -> !exists(o, model)));
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
    List<String> plan = db.explain(sql);
    assertThat(plan)
        .as(String.join("\n", plan))
        .anyMatch(l -> l.contains("SEMI ") && l.contains(" FILTER ("))
        .anyMatch(l -> l.contains("ANTI ") && l.contains(" FILTER ("))
        .noneMatch(l -> l.contains("DISTINCT ROWS BY [") && l.contains("$B"));
    java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
    for (Integer[] o : outer) {
      if (exists(o, NOT_EQUAL_WHERE) && !exists(o, late)) {
        counts.merge("p" + o[4], 1, Integer::sum);
      }
    }
    List<String> expected = new ArrayList<>();
    counts.forEach((name, n) -> expected.add(name + "," + n));
    assertThat(sortedRows(sql)).isNotEmpty().isEqualTo(expected);
  }

  /** A SEMI join never repeats an outer row, however many inner rows match it. */
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
    assertThat(sortedRows(sql)).isEqualTo(expected);
  }

  @Test
  void inWithAnInequalityCorrelation() throws SQLException {
    String sql =
        "SELECT O.ID FROM O WHERE O.T IN (SELECT I.A FROM I WHERE I.K = O.K AND I.S < O.S)";
    assertJoinsWithResidual(sql, "SEMI");
    Correlation model = (o, i) -> and(eq(i[1], o[1]), lt(i[2], o[2]), eq(o[3], i[3]));
    assertThat(sortedRows(sql)).isEqualTo(expectedIds(o -> exists(o, model)));
  }

  /**
   * NOT IN is TRUE only when no row of the correlated subquery has {@code x = y} TRUE or UNKNOWN: a
   * NULL on either side excludes the outer row unless the subquery is empty for it.
   */
  @Test
  void notInWithNullableColumnsKeepsSqlNullRules() throws SQLException {
    String sql = "SELECT O.ID FROM O WHERE O.T NOT IN (SELECT I.A FROM I WHERE " + NOT_EQUAL + ")";
    assertJoinsWithResidual(sql, "ANTI");
    Correlation excluding =
        (o, i) -> {
          Boolean member = eq(o[3], i[3]);
          return and(NOT_EQUAL_WHERE.where(o, i), !Boolean.FALSE.equals(member));
        };
    assertThat(sortedRows(sql)).isEqualTo(expectedIds(o -> !exists(o, excluding)));
  }

  @Test
  void notInOverColumnsThatCannotBeNull() throws SQLException {
    String sql =
        "SELECT O.ID FROM O WHERE O.ID NOT IN (SELECT I.ID FROM I WHERE " + NOT_EQUAL + ")";
    assertJoinsWithResidual(sql, "ANTI");
    Correlation member = (o, i) -> and(NOT_EQUAL_WHERE.where(o, i), eq(o[0], i[0]));
    assertThat(sortedRows(sql)).isEqualTo(expectedIds(o -> !exists(o, member)));
  }
}
