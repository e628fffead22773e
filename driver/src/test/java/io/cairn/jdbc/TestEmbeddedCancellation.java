package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
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

/** Statement.cancel() and setQueryTimeout through the embedded engine. */
class TestEmbeddedCancellation {
  /** Never finishes in practice: 3,000^3 rows counted. */
  private static final String ENDLESS =
      "SELECT COUNT(*) FROM BIG A CROSS JOIN BIG B CROSS JOIN BIG C WHERE A.V + B.V + C.V >= 0";

  private Connection connection;
  private ExecutorService executor;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("cancel-" + UUID.randomUUID()));
    executor = Executors.newSingleThreadExecutor();
    try (Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE BIG (ID INTEGER PRIMARY KEY, V INTEGER)");
    }
    try (PreparedStatement ps = connection.prepareStatement("UPSERT INTO BIG VALUES (?, ?)")) {
      for (int i = 0; i < 3000; i++) {
        ps.setInt(1, i);
        ps.setInt(2, i % 17);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  @AfterEach
  void close() throws SQLException {
    executor.shutdownNow();
    connection.close();
  }

  private static long runToEnd(Statement statement) throws SQLException {
    try (ResultSet rs = statement.executeQuery(ENDLESS)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static SQLException failure(Future<?> future)
      throws InterruptedException, TimeoutException {
    try {
      future.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      assertThat(e.getCause()).isInstanceOf(SQLException.class);
      return (SQLException) e.getCause();
    }
    throw new AssertionError("the query completed instead of failing");
  }

  private long countBig() throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM BIG")) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  @Test
  void cancelFromAnotherThreadStopsTheQuery() throws Exception {
    Statement statement = connection.createStatement();
    Future<Long> running = executor.submit(() -> runToEnd(statement));
    // cancel() is a no-op until the statement has started executing: keep cancelling until the
    // query ends, within a bounded time.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!running.isDone() && System.nanoTime() < deadline) {
      Thread.sleep(50);
      statement.cancel();
    }
    SQLException e = failure(running);
    assertThat(e.getSQLState()).as(String.valueOf(e)).isEqualTo("57014");
    assertThat(statement.isClosed()).isFalse();

    // The statement and the connection stay usable.
    try (ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM BIG WHERE V = 3")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(3000 / 17 + 1);
    }
    statement.close();
    assertThat(countBig()).isEqualTo(3000);
    assertThat(connection.isValid(5)).isTrue();
  }

  /** Cancels {@code statement} until {@code running} ends (bounded), returns its failure. */
  private static SQLException cancelUntilDone(Statement statement, Future<?> running)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!running.isDone() && System.nanoTime() < deadline) {
      Thread.sleep(50);
      statement.cancel();
    }
    return failure(running);
  }

  @Test
  void cancelStopsASortOverACrossJoin() throws Exception {
    Statement statement = connection.createStatement();
    Future<Long> running =
        executor.submit(
            () -> {
              try (ResultSet rs =
                  statement.executeQuery(
                      "SELECT A.ID, B.ID, C.ID FROM BIG A, BIG B, BIG C"
                          + " ORDER BY A.V * B.V - C.V, A.ID LIMIT 3")) {
                rs.next();
                return rs.getLong(1);
              }
            });
    SQLException e = cancelUntilDone(statement, running);
    assertThat(e.getSQLState()).as(String.valueOf(e)).isEqualTo("57014");
    statement.close();
    assertThat(countBig()).isEqualTo(3000);
  }

  @Test
  void cancelStopsAPreparedStatement() throws Exception {
    PreparedStatement statement =
        connection.prepareStatement(
            "SELECT COUNT(*) FROM BIG A CROSS JOIN BIG B CROSS JOIN BIG C WHERE A.V + B.V > ?");
    statement.setInt(1, -1);
    Future<Long> running =
        executor.submit(
            () -> {
              try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getLong(1);
              }
            });
    SQLException e = cancelUntilDone(statement, running);
    assertThat(e.getSQLState()).as(String.valueOf(e)).isEqualTo("57014");
    // The connection runs other prepared statements afterwards.
    try (PreparedStatement small =
        connection.prepareStatement("SELECT COUNT(*) FROM BIG WHERE V > ?")) {
      small.setInt(1, 15);
      try (ResultSet rs = small.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(3000 / 17);
      }
    }
    statement.close();
  }

  @Test
  void cancelOfAnIdleStatementIsHarmless() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.cancel();
      try (ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM BIG")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(3000);
      }
    }
  }

  @Test
  void queryTimeoutGivesSqlTimeoutException() throws Exception {
    Statement statement = connection.createStatement();
    statement.setQueryTimeout(1);
    assertThat(statement.getQueryTimeout()).isEqualTo(1);
    Future<Long> running = executor.submit(() -> runToEnd(statement));
    SQLException e = failure(running);
    assertThat((Throwable) e).isInstanceOf(SQLTimeoutException.class);
    assertThat(e.getSQLState()).as(String.valueOf(e)).isEqualTo("57014");

    // The timeout applies per execution: a short query on the same statement still runs.
    try (ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM BIG")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(3000);
    }
    statement.close();
    assertThat(countBig()).isEqualTo(3000);
  }

  @Test
  void queryTimeoutOnPreparedStatement() throws Exception {
    PreparedStatement statement = connection.prepareStatement(ENDLESS);
    statement.setQueryTimeout(1);
    Future<Long> running =
        executor.submit(
            () -> {
              try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getLong(1);
              }
            });
    SQLException e = failure(running);
    assertThat((Throwable) e).isInstanceOf(SQLTimeoutException.class);
    assertThat(e.getSQLState()).as(String.valueOf(e)).isEqualTo("57014");
    statement.close();
    assertThat(countBig()).isEqualTo(3000);
  }
}
