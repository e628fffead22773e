package io.cairn.jdbc.internal;

import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import io.cairn.jdbc.internal.engine.ParameterInfo;
import io.cairn.jdbc.internal.engine.PreparedCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.Collections;
import java.util.List;

/**
 * A statement prepared once through {@code Session.prepare} and executed many times. Each value set
 * is converted at once to the Java class its parameter's type expects, so conversion errors name
 * the parameter and happen where the value is set.
 */
public final class CairnPreparedStatement extends CairnStatement implements PreparedStatement {
  private static final Object UNSET = new Object();

  private final String sql;
  private PreparedCommand command;
  private List<ParameterInfo> parameterInfos;
  private final Object[] values;
  private final List<List<Object>> batch = new ArrayList<>();

  CairnPreparedStatement(CairnConnection connection, String sql) throws SQLException {
    super(connection);
    this.sql = sql;
    this.command = prepare(sql);
    command.keepJoinBuilds();
    discardPreparedControl(); // each execution has its own control and timeout
    this.parameterInfos = List.copyOf(command.parameters());
    this.values = new Object[parameterInfos.size()];
    Arrays.fill(values, UNSET);
  }

  String sql() {
    return sql;
  }

  /** Closes the statement and frees what its executions kept (their joins' build sides). */
  @Override
  public void close() throws SQLException {
    if (isClosed()) {
      return;
    }
    try {
      super.close();
    } finally {
      try {
        command.close();
      } catch (RuntimeException e) {
        throw JdbcErrors.toSqlException(e);
      }
    }
  }

  /**
   * The command to run: prepared again from the same text when its plan no longer fits the database
   * (a table it uses was dropped and created again or altered, or its data changed size
   * materially). The values already set are kept; they must still fit the parameters.
   */
  private PreparedCommand currentCommand() throws SQLException {
    boolean current;
    try {
      current = command.isCurrent();
    } catch (RuntimeException | Error e) { // no Error leaves JDBC (JdbcErrors)
      throw JdbcErrors.toSqlException(e);
    }
    if (current) {
      return command;
    }
    PreparedCommand fresh = prepare(sql); // the next run continues under its control
    if (fresh.parameters().size() != values.length) {
      discardPreparedControl();
      throw JdbcErrors.error(
          ErrorCode.PARAMETER_NOT_SET,
          "The statement's parameters changed with its tables: expected ["
              + values.length
              + "] parameters, found ["
              + fresh.parameters().size()
              + "]; prepare the statement again");
    }
    command.close();
    fresh.keepJoinBuilds();
    command = fresh;
    parameterInfos = List.copyOf(fresh.parameters());
    return command;
  }

  // ---------------------------------------------------------------------------------------------
  // Execution

  private List<Object> boundValues() throws SQLException {
    for (int i = 0; i < values.length; i++) {
      if (values[i] == UNSET) {
        throw JdbcErrors.error(
            ErrorCode.PARAMETER_NOT_SET,
            "Parameter [" + (i + 1) + "] is not set; set all " + values.length + " parameters");
      }
    }
    return Collections.unmodifiableList(new ArrayList<>(Arrays.asList(values)));
  }

  @Override
  public ResultSet executeQuery() throws SQLException {
    beginExecution();
    PreparedCommand command = currentCommand();
    requireQuery(command);
    run(command, boundValues());
    return getResultSet();
  }

  @Override
  public long executeLargeUpdate() throws SQLException {
    beginExecution();
    PreparedCommand command = currentCommand();
    requireUpdate(command);
    run(command, boundValues());
    return getLargeUpdateCount();
  }

  @Override
  public int executeUpdate() throws SQLException {
    return toIntCount(executeLargeUpdate());
  }

  @Override
  public boolean execute() throws SQLException {
    beginExecution();
    return run(currentCommand(), boundValues());
  }

  @Override
  public void addBatch() throws SQLException {
    checkOpen();
    batch.add(boundValues());
  }

  @Override
  public void clearBatch() throws SQLException {
    checkOpen();
    batch.clear();
  }

  @Override
  public long[] executeLargeBatch() throws SQLException {
    checkOpen();
    List<List<Object>> sets = List.copyOf(batch);
    batch.clear();
    PreparedCommand command = currentCommand();
    if (sets.size() > 1 && command.runsBatches()) {
      return runBatch(command, sets); // one write for all the sets
    }
    long[] counts = new long[sets.size()];
    for (int i = 0; i < sets.size(); i++) {
      try {
        counts[i] = executeBatchEntry(currentCommand(), sets.get(i), i);
      } catch (SQLException e) {
        throw batchFailure(e, Arrays.copyOf(counts, i));
      }
    }
    return counts;
  }

  @Override
  public int[] executeBatch() throws SQLException {
    return toIntCounts(executeLargeBatch());
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    checkOpen();
    return command.kind() == PreparedCommand.Kind.QUERY
        ? new CairnResultSetMetaData(command.columns())
        : null;
  }

  @Override
  public ParameterMetaData getParameterMetaData() throws SQLException {
    checkOpen();
    return new CairnParameterMetaData(parameterInfos);
  }

  // A PreparedStatement runs its own SQL: the methods taking SQL text must throw (JDBC).

  private SQLException sqlTextNotAllowed() throws SQLException {
    checkOpen();
    return JdbcErrors.notSupported(
        "passing SQL text to a PreparedStatement's execute methods; use execute()");
  }

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    throw sqlTextNotAllowed();
  }

  @Override
  public int executeUpdate(String sql) throws SQLException {
    throw sqlTextNotAllowed();
  }

  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    throw sqlTextNotAllowed();
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    throw sqlTextNotAllowed();
  }

  @Override
  public void addBatch(String sql) throws SQLException {
    throw sqlTextNotAllowed();
  }

  // ---------------------------------------------------------------------------------------------
  // Parameters

  private DataType parameterType(int index) throws SQLException {
    checkOpen();
    if (index < 1 || index > values.length) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_PARAMETER_INDEX,
          "Parameter index out of range: expected 1.." + values.length + ", found [" + index + "]");
    }
    return parameterInfos.get(index - 1).type();
  }

  /** "parameter 1", ... made once: a batch of many rows sets each parameter of each row. */
  private static final String[] PARAMETER_NAMES = new String[64];

  static {
    for (int i = 0; i < PARAMETER_NAMES.length; i++) {
      PARAMETER_NAMES[i] = "parameter " + i;
    }
  }

  /** How messages name parameter {@code index} (1-based). */
  private static String parameterName(int index) {
    return index >= 0 && index < PARAMETER_NAMES.length
        ? PARAMETER_NAMES[index]
        : "parameter " + index;
  }

  private void set(int index, Object value) throws SQLException {
    DataType type = parameterType(index);
    values[index - 1] = JdbcValues.toParameter(value, type, parameterName(index));
  }

  @Override
  public void clearParameters() throws SQLException {
    checkOpen();
    Arrays.fill(values, UNSET);
  }

  /** A NULL is a NULL whatever type code comes with it (frameworks pass OTHER, NULL, ...). */
  @Override
  public void setNull(int index, int sqlType) throws SQLException {
    parameterType(index);
    values[index - 1] = null;
  }

  @Override
  public void setNull(int index, int sqlType, String typeName) throws SQLException {
    setNull(index, sqlType);
  }

  @Override
  public void setBoolean(int index, boolean x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setByte(int index, byte x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setShort(int index, short x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setInt(int index, int x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setLong(int index, long x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setFloat(int index, float x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setDouble(int index, double x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setBigDecimal(int index, BigDecimal x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setString(int index, String x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setNString(int index, String value) throws SQLException {
    set(index, value);
  }

  @Override
  public void setBytes(int index, byte[] x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setDate(int index, Date x) throws SQLException {
    set(index, x == null ? null : x.toLocalDate());
  }

  @Override
  public void setTime(int index, Time x) throws SQLException {
    set(index, x == null ? null : x.toLocalTime());
  }

  @Override
  public void setTimestamp(int index, Timestamp x) throws SQLException {
    set(index, x == null ? null : x.toLocalDateTime());
  }

  @Override
  public void setDate(int index, Date x, Calendar cal) throws SQLException {
    set(index, x == null ? null : cal == null ? x.toLocalDate() : JdbcValues.localDate(x, cal));
  }

  @Override
  public void setTime(int index, Time x, Calendar cal) throws SQLException {
    set(index, x == null ? null : cal == null ? x.toLocalTime() : JdbcValues.localTime(x, cal));
  }

  @Override
  public void setTimestamp(int index, Timestamp x, Calendar cal) throws SQLException {
    set(
        index,
        x == null ? null : cal == null ? x.toLocalDateTime() : JdbcValues.localDateTime(x, cal));
  }

  @Override
  public void setObject(int index, Object x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setObject(int index, Object x, int targetSqlType) throws SQLException {
    setObject(index, x, targetSqlType, -1);
  }

  /**
   * Converts {@code x} to the target JDBC type first (as JDBC asks), then to the parameter's type.
   * For DECIMAL/NUMERIC targets, {@code scaleOrLength} &gt;= 0 is the scale.
   */
  @Override
  public void setObject(int index, Object x, int targetSqlType, int scaleOrLength)
      throws SQLException {
    DataType parameterType = parameterType(index);
    TypeName target = JdbcTypes.typeName(targetSqlType);
    String what = parameterName(index);
    Object v = JdbcValues.toParameter(x, DataType.of(target), what);
    if (v instanceof BigDecimal d && scaleOrLength >= 0) {
      v = d.setScale(scaleOrLength, RoundingMode.HALF_UP);
    }
    values[index - 1] = JdbcValues.toParameter(v, parameterType, what);
  }

  @Override
  public void setObject(int index, Object x, SQLType targetSqlType, int scaleOrLength)
      throws SQLException {
    setObject(index, x, vendorTypeNumber(targetSqlType), scaleOrLength);
  }

  @Override
  public void setObject(int index, Object x, SQLType targetSqlType) throws SQLException {
    setObject(index, x, vendorTypeNumber(targetSqlType), -1);
  }

  private static int vendorTypeNumber(SQLType type) throws SQLException {
    if (type instanceof JDBCType t) {
      return t.getVendorTypeNumber();
    }
    throw JdbcErrors.notSupported("SQLType [" + type + "]: only java.sql.JDBCType");
  }

  @Override
  public void setAsciiStream(int index, InputStream x, int length) throws SQLException {
    setAsciiStream(index, x, (long) length);
  }

  @Override
  public void setAsciiStream(int index, InputStream x, long length) throws SQLException {
    parameterType(index);
    set(index, x == null ? null : new String(readBytes(x, length), StandardCharsets.US_ASCII));
  }

  @Override
  public void setAsciiStream(int index, InputStream x) throws SQLException {
    setAsciiStream(index, x, -1L);
  }

  @Override
  @Deprecated
  public void setUnicodeStream(int index, InputStream x, int length) throws SQLException {
    parameterType(index);
    throw JdbcErrors.notSupported("setUnicodeStream (deprecated); use setCharacterStream");
  }

  @Override
  public void setBinaryStream(int index, InputStream x, int length) throws SQLException {
    setBinaryStream(index, x, (long) length);
  }

  @Override
  public void setBinaryStream(int index, InputStream x, long length) throws SQLException {
    parameterType(index);
    set(index, x == null ? null : readBytes(x, length));
  }

  @Override
  public void setBinaryStream(int index, InputStream x) throws SQLException {
    setBinaryStream(index, x, -1L);
  }

  @Override
  public void setCharacterStream(int index, Reader reader, int length) throws SQLException {
    setCharacterStream(index, reader, (long) length);
  }

  @Override
  public void setCharacterStream(int index, Reader reader, long length) throws SQLException {
    parameterType(index);
    set(index, reader == null ? null : readChars(reader, length));
  }

  @Override
  public void setCharacterStream(int index, Reader reader) throws SQLException {
    setCharacterStream(index, reader, -1L);
  }

  @Override
  public void setNCharacterStream(int index, Reader value, long length) throws SQLException {
    setCharacterStream(index, value, length);
  }

  @Override
  public void setNCharacterStream(int index, Reader value) throws SQLException {
    setCharacterStream(index, value, -1L);
  }

  /** Reads {@code length} bytes (all when negative). */
  private static byte[] readBytes(InputStream in, long length) throws SQLException {
    try {
      if (length < 0) {
        return in.readAllBytes();
      }
      byte[] b = in.readNBytes(Math.toIntExact(length));
      if (b.length != length) {
        throw JdbcErrors.error(
            ErrorCode.INVALID_ARGUMENT,
            "Stream ended early: expected [" + length + "] bytes, found [" + b.length + "]");
      }
      return b;
    } catch (IOException | ArithmeticException e) {
      throw JdbcErrors.create(ErrorCode.IO_ERROR, "Cannot read the parameter stream: " + e, e);
    }
  }

  private static String readChars(Reader reader, long length) throws SQLException {
    try {
      StringBuilder sb = new StringBuilder();
      char[] buffer = new char[8192];
      long remaining = length < 0 ? Long.MAX_VALUE : length;
      while (remaining > 0) {
        int n = reader.read(buffer, 0, (int) Math.min(buffer.length, remaining));
        if (n < 0) {
          break;
        }
        sb.append(buffer, 0, n);
        remaining -= n;
      }
      if (length >= 0 && sb.length() != length) {
        throw JdbcErrors.error(
            ErrorCode.INVALID_ARGUMENT,
            "Reader ended early: expected [" + length + "] chars, found [" + sb.length() + "]");
      }
      return sb.toString();
    } catch (IOException e) {
      throw JdbcErrors.create(ErrorCode.IO_ERROR, "Cannot read the parameter reader: " + e, e);
    }
  }

  private SQLException unsupportedType(int index, String type) throws SQLException {
    parameterType(index);
    return JdbcErrors.notSupported(type + " parameters");
  }

  @Override
  public void setRef(int index, Ref x) throws SQLException {
    throw unsupportedType(index, "REF");
  }

  @Override
  public void setBlob(int index, Blob x) throws SQLException {
    throw unsupportedType(index, "BLOB");
  }

  @Override
  public void setBlob(int index, InputStream inputStream, long length) throws SQLException {
    throw unsupportedType(index, "BLOB");
  }

  @Override
  public void setBlob(int index, InputStream inputStream) throws SQLException {
    throw unsupportedType(index, "BLOB");
  }

  @Override
  public void setClob(int index, Clob x) throws SQLException {
    throw unsupportedType(index, "CLOB");
  }

  @Override
  public void setClob(int index, Reader reader, long length) throws SQLException {
    throw unsupportedType(index, "CLOB");
  }

  @Override
  public void setClob(int index, Reader reader) throws SQLException {
    throw unsupportedType(index, "CLOB");
  }

  @Override
  public void setNClob(int index, NClob value) throws SQLException {
    throw unsupportedType(index, "NCLOB");
  }

  @Override
  public void setNClob(int index, Reader reader, long length) throws SQLException {
    throw unsupportedType(index, "NCLOB");
  }

  @Override
  public void setNClob(int index, Reader reader) throws SQLException {
    throw unsupportedType(index, "NCLOB");
  }

  @Override
  public void setArray(int index, Array x) throws SQLException {
    throw unsupportedType(index, "ARRAY");
  }

  @Override
  public void setURL(int index, URL x) throws SQLException {
    throw unsupportedType(index, "DATALINK (URL)");
  }

  @Override
  public void setRowId(int index, RowId x) throws SQLException {
    throw unsupportedType(index, "ROWID");
  }

  @Override
  public void setSQLXML(int index, SQLXML xmlObject) throws SQLException {
    throw unsupportedType(index, "SQLXML");
  }

  @Override
  public String toString() {
    return "CairnPreparedStatement[" + sql + "]";
  }
}
