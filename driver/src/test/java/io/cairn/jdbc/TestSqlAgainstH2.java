package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * Runs the same queries on Cairn (through the real driver and embedded store) and on H2 over the
 * same generated data, and compares the results: ordered when the query has ORDER BY, as multisets
 * otherwise; numbers compared with a small tolerance.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TestSqlAgainstH2 {
  private static final long SEED = Long.getLong("cairn.test.seed", 20261121L);
  private static final int EMPLOYEES = 400;
  private static final int SALES = 600;

  private Connection cairn;
  private Connection h2;

  @BeforeAll
  void load() throws SQLException {
    System.err.println("TestSqlAgainstH2 seed: " + SEED + " (-Dcairn.test.seed=" + SEED + ")");
    cairn = DriverManager.getConnection(TestUrls.database("h2compare-" + SEED));
    h2 = DriverManager.getConnection("jdbc:h2:mem:h2compare;DATABASE_TO_UPPER=TRUE");
    String[] ddl = {
      "CREATE TABLE DEPT (ID INTEGER PRIMARY KEY, NAME VARCHAR(20), BUDGET DECIMAL(12,2))",
      "CREATE TABLE EMP (ID INTEGER PRIMARY KEY, NAME VARCHAR(20), DEPT INTEGER,"
          + " SALARY DECIMAL(10,2), BONUS DOUBLE, HIRED DATE, ACTIVE BOOLEAN, GRADE SMALLINT)",
      "CREATE TABLE SALES (REGION VARCHAR(10) NOT NULL, SDAY DATE NOT NULL, SEQ INTEGER NOT NULL,"
          + " AMOUNT DECIMAL(12,2), QTY BIGINT, CONSTRAINT PK PRIMARY KEY (REGION, SDAY DESC, SEQ))",
      "CREATE TABLE NOTES (TXT VARCHAR(40), N INTEGER)"
    };
    for (String s : ddl) {
      try (Statement c = cairn.createStatement();
          Statement h = h2.createStatement()) {
        c.execute(s);
        h.execute(s.replace(" DESC", ""));
      }
    }
    Random random = new Random(SEED);
    String[] names = {"ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal", "ida", "Jo", "kim"};
    String[] regions = {"north", "south", "east", "west", "n"};
    insert(
        "DEPT",
        3,
        new Object[][] {
          {1, "sales", new BigDecimal("1000.50")},
          {2, "eng", new BigDecimal("25000.00")},
          {3, "ops", null},
          {4, "empty", new BigDecimal("0.00")}
        });
    List<Object[]> emps = new ArrayList<>();
    for (int i = 1; i <= EMPLOYEES; i++) {
      emps.add(
          new Object[] {
            i,
            random.nextInt(10) == 0 ? null : names[random.nextInt(names.length)] + (i % 7),
            random.nextInt(8) == 0 ? null : 1 + random.nextInt(5),
            random.nextInt(9) == 0
                ? null
                : BigDecimal.valueOf(random.nextInt(2_000_000) - 100_000, 2),
            random.nextInt(6) == 0 ? null : Math.round(random.nextDouble() * 10000) / 8.0,
            random.nextInt(7) == 0 ? null : LocalDate.of(2000, 1, 1).plusDays(random.nextInt(9000)),
            random.nextInt(5) == 0 ? null : random.nextBoolean(),
            (short) (random.nextInt(20) - 5)
          });
    }
    insert("EMP", 8, emps.toArray(new Object[0][]));
    List<Object[]> sales = new ArrayList<>();
    for (int i = 0; i < SALES; i++) {
      sales.add(
          new Object[] {
            regions[random.nextInt(regions.length)],
            LocalDate.of(2024, 1, 1).plusDays(random.nextInt(60)),
            i,
            random.nextInt(10) == 0 ? null : BigDecimal.valueOf(random.nextInt(100_000), 2),
            (long) random.nextInt(1000)
          });
    }
    insert("SALES", 5, sales.toArray(new Object[0][]));
    insert(
        "NOTES", 2, new Object[][] {{"a%b", 1}, {"a_b", 2}, {null, 3}, {"abc", null}, {"abc", 5}});
  }

  private void insert(String table, int width, Object[][] rows) throws SQLException {
    String marks = String.join(",", java.util.Collections.nCopies(width, "?"));
    try (PreparedStatement c =
            cairn.prepareStatement("UPSERT INTO " + table + " VALUES (" + marks + ")");
        PreparedStatement h =
            h2.prepareStatement("INSERT INTO " + table + " VALUES (" + marks + ")")) {
      for (Object[] row : rows) {
        for (int i = 0; i < width; i++) {
          c.setObject(i + 1, row[i]);
          h.setObject(i + 1, row[i]);
        }
        c.addBatch();
        h.addBatch();
      }
      c.executeBatch();
      h.executeBatch();
    }
  }

  @AfterAll
  void close() throws SQLException {
    cairn.close();
    h2.close();
  }

  static final String[] QUERIES = {
    // projection, filters, NULL semantics
    "SELECT * FROM EMP",
    "SELECT ID, NAME FROM EMP WHERE ID = 17",
    "SELECT ID FROM EMP WHERE ID BETWEEN 10 AND 20",
    "SELECT ID FROM EMP WHERE ID > 390 OR ID < 3",
    "SELECT ID FROM EMP WHERE ID IN (1, 5, 99, 1000)",
    "SELECT ID, NAME FROM EMP WHERE NAME IS NULL",
    "SELECT ID FROM EMP WHERE DEPT <> 2",
    "SELECT ID FROM EMP WHERE NOT (DEPT = 2)",
    "SELECT ID FROM EMP WHERE DEPT IN (1, 3) AND ACTIVE",
    "SELECT ID FROM EMP WHERE ACTIVE IS NOT TRUE",
    "SELECT ID FROM EMP WHERE SALARY > 5000.5 AND BONUS < 600",
    "SELECT ID, NAME FROM EMP WHERE NAME LIKE 'a%'",
    "SELECT ID, NAME FROM EMP WHERE NAME LIKE '_o%' OR NAME LIKE '%3'",
    "SELECT TXT FROM NOTES WHERE TXT LIKE 'a!%b' ESCAPE '!'",
    "SELECT N FROM NOTES WHERE N NOT IN (1, 2)",
    "SELECT ID FROM EMP WHERE HIRED >= DATE '2010-01-01' AND HIRED < DATE '2012-06-30'",
    // expressions, CASE, CAST, functions
    "SELECT ID, SALARY * 2, SALARY + BONUS, -GRADE, GRADE * GRADE FROM EMP",
    "SELECT ID, SALARY / 3, ID / 7, MOD(ID, 7) FROM EMP",
    "SELECT ID, CASE WHEN SALARY > 10000 THEN 'high' WHEN SALARY > 0 THEN 'low' ELSE 'none' END"
        + " FROM EMP",
    "SELECT ID, COALESCE(NAME, 'nobody'), NULLIF(DEPT, 2) FROM EMP",
    "SELECT ID, CAST(SALARY AS INTEGER), CAST(ID AS VARCHAR(10)), CAST('12' AS INTEGER) + ID"
        + " FROM EMP",
    "SELECT ID, UPPER(NAME), LOWER(NAME), CHAR_LENGTH(NAME), SUBSTRING(NAME FROM 2 FOR 2)"
        + " FROM EMP",
    "SELECT ID, TRIM(BOTH 'a' FROM NAME), NAME || '-' || CAST(ID AS VARCHAR(5)),"
        + " POSITION('o' IN NAME) FROM EMP",
    "SELECT ID, ABS(GRADE), ROUND(BONUS, 1), FLOOR(SALARY), CEIL(SALARY) FROM EMP",
    "SELECT ID, EXTRACT(YEAR FROM HIRED), EXTRACT(MONTH FROM HIRED), EXTRACT(DAY FROM HIRED)"
        + " FROM EMP",
    "SELECT ID, HIRED + INTERVAL '10' DAY, HIRED - INTERVAL '3' MONTH FROM EMP",
    // aggregates
    "SELECT COUNT(*), COUNT(NAME), COUNT(DISTINCT DEPT), SUM(SALARY), MIN(SALARY), MAX(SALARY)"
        + " FROM EMP",
    "SELECT AVG(SALARY), AVG(BONUS), SUM(BONUS) FROM EMP",
    "SELECT COUNT(*), SUM(SALARY), AVG(SALARY) FROM EMP WHERE ID < 0",
    "SELECT DEPT, COUNT(*), SUM(SALARY), MIN(NAME), MAX(HIRED) FROM EMP GROUP BY DEPT",
    "SELECT DEPT, ACTIVE, COUNT(*) FROM EMP GROUP BY DEPT, ACTIVE",
    "SELECT DEPT, COUNT(*) AS C FROM EMP GROUP BY DEPT HAVING COUNT(*) > 70",
    "SELECT DEPT, SUM(SALARY) FROM EMP WHERE ACTIVE GROUP BY DEPT HAVING SUM(SALARY) > 100000",
    "SELECT REGION, COUNT(DISTINCT SDAY), SUM(QTY), AVG(AMOUNT) FROM SALES GROUP BY REGION",
    "SELECT DISTINCT DEPT FROM EMP",
    "SELECT DISTINCT DEPT, ACTIVE FROM EMP",
    // ORDER BY with NULLs, LIMIT/OFFSET
    "SELECT ID, SALARY FROM EMP ORDER BY SALARY DESC NULLS LAST, ID",
    "SELECT ID, SALARY FROM EMP ORDER BY SALARY ASC NULLS FIRST, ID",
    "SELECT ID, NAME FROM EMP ORDER BY NAME NULLS FIRST, ID DESC LIMIT 15",
    "SELECT ID, NAME FROM EMP ORDER BY ID LIMIT 10 OFFSET 5",
    "SELECT ID FROM EMP ORDER BY ID DESC OFFSET 395 ROWS",
    "SELECT DEPT, COUNT(*) FROM EMP GROUP BY DEPT ORDER BY COUNT(*) DESC, DEPT NULLS FIRST",
    "SELECT REGION, SDAY, SEQ FROM SALES WHERE REGION = 'north' ORDER BY SDAY DESC, SEQ",
    "SELECT REGION, SDAY, SEQ FROM SALES WHERE REGION = 'n' AND SDAY > DATE '2024-02-01'"
        + " ORDER BY REGION, SDAY DESC, SEQ",
    "SELECT SEQ FROM SALES WHERE REGION IN ('east', 'west') AND SDAY = DATE '2024-01-15'",
    // joins
    "SELECT E.ID, D.NAME FROM EMP E JOIN DEPT D ON E.DEPT = D.ID",
    "SELECT E.ID, D.NAME FROM EMP E LEFT JOIN DEPT D ON E.DEPT = D.ID",
    "SELECT E.ID, D.NAME FROM EMP E RIGHT JOIN DEPT D ON E.DEPT = D.ID AND E.ID < 50",
    "SELECT E.ID, D.ID FROM EMP E FULL JOIN DEPT D ON E.DEPT = D.ID AND E.ACTIVE"
        + " ||| SELECT E.ID, D.ID FROM EMP E LEFT JOIN DEPT D ON E.DEPT = D.ID AND E.ACTIVE"
        + " UNION ALL SELECT NULL, D.ID FROM DEPT D"
        + " WHERE NOT EXISTS (SELECT 1 FROM EMP E WHERE E.DEPT = D.ID AND E.ACTIVE)",
    "SELECT D.NAME, COUNT(E.ID), SUM(E.SALARY) FROM DEPT D LEFT JOIN EMP E ON E.DEPT = D.ID"
        + " GROUP BY D.NAME",
    "SELECT E.ID, F.ID FROM EMP E JOIN EMP F ON E.DEPT = F.DEPT AND E.ID < F.ID"
        + " WHERE E.ID < 30 AND F.ID < 40",
    "SELECT E.ID, D.ID FROM EMP E, DEPT D WHERE E.SALARY > D.BUDGET * 10 AND E.ID < 40",
    // an OR over both sides implies a filter on each (TPC-H Q7), or on one side only
    "SELECT E.ID, F.ID FROM EMP E JOIN EMP F ON E.DEPT = F.DEPT WHERE E.ID < 60 AND"
        + " ((E.GRADE = 1 AND F.GRADE = 2) OR (E.GRADE = 2 AND F.NAME IS NULL))",
    "SELECT E.ID, F.ID FROM EMP E JOIN EMP F ON E.DEPT = F.DEPT WHERE E.ID < 60 AND"
        + " ((E.GRADE = 1 AND F.GRADE = 2) OR E.GRADE = 3 OR (F.ACTIVE AND E.BONUS > F.BONUS))",
    // subqueries
    "SELECT ID FROM EMP WHERE DEPT IN (SELECT ID FROM DEPT WHERE BUDGET > 500)",
    "SELECT ID FROM EMP WHERE DEPT NOT IN (SELECT ID FROM DEPT WHERE BUDGET IS NOT NULL)",
    "SELECT ID FROM EMP E WHERE EXISTS (SELECT 1 FROM DEPT D WHERE D.ID = E.DEPT AND D.BUDGET > 5000)",
    "SELECT ID FROM EMP E WHERE NOT EXISTS (SELECT 1 FROM DEPT D WHERE D.ID = E.DEPT)",
    "SELECT ID FROM EMP E WHERE NOT EXISTS (SELECT 1 FROM EMP F WHERE F.DEPT = E.DEPT"
        + " AND F.ID <> E.ID AND F.SALARY > E.SALARY)",
    // correlated by an equality and another comparison: SEMI and ANTI joins with a residual
    "SELECT ID FROM EMP E WHERE EXISTS (SELECT 1 FROM EMP F WHERE F.DEPT = E.DEPT"
        + " AND F.ID <> E.ID AND F.GRADE < E.GRADE)",
    "SELECT ID FROM EMP E WHERE E.GRADE NOT IN (SELECT F.GRADE FROM EMP F"
        + " WHERE F.DEPT = E.DEPT AND F.ID < E.ID)",
    "SELECT ID FROM EMP E WHERE E.DEPT IN (SELECT F.DEPT FROM EMP F"
        + " WHERE F.GRADE = E.GRADE AND F.SALARY > E.SALARY)",
    "SELECT ID FROM EMP WHERE DEPT NOT IN (SELECT ID FROM DEPT WHERE NAME <> 'eng')",
    "SELECT ID FROM DEPT WHERE ID NOT IN (SELECT DEPT FROM EMP)",
    "SELECT ID FROM DEPT WHERE ID NOT IN (SELECT DEPT FROM EMP WHERE DEPT IS NOT NULL)",
    "SELECT ID FROM DEPT WHERE ID NOT IN (SELECT ID FROM EMP WHERE ID > 5)",
    // outer joins keeping only unmatched rows (ANTI joins), and ones that must not become one
    "SELECT D.ID FROM EMP E RIGHT JOIN DEPT D ON E.DEPT = D.ID WHERE E.ID IS NULL",
    "SELECT D.ID, E.NAME FROM DEPT D LEFT JOIN EMP E ON E.DEPT = D.ID AND E.ID < 100"
        + " WHERE E.ID IS NULL AND D.NAME <> 'eng'",
    "SELECT D.ID, E.ID FROM DEPT D LEFT JOIN EMP E ON E.DEPT = D.ID WHERE E.NAME IS NULL",
    "SELECT D.ID, E.ID FROM DEPT D LEFT JOIN EMP E ON E.DEPT = D.ID"
        + " WHERE E.ID IS NULL OR E.SALARY > 1000",
    // aggregates joined on their group keys (reduced by the other side's keys)
    "SELECT D.NAME, COUNT(*) FROM DEPT D WHERE EXISTS"
        + " (SELECT 1 FROM EMP E WHERE E.DEPT = D.ID AND E.ACTIVE) GROUP BY D.NAME",
    "SELECT SUM(E.SALARY) FROM EMP E, DEPT D WHERE E.DEPT = D.ID AND D.NAME = 'eng'"
        + " AND E.SALARY < (SELECT AVG(F.SALARY) FROM EMP F WHERE F.DEPT = D.ID)",
    "SELECT ID, (SELECT NAME FROM DEPT D WHERE D.ID = E.DEPT) FROM EMP E",
    "SELECT ID FROM EMP WHERE SALARY > (SELECT AVG(SALARY) FROM EMP)",
    "SELECT ID FROM EMP E WHERE SALARY > (SELECT AVG(SALARY) FROM EMP F WHERE F.DEPT = E.DEPT)",
    "SELECT D, C FROM (SELECT DEPT AS D, COUNT(*) AS C FROM EMP GROUP BY DEPT) T WHERE C > 50",
    // grouped in the driver by one integer column (its groups by the long), NULL a group too
    "SELECT D, COUNT(*), SUM(S) FROM (SELECT DEPT AS D, SALARY AS S FROM EMP UNION ALL"
        + " SELECT ID - 3, SALARY FROM EMP WHERE ID < 40) T GROUP BY D",
    "WITH T AS (SELECT DEPT, MAX(SALARY) AS M FROM EMP GROUP BY DEPT)"
        + " SELECT E.ID FROM EMP E JOIN T ON E.DEPT = T.DEPT AND E.SALARY = T.M",
    // aggregates over an outer join grouped by the preserved side's key: the other side grouped
    // first (eager aggregation), a COUNT of no match 0, a SUM, MIN or MAX NULL
    "SELECT D.ID, COUNT(E.ID), SUM(E.SALARY), MIN(E.NAME), MAX(E.SALARY), COUNT(E.SALARY)"
        + " FROM DEPT D LEFT JOIN EMP E ON E.DEPT = D.ID GROUP BY D.ID",
    "SELECT C, COUNT(*) FROM (SELECT D.ID, COUNT(E.ID) AS C FROM DEPT D LEFT JOIN EMP E"
        + " ON E.DEPT = D.ID AND E.ACTIVE GROUP BY D.ID) T GROUP BY C",
    "SELECT D.ID, D.NAME, COUNT(E.SALARY) FROM EMP E RIGHT JOIN DEPT D ON E.DEPT = D.ID"
        + " AND E.SALARY > 1000 GROUP BY D.ID, D.NAME",
    "SELECT D.NAME, COUNT(E.ID) FROM DEPT D LEFT JOIN EMP E ON E.DEPT = D.ID GROUP BY D.NAME",
    "SELECT D.ID, COUNT(*), COUNT(DISTINCT E.DEPT) FROM DEPT D LEFT JOIN EMP E ON E.DEPT = D.ID"
        + " GROUP BY D.ID",
    // aggregates over inner joins grouped by a whole table's unique key: the other side grouped
    // first by its join column (eager aggregation), every call as it was, DISTINCT and FILTER too
    "SELECT D.ID, D.NAME, SUM(E.SALARY), COUNT(*), COUNT(DISTINCT E.GRADE), MIN(E.NAME),"
        + " AVG(E.BONUS), SUM(E.SALARY) FILTER (WHERE E.ACTIVE)"
        + " FROM EMP E JOIN DEPT D ON E.DEPT = D.ID GROUP BY D.ID, D.NAME",
    "SELECT E.DEPT, D.NAME, E.GRADE, SUM(E.SALARY * 2), COUNT(E.BONUS) FROM EMP E, DEPT D"
        + " WHERE E.DEPT = D.ID AND E.ID > 20 GROUP BY E.DEPT, D.NAME, E.GRADE",
    "SELECT D.ID, D.BUDGET, M.NAME, COUNT(*), MAX(F.HIRED) FROM EMP F, DEPT D, EMP M"
        + " WHERE F.DEPT = D.ID AND M.ID = D.ID GROUP BY D.ID, D.BUDGET, M.NAME",
    "SELECT D.NAME, D.ID, COUNT(*) FROM EMP E, EMP F, DEPT D"
        + " WHERE E.DEPT = D.ID AND F.ID = E.ID + 1 AND F.GRADE > 1 GROUP BY D.NAME, D.ID",
    // a total over the rows of a grouped aggregate rolled up from its groups (computed once):
    // SUM of sums, SUM0 of counts (0 over no row), MIN of minimums, NULL keys a group too
    "SELECT DEPT, SUM(SALARY) AS S FROM EMP GROUP BY DEPT"
        + " HAVING SUM(SALARY) > (SELECT SUM(SALARY) * 0.2 FROM EMP)",
    "SELECT E.GRADE, COUNT(*), MIN(E.BONUS) FROM EMP E JOIN DEPT D ON E.DEPT = D.ID"
        + " GROUP BY E.GRADE HAVING COUNT(*) * 5 > (SELECT MIN(E.BONUS) / 1000 + COUNT(*)"
        + " FROM EMP E JOIN DEPT D ON E.DEPT = D.ID)",
    "SELECT D.ID, T.C, (SELECT COUNT(*) FROM EMP WHERE ID < 0) FROM DEPT D LEFT JOIN"
        + " (SELECT DEPT, COUNT(*) AS C FROM EMP WHERE ID < 0 GROUP BY DEPT) T ON T.DEPT = D.ID",
    "SELECT D.ID, T.S, (SELECT SUM(SALARY) FROM EMP WHERE ID < 0) FROM DEPT D LEFT JOIN"
        + " (SELECT DEPT, SUM(SALARY) AS S FROM EMP WHERE ID < 0 GROUP BY DEPT) T ON T.DEPT = D.ID",
    // a WITH query read more than once: computed once, each reader reads all its rows
    "WITH T AS (SELECT DEPT, SUM(SALARY) AS S FROM EMP GROUP BY DEPT)"
        + " SELECT DEPT, S FROM T WHERE S = (SELECT MAX(S) FROM T)",
    "WITH T AS (SELECT DEPT, COUNT(*) AS C FROM EMP GROUP BY DEPT)"
        + " SELECT A.DEPT, A.C, B.C FROM T A LEFT JOIN T B ON B.DEPT = A.DEPT + 1",
    "WITH T AS (SELECT DEPT, MIN(ID) AS M FROM EMP GROUP BY DEPT)"
        + " SELECT M FROM T UNION ALL SELECT M + 1 FROM T UNION ALL SELECT M + 2 FROM T",
    // window functions
    "SELECT ID, DEPT, ROW_NUMBER() OVER (PARTITION BY DEPT ORDER BY ID) FROM EMP",
    "SELECT ID, SUM(SALARY) OVER (PARTITION BY DEPT ORDER BY ID ROWS BETWEEN 2 PRECEDING AND"
        + " CURRENT ROW) FROM EMP",
    "SELECT ID, RANK() OVER (ORDER BY GRADE DESC), DENSE_RANK() OVER (ORDER BY GRADE),"
        + " LAG(ID, 2) OVER (ORDER BY ID), LEAD(NAME) OVER (PARTITION BY DEPT ORDER BY ID) FROM EMP",
    "SELECT ID, AVG(SALARY) OVER (PARTITION BY DEPT), COUNT(*) OVER (PARTITION BY ACTIVE ORDER BY"
        + " ID), MAX(BONUS) OVER (ORDER BY ID ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) FROM EMP",
    "SELECT ID, FIRST_VALUE(NAME) OVER (PARTITION BY DEPT ORDER BY ID), NTILE(4) OVER (ORDER BY ID)"
        + " FROM EMP",
    "SELECT ID FROM (SELECT ID, ROW_NUMBER() OVER (PARTITION BY DEPT ORDER BY SALARY DESC NULLS"
        + " LAST, ID) AS RN FROM EMP) T WHERE RN <= 2",
    // set operations
    "SELECT DEPT FROM EMP WHERE ID < 20 UNION SELECT ID FROM DEPT",
    "SELECT DEPT FROM EMP WHERE ID < 20 UNION ALL SELECT ID FROM DEPT",
    "SELECT DEPT FROM EMP INTERSECT SELECT ID FROM DEPT",
    "SELECT ID FROM DEPT EXCEPT SELECT DEPT FROM EMP",
    // values and no-table queries
    "SELECT 1 + 2, 'x' || 'y', CAST(NULL AS INTEGER), 7 / 2, 7.0 / 2",
    "VALUES (1, 'a'), (2, 'b')",
    // tables without a primary key
    "SELECT TXT, N FROM NOTES",
    "SELECT TXT, COUNT(*) FROM NOTES GROUP BY TXT",
  };

  @TestFactory
  Stream<DynamicTest> queries() {
    return Arrays.stream(QUERIES)
        .map(q -> DynamicTest.dynamicTest(q.split(" \\|\\|\\| ")[0], () -> compare(q)));
  }

  /** {@code sql} is one query for both, or {@code "cairn query ||| equivalent H2 query"}. */
  private void compare(String sql) throws SQLException {
    String h2Sql = sql;
    int split = sql.indexOf(" ||| ");
    if (split >= 0) {
      h2Sql = sql.substring(split + 5);
      sql = sql.substring(0, split);
    }
    List<List<Object>> expected = rows(h2, h2Sql);
    List<List<Object>> actual = rows(cairn, sql);
    boolean ordered = sql.toUpperCase(Locale.ROOT).contains("ORDER BY");
    if (!ordered) {
      expected.sort(TestSqlAgainstH2::compareRows);
      actual.sort(TestSqlAgainstH2::compareRows);
    }
    assertThat(actual).as("row count of %s", sql).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      List<Object> e = expected.get(i);
      List<Object> a = actual.get(i);
      assertThat(a).as("width of row %d", i).hasSameSizeAs(e);
      for (int c = 0; c < e.size(); c++) {
        if (!same(e.get(c), a.get(c))) {
          fail(
              "Row %d column %d of [%s]: expected %s, found %s%nexpected row %s%nactual   row %s",
              i, c + 1, sql, e.get(c), a.get(c), e, a);
        }
      }
    }
  }

  private static boolean same(Object expected, Object actual) {
    if (expected == null || actual == null) {
      return expected == actual;
    }
    if (expected instanceof Number x && actual instanceof Number y) {
      BigDecimal a = new BigDecimal(x.toString());
      BigDecimal b = new BigDecimal(y.toString());
      BigDecimal tolerance = a.abs().max(BigDecimal.ONE).multiply(new BigDecimal("1e-9"));
      return a.subtract(b).abs().compareTo(tolerance) <= 0;
    }
    return String.valueOf(expected).strip().equals(String.valueOf(actual).strip());
  }

  private static int compareRows(List<Object> a, List<Object> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = compareValue(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static int compareValue(Object a, Object b) {
    if (a == null || b == null) {
      return a == b ? 0 : a == null ? -1 : 1;
    }
    if (a instanceof Number x && b instanceof Number y) {
      return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString()));
    }
    return String.valueOf(a).compareTo(String.valueOf(b));
  }

  private static List<List<Object>> rows(Connection connection, String sql) throws SQLException {
    List<List<Object>> rows = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      ResultSetMetaData md = rs.getMetaData();
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int c = 1; c <= md.getColumnCount(); c++) {
          Object v = rs.getObject(c);
          if (v instanceof java.sql.Date d) {
            v = d.toLocalDate();
          } else if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
            v = d.toString();
          } else if (v instanceof Float f) {
            v = new BigDecimal(f.toString());
          }
          row.add(v);
        }
        rows.add(row);
      }
    }
    return rows;
  }
}
