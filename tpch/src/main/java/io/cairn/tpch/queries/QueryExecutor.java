package io.cairn.tpch.queries;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs queries on one database with a per-query timeout: {@link Statement#setQueryTimeout} first,
 * and a watchdog that cancels the statement (and gives up on it) when the database does not honour
 * the timeout.
 */
final class QueryExecutor implements AutoCloseable {
  /** What one execution gave: an answer, or an error, or a timeout. */
  sealed interface Outcome permits Answered, Failed, TimedOut {}

  record Answered(ResultCheck.Answer answer, long nanos) implements Outcome {}

  record Failed(String message) implements Outcome {}

  record TimedOut(String message) implements Outcome {}

  /** Extra time the watchdog gives the database to honour its own timeout. */
  private static final long GRACE_MILLIS = 5_000;

  private final String url;
  private final int timeoutSeconds;
  private final ExecutorService pool =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "tpch-query");
            t.setDaemon(true);
            return t;
          });
  private Connection connection;

  QueryExecutor(String url, int timeoutSeconds) {
    this.url = url;
    this.timeoutSeconds = timeoutSeconds;
  }

  /** Runs {@code sql} once and reads its whole answer. */
  Outcome run(String sql) {
    Statement statement;
    try {
      if (connection == null || connection.isClosed()) {
        connection = DriverManager.getConnection(url);
      }
      statement = connection.createStatement();
      if (timeoutSeconds > 0) {
        statement.setQueryTimeout(timeoutSeconds);
      }
    } catch (SQLException | RuntimeException e) {
      return new Failed(message(e));
    }
    Future<Answered> future =
        pool.submit(
            () -> {
              long start = System.nanoTime();
              try (statement;
                  ResultSet rs = statement.executeQuery(sql)) {
                ResultCheck.Answer answer = ResultCheck.read(rs);
                return new Answered(answer, System.nanoTime() - start);
              }
            });
    try {
      return timeoutSeconds > 0
          ? future.get(timeoutSeconds * 1000L + GRACE_MILLIS, TimeUnit.MILLISECONDS)
          : future.get();
    } catch (TimeoutException e) {
      abandon(statement, future);
      return new TimedOut(
          "no answer after " + timeoutSeconds + " s (the statement's own timeout did not fire)");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      abandon(statement, future);
      return new Failed("interrupted");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (isTimeout(cause)) {
        return new TimedOut(message(cause));
      }
      return new Failed(message(cause));
    }
  }

  private void abandon(Statement statement, Future<?> future) {
    try {
      statement.cancel();
    } catch (SQLException | RuntimeException ignored) {
      // The connection is dropped below anyway.
    }
    future.cancel(true);
    Connection stale = connection;
    connection = null;
    // Closing may block behind the running statement: do it on the side.
    pool.submit(
        () -> {
          stale.close();
          return null;
        });
  }

  static boolean isTimeout(Throwable t) {
    return t instanceof SQLTimeoutException
        || (t instanceof SQLException s && "57014".equals(s.getSQLState()));
  }

  /** The exception's class, SQLState and message, and its causes' messages when they add to it. */
  static String message(Throwable t) {
    StringBuilder b = new StringBuilder(t.getClass().getSimpleName());
    if (t instanceof SQLException s && s.getSQLState() != null) {
      b.append(" [").append(s.getSQLState()).append(']');
    }
    b.append(": ").append(t.getMessage());
    Throwable cause = t.getCause();
    int depth = 0;
    while (cause != null && cause != t && depth++ < 3) {
      String m = cause.getMessage();
      if (m != null && (t.getMessage() == null || !t.getMessage().contains(m))) {
        b.append(" / caused by ").append(cause.getClass().getSimpleName()).append(": ").append(m);
      }
      t = cause;
      cause = cause.getCause();
    }
    return b.toString().replace('\n', ' ');
  }

  @Override
  public void close() {
    try {
      if (connection != null) {
        connection.close();
      }
    } catch (SQLException ignored) {
      // Nothing left to do with it.
    }
    pool.shutdownNow();
  }
}
