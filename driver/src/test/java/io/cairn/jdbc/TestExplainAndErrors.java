package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pins EXPLAIN text and the error contract: SQLState, a message naming the problem, no partial
 * writes.
 */
class TestExplainAndErrors {
  private static final AtomicInteger DATABASES = new AtomicInteger();

  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection =
        DriverManager.getConnection(TestUrls.database("explain" + DATABASES.incrementAndGet()));
    execute(
        "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(5) NOT NULL, QTY INTEGER,"
            + " PRICE DECIMAL(5,2))");
    execute(
        "CREATE TABLE K (A VARCHAR(10) NOT NULL, B BIGINT NOT NULL, C DOUBLE,"
            + " CONSTRAINT PK PRIMARY KEY (A, B DESC))");
    execute("UPSERT INTO T VALUES (1, 'a', 10, 1.50), (2, 'b', 20, 2.25), (3, 'c', NULL, NULL)");
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  /** Executes and, for a query, reads every row (errors may surface while fetching). */
  private void execute(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      if (s.execute(sql)) {
        try (ResultSet rs = s.getResultSet()) {
          while (rs.next()) {
            rs.getObject(1);
          }
        }
      }
    }
  }

  /** The EXPLAIN lines without the estimates, which depend on the store's sizes. */
  private List<String> explain(String sql) throws SQLException {
    List<String> lines = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
      while (rs.next()) {
        lines.add(rs.getString(1).replaceFirst(" \\(EST [^)]*\\)$", ""));
      }
    }
    return lines;
  }

  private List<String> column(String sql) throws SQLException {
    List<String> values = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        values.add(rs.getString(1));
      }
    }
    return values;
  }

  @Test
  void fullScanWithServerFilterAndProjection() throws SQLException {
    assertThat(explain("SELECT NAME FROM T WHERE QTY > 5"))
        .containsExactly(
            "CLIENT 1-CHUNK FULL SCAN OVER PUBLIC.T",
            "    SERVER FILTER BY (QTY > 5)",
            "    SERVER PROJECT NAME");
  }

  @Test
  void aWithQueryReadTwiceIsComputedOnce() throws SQLException {
    String sql =
        "WITH S AS (SELECT NAME, SUM(QTY) AS Q FROM T GROUP BY NAME)"
            + " SELECT NAME FROM S WHERE Q = (SELECT MAX(Q) FROM S)";
    List<String> plan = explain(sql);
    assertThat(plan)
        .filteredOn(l -> l.contains("SHARED ROWS"))
        .extracting(String::strip)
        .containsExactly(
            "CLIENT SHARED ROWS (COMPUTED ONCE, READ 2 TIMES)",
            "CLIENT SHARED ROWS (COMPUTED ABOVE)");
    assertThat(plan).filteredOn(l -> l.contains("FULL SCAN OVER PUBLIC.T")).hasSize(1);
    assertThat(column(sql)).containsExactly("b");
  }

  /**
   * A COUNT over an outer join grouped by the preserved side's key counts the other side's rows per
   * key in its scan first (TPC-H Q13): no joined row per match reaches the driver.
   */
  @Test
  void anOuterJoinsAggregateGroupedByTheKeyRunsBeforeTheJoin() throws SQLException {
    execute("UPSERT INTO K VALUES ('x', 1, 1.0), ('y', 1, 2.0), ('z', 3, NULL)");
    String sql = "SELECT T.ID, COUNT(K.C) FROM T LEFT JOIN K ON K.B = T.ID GROUP BY T.ID";
    assertThat(explain(sql))
        .anyMatch(l -> l.contains("SERVER AGGREGATE INTO DISTINCT ROWS BY [B] COMPUTE COUNT(C)"));
    List<String> counts = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql + " ORDER BY T.ID")) {
      while (rs.next()) {
        counts.add(rs.getInt(1) + ":" + rs.getLong(2));
      }
    }
    assertThat(counts).containsExactly("1:2", "2:0", "3:0");
  }

  @Test
  void pointLookupOnPrimaryKey() throws SQLException {
    assertThat(explain("SELECT * FROM T WHERE ID = 2"))
        .containsExactly(
            "CLIENT 1-CHUNK POINT LOOKUP OVER PUBLIC.T [2]",
            "    SERVER FILTER BY (ID = 2)",
            "    SERVER PROJECT ID, NAME, QTY, PRICE");
  }

  @Test
  void rangeScanOnKeyPrefix() throws SQLException {
    assertThat(explain("SELECT B FROM K WHERE A = 'x' AND B >= 5 AND B < 10").get(0))
        .isEqualTo("CLIENT 1-CHUNK RANGE SCAN OVER PUBLIC.K ['x',5 - 'x',10)");
    assertThat(explain("SELECT ID FROM T WHERE ID IN (1, 3)").get(0))
        .isEqualTo("CLIENT 1-CHUNK SKIP SCAN ON 2 RANGES OVER PUBLIC.T");
    assertThat(column("SELECT B FROM K WHERE A = 'x'")).isEmpty();
  }

  @Test
  void clientSideOperatorsAboveTheScan() throws SQLException {
    assertThat(explain("SELECT NAME, SUM(QTY) FROM T GROUP BY NAME ORDER BY 2 DESC LIMIT 2"))
        .containsExactly(
            "CLIENT TOP-N SORT BY $1 DESC NULLS LAST LIMIT 2",
            "    CLIENT MERGE AGGREGATE INTO DISTINCT ROWS BY [NAME]",
            "        CLIENT 1-CHUNK FULL SCAN OVER PUBLIC.T",
            "            SERVER AGGREGATE INTO DISTINCT ROWS BY [NAME] COMPUTE SUM(QTY)");
    assertThat(explain("SELECT NAME FROM T ORDER BY QTY DESC, ID LIMIT 2 OFFSET 1"))
        .containsExactly(
            "CLIENT PROJECT $0",
            "    CLIENT MERGE SORT",
            "        CLIENT 1-CHUNK FULL SCAN OVER PUBLIC.T",
            "            SERVER PROJECT NAME, QTY, ID",
            "            SERVER TOP 2 ROWS SORTED BY [QTY DESC, ID]",
            "            SERVER OFFSET 1");
    assertThat(explain("SELECT * FROM T LIMIT 1"))
        .containsExactly(
            "CLIENT 1-CHUNK FULL SCAN OVER PUBLIC.T",
            "    SERVER PROJECT ID, NAME, QTY, PRICE",
            "    SERVER 1 ROW LIMIT");
  }

  @Test
  void aggregatesWithoutGroupByRunInTheScan() throws SQLException {
    String sql = "SELECT COUNT(*), SUM(QTY), AVG(PRICE * 2) FROM T WHERE QTY < 10";
    assertThat(explain(sql))
        .containsExactly(
            "CLIENT MERGE AGGREGATE INTO SINGLE ROW",
            "    CLIENT 1-CHUNK FULL SCAN OVER PUBLIC.T",
            "        SERVER FILTER BY (QTY < 10)",
            "        SERVER AGGREGATE INTO SINGLE ROW COMPUTE COUNT(*), SUM(QTY), AVG((PRICE * 2))");
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery(sql.replace("QTY < 10", "QTY < 100"))) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(2);
      assertThat(rs.getLong(2)).isEqualTo(30);
      assertThat(rs.getBigDecimal(3)).isEqualByComparingTo("3.75");
      assertThat(rs.next()).isFalse();
    }
  }

  @Test
  void keyRangesGiveTheSameRowsAsAFullScan() throws SQLException {
    for (long b = 0; b < 20; b++) {
      execute("UPSERT INTO K VALUES ('x', " + b + ", " + b + ".5)");
      execute("UPSERT INTO K VALUES ('y', " + b + ", NULL)");
    }
    assertThat(column("SELECT B FROM K WHERE A = 'x' AND B >= 5 AND B < 10"))
        .containsExactly("9", "8", "7", "6", "5");
    assertThat(column("SELECT B FROM K WHERE A = 'y' AND B > 17")).containsExactly("19", "18");
    assertThat(column("SELECT A FROM K WHERE A > 'x'")).hasSize(20);
    try (PreparedStatement p =
        connection.prepareStatement("SELECT B FROM K WHERE A = ? AND B <= ?")) {
      p.setString(1, "x");
      p.setLong(2, 2);
      try (ResultSet rs = p.executeQuery()) {
        List<Long> values = new ArrayList<>();
        while (rs.next()) {
          values.add(rs.getLong(1));
        }
        assertThat(values).containsExactly(2L, 1L, 0L);
      }
    }
  }

  private void assertError(String sql, String sqlState, String... messageParts) {
    assertThatThrownBy(() -> execute(sql))
        .isInstanceOf(SQLException.class)
        .satisfies(
            e -> {
              assertThat(((SQLException) e).getSQLState()).as(e.getMessage()).isEqualTo(sqlState);
              for (String part : messageParts) {
                assertThat(e.getMessage()).contains(part);
              }
            });
  }

  @Test
  void syntaxErrorsNameLineColumnAndToken() {
    assertError("SELEC * FROM T", "42601", "line 1, column 1", "SELEC");
    assertError("CREATE TABLE X (A INTEGER PRIMARY KEY,)", "42601", "line 1", "column");
    assertError("SELECT *\nFROM T WHERE", "42601", "line 2");
  }

  @Test
  void unknownObjectsAndTypeMismatches() {
    assertError("SELECT * FROM NOPE", "42S02", "NOPE");
    assertError("SELECT NOPE FROM T", "42S22", "NOPE");
    assertError("SELECT ID + DATE '2020-01-01' FROM T", "42804", "+");
    assertError("DROP TABLE NOPE", "42S02", "NOPE");
    assertError("CREATE TABLE T (X INTEGER PRIMARY KEY)", "42S01", "T");
    assertError("CREATE TABLE X (A INTEGER PRIMARY KEY) SALT_BUCKET=4", "42601", "SALT_BUCKET");
    assertError("CREATE TABLE X (A INTEGER PRIMARY KEY) COMPRESSION=BROTLI", "22023", "BROTLI");
  }

  @Test
  void constraintViolationsLeaveNoPartialWrites() throws SQLException {
    assertError("INSERT INTO T VALUES (4, 'd', 1, 1), (1, 'x', 1, 1)", "23505", "ID=1");
    assertError("UPSERT INTO T VALUES (5, 'e', 1, 1), (6, NULL, 1, 1)", "23502", "NAME");
    assertError("UPSERT INTO T VALUES (7, 'toolong', 1, 1)", "22001", "NAME", "7");
    assertError("UPSERT INTO T VALUES (8, 'h', 1, 12345.6)", "22003", "PRICE");
    assertError("UPSERT INTO T VALUES (9, 'i', 2147483647 + 1, 1)", "22003");
    assertError("SELECT QTY / 0 FROM T", "22012");
    if (TestUrls.hbase()) {
      // atomic per row only: the INSERT's other row (4) is written, and its error says so; the
      // other statements failed before writing anything
      assertThat(column("SELECT ID FROM T ORDER BY ID")).containsExactly("1", "2", "3", "4");
    } else {
      assertThat(column("SELECT ID FROM T ORDER BY ID")).containsExactly("1", "2", "3");
    }
  }

  @Test
  void insertFailsOnExistingKeyButUpsertReplaces() throws SQLException {
    assertError("INSERT INTO T VALUES (1, 'z', 0, 0)", "23505", "PUBLIC.T", "ID=1");
    execute("UPSERT INTO T VALUES (1, 'z', 0, 0)");
    assertThat(column("SELECT NAME FROM T WHERE ID = 1")).containsExactly("z");
    // Phoenix semantics: UPSERT of some columns keeps the others.
    execute("UPSERT INTO T (ID, QTY) VALUES (2, 99)");
    assertThat(column("SELECT NAME || ':' || CAST(QTY AS VARCHAR(5)) FROM T WHERE ID = 2"))
        .containsExactly("b:99");
  }

  @Test
  void transactionsBufferUntilCommit() throws SQLException {
    connection.setAutoCommit(false);
    execute("UPSERT INTO T VALUES (10, 'j', 1, 1)");
    execute("DELETE FROM T WHERE ID = 1");
    connection.rollback();
    assertThat(column("SELECT ID FROM T ORDER BY ID")).containsExactly("1", "2", "3");
    execute("UPSERT INTO T VALUES (10, 'j', 1, 1)");
    execute("DELETE FROM T WHERE ID = 1");
    connection.commit();
    assertThat(column("SELECT ID FROM T ORDER BY ID")).containsExactly("2", "3", "10");
  }

  @Test
  void deleteUpdateAndUpsertSelect() throws SQLException {
    execute("CREATE TABLE COPY (ID INTEGER PRIMARY KEY, NAME VARCHAR(5))");
    try (Statement s = connection.createStatement()) {
      assertThat(s.executeUpdate("UPSERT INTO COPY SELECT ID, NAME FROM T WHERE ID > 1"))
          .isEqualTo(2);
      assertThat(s.executeUpdate("UPDATE T SET QTY = QTY + 1 WHERE ID <= 2")).isEqualTo(2);
      assertThat(s.executeUpdate("DELETE FROM T WHERE QTY IS NULL")).isEqualTo(1);
    }
    assertThat(column("SELECT ID FROM COPY ORDER BY ID")).containsExactly("2", "3");
    assertThat(column("SELECT QTY FROM T ORDER BY ID")).containsExactly("11", "21");
    execute("CREATE TABLE NOKEY (V VARCHAR(3))");
    execute("UPSERT INTO NOKEY VALUES ('a'), ('a'), ('b')");
    try (Statement s = connection.createStatement()) {
      assertThat(s.executeUpdate("DELETE FROM NOKEY WHERE V = 'a'")).isEqualTo(2);
    }
    assertThat(column("SELECT V FROM NOKEY")).containsExactly("b");
  }

  @Test
  void groupingSetsRollupAndCube() throws SQLException {
    execute("CREATE TABLE G (ID INTEGER PRIMARY KEY, A VARCHAR(3), B INTEGER, Q INTEGER)");
    execute("UPSERT INTO G VALUES (1,'a',1,5), (2,'a',2,7), (3,'b',1,1), (4,'a',1,7)");
    assertThat(
            column(
                "SELECT A || ',' || COALESCE(CAST(B AS VARCHAR(3)), '*') || ',' || CAST(SUM(Q) AS"
                    + " VARCHAR(5)) || ',' || CAST(GROUPING(A, B) AS VARCHAR(2)) FROM G"
                    + " GROUP BY ROLLUP(A, B) HAVING A IS NOT NULL ORDER BY 1"))
        .containsExactly("a,*,19,1", "a,1,12,0", "a,2,7,0", "b,*,1,1", "b,1,1,0");
    assertThat(column("SELECT SUM(Q) FROM G GROUP BY ROLLUP(A) HAVING GROUPING(A) = 1"))
        .containsExactly("20");
    assertThat(column("SELECT COUNT(*) FROM G WHERE ID > 10 GROUP BY ROLLUP(A)"))
        .containsExactly("0");
    assertThat(column("SELECT COUNT(*) FROM G GROUP BY CUBE(A, B)")).hasSize(8);
    assertThat(column("SELECT COUNT(*) FROM G GROUP BY GROUPING SETS ((A), (B), ())"))
        .containsExactlyInAnyOrder("3", "1", "3", "1", "4");
  }

  @Test
  void hintsAreNeverIgnoredSilently() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.executeQuery("SELECT /*+ NO_CACHE, SERIAL */ * FROM T").close();
      assertThat((Object) s.getWarnings()).isNull();
      s.executeQuery("SELECT /*+ NO_CAHCE */ * FROM T").close();
      assertThat((Object) s.getWarnings()).isNotNull();
      assertThat(s.getWarnings().getSQLState()).isEqualTo("01000");
      assertThat(s.getWarnings().getMessage()).contains("NO_CAHCE", "NO_CACHE");
      s.executeQuery("SELECT /*+ INDEX(T, IDX) */ * FROM T").close();
      assertThat(s.getWarnings().getMessage())
          .isEqualTo("Hint INDEX names index [IDX] that table [PUBLIC.T] does not have");
      s.executeQuery("SELECT * FROM T").close();
      assertThat((Object) s.getWarnings()).isNull();
    }
    try (Statement s = connection.createStatement()) {
      // Phoenix's syntax (blanks between items) is accepted as well as Calcite's (commas).
      s.executeQuery("SELECT /*+ INDEX(T IDX) NO_CACHE */ * FROM T").close();
      assertThat(s.getWarnings().getMessage()).contains("INDEX", "[IDX]", "does not have");
      assertThat((Object) s.getWarnings().getNextWarning()).isNull();
    }
    try (PreparedStatement p = connection.prepareStatement("SELECT /*+ BOGUS */ ID FROM T")) {
      assertThat(p.getWarnings().getMessage()).contains("BOGUS");
    }
    try (Statement s = connection.createStatement()) {
      // Phoenix's statement hints on data-changing statements, right after the verb
      assertThat(s.executeUpdate("DELETE /*+ SERIAL NO_CACHE */ FROM T WHERE ID < 0")).isZero();
      assertThat((Object) s.getWarnings()).isNull();
      assertThat(s.executeUpdate("DELETE /*+ SERIAL, SERIEL */ FROM T WHERE ID < 0")).isZero();
      assertThat(s.getWarnings().getSQLState()).isEqualTo("01000");
      assertThat(s.getWarnings().getMessage()).contains("SERIEL", "SERIAL");
      assertThat(s.executeUpdate("UPSERT /*+ NO_CACHE */ INTO T SELECT * FROM T WHERE ID < 0"))
          .isZero();
      assertThat((Object) s.getWarnings()).isNull();
    }
  }

  @Test
  void recognisedButUnsupportedStatementsSayNotSupported() {
    assertError("ALTER TABLE T ADD C INTEGER", "0A000", "ALTER TABLE");
    assertError("CREATE VIEW V AS SELECT * FROM T", "0A000", "CREATE VIEW");
    assertError("create sequence S", "0A000", "CREATE SEQUENCE");
  }

  @Test
  void hintLikeTextInsideLiteralsIsLeftAlone() throws SQLException {
    assertThat(column("SELECT '/*+ a b */' || NAME FROM T WHERE ID = 1"))
        .containsExactly("/*+ a b */a");
    assertThat(column("SELECT /*+ NO_CACHE SERIAL */ 'x y' FROM T WHERE ID = 1"))
        .containsExactly("x y");
  }
}
