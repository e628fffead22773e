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
}
