package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.jdbc.internal.TestingJoinBuilds;
import io.cairn.jdbc.internal.exec.JoinBuildCache;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A prepared statement run again reuses its broadcast join's build side (embedded and, in the
 * remote-contract execution, over a server): not after a write to the build table by this or any
 * connection, nor for other parameter values; freed when the statement or connection closes and
 * when an execution is cancelled; off with {@code joinBuildReuse=false}.
 */
@NotOnHBase(
    "counts hash-join build sides cached in the store for its probes; HBase's region servers keep no hash caches yet")
class TestJoinBuildReuse {
  @RegisterExtension final TestingDatabase db = new TestingDatabase("join-build-reuse");

  private static final String JOIN =
      "SELECT P.ID, B.NAME FROM P JOIN B ON P.K = B.K WHERE B.ID < ? ORDER BY P.ID, B.NAME";

  @BeforeEach
  void load() throws SQLException {
    db.execute(
        "CREATE TABLE P (ID INTEGER PRIMARY KEY, K INTEGER) SPLIT ON (200)",
        "CREATE TABLE B (ID INTEGER PRIMARY KEY, K INTEGER, NAME VARCHAR(10))");
    try (PreparedStatement p = db.connection().prepareStatement("UPSERT INTO P VALUES (?, ?)")) {
      for (int i = 0; i < 400; i++) {
        p.setInt(1, i);
        p.setInt(2, i % 50);
        p.addBatch();
      }
      p.executeBatch();
    }
    try (PreparedStatement b = db.connection().prepareStatement("UPSERT INTO B VALUES (?, ?, ?)")) {
      for (int i = 0; i < 20; i++) {
        b.setInt(1, i);
        b.setInt(2, i * 2);
        b.setString(3, "n" + i);
        b.addBatch();
      }
      b.executeBatch();
    }
    assertThat(String.join("\n", db.explain(JOIN.replace("?", "10"))))
        .contains("SERVER HASH JOIN PROBE");
  }

  private static List<String> run(PreparedStatement s, int limit) throws SQLException {
    s.setInt(1, limit);
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery()) {
      while (rs.next()) {
        rows.add(rs.getObject(1) + "," + rs.getObject(2));
      }
    }
    return rows;
  }

  /** The client join's rows, for comparison. */
  private List<String> expected(int limit) throws SQLException {
    return db.rows(
        JOIN.replace("SELECT ", "SELECT /*+ NO_SERVER_JOIN */ ").replace("?", "" + limit));
  }

  @Test
  void aSecondExecutionReusesTheBuildSide() throws SQLException {
    try (PreparedStatement s = db.connection().prepareStatement(JOIN)) {
      assertThat(run(s, 10)).isEqualTo(expected(10)).isNotEmpty();
      JoinBuildCache cache = TestingJoinBuilds.of(db.connection());
      assertThat(cache.kept()).isEqualTo(1);
      assertThat(cache.reuses()).isZero();
      assertThat(run(s, 10)).isEqualTo(expected(10));
      assertThat(run(s, 10)).isEqualTo(expected(10));
      assertThat(cache.reuses()).isEqualTo(2);
      assertThat(cache.kept()).isEqualTo(1);
      assertThat(cache.size()).isEqualTo(1);
      assertThat(cache.usedBytes()).isPositive();
    }
  }

  @Test
  void aWriteToTheBuildTableRebuilds() throws SQLException {
    try (PreparedStatement s = db.connection().prepareStatement(JOIN)) {
      run(s, 10);
      JoinBuildCache cache = TestingJoinBuilds.of(db.connection());
      db.execute("UPSERT INTO B VALUES (5, 7, 'changed')");
      assertThat(run(s, 10)).isEqualTo(expected(10)).anyMatch(r -> r.endsWith(",changed"));
      assertThat(cache.reuses()).isZero();
      assertThat(cache.kept()).isEqualTo(2);
      assertThat(cache.size()).isEqualTo(1); // the stale one was dropped
      assertThat(run(s, 10)).isEqualTo(expected(10));
      assertThat(cache.reuses()).isEqualTo(1);
    }
  }

  @Test
  void aWriteByAnotherConnectionRebuilds() throws SQLException {
    try (PreparedStatement s = db.connection().prepareStatement(JOIN);
        Connection other = DriverManager.getConnection(db.url())) {
      run(s, 10);
      JoinBuildCache cache = TestingJoinBuilds.of(db.connection());
      TestingDatabase.execute(other, "DELETE FROM B WHERE ID = 3");
      assertThat(run(s, 10)).isEqualTo(expected(10)).noneMatch(r -> r.endsWith(",n3"));
      assertThat(cache.reuses()).isZero();
      // a write to another table (the probe side's) keeps the build side
      TestingDatabase.execute(other, "UPSERT INTO P VALUES (1000, 4)");
      assertThat(run(s, 10)).isEqualTo(expected(10)).contains("1000,n2");
      assertThat(cache.reuses()).isEqualTo(1);
    }
  }

  @Test
  void anotherParameterValueRebuilds() throws SQLException {
    try (PreparedStatement s = db.connection().prepareStatement(JOIN)) {
      assertThat(run(s, 10)).isEqualTo(expected(10));
      assertThat(run(s, 5)).isEqualTo(expected(5));
      JoinBuildCache cache = TestingJoinBuilds.of(db.connection());
      assertThat(cache.reuses()).isZero();
      assertThat(cache.kept()).isEqualTo(2);
      assertThat(run(s, 10)).isEqualTo(expected(10));
      assertThat(run(s, 5)).isEqualTo(expected(5));
      assertThat(cache.reuses()).isEqualTo(2);
    }
  }

  @Test
  void aTransactionThatWroteTheBuildTableDoesNotReuse() throws SQLException {
    Connection c = db.connection();
    try (PreparedStatement s = c.prepareStatement(JOIN)) {
      run(s, 10);
      JoinBuildCache cache = TestingJoinBuilds.of(c);
      c.setAutoCommit(false);
      try {
        TestingDatabase.execute(c, "UPSERT INTO B VALUES (4, 9, 'mine')");
        assertThat(run(s, 10)).contains("9,mine");
        assertThat(cache.reuses()).isZero();
      } finally {
        c.rollback();
        c.setAutoCommit(true);
      }
      assertThat(run(s, 10)).isEqualTo(expected(10));
      assertThat(cache.reuses()).isEqualTo(1);
    }
  }

  @Test
  void closingTheStatementOrConnectionFreesTheBuildSides() throws SQLException {
    try (Connection c = DriverManager.getConnection(db.url())) {
      long before = TestingJoinBuilds.connectionMemory(c);
      PreparedStatement s = c.prepareStatement(JOIN);
      run(s, 10);
      JoinBuildCache cache = TestingJoinBuilds.of(c);
      assertThat(cache.size()).isEqualTo(1);
      assertThat(TestingJoinBuilds.connectionMemory(c)).isGreaterThan(before);
      s.close();
      assertThat(cache.size()).isZero();
      assertThat(cache.usedBytes()).isZero();
      assertThat(TestingJoinBuilds.connectionMemory(c)).isEqualTo(before);

      PreparedStatement again = c.prepareStatement(JOIN);
      run(again, 10);
      assertThat(cache.size()).isEqualTo(1);
      c.close();
      assertThat(cache.size()).isZero();
      assertThat(cache.usedBytes()).isZero();
    }
  }

  @Test
  void aCancelledExecutionKeepsNothing() throws SQLException {
    Connection c = db.connection();
    try (PreparedStatement s = c.prepareStatement(JOIN)) {
      s.setInt(1, 10);
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        s.cancel();
      } catch (SQLException expected) {
        // the cancel may end the result set's close with an error
      }
      JoinBuildCache cache = TestingJoinBuilds.of(c);
      assertThat(cache.size()).isZero();
      assertThat(cache.usedBytes()).isZero();
      assertThat(run(s, 10)).isEqualTo(expected(10));
      assertThat(cache.reuses()).isZero();
    }
  }

  @Test
  void thePropertyTurnsReuseOff() throws SQLException {
    try (Connection c = DriverManager.getConnection(db.url() + ";joinBuildReuse=false");
        PreparedStatement s = c.prepareStatement(JOIN)) {
      assertThat(run(s, 10)).isEqualTo(expected(10));
      assertThat(run(s, 10)).isEqualTo(expected(10));
      assertThat(TestingJoinBuilds.of(c)).isNull();
    }
  }
}
