package io.cairn.jdbc.internal;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;

/**
 * The one place that turns Cairn errors into SQLExceptions: the SQLState and vendor code come from
 * the {@link ErrorCode}, the subclass from the SQLState class, and the original exception is the
 * cause.
 */
public final class JdbcErrors {
  private JdbcErrors() {}

  /** An SQLException for an error the driver itself detects. */
  public static SQLException error(ErrorCode code, String message) {
    return create(code, message, null);
  }

  /** Unexpected errors quote at most this many characters of what was thrown. */
  static final int MAX_MESSAGE_CHARS = 2048;

  /**
   * Maps anything thrown by the engine, {@link Error}s included, so that none leaves JDBC: an
   * exhausted stack (a statement nested too deeply to run) becomes STATEMENT_TOO_COMPLEX (54001);
   * an OutOfMemoryError becomes MEMORY_LIMIT_EXCEEDED (53200); other unexpected exceptions and
   * errors (an assertion) become XX000 with the cause and a message of bounded length.
   */
  public static SQLException toSqlException(Throwable t) {
    if (t instanceof SQLException e) {
      return e;
    }
    if (t instanceof CairnException e) {
      return create(e.errorCode(), e.getMessage(), e);
    }
    if (t instanceof StackOverflowError) {
      return create(
          ErrorCode.STATEMENT_TOO_COMPLEX,
          "Statement too complex: running it exhausted the stack (an expression nested too"
              + " deeply); split it into simpler statements",
          t);
    }
    if (t instanceof OutOfMemoryError) {
      // the driver's memory budget should fail first (MEMORY_LIMIT_EXCEEDED); this is the heap
      // itself, filled by what the budget does not count or by others in the JVM
      return create(
          ErrorCode.MEMORY_LIMIT_EXCEEDED,
          "Out of memory: the JVM's heap is exhausted ("
              + bounded(t)
              + "); lower the driver's memory limits (connection property ["
              + ConnectionUrl.QUERY_MEMORY_MAX_BYTES
              + "], system property [cairn.driver.memoryMaxBytes]) or give the JVM more heap",
          t);
    }
    return create(
        ErrorCode.INTERNAL_ERROR, "Unexpected error in the Cairn engine: " + bounded(t), t);
  }

  private static String bounded(Throwable t) {
    return bounded(String.valueOf(t), MAX_MESSAGE_CHARS);
  }

  /** {@code text} cut to {@code max} characters, saying how many were left out. */
  static String bounded(String text, int max) {
    if (text == null || text.length() <= max) {
      return text;
    }
    return text.substring(0, max) + "... [" + (text.length() - max) + "] more characters";
  }

  /** A {@link SQLFeatureNotSupportedException} (0A000) naming what is not supported. */
  public static SQLFeatureNotSupportedException notSupported(String what) {
    return (SQLFeatureNotSupportedException)
        create(ErrorCode.NOT_SUPPORTED, "Not supported by Cairn: " + what, null);
  }

  /** Every SQLException's message is cut to this many characters. */
  static final int MAX_ERROR_CHARS = 4096;

  /**
   * The messages of an SQLException's causes together are bounded by this many characters: past it,
   * the causes are replaced by {@link BoundedCause}s.
   */
  static final int MAX_CAUSE_CHARS = 16384;

  static SQLException create(ErrorCode code, String message, Throwable cause) {
    message = bounded(message, MAX_ERROR_CHARS);
    cause = BoundedCause.of(cause, MAX_CAUSE_CHARS);
    String state = code.sqlState();
    int vendor = code.code();
    if (code == ErrorCode.QUERY_TIMEOUT || code == ErrorCode.REQUEST_TIMEOUT) {
      return new SQLTimeoutException(message, state, vendor, cause);
    }
    if (code == ErrorCode.CONNECTION_LOST) {
      // the next statement opens a new connection to the server: retrying may succeed
      return new SQLTransientConnectionException(message, state, vendor, cause);
    }
    if (code == ErrorCode.SERVER_BUSY || code == ErrorCode.SERVER_SHUTTING_DOWN) {
      return new SQLTransientException(message, state, vendor, cause);
    }
    if (code == ErrorCode.QUERY_CANCELED) {
      return new SQLException(message, state, vendor, cause);
    }
    return switch (state.substring(0, 2)) {
      case "42" -> new SQLSyntaxErrorException(message, state, vendor, cause);
      case "23" -> new SQLIntegrityConstraintViolationException(message, state, vendor, cause);
      case "22" -> new SQLDataException(message, state, vendor, cause);
      case "0A" -> new SQLFeatureNotSupportedException(message, state, vendor, cause);
      case "08" -> new SQLNonTransientConnectionException(message, state, vendor, cause);
      // a write conflict: the transaction or statement was rolled back and may be run again
      case "40" -> new SQLTransactionRollbackException(message, state, vendor, cause);
      default -> new SQLException(message, state, vendor, cause);
    };
  }
}
