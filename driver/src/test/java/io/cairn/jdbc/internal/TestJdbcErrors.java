package io.cairn.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import org.junit.jupiter.api.Test;

class TestJdbcErrors {
  static SQLException map(ErrorCode code) {
    return JdbcErrors.toSqlException(new CairnException(code, "boom [" + code + "]"));
  }

  @Test
  void everyCodeKeepsItsSqlStateVendorCodeMessageAndCause() {
    for (ErrorCode code : ErrorCode.values()) {
      CairnException cause = new CairnException(code, "message of " + code);
      SQLException e = JdbcErrors.toSqlException(cause);
      assertThat(e.getSQLState()).isEqualTo(code.sqlState());
      assertThat(e.getErrorCode()).isEqualTo(code.code());
      assertThat(e.getMessage()).isEqualTo("message of " + code);
      assertThat(e.getCause()).isSameAs(cause);
    }
  }

  @Test
  void subclassFollowsTheSqlStateClass() {
    assertThat((Throwable) map(ErrorCode.SYNTAX_ERROR)).isInstanceOf(SQLSyntaxErrorException.class);
    assertThat((Throwable) map(ErrorCode.TABLE_NOT_FOUND))
        .isInstanceOf(SQLSyntaxErrorException.class);
    assertThat((Throwable) map(ErrorCode.DUPLICATE_KEY))
        .isInstanceOf(SQLIntegrityConstraintViolationException.class);
    assertThat((Throwable) map(ErrorCode.NOT_NULL_VIOLATION))
        .isInstanceOf(SQLIntegrityConstraintViolationException.class);
    assertThat((Throwable) map(ErrorCode.DIVISION_BY_ZERO)).isInstanceOf(SQLDataException.class);
    assertThat((Throwable) map(ErrorCode.WRITE_CONFLICT))
        .isInstanceOf(java.sql.SQLTransactionRollbackException.class);
    assertThat((Throwable) map(ErrorCode.INVALID_CAST)).isInstanceOf(SQLDataException.class);
    assertThat((Throwable) map(ErrorCode.NOT_SUPPORTED))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThat((Throwable) map(ErrorCode.INVALID_URL))
        .isInstanceOf(SQLNonTransientConnectionException.class);
    assertThat((Throwable) map(ErrorCode.CONNECTION_CLOSED))
        .isInstanceOf(SQLNonTransientConnectionException.class);
    assertThat((Throwable) map(ErrorCode.QUERY_TIMEOUT)).isInstanceOf(SQLTimeoutException.class);
    // the server's errors: a lost connection is retried by the next statement
    assertThat((Throwable) map(ErrorCode.CONNECTION_FAILED))
        .isInstanceOf(SQLNonTransientConnectionException.class);
    assertThat((Throwable) map(ErrorCode.CONNECTION_LOST))
        .isInstanceOf(SQLTransientConnectionException.class);
    assertThat((Throwable) map(ErrorCode.REQUEST_TIMEOUT)).isInstanceOf(SQLTimeoutException.class);
    assertThat((Throwable) map(ErrorCode.SERVER_BUSY)).isInstanceOf(SQLTransientException.class);
    assertThat((Throwable) map(ErrorCode.SERVER_SHUTTING_DOWN))
        .isInstanceOf(SQLTransientException.class);
    SQLException cancelled = map(ErrorCode.QUERY_CANCELED);
    assertThat(cancelled.getClass()).isEqualTo(SQLException.class);
    assertThat(cancelled.getSQLState()).isEqualTo("57014");
    assertThat(map(ErrorCode.INTERNAL_ERROR).getClass()).isEqualTo(SQLException.class);
  }

  @Test
  void unexpectedRuntimeExceptionIsXx000WithCause() {
    NullPointerException npe = new NullPointerException("x is null");
    SQLException e = JdbcErrors.toSqlException(npe);
    assertThat(e.getSQLState()).isEqualTo("XX000");
    assertThat(e.getErrorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR.code());
    assertThat(e.getCause()).isSameAs(npe);
    assertThat(e.getMessage()).contains("x is null");
  }

  @Test
  void sqlExceptionPassesThrough() {
    SQLException original = new SQLException("as is", "HY000");
    assertThat((Throwable) JdbcErrors.toSqlException(original)).isSameAs(original);
  }

  /** The characters of the messages of {@code e} and all its causes. */
  static long chainChars(Throwable e) {
    long chars = 0;
    for (Throwable t = e; t != null; t = t.getCause()) {
      chars += t.getMessage() == null ? 0 : t.getMessage().length();
    }
    return chars;
  }

  @Test
  void aCauseChainQuotingTheStatementAtEveryLevelIsBounded() {
    // as Calcite's "While converting" wrappers did: one per level, each quoting its level's text
    String sql = "SELECT " + "ABS(".repeat(500) + "V" + ")".repeat(500) + " FROM T";
    Throwable chain = new IllegalStateException("the leaf failed");
    for (int level = 0; level < 500; level++) {
      chain = new RuntimeException("While converting " + sql, chain);
    }
    assertThat(chainChars(chain)).isGreaterThan(1_000_000);
    SQLException e = JdbcErrors.toSqlException(chain);
    assertThat(e.getSQLState()).isEqualTo("XX000");
    assertThat(e.getMessage()).hasSizeLessThan(JdbcErrors.MAX_ERROR_CHARS + 100);
    assertThat(chainChars(e)).isLessThan(32_768);
    // the first causes and the root one are still there, by class and message start
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    assertThat(root.getMessage()).startsWith("java.lang.IllegalStateException: the leaf failed");
    StringBuilder messages = new StringBuilder();
    for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
      messages.append(t.getMessage()).append('\n');
    }
    assertThat(messages).contains("causes left out");
  }

  @Test
  void aLongMessageIsCutOnce() {
    SQLException e =
        JdbcErrors.toSqlException(
            new CairnException(ErrorCode.VALIDATION_ERROR, "x".repeat(1_000_000)));
    assertThat(e.getMessage())
        .hasSizeLessThan(JdbcErrors.MAX_ERROR_CHARS + 100)
        .endsWith("more characters");
    assertThat(chainChars(e)).isLessThan(32_768);
  }

  @Test
  void outOfMemoryErrorIs53200() {
    SQLException e = JdbcErrors.toSqlException(new OutOfMemoryError("Java heap space"));
    assertThat(e.getSQLState()).isEqualTo("53200");
    assertThat(e.getMessage()).contains("Java heap space").contains("queryMemoryMaxBytes");
  }
}
