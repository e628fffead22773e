package io.cairn.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.memory.MemoryPool;
import io.cairn.jdbc.internal.exec.spill.SpillSpace;
import io.cairn.jdbc.internal.session.DatabaseSession;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Joins, sorts and groupings past the query's memory spill to disk: their answers with a tiny
 * {@code queryMemoryMaxBytes} equal those with no limit, the result set warns that they spilled,
 * and no spill file is left behind after the end, an error or a cancel.
 */
class TestSpill {
  /** Rows per table: about 250 estimated bytes each, so about 750 KB in a build side or sort. */
  private static final int ROWS = 3000;

  private final String name = "spill-" + UUID.randomUUID();
  @TempDir Path spillRoot;
  private String previousRoot;

  @BeforeEach
  void load() throws SQLException {
    previousRoot = System.getProperty(SpillSpace.DIRECTORY_PROPERTY);
    System.setProperty(SpillSpace.DIRECTORY_PROPERTY, spillRoot.toString());
    try (Connection c = DriverManager.getConnection("jdbc:cairn:mem:" + name);
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, K INTEGER, S VARCHAR(200))");
      s.executeUpdate(
          "CREATE TABLE U (ID INTEGER PRIMARY KEY, K INTEGER, D DECIMAL(12, 2), S VARCHAR(200))");
      try (PreparedStatement t = c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?)");
          PreparedStatement u = c.prepareStatement("UPSERT INTO U VALUES (?, ?, ?, ?)")) {
        for (int i = 0; i < ROWS; i++) {
          t.setInt(1, i);
          if (i % 97 == 0) {
            t.setNull(2, java.sql.Types.INTEGER);
          } else {
            t.setInt(2, i % 600);
          }
          t.setString(3, "t-" + (i * 7919 % ROWS) + "-" + "x".repeat(100));
          t.addBatch();
          u.setInt(1, i);
          if (i % 89 == 0) {
            u.setNull(2, java.sql.Types.INTEGER);
          } else {
            u.setInt(2, (i % 700) + 100); // keys 0..99 only in T, 600..799 only in U
          }
          u.setBigDecimal(3, java.math.BigDecimal.valueOf(i * 37L % 10000, 2));
          u.setString(4, "u-" + i + "-" + "y".repeat(100));
          u.addBatch();
        }
        t.executeBatch();
        u.executeBatch();
      }
    }
  }

  @AfterEach
  void restore() {
    if (previousRoot == null) {
      System.clearProperty(SpillSpace.DIRECTORY_PROPERTY);
    } else {
      System.setProperty(SpillSpace.DIRECTORY_PROPERTY, previousRoot);
    }
  }

  private Connection connect(String memory) throws SQLException {
    return DriverManager.getConnection(
        "jdbc:cairn:mem:" + name + (memory == null ? "" : ";queryMemoryMaxBytes=" + memory));
  }

  private static MemoryPool pool(Connection c) {
    return ((DatabaseSession) ((CairnConnection) c).session()).memory();
  }

  /** The rows of {@code sql} as text, and the result set's warnings. */
  private record Answer(List<String> rows, List<String> warnings) {}

  /**
   * {@code sql} with its joins kept in the driver (a join probed in the store spills in passes
   * instead: see {@link #assertSameProbedAnswer}).
   */
  static String clientJoins(String sql) {
    return sql.replaceFirst("^SELECT ", "SELECT /*+ NO_SERVER_JOIN */ ");
  }

  private static Answer run(Connection c, String sql) throws SQLException {
    return runAsIs(c, clientJoins(sql));
  }

  private static Answer runAsIs(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(rs.getString(i)).append('|');
        }
        rows.add(row.toString());
      }
      for (SQLWarning w = rs.getWarnings(); w != null; w = w.getNextWarning()) {
        warnings.add(w.getMessage());
      }
    }
    return new Answer(rows, warnings);
  }

  private List<String> spillFiles() throws IOException {
    try (Stream<Path> files = Files.walk(spillRoot)) {
      return files.filter(p -> !p.equals(spillRoot)).map(Path::toString).toList();
    }
  }

  /**
   * Runs {@code sql} without a limit and with {@code memory}: the same rows (in the same order when
   * {@code ordered}), a warning naming {@code spilled} under the limit, no file left.
   */
  private void assertSameAnswer(String sql, String memory, boolean ordered, String spilled)
      throws Exception {
    Answer expected;
    try (Connection c = connect(null)) {
      expected = run(c, sql);
    }
    assertThat(expected.warnings()).isEmpty();
    Answer actual;
    try (Connection c = connect(memory)) {
      actual = run(c, sql);
      assertThat(pool(c).used()).isZero();
    }
    assertThat(actual.warnings()).anySatisfy(w -> assertThat(w).contains(spilled));
    assertSameRowsAndNoFileLeft(expected, actual, ordered);
  }

  /** The same rows (in the same order when {@code ordered}), and no spill file left. */
  private void assertSameRowsAndNoFileLeft(Answer expected, Answer actual, boolean ordered)
      throws IOException {
    List<String> want = new ArrayList<>(expected.rows());
    List<String> got = new ArrayList<>(actual.rows());
    if (!ordered) {
      Collections.sort(want);
      Collections.sort(got);
    }
    assertThat(got).hasSize(want.size()).isEqualTo(want);
    assertThat(spillFiles()).isEmpty();
  }

  @Test
  void innerJoin() throws Exception {
    assertSameAnswer(
        "SELECT T.ID, T.S, U.ID, U.D FROM T JOIN U ON T.K = U.K",
        "64k",
        false,
        "hash join spilled");
  }

  @Test
  void leftJoin() throws Exception {
    assertSameAnswer(
        "SELECT T.ID, U.ID, U.S FROM T LEFT JOIN U ON T.K = U.K", "64k", false, "hash join");
  }

  @Test
  void rightJoin() throws Exception {
    assertSameAnswer(
        "SELECT T.ID, T.S, U.ID FROM T RIGHT JOIN U ON T.K = U.K", "64k", false, "hash join");
  }

  @Test
  void fullJoin() throws Exception {
    assertSameAnswer(
        "SELECT T.ID, U.ID, U.S FROM T FULL JOIN U ON T.K = U.K", "64k", false, "hash join");
  }

  @Test
  void fullJoinWithAResidualCondition() throws Exception {
    assertSameAnswer(
        "SELECT T.ID, U.ID, U.S FROM T FULL JOIN U ON T.K = U.K AND T.ID < U.ID",
        "64k",
        false,
        "hash join");
  }

  @Test
  void semiJoin() throws Exception {
    assertSameAnswer(
        "SELECT T.ID, T.S FROM T WHERE EXISTS (SELECT 1 FROM U WHERE U.K = T.K AND U.S > T.S)",
        "64k",
        false,
        "hash join");
  }

  @Test
  void antiJoin() throws Exception {
    assertSameAnswer(
        "SELECT T.ID, T.S FROM T WHERE NOT EXISTS (SELECT 1 FROM U WHERE U.K = T.K)",
        "64k",
        false,
        "hash join");
  }

  @Test
  void notIn() throws Exception {
    assertSameAnswer(
        "SELECT T.ID, T.S FROM T WHERE T.K NOT IN (SELECT U.K - 100 FROM U WHERE U.ID > 10)",
        "64k",
        false,
        "hash join");
  }

  @Test
  void joinSpillingTwiceRepartitions() throws Exception {
    assertSameAnswer(
        "SELECT A.ID, B.ID, B.S FROM U A JOIN U B ON A.ID = B.ID", "4k", false, "level 1");
  }

  @Test
  void sortSpillsRunsAndMerges() throws Exception {
    // about 100 runs of 16 KiB: merged 64 at a time, then the rest
    assertSameAnswer(
        "SELECT ID, S FROM (SELECT ID, S FROM T UNION ALL SELECT ID, S FROM U) ORDER BY S DESC, ID",
        "16k",
        true,
        "sort spilled");
  }

  @Test
  void sortWithOffsetSpills() throws Exception {
    assertSameAnswer(
        "SELECT ID, S, D FROM (SELECT ID, S, D FROM U UNION ALL SELECT ID, S, D + 1 FROM U)"
            + " ORDER BY D, ID OFFSET 100 ROWS",
        "64k",
        true,
        "sort spilled");
  }

  @Test
  void groupBySpills() throws Exception {
    assertSameAnswer(
        "SELECT S, COUNT(*), SUM(K), MIN(ID), MAX(ID), AVG(ID), COUNT(DISTINCT K)"
            + " FROM (SELECT S, K, ID FROM T UNION ALL SELECT S, K, ID + 1 FROM T) GROUP BY S",
        "64k",
        false,
        "GROUP BY spilled");
  }

  @Test
  void groupByOfOneIntegerColumnSpills() throws Exception {
    assertSameAnswer(
        "SELECT K, COUNT(*), SUM(D), MAX(S) FROM (SELECT K, D, S FROM U UNION ALL"
            + " SELECT ID - K, D, S FROM U) GROUP BY K",
        "4k",
        false,
        "GROUP BY");
  }

  @Test
  void groupByOfManyGroupsSpillsAgain() throws Exception {
    assertSameAnswer(
        "SELECT ID, S, SUM(D) FROM (SELECT ID, S, D FROM U UNION ALL SELECT ID, S, D FROM U)"
            + " GROUP BY ID, S",
        "4k",
        false,
        "GROUP BY");
  }

  /**
   * A join probed in the store (no hint) whose build side passes the query's memory is written to
   * disk by hash partition and probed in passes: the same answer as with no limit, a warning that
   * names the passes, no file left, the pool empty.
   */
  private void assertSameProbedAnswer(String sql, boolean ordered) throws Exception {
    Answer expected;
    try (Connection c = connect(null)) {
      assertThat(explain(c, sql)).contains("SERVER HASH JOIN PROBE");
      expected = runAsIs(c, sql);
    }
    assertThat(expected.warnings()).isEmpty();
    Answer actual;
    try (Connection c = connect("64k")) {
      actual = runAsIs(c, sql);
      assertThat(pool(c).used()).isZero();
    }
    assertThat(actual.warnings())
        .anySatisfy(
            w ->
                assertThat(w)
                    .contains("is probed in the store in [")
                    .doesNotContain("in [1] passes"));
    assertSameRowsAndNoFileLeft(expected, actual, ordered);
  }

  private static String explain(Connection c, String sql) throws SQLException {
    StringBuilder plan = new StringBuilder();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("EXPLAIN " + sql)) {
      while (rs.next()) {
        plan.append(rs.getString(1)).append('\n');
      }
    }
    return plan.toString();
  }

  @Test
  void aProbedInnerJoinPastTheQuerysMemoryRunsInPasses() throws Exception {
    assertSameProbedAnswer("SELECT T.ID, T.S, U.ID, U.D FROM T JOIN U ON T.K = U.K", false);
  }

  @Test
  void aProbedLeftJoinKeepsEachUnmatchedRowOnce() throws Exception {
    // U's side the smaller, so that it is the build side
    assertSameProbedAnswer(
        "SELECT T.ID, U.ID, U.S FROM T LEFT JOIN (SELECT * FROM U WHERE ID < 2000) U"
            + " ON T.K = U.K",
        false);
  }

  @Test
  void probedSemiAndAntiJoinsInPasses() throws Exception {
    assertSameProbedAnswer(
        "SELECT T.ID, T.S FROM T WHERE EXISTS (SELECT 1 FROM U WHERE U.K = T.K)", false);
    assertSameProbedAnswer(
        "SELECT T.ID, T.S FROM T WHERE NOT EXISTS (SELECT 1 FROM U WHERE U.K = T.K)", false);
    assertSameProbedAnswer(
        "SELECT T.ID, T.S FROM T WHERE T.ID NOT IN (SELECT ID FROM U WHERE ID < 2500)", false);
  }

  @Test
  void probedAggregatesInPassesMergeLikeChunks() throws Exception {
    assertSameProbedAnswer("SELECT COUNT(*), SUM(U.D), MIN(T.S) FROM T JOIN U ON T.K = U.K", false);
    assertSameProbedAnswer(
        "SELECT T.K, COUNT(*), MAX(U.D) FROM T JOIN U ON T.K = U.K GROUP BY T.K", false);
  }

  @Test
  void aProbedSortedAndLimitedJoinIsSortedAcrossPasses() throws Exception {
    assertSameProbedAnswer(
        "SELECT T.ID, U.ID, U.D FROM T JOIN U ON T.K = U.K ORDER BY U.D DESC, T.ID, U.ID"
            + " LIMIT 25 OFFSET 7",
        true);
    assertSameProbedAnswer(
        "SELECT T.ID, U.ID FROM T JOIN U ON T.K = U.K ORDER BY T.ID, U.ID", true);
  }

  @Test
  void anErrorAfterSpillingLeavesNoFile() throws Exception {
    try (Connection c = connect("64k")) {
      // 6 keys of 500 rows: the build spills, then one key's rows alone do not fit
      assertThatThrownBy(
              () ->
                  run(
                      c,
                      "SELECT A.ID, B.S FROM T A JOIN (SELECT MOD(ID, 6) M, S FROM T) B"
                          + " ON MOD(A.ID, 6) = B.M"))
          .isInstanceOfSatisfying(
              SQLException.class,
              e -> {
                assertThat(e.getSQLState()).isEqualTo("53200");
                assertThat(e.getMessage())
                    .contains("one join key")
                    .contains("[queryMemoryMaxBytes (connection property)]");
              });
      assertThat(pool(c).used()).isZero();
    }
    assertThat(spillFiles()).isEmpty();
  }

  @Test
  void cancelMidSpillLeavesNoFile() throws Exception {
    try (Connection c = connect("16k");
        Statement s = c.createStatement()) {
      ResultSet rs =
          s.executeQuery(
              clientJoins(
                  "SELECT T.ID, U.ID FROM T JOIN U ON T.K = U.K ORDER BY T.S, U.S, T.ID, U.ID"));
      assertThat(rs.next()).isTrue();
      assertThat(spillFiles()).isNotEmpty();
      s.cancel();
      assertThatThrownBy(
              () -> {
                while (rs.next()) {
                  // until the cancel is seen
                }
              })
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
      assertThat(spillFiles()).isEmpty();
      assertThat(pool(c).used()).isZero();
    }
  }

  @Test
  void closingEarlyLeavesNoFile() throws Exception {
    try (Connection c = connect("16k");
        Statement s = c.createStatement()) {
      ResultSet rs =
          s.executeQuery(
              "SELECT ID, S FROM (SELECT ID, S FROM T UNION ALL SELECT ID, S FROM U)"
                  + " ORDER BY S DESC");
      assertThat(rs.next()).isTrue();
      assertThat(spillFiles()).isNotEmpty();
      assertThat((Object) rs.getWarnings()).isNotNull();
      assertThat(rs.getWarnings().getMessage()).contains("sort spilled").contains("MB");
      rs.close();
      assertThat(spillFiles()).isEmpty();
    }
  }
}
