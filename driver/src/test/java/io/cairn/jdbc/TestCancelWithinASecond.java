package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Statement.cancel() and the query timeout take effect within a second in operators that spend long
 * between rows (a nested-loop join's probe over a big build side, a sort, a set operation, a
 * window) and while planning.
 */
class TestCancelWithinASecond {
  /** 200,000 rows: a nested loop over two of them runs 40G probe steps, far beyond any test. */
  private static final int ROWS = 200_000;

  /**
   * A nested-loop join of two aggregations' rows (100,000 each): the probe of one left row walks
   * all 100,000 build rows and matches none, so no row leaves the join for the operators above to
   * check between, and the left rows come from an aggregation's output, which does not check either
   * (a scan would). It took seconds per 1,024 left rows to see a cancel.
   */
  static final String NESTED_LOOP =
      "SELECT COUNT(*) FROM (SELECT ID / 2 AS K, MAX(V) AS V FROM BIG GROUP BY ID / 2) L"
          + " JOIN (SELECT ID / 2 AS K, MIN(V) AS V FROM BIG GROUP BY ID / 2) R"
          + " ON MOD(L.V * 31 + R.V, 100003) < 0";

  /** What cancel() and the timeout are given: the brief's second, and slack for a loaded host. */
  private static final long PATIENCE_MILLIS = 1_000;

  private static final long SLACK_MILLIS = 1_000;

  private Connection connection;
  private ExecutorService executor;

  @BeforeEach
  void load() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("cancel1s-" + UUID.randomUUID()));
    executor = Executors.newSingleThreadExecutor();
    try (Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE SEED (ID INTEGER PRIMARY KEY)");
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < 500; i++) {
        values.append(i == 0 ? "" : ", ").append('(').append(i).append(')');
      }
      s.executeUpdate("UPSERT INTO SEED VALUES " + values);
      s.executeUpdate("CREATE TABLE BIG (ID INTEGER PRIMARY KEY, V INTEGER)");
      s.executeUpdate(
          "UPSERT INTO BIG SELECT A.ID * 1000 + B.ID, MOD(A.ID * 7919 + B.ID, 10007)"
              + " FROM SEED A, SEED B WHERE B.ID < 400");
      try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM BIG")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(ROWS);
      }
    }
  }

  @AfterEach
  void close() throws SQLException {
    executor.shutdownNow();
    connection.close();
  }

  private static long firstLong(Statement statement, String sql) throws SQLException {
    try (ResultSet rs = statement.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The failure of {@code running}, which must come within {@code millis}. */
  private static SQLException failureWithin(Future<?> running, long millis) throws Exception {
    try {
      running.get(millis, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(SQLException.class);
      return (SQLException) e.getCause();
    } catch (TimeoutException e) {
      throw new AssertionError("still running [" + millis + "] ms later", e);
    }
    throw new AssertionError("the query completed instead of failing");
  }

  /**
   * Runs {@code sql} on a statement of its own, lets it run for a while, cancels it and returns how
   * long the cancel took to end it.
   */
  private long cancelLatencyMillis(String sql) throws Exception {
    Statement statement = connection.createStatement();
    Future<Long> running = executor.submit(() -> firstLong(statement, sql));
    assertThatThrownBy(() -> running.get(1_500, TimeUnit.MILLISECONDS))
        .as("the query runs long enough to be cancelled")
        .isInstanceOf(TimeoutException.class);
    long start = System.nanoTime();
    statement.cancel();
    SQLException e = failureWithin(running, PATIENCE_MILLIS + SLACK_MILLIS + 10_000);
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(e.getSQLState()).isEqualTo("57014");
    statement.close();
    return millis;
  }

  @Test
  void cancelStopsANestedLoopProbeWithinASecond() throws Exception {
    long millis = cancelLatencyMillis(NESTED_LOOP);
    assertThat(millis).isLessThanOrEqualTo(PATIENCE_MILLIS);
    // the connection goes on
    try (Statement s = connection.createStatement()) {
      assertThat(firstLong(s, "SELECT COUNT(*) FROM BIG WHERE ID < 10")).isEqualTo(10);
    }
  }

  @Test
  void timeoutStopsANestedLoopProbe() throws Exception {
    Statement statement = connection.createStatement();
    statement.setQueryTimeout(1);
    long start = System.nanoTime();
    Future<Long> running = executor.submit(() -> firstLong(statement, NESTED_LOOP));
    SQLException e = failureWithin(running, 2 * PATIENCE_MILLIS + SLACK_MILLIS + 10_000);
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat((Throwable) e).isInstanceOf(SQLTimeoutException.class);
    assertThat(e.getSQLState()).isEqualTo("57014");
    assertThat(millis).isLessThanOrEqualTo(2 * PATIENCE_MILLIS + SLACK_MILLIS);
    statement.close();
  }

  @Test
  void cancelStopsASortWithinASecond() throws Exception {
    // the sort's input is a cross join of 2.5G rows: the cancel finds it reading, or sorting
    assertThat(
            cancelLatencyMillis(
                "SELECT L.ID FROM BIG L, BIG R WHERE L.V + R.V > 3 ORDER BY L.V * R.ID LIMIT 5"))
        .isLessThanOrEqualTo(PATIENCE_MILLIS);
  }

  @Test
  void cancelStopsAnIntersectWithinASecond() throws Exception {
    assertThat(
            cancelLatencyMillis(
                "SELECT L.V FROM BIG L, BIG R WHERE L.V > R.V"
                    + " INTERSECT SELECT R.ID FROM BIG L, BIG R WHERE L.V > R.V"))
        .isLessThanOrEqualTo(PATIENCE_MILLIS);
  }

  @Test
  void cancelStopsAWindowWithinASecond() throws Exception {
    // a frame from the row before to the end: O(n^2) steps within one partition
    assertThat(
            cancelLatencyMillis(
                "SELECT MAX(X) FROM (SELECT SUM(V) OVER (ORDER BY ID ROWS BETWEEN 1 PRECEDING"
                    + " AND UNBOUNDED FOLLOWING) AS X FROM BIG)"))
        .isLessThanOrEqualTo(PATIENCE_MILLIS);
  }

  /** Scalar subqueries nested 1,000 deep: planning them takes far longer than any timeout. */
  private static String nestedSubqueries() {
    int deep = 1_000;
    return "SELECT "
        + "(SELECT ".repeat(deep)
        + "V"
        + " FROM BIG LIMIT 1)".repeat(deep)
        + " FROM SEED";
  }

  @Test
  void timeoutStopsPlanning() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.setQueryTimeout(1);
      long start = System.nanoTime();
      assertThatThrownBy(() -> s.executeQuery(nestedSubqueries()))
          .isInstanceOfSatisfying(
              SQLTimeoutException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(millis).isLessThanOrEqualTo(PATIENCE_MILLIS + SLACK_MILLIS);
    }
  }

  @Test
  void cancelStopsPlanningWithinASecond() throws Exception {
    long millis = cancelLatencyMillis(nestedSubqueries());
    assertThat(millis).isLessThanOrEqualTo(PATIENCE_MILLIS);
    try (Statement s = connection.createStatement()) {
      assertThat(firstLong(s, "SELECT COUNT(*) FROM SEED")).isEqualTo(500);
    }
  }
}
