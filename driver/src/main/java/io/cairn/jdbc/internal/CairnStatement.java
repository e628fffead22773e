package io.cairn.jdbc.internal;

import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.engine.CommandResult;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.jdbc.internal.engine.PreparedCommand;
import io.cairn.jdbc.internal.engine.ProgressListener;
import io.cairn.jdbc.internal.engine.ProgressLog;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A statement of a {@link CairnConnection}. One result at a time: executing again closes the
 * previous result set. {@link #cancel()} may be called from any thread; it cancels the running
 * execution, including the reading of its result set.
 */
public class CairnStatement implements Statement {
  final CairnConnection connection;
  private final List<String> batch = new ArrayList<>();

  private volatile boolean closed;
  private volatile ExecutionControl runningControl;

  /** The control of a statement planned by {@link #prepare} and not yet run (see {@link #run}). */
  private ExecutionControl preparedControl;

  private CairnResultSet resultSet;
  private long updateCount = -1;
  private long maxRows;
  private int fetchSize;
  private int queryTimeoutSeconds;
  private boolean closeOnCompletion;
  private boolean poolable;
  private boolean closingResultSet;
  private SQLWarning warnings;
  private volatile ProgressListener progressListener;

  CairnStatement(CairnConnection connection) {
    this.connection = connection;
  }

  // ---------------------------------------------------------------------------------------------
  // Execution

  /**
   * Plans {@code sql} under a new execution control, so that {@link #cancel()} and the query
   * timeout reach planning too; the following {@link #run} continues under the same control (one
   * timeout for planning and execution).
   */
  final PreparedCommand prepare(String sql) throws SQLException {
    if (sql == null) {
      throw JdbcErrors.error(ErrorCode.INVALID_ARGUMENT, "SQL text is null");
    }
    discardPreparedControl();
    ExecutionControl control = ExecutionControl.withTimeoutSeconds(queryTimeoutSeconds);
    runningControl = control;
    PreparedCommand command;
    try {
      command = connection.session().prepare(sql, control);
    } catch (RuntimeException | Error e) { // no Error leaves JDBC (JdbcErrors)
      runningControl = null;
      control.finish();
      throw JdbcErrors.toSqlException(stoppedBy(control, e));
    }
    preparedControl = control;
    warnings = null;
    warningControl = control;
    warningsTaken = 0;
    for (String warning : command.warnings()) {
      addWarning(new SQLWarning(warning, "01000"));
    }
    return command;
  }

  /** A cancel or timeout seen by {@code control} reported as such, else {@code failure}. */
  private static Throwable stoppedBy(ExecutionControl control, Throwable failure) {
    try {
      control.check();
    } catch (RuntimeException e) {
      e.addSuppressed(failure);
      return e;
    }
    return failure;
  }

  /** Forgets the control of a prepared statement whose planning did not lead to a run. */
  final void discardPreparedControl() {
    ExecutionControl control = preparedControl;
    preparedControl = null;
    if (control != null) {
      if (runningControl == control) {
        runningControl = null;
      }
      control.finish();
    }
  }

  /** The control of the statement last prepared, whose run-time warnings join the chain. */
  private ExecutionControl warningControl;

  private int warningsTaken;

  /** Adds the run-time warnings of the last execution not yet in the chain. */
  private void takeRunTimeWarnings() {
    if (warningControl == null) {
      return;
    }
    List<String> added = warningControl.warnings();
    for (; warningsTaken < added.size(); warningsTaken++) {
      addWarning(new SQLWarning(added.get(warningsTaken), "01000"));
    }
  }

  private void addWarning(SQLWarning warning) {
    if (warnings == null) {
      warnings = warning;
    } else {
      warnings.setNextWarning(warning);
    }
  }

  /** Starts an execution: the previous result goes away even if this one fails to prepare. */
  final void beginExecution() throws SQLException {
    checkOpen();
    closeResultSet();
    updateCount = -1;
  }

  /**
   * Begins an execution under the control prepared for it (or a new one with the query timeout),
   * which becomes the running control that cancel reaches.
   */
  private ExecutionControl startExecution() throws SQLException {
    beginExecution();
    ExecutionControl control = preparedControl;
    preparedControl = null;
    if (control == null) {
      control = ExecutionControl.withTimeoutSeconds(queryTimeoutSeconds);
    }
    runningControl = control;
    control.progressListener(
        progressListener != null ? progressListener : ProgressLog.defaultListener());
    return control;
  }

  /** Runs a command; returns true when it produced a result set. */
  final boolean run(PreparedCommand command, List<Object> parameters) throws SQLException {
    ExecutionControl control = startExecution();
    CommandResult result;
    try {
      control.check();
      result = command.execute(parameters, control);
    } catch (RuntimeException | Error e) { // no Error leaves JDBC (JdbcErrors)
      runningControl = null;
      control.finish();
      throw JdbcErrors.toSqlException(e);
    }
    if (result instanceof CommandResult.Rows rows) {
      resultSet = new CairnResultSet(this, command.columns(), rows.cursor(), maxRows, control);
      return true;
    }
    runningControl = null;
    control.finish();
    updateCount = ((CommandResult.UpdateCount) result).count();
    return false;
  }

  /**
   * Runs a batch of parameter sets of a command that {@link PreparedCommand#runsBatches()} as one
   * execution (one timeout, one cancel); returns each set's update count, or throws the
   * BatchUpdateException of the first set that failed, with the counts of those before it (whose
   * rows were written).
   */
  final long[] runBatch(PreparedCommand command, List<List<Object>> sets) throws SQLException {
    ExecutionControl control = startExecution();
    PreparedCommand.BatchResult result;
    try {
      control.check();
      result = command.executeBatch(sets, control);
    } catch (RuntimeException | Error e) { // no Error leaves JDBC (JdbcErrors)
      throw batchFailure(JdbcErrors.toSqlException(e), new long[0]);
    } finally {
      runningControl = null;
      control.finish();
    }
    if (result.failure() != null) {
      throw batchFailure(JdbcErrors.toSqlException(result.failure()), result.counts());
    }
    updateCount = -1;
    return result.counts();
  }

  static void requireQuery(PreparedCommand command) throws SQLException {
    if (command.kind() != PreparedCommand.Kind.QUERY) {
      throw JdbcErrors.error(
          ErrorCode.NOT_A_QUERY,
          "executeQuery expected a query, found a ["
              + command.kind()
              + "] statement; use executeUpdate or execute");
    }
  }

  static void requireUpdate(PreparedCommand command) throws SQLException {
    if (command.kind() == PreparedCommand.Kind.QUERY) {
      throw JdbcErrors.error(
          ErrorCode.NOT_AN_UPDATE,
          "executeUpdate expected DML or DDL, found a query; use executeQuery or execute");
    }
  }

  static int toIntCount(long count) throws SQLException {
    if (count > Integer.MAX_VALUE) {
      throw JdbcErrors.error(
          ErrorCode.NUMERIC_OUT_OF_RANGE,
          "Update count [" + count + "] does not fit an int; use executeLargeUpdate");
    }
    return (int) count;
  }

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    beginExecution();
    PreparedCommand command = prepare(sql);
    requireQuery(command);
    run(command, List.of());
    return resultSet;
  }

  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    beginExecution();
    PreparedCommand command = prepare(sql);
    requireUpdate(command);
    run(command, List.of());
    return updateCount;
  }

  @Override
  public int executeUpdate(String sql) throws SQLException {
    return toIntCount(executeLargeUpdate(sql));
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    beginExecution();
    return run(prepare(sql), List.of());
  }

  // Generated keys: the flags are accepted, no keys are returned (getGeneratedKeys is empty).

  @Override
  public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
    return executeUpdate(sql);
  }

  @Override
  public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
    return executeUpdate(sql);
  }

  @Override
  public int executeUpdate(String sql, String[] columnNames) throws SQLException {
    return executeUpdate(sql);
  }

  @Override
  public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
    return executeLargeUpdate(sql);
  }

  @Override
  public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
    return executeLargeUpdate(sql);
  }

  @Override
  public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
    return executeLargeUpdate(sql);
  }

  @Override
  public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
    return execute(sql);
  }

  @Override
  public boolean execute(String sql, int[] columnIndexes) throws SQLException {
    return execute(sql);
  }

  @Override
  public boolean execute(String sql, String[] columnNames) throws SQLException {
    return execute(sql);
  }

  @Override
  public ResultSet getGeneratedKeys() throws SQLException {
    checkOpen();
    return CairnResultSet.ofRows(List.of(), List.of());
  }

  @Override
  public ResultSet getResultSet() throws SQLException {
    checkOpen();
    return resultSet;
  }

  @Override
  public int getUpdateCount() throws SQLException {
    checkOpen();
    return updateCount == -1 ? -1 : toIntCount(updateCount);
  }

  @Override
  public long getLargeUpdateCount() throws SQLException {
    checkOpen();
    return updateCount;
  }

  @Override
  public boolean getMoreResults() throws SQLException {
    return getMoreResults(CLOSE_CURRENT_RESULT);
  }

  @Override
  public boolean getMoreResults(int current) throws SQLException {
    checkOpen();
    if (current != CLOSE_CURRENT_RESULT
        && current != KEEP_CURRENT_RESULT
        && current != CLOSE_ALL_RESULTS) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_ARGUMENT, "getMoreResults: unknown mode [" + current + "]");
    }
    if (current != CLOSE_CURRENT_RESULT) {
      // JDBC: these modes need supportsMultipleOpenResults, which Cairn does not have.
      throw JdbcErrors.notSupported(
          "getMoreResults mode [" + current + "]: only CLOSE_CURRENT_RESULT");
    }
    closeResultSet();
    updateCount = -1;
    return false;
  }

  // ---------------------------------------------------------------------------------------------
  // Batches

  @Override
  public void addBatch(String sql) throws SQLException {
    checkOpen();
    if (sql == null) {
      throw JdbcErrors.error(ErrorCode.INVALID_ARGUMENT, "SQL text is null");
    }
    batch.add(sql);
  }

  @Override
  public void clearBatch() throws SQLException {
    checkOpen();
    batch.clear();
  }

  @Override
  public int[] executeBatch() throws SQLException {
    return toIntCounts(executeLargeBatch());
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    checkOpen();
    List<String> statements = List.copyOf(batch);
    batch.clear();
    long[] counts = new long[statements.size()];
    for (int i = 0; i < statements.size(); i++) {
      try {
        PreparedCommand command = prepare(statements.get(i));
        counts[i] = executeBatchEntry(command, List.of(), i);
      } catch (SQLException e) {
        throw batchFailure(e, Arrays.copyOf(counts, i));
      }
    }
    return counts;
  }

  /** Runs one batch entry, which must not return rows; returns its update count. */
  final long executeBatchEntry(PreparedCommand command, List<Object> parameters, int index)
      throws SQLException {
    if (command.kind() == PreparedCommand.Kind.QUERY) {
      throw JdbcErrors.error(
          ErrorCode.NOT_AN_UPDATE,
          "Batch entry [" + (index + 1) + "] is a query; batches take only DML and DDL");
    }
    run(command, parameters);
    return updateCount;
  }

  static BatchUpdateException batchFailure(SQLException cause, long[] done) {
    return new BatchUpdateException(
        "Batch entry [" + (done.length + 1) + "] failed: " + cause.getMessage(),
        cause.getSQLState(),
        cause.getErrorCode(),
        done,
        cause);
  }

  static int[] toIntCounts(long[] counts) {
    int[] result = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      result[i] = counts[i] > Integer.MAX_VALUE ? SUCCESS_NO_INFO : (int) counts[i];
    }
    return result;
  }

  // ---------------------------------------------------------------------------------------------
  // Cancel, close, options

  @Override
  public void cancel() throws SQLException {
    checkOpen();
    ExecutionControl control = runningControl;
    if (control != null) {
      control.cancel();
    }
  }

  /** Cancels the running execution, if any, without checking whether this statement is open. */
  final void cancelRunning() {
    ExecutionControl control = runningControl;
    if (control != null) {
      control.cancel();
    }
  }

  /** Closes the current result set, if any. */
  final void closeResultSet() throws SQLException {
    CairnResultSet rs = resultSet;
    resultSet = null;
    if (rs != null) {
      closingResultSet = true;
      try {
        rs.close();
      } finally {
        closingResultSet = false;
      }
    }
  }

  /** Called by a result set of this statement when it closes. */
  final void resultSetClosed(CairnResultSet rs) throws SQLException {
    if (rs == resultSet) {
      resultSet = null;
    }
    if (runningControl == rs.control()) {
      runningControl = null;
    }
    // The statement closing its own result set (re-execution, close) does not complete it.
    if (closeOnCompletion && !closed && !closingResultSet) {
      close();
    }
  }

  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    batch.clear();
    discardPreparedControl();
    try {
      closeResultSet();
    } finally {
      connection.statementClosed(this);
    }
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  final void checkOpen() throws SQLException {
    connection.checkOpen();
    if (closed) {
      throw JdbcErrors.error(ErrorCode.OBJECT_CLOSED, "The statement is closed");
    }
  }

  @Override
  public void closeOnCompletion() throws SQLException {
    checkOpen();
    closeOnCompletion = true;
  }

  @Override
  public boolean isCloseOnCompletion() throws SQLException {
    checkOpen();
    return closeOnCompletion;
  }

  @Override
  public int getMaxFieldSize() throws SQLException {
    checkOpen();
    return 0;
  }

  @Override
  public void setMaxFieldSize(int max) throws SQLException {
    checkOpen();
    if (max != 0) {
      throw JdbcErrors.notSupported("a maximum field size (only 0, no limit)");
    }
  }

  @Override
  public int getMaxRows() throws SQLException {
    checkOpen();
    return (int) Math.min(maxRows, Integer.MAX_VALUE);
  }

  @Override
  public void setMaxRows(int max) throws SQLException {
    setLargeMaxRows(max);
  }

  @Override
  public long getLargeMaxRows() throws SQLException {
    checkOpen();
    return maxRows;
  }

  @Override
  public void setLargeMaxRows(long max) throws SQLException {
    checkOpen();
    if (max < 0) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_ARGUMENT, "Max rows must be >= 0, found [" + max + "]");
    }
    maxRows = max;
  }

  @Override
  public void setEscapeProcessing(boolean enable) throws SQLException {
    checkOpen();
  }

  @Override
  public int getQueryTimeout() throws SQLException {
    checkOpen();
    return queryTimeoutSeconds;
  }

  @Override
  public void setQueryTimeout(int seconds) throws SQLException {
    checkOpen();
    if (seconds < 0) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_ARGUMENT, "Query timeout must be >= 0, found [" + seconds + "]");
    }
    queryTimeoutSeconds = seconds;
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    checkOpen();
    takeRunTimeWarnings();
    return warnings;
  }

  @Override
  public void clearWarnings() throws SQLException {
    checkOpen();
    warnings = null;
  }

  @Override
  public void setCursorName(String name) throws SQLException {
    checkOpen();
    throw JdbcErrors.notSupported("named cursors");
  }

  @Override
  public void setFetchDirection(int direction) throws SQLException {
    checkOpen();
    if (direction != ResultSet.FETCH_FORWARD) {
      throw JdbcErrors.notSupported("fetch direction [" + direction + "]: only FETCH_FORWARD");
    }
  }

  @Override
  public int getFetchDirection() throws SQLException {
    checkOpen();
    return ResultSet.FETCH_FORWARD;
  }

  @Override
  public void setFetchSize(int rows) throws SQLException {
    checkOpen();
    if (rows < 0) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_ARGUMENT, "Fetch size must be >= 0, found [" + rows + "]");
    }
    fetchSize = rows;
  }

  @Override
  public int getFetchSize() throws SQLException {
    checkOpen();
    return fetchSize;
  }

  @Override
  public int getResultSetConcurrency() throws SQLException {
    checkOpen();
    return ResultSet.CONCUR_READ_ONLY;
  }

  @Override
  public int getResultSetType() throws SQLException {
    checkOpen();
    return ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public int getResultSetHoldability() throws SQLException {
    checkOpen();
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public Connection getConnection() throws SQLException {
    checkOpen();
    return connection;
  }

  @Override
  public void setPoolable(boolean poolable) throws SQLException {
    checkOpen();
    this.poolable = poolable;
  }

  @Override
  public boolean isPoolable() throws SQLException {
    checkOpen();
    return poolable;
  }

  /**
   * Cairn's own: where this statement's executions report their progress (CREATE INDEX and ALTER
   * INDEX ... REBUILD report the rows indexed, at most once per the listener's interval, then once
   * at the end); null (the default): the JVM's default ({@link ProgressLog}: the SLF4J logger
   * {@value ProgressLog#LOGGER_NAME} at INFO). Reached with {@code
   * statement.unwrap(CairnStatement.class)}; takes effect from the next execution.
   */
  public void setProgressListener(ProgressListener listener) throws SQLException {
    checkOpen();
    this.progressListener = listener;
  }

  /** The listener set with {@link #setProgressListener}; null when none. */
  public ProgressListener getProgressListener() {
    return progressListener;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw JdbcErrors.error(
        ErrorCode.INVALID_ARGUMENT, "Not a wrapper for [" + iface.getName() + "]");
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
