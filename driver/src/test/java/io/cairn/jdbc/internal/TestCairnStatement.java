package io.cairn.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.jdbc.internal.engine.ColumnInfo;
import io.cairn.jdbc.internal.engine.CommandResult;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.jdbc.internal.engine.PreparedCommand;
import io.cairn.jdbc.internal.engine.ResultCursor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestCairnStatement {
  static final List<ColumnInfo> COLUMNS =
      List.of(new ColumnInfo("N", "N", "S", "T", DataType.INTEGER));

  TestingSession session;
  Connection connection;
  final List<Boolean> slowCursorClosed = new CopyOnWriteArrayList<>();
  ExecutorService executor;

  @BeforeEach
  void setUp() {
    session = new TestingSession();
    List<Object[]> rows = new ArrayList<>();
    for (int i = 1; i <= 10; i++) {
      rows.add(new Object[] {i});
    }
    session.query("SELECT N", COLUMNS, rows);
    session.update("DELETE N", List.of(), 7);
    session.ddl("CREATE T");
    session.command(
        "SELECT SLOW",
        PreparedCommand.Kind.QUERY,
        COLUMNS,
        List.of(),
        (p, control) ->
            new CommandResult.Rows(TestingSession.blockingCursor(control, slowCursorClosed)));
    session.command(
        "SELECT ENDLESS",
        PreparedCommand.Kind.QUERY,
        COLUMNS,
        List.of(),
        (p, control) ->
            new CommandResult.Rows(
                new ResultCursor() {
                  @Override
                  public Object[] next() {
                    return new Object[] {1};
                  }

                  @Override
                  public void close() {
                    slowCursorClosed.add(true);
                  }
                }));
    session.command(
        "UPDATE SLOW",
        PreparedCommand.Kind.DML,
        List.of(),
        List.of(),
        (p, control) -> {
          while (true) {
            control.check();
            Thread.onSpinWait();
          }
        });
    session.command(
        "SELECT BROKEN",
        PreparedCommand.Kind.QUERY,
        COLUMNS,
        List.of(),
        (p, control) -> {
          throw new IllegalStateException("engine bug");
        });
    connection = new CairnConnection(session, "jdbc:cairn:mem:test", new Properties());
    executor = Executors.newSingleThreadExecutor();
  }

  @AfterEach
  void tearDown() throws SQLException {
    executor.shutdownNow();
    connection.close();
  }

  static int count(ResultSet rs) throws SQLException {
    int n = 0;
    while (rs.next()) {
      n++;
    }
    return n;
  }

  @Test
  void executeReportsResultSetOrUpdateCount() throws SQLException {
    Statement st = connection.createStatement();
    assertThat(st.execute("SELECT N")).isTrue();
    ResultSet rs = st.getResultSet();
    assertThat(rs.getStatement()).isSameAs(st);
    assertThat(st.getUpdateCount()).isEqualTo(-1);
    assertThat(st.getMoreResults()).isFalse();
    assertThat(rs.isClosed()).isTrue();
    assertThat(st.getResultSet()).isNull();
    assertThat(st.getUpdateCount()).isEqualTo(-1);

    assertThat(st.execute("DELETE N")).isFalse();
    assertThat(st.getResultSet()).isNull();
    assertThat(st.getUpdateCount()).isEqualTo(7);
    assertThat(st.getLargeUpdateCount()).isEqualTo(7L);
    assertThat(st.getMoreResults()).isFalse();
    assertThat(st.getUpdateCount()).isEqualTo(-1);

    assertThat(st.executeUpdate("DELETE N")).isEqualTo(7);
    assertThat(st.executeLargeUpdate("CREATE T")).isZero();
    assertThat(count(st.executeQuery("SELECT N"))).isEqualTo(10);
  }

  @Test
  void executeQueryOnDmlAndExecuteUpdateOnQueryAre07003() throws SQLException {
    Statement st = connection.createStatement();
    assertThatThrownBy(() -> st.executeQuery("DELETE N"))
        .hasMessageContaining("executeUpdate")
        .extracting(e -> ((SQLException) e).getSQLState(), e -> ((SQLException) e).getErrorCode())
        .containsExactly("07003", ErrorCode.NOT_A_QUERY.code());
    assertThat(session.executions).as("the DML did not run").isEmpty();
    assertThatThrownBy(() -> st.executeUpdate("SELECT N"))
        .extracting(e -> ((SQLException) e).getSQLState(), e -> ((SQLException) e).getErrorCode())
        .containsExactly("07003", ErrorCode.NOT_AN_UPDATE.code());
    assertThat(session.executions).isEmpty();
  }

  @Test
  void reExecutingClosesThePreviousResultSet() throws SQLException {
    Statement st = connection.createStatement();
    ResultSet first = st.executeQuery("SELECT N");
    first.next();
    ResultSet second = st.executeQuery("SELECT N");
    assertThat(first.isClosed()).isTrue();
    assertThat(session.cursors.get(0).closed).isTrue();
    assertThat(second.isClosed()).isFalse();
    st.executeUpdate("DELETE N");
    assertThat(second.isClosed()).isTrue();
  }

  @Test
  void maxRowsLimitsTheRows() throws SQLException {
    Statement st = connection.createStatement();
    st.setMaxRows(3);
    assertThat(st.getMaxRows()).isEqualTo(3);
    ResultSet rs = st.executeQuery("SELECT N");
    assertThat(count(rs)).isEqualTo(3);
    assertThat(session.cursors.get(0).closed).isTrue();
    st.setLargeMaxRows(0);
    assertThat(count(st.executeQuery("SELECT N"))).isEqualTo(10);
    assertThatThrownBy(() -> st.setMaxRows(-1))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22023");
  }

  @Test
  void fetchSizeAndOptions() throws SQLException {
    Statement st = connection.createStatement();
    st.setFetchSize(500);
    assertThat(st.getFetchSize()).isEqualTo(500);
    st.setFetchDirection(ResultSet.FETCH_FORWARD);
    assertThatThrownBy(() -> st.setFetchDirection(ResultSet.FETCH_REVERSE))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThat(st.getResultSetType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
    assertThat(st.getResultSetConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
    assertThat(st.getConnection()).isSameAs(connection);
    assertThat(st.getGeneratedKeys().next()).isFalse();
    assertThat(st.executeUpdate("DELETE N", Statement.RETURN_GENERATED_KEYS)).isEqualTo(7);
    assertThat(st.getGeneratedKeys().getMetaData().getColumnCount()).isZero();
    assertThatThrownBy(() -> st.setCursorName("C"))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
  }

  @Test
  void queryTimeoutPassesToTheExecution() throws SQLException {
    Statement st = connection.createStatement();
    assertThat(st.getQueryTimeout()).isZero();
    st.setQueryTimeout(1);
    assertThat(st.getQueryTimeout()).isEqualTo(1);
    long start = System.nanoTime();
    ResultSet rs = st.executeQuery("SELECT SLOW");
    assertThatThrownBy(rs::next)
        .isInstanceOf(SQLTimeoutException.class)
        .hasCauseInstanceOf(CairnException.class)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("57014");
    assertThat(System.nanoTime() - start)
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(900));
    assertThat(slowCursorClosed).containsExactly(true);
    assertThatThrownBy(rs::next)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("24000");
    assertThatThrownBy(() -> st.setQueryTimeout(-1))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22023");
  }

  @Test
  void queryTimeoutOfDml() throws SQLException {
    Statement st = connection.createStatement();
    st.setQueryTimeout(1);
    assertThatThrownBy(() -> st.executeUpdate("UPDATE SLOW"))
        .isInstanceOf(SQLTimeoutException.class);
  }

  @Test
  void cancelFromAnotherThreadWhileNextBlocks() throws Exception {
    Statement st = connection.createStatement();
    ResultSet rs = st.executeQuery("SELECT SLOW");
    Future<Throwable> reader =
        executor.submit(
            () -> {
              try {
                rs.next();
                return null;
              } catch (SQLException e) {
                return e;
              }
            });
    Thread.sleep(50);
    assertThat(reader.isDone()).isFalse();
    st.cancel();
    Throwable failure = reader.get(10, TimeUnit.SECONDS);
    assertThat(failure)
        .isInstanceOf(SQLException.class)
        .isNotInstanceOf(SQLTimeoutException.class)
        .hasMessageContaining("cancel");
    assertThat(((SQLException) failure).getSQLState()).isEqualTo("57014");
    assertThat(((SQLException) failure).getErrorCode()).isEqualTo(ErrorCode.QUERY_CANCELED.code());
    assertThat(slowCursorClosed).containsExactly(true);
  }

  @Test
  void cancelFromAnotherThreadWhileNextLoops() throws Exception {
    Statement st = connection.createStatement();
    ResultSet rs = st.executeQuery("SELECT ENDLESS");
    Future<Throwable> reader =
        executor.submit(
            () -> {
              try {
                while (rs.next()) {
                  Thread.onSpinWait();
                }
                return null;
              } catch (SQLException e) {
                return e;
              }
            });
    Thread.sleep(50);
    st.cancel();
    Throwable failure = reader.get(10, TimeUnit.SECONDS);
    assertThat(((SQLException) failure).getSQLState()).isEqualTo("57014");
    assertThat(slowCursorClosed).containsExactly(true);
  }

  @Test
  void cancelFromAnotherThreadDuringExecute() throws Exception {
    Statement st = connection.createStatement();
    Future<Throwable> runner =
        executor.submit(
            () -> {
              try {
                st.executeUpdate("UPDATE SLOW");
                return null;
              } catch (SQLException e) {
                return e;
              }
            });
    while (session.controls.isEmpty()) {
      Thread.sleep(1);
    }
    st.cancel();
    Throwable failure = runner.get(10, TimeUnit.SECONDS);
    assertThat(((SQLException) failure).getSQLState()).isEqualTo("57014");
    // The next execution gets a fresh control: the cancel does not stick.
    assertThat(st.executeUpdate("DELETE N")).isEqualTo(7);
    ExecutionControl last = session.controls.get(session.controls.size() - 1);
    assertThat(last.isCancelled()).isFalse();
  }

  @Test
  void cancelWithNothingRunningIsHarmless() throws SQLException {
    Statement st = connection.createStatement();
    st.cancel();
    assertThat(count(st.executeQuery("SELECT N"))).isEqualTo(10);
  }

  @Test
  void unexpectedEngineExceptionBecomesXx000() throws SQLException {
    Statement st = connection.createStatement();
    assertThatThrownBy(() -> st.executeQuery("SELECT BROKEN"))
        .isInstanceOf(SQLException.class)
        .hasCauseInstanceOf(IllegalStateException.class)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("XX000");
  }

  @Test
  void closeClosesTheResultSetAndLaterCallsAreHy010() throws SQLException {
    Statement st = connection.createStatement();
    ResultSet rs = st.executeQuery("SELECT N");
    st.close();
    st.close();
    assertThat(st.isClosed()).isTrue();
    assertThat(rs.isClosed()).isTrue();
    assertThat(session.cursors.get(0).closed).isTrue();
    assertThatThrownBy(() -> st.executeQuery("SELECT N"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("HY010");
    assertThatThrownBy(st::getResultSet)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("HY010");
    assertThatThrownBy(() -> st.setMaxRows(1))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("HY010");
  }

  @Test
  void closeOnCompletionClosesWhenTheResultSetCloses() throws SQLException {
    Statement st = connection.createStatement();
    st.closeOnCompletion();
    assertThat(st.isCloseOnCompletion()).isTrue();
    ResultSet first = st.executeQuery("SELECT N");
    ResultSet second = st.executeQuery("SELECT N");
    assertThat(first.isClosed()).isTrue();
    assertThat(st.isClosed()).as("re-execution is not completion").isFalse();
    second.close();
    assertThat(st.isClosed()).isTrue();
  }

  @Test
  void getMoreResultsKeepingResultsIsNotSupported() throws SQLException {
    Statement st = connection.createStatement();
    st.executeQuery("SELECT N");
    assertThatThrownBy(() -> st.getMoreResults(Statement.KEEP_CURRENT_RESULT))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
  }

  @Test
  void cancelReachesTheCurrentExecutionAfterAnOlderResultSetCloses() throws Exception {
    Statement st = connection.createStatement();
    ResultSet old = st.executeQuery("SELECT N");
    old.next();
    ResultSet slow = st.executeQuery("SELECT SLOW");
    old.close();
    st.cancel();
    assertThatThrownBy(slow::next)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("57014");
  }

  @Test
  void closingTheConnectionCancelsARunningExecution() throws Exception {
    Statement st = connection.createStatement();
    Future<Throwable> runner =
        executor.submit(
            () -> {
              try {
                st.executeUpdate("UPDATE SLOW");
                return null;
              } catch (SQLException e) {
                return e;
              }
            });
    while (session.controls.isEmpty()) {
      Thread.sleep(1);
    }
    connection.close();
    Throwable failure = runner.get(10, TimeUnit.SECONDS);
    assertThat(((SQLException) failure).getSQLState()).isEqualTo("57014");
  }

  @Test
  void prepareFailureLeavesNoResult() throws SQLException {
    Statement st = connection.createStatement();
    ResultSet previous = st.executeQuery("SELECT N");
    assertThatThrownBy(() -> st.execute("BAD SQL"))
        .isInstanceOf(java.sql.SQLSyntaxErrorException.class)
        .hasMessageContaining("BAD SQL");
    assertThat(previous.isClosed()).isTrue();
    assertThat(st.getResultSet()).isNull();
  }
}
