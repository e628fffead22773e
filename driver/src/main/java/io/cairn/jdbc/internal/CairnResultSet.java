package io.cairn.jdbc.internal;

import io.cairn.core.SuppressForbidden;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import io.cairn.jdbc.internal.engine.ColumnInfo;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.jdbc.internal.engine.ResultCursor;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A forward-only, read-only result set over a {@link ResultCursor}. Query results and the in-memory
 * result sets of DatabaseMetaData use this same class. The cursor is closed when the rows run out,
 * when {@code maxRows} is reached and when the result set is closed.
 */
public final class CairnResultSet extends ReadOnlyResultSetBase {
  private final CairnStatement statement;
  private final List<ColumnInfo> columns;
  private final ResultCursor cursor;
  private final long maxRows;
  private final ExecutionControl control;

  private Object[] row;
  private Object[] peeked;
  private boolean peekedEnd;
  private long rowNumber;
  private boolean afterLast;
  private boolean failed;
  private boolean cursorClosed;
  private boolean closed;
  private boolean wasNull;
  private int fetchSize;
  private SQLWarning warnings;

  /** How many of the cursor's warnings are in {@link #warnings} already (or were cleared). */
  private int cursorWarnings;

  /**
   * @param statement the statement that produced the rows, or null (metadata result sets)
   * @param maxRows at most this many rows are returned; 0 means no limit
   * @param control the execution's control, checked before each fetch; null for in-memory rows
   */
  public CairnResultSet(
      CairnStatement statement,
      List<ColumnInfo> columns,
      ResultCursor cursor,
      long maxRows,
      ExecutionControl control) {
    this.statement = statement;
    this.columns = List.copyOf(columns);
    this.cursor = cursor;
    this.maxRows = maxRows;
    this.control = control;
  }

  /** An in-memory result set, e.g. for DatabaseMetaData. */
  public static CairnResultSet ofRows(List<ColumnInfo> columns, List<Object[]> rows) {
    return new CairnResultSet(null, columns, new ListResultCursor(rows), 0, null);
  }

  List<ColumnInfo> columns() {
    return columns;
  }

  ExecutionControl control() {
    return control;
  }

  // ---------------------------------------------------------------------------------------------
  // Navigation

  @Override
  public boolean next() throws SQLException {
    checkOpen();
    if (failed) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_CURSOR_STATE, "The result set failed earlier; no more rows");
    }
    if (afterLast) {
      return false;
    }
    Object[] next = fetch();
    if (next == null) {
      row = null;
      afterLast = true;
      return false;
    }
    row = next;
    rowNumber++;
    return true;
  }

  private Object[] fetch() throws SQLException {
    if (peeked != null || peekedEnd) {
      Object[] p = peeked;
      peeked = null;
      peekedEnd = false;
      return p;
    }
    if (cursorClosed || (maxRows > 0 && rowNumber >= maxRows)) {
      closeCursor();
      return null;
    }
    Object[] next;
    try {
      if (control != null) {
        control.check();
      }
      next = cursor.next();
    } catch (RuntimeException | Error e) { // no Error leaves JDBC (JdbcErrors)
      failed = true;
      row = null;
      closeCursorQuietly(e);
      throw JdbcErrors.toSqlException(e);
    }
    if (next == null) {
      closeCursor();
      return null;
    }
    if (next.length != columns.size()) {
      failed = true;
      closeCursor();
      throw JdbcErrors.error(
          ErrorCode.INTERNAL_ERROR,
          "Row has ["
              + next.length
              + "] values, expected ["
              + columns.size()
              + "] (one per column)");
    }
    return next;
  }

  /** Reads one row ahead (copying the current row, since a cursor may reuse its array). */
  private void peek() throws SQLException {
    if (peeked != null || peekedEnd || afterLast) {
      return;
    }
    if (row != null) {
      row = row.clone();
    }
    Object[] next = fetch();
    if (next == null) {
      peekedEnd = true;
    } else {
      peeked = next.clone();
    }
  }

  private void closeCursor() throws SQLException {
    if (!cursorClosed) {
      cursorClosed = true;
      try {
        cursor.close();
      } catch (RuntimeException | Error e) {
        throw JdbcErrors.toSqlException(e);
      } finally {
        if (control != null) {
          control.finish();
        }
      }
    }
  }

  private void closeCursorQuietly(Throwable primary) {
    try {
      closeCursor();
    } catch (SQLException | RuntimeException e) {
      primary.addSuppressed(e);
    }
  }

  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    row = null;
    peeked = null;
    try {
      closeCursor();
    } finally {
      if (statement != null) {
        statement.resultSetClosed(this);
      }
    }
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  void checkOpen() throws SQLException {
    if (closed) {
      throw JdbcErrors.error(ErrorCode.OBJECT_CLOSED, "The result set is closed");
    }
  }

  @Override
  public boolean isBeforeFirst() throws SQLException {
    checkOpen();
    if (rowNumber > 0 || afterLast) {
      return false;
    }
    peek();
    return peeked != null;
  }

  @Override
  public boolean isAfterLast() throws SQLException {
    checkOpen();
    return afterLast && rowNumber > 0;
  }

  @Override
  public boolean isFirst() throws SQLException {
    checkOpen();
    return rowNumber == 1 && row != null;
  }

  @Override
  public boolean isLast() throws SQLException {
    checkOpen();
    if (row == null) {
      return false;
    }
    peek();
    return peekedEnd;
  }

  @Override
  public int getRow() throws SQLException {
    checkOpen();
    return row == null ? 0 : (int) Math.min(rowNumber, Integer.MAX_VALUE);
  }

  @Override
  public void beforeFirst() throws SQLException {
    throw forwardOnly("beforeFirst");
  }

  @Override
  public void afterLast() throws SQLException {
    throw forwardOnly("afterLast");
  }

  @Override
  public boolean first() throws SQLException {
    throw forwardOnly("first");
  }

  @Override
  public boolean last() throws SQLException {
    throw forwardOnly("last");
  }

  @Override
  public boolean absolute(int row) throws SQLException {
    throw forwardOnly("absolute");
  }

  @Override
  public boolean relative(int rows) throws SQLException {
    throw forwardOnly("relative");
  }

  @Override
  public boolean previous() throws SQLException {
    throw forwardOnly("previous");
  }

  private SQLException forwardOnly(String method) throws SQLException {
    checkOpen();
    return JdbcErrors.notSupported(method + " on a TYPE_FORWARD_ONLY result set");
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
  public int getType() throws SQLException {
    checkOpen();
    return ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public int getConcurrency() throws SQLException {
    checkOpen();
    return ResultSet.CONCUR_READ_ONLY;
  }

  @Override
  public int getHoldability() throws SQLException {
    checkOpen();
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public Statement getStatement() throws SQLException {
    checkOpen();
    return statement;
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    checkOpen();
    List<String> notes = cursor.warnings();
    for (; cursorWarnings < notes.size(); cursorWarnings++) {
      SQLWarning warning = new SQLWarning(notes.get(cursorWarnings), "01000");
      if (warnings == null) {
        warnings = warning;
      } else {
        warnings.setNextWarning(warning);
      }
    }
    return warnings;
  }

  @Override
  public void clearWarnings() throws SQLException {
    checkOpen();
    warnings = null;
    cursorWarnings = cursor.warnings().size();
  }

  @Override
  public String getCursorName() throws SQLException {
    checkOpen();
    throw JdbcErrors.notSupported("named cursors");
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    checkOpen();
    return new CairnResultSetMetaData(columns);
  }

  @Override
  public int findColumn(String label) throws SQLException {
    checkOpen();
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).label().equalsIgnoreCase(label)) {
        return i + 1;
      }
    }
    List<String> labels = new ArrayList<>(columns.size());
    for (ColumnInfo c : columns) {
      labels.add(c.label());
    }
    throw JdbcErrors.error(
        ErrorCode.COLUMN_NOT_FOUND,
        "Column [" + label + "] not found in the result; its columns are " + labels);
  }

  @Override
  public boolean wasNull() throws SQLException {
    checkOpen();
    return wasNull;
  }

  // ---------------------------------------------------------------------------------------------
  // Values

  /** The raw value at a 1-based column of the current row; sets {@link #wasNull}. */
  private Object value(int index) throws SQLException {
    checkOpen();
    if (index < 1 || index > columns.size()) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_PARAMETER_INDEX,
          "Column index out of range: expected 1.." + columns.size() + ", found [" + index + "]");
    }
    if (row == null) {
      throw JdbcErrors.error(
          ErrorCode.INVALID_CURSOR_STATE,
          afterLast
              ? "No current row: the result set is after its last row"
              : "No current row: call next() first");
    }
    Object v = row[index - 1];
    wasNull = v == null;
    return v;
  }

  private DataType type(int index) {
    return columns.get(index - 1).type();
  }

  /**
   * How messages name column {@code index}; made once per column (the getters pass it on every
   * call, and 6 M rows of 16 columns would otherwise build 96 M strings).
   */
  private String what(int index) {
    if (whats == null) {
      whats = new String[columns.size()];
    }
    String what = whats[index - 1];
    if (what == null) {
      what = "column " + index + " [" + columns.get(index - 1).label() + "]";
      whats[index - 1] = what;
    }
    return what;
  }

  /** {@link #what}'s names, by column index - 1; null until the first. */
  private String[] whats;

  @Override
  public String getString(int index) throws SQLException {
    Object v = value(index);
    return v == null ? null : JdbcValues.toStringValue(v, type(index));
  }

  @Override
  public boolean getBoolean(int index) throws SQLException {
    Object v = value(index);
    return v != null && JdbcValues.toBooleanValue(v, DataType.BOOLEAN, what(index));
  }

  @Override
  public byte getByte(int index) throws SQLException {
    Object v = value(index);
    return v == null
        ? 0
        : (byte)
            JdbcValues.toLong(
                v, DataType.TINYINT, what(index), Byte.MIN_VALUE, Byte.MAX_VALUE, true);
  }

  @Override
  public short getShort(int index) throws SQLException {
    Object v = value(index);
    return v == null
        ? 0
        : (short)
            JdbcValues.toLong(
                v, DataType.SMALLINT, what(index), Short.MIN_VALUE, Short.MAX_VALUE, true);
  }

  @Override
  public int getInt(int index) throws SQLException {
    Object v = value(index);
    if (v instanceof Integer i) {
      return i; // the common case, without the column's name made for messages
    }
    return v == null
        ? 0
        : (int)
            JdbcValues.toLong(
                v, DataType.INTEGER, what(index), Integer.MIN_VALUE, Integer.MAX_VALUE, true);
  }

  @Override
  public long getLong(int index) throws SQLException {
    Object v = value(index);
    if (v instanceof Long l) {
      return l;
    }
    return v == null
        ? 0
        : JdbcValues.toLong(v, DataType.BIGINT, what(index), Long.MIN_VALUE, Long.MAX_VALUE, true);
  }

  @Override
  public float getFloat(int index) throws SQLException {
    Object v = value(index);
    return v == null ? 0 : JdbcValues.toFloat(v, DataType.FLOAT, what(index));
  }

  @Override
  public double getDouble(int index) throws SQLException {
    Object v = value(index);
    if (v instanceof Double d) {
      return d;
    }
    return v == null ? 0 : JdbcValues.toDouble(v, DataType.DOUBLE, what(index));
  }

  @Override
  public BigDecimal getBigDecimal(int index) throws SQLException {
    Object v = value(index);
    if (v instanceof BigDecimal d) {
      return d;
    }
    return v == null ? null : JdbcValues.toBigDecimal(v, DataType.decimal(38, 0), what(index));
  }

  @Override
  @Deprecated
  public BigDecimal getBigDecimal(int index, int scale) throws SQLException {
    BigDecimal d = getBigDecimal(index);
    return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
  }

  @Override
  public byte[] getBytes(int index) throws SQLException {
    Object v = value(index);
    return v == null ? null : JdbcValues.toBytes(v, DataType.VARBINARY, what(index));
  }

  @Override
  public Date getDate(int index) throws SQLException {
    LocalDate d = localDate(index);
    return d == null ? null : Date.valueOf(d);
  }

  @Override
  public Date getDate(int index, Calendar calendar) throws SQLException {
    LocalDate d = localDate(index);
    return d == null ? null : calendar == null ? Date.valueOf(d) : JdbcValues.dateIn(d, calendar);
  }

  @Override
  public Time getTime(int index) throws SQLException {
    LocalTime t = localTime(index);
    return t == null ? null : Time.valueOf(t);
  }

  @Override
  public Time getTime(int index, Calendar calendar) throws SQLException {
    LocalTime t = localTime(index);
    return t == null ? null : calendar == null ? Time.valueOf(t) : JdbcValues.timeIn(t, calendar);
  }

  @Override
  public Timestamp getTimestamp(int index) throws SQLException {
    LocalDateTime t = localDateTime(index);
    return t == null ? null : Timestamp.valueOf(t);
  }

  @Override
  public Timestamp getTimestamp(int index, Calendar calendar) throws SQLException {
    LocalDateTime t = localDateTime(index);
    return t == null
        ? null
        : calendar == null ? Timestamp.valueOf(t) : JdbcValues.timestampIn(t, calendar);
  }

  private LocalDate localDate(int index) throws SQLException {
    Object v = value(index);
    if (v instanceof LocalDate d) {
      return d;
    }
    return v == null ? null : JdbcValues.toLocalDate(v, DataType.DATE, what(index));
  }

  private LocalTime localTime(int index) throws SQLException {
    Object v = value(index);
    return v == null ? null : JdbcValues.toLocalTime(v, DataType.TIME, what(index));
  }

  private LocalDateTime localDateTime(int index) throws SQLException {
    Object v = value(index);
    return v == null ? null : JdbcValues.toLocalDateTime(v, DataType.TIMESTAMP, what(index));
  }

  @Override
  public Object getObject(int index) throws SQLException {
    Object v = value(index);
    if (v == null) {
      return null;
    }
    TypeName name = type(index).name();
    return switch (name) {
      case TINYINT, SMALLINT, INTEGER -> getInt(index);
      case BIGINT, INTERVAL_YEAR_MONTH, INTERVAL_DAY_TIME -> getLong(index);
      case FLOAT -> getFloat(index);
      case DOUBLE -> getDouble(index);
      case BOOLEAN -> getBoolean(index);
      case DECIMAL -> getBigDecimal(index);
      case CHAR, VARCHAR -> getString(index);
      case VARBINARY -> getBytes(index);
      case DATE -> getDate(index);
      case TIME -> getTime(index);
      case TIMESTAMP -> getTimestamp(index);
      case NULL -> v;
    };
  }

  @Override
  public <T> T getObject(int index, Class<T> type) throws SQLException {
    if (type == null) {
      throw JdbcErrors.error(ErrorCode.INVALID_ARGUMENT, "getObject: the class is null");
    }
    Object v = value(index);
    if (v == null) {
      return null;
    }
    Object result;
    if (type == String.class) {
      result = getString(index);
    } else if (type == Boolean.class) {
      result = getBoolean(index);
    } else if (type == Byte.class) {
      result = getByte(index);
    } else if (type == Short.class) {
      result = getShort(index);
    } else if (type == Integer.class) {
      result = getInt(index);
    } else if (type == Long.class) {
      result = getLong(index);
    } else if (type == Float.class) {
      result = getFloat(index);
    } else if (type == Double.class) {
      result = getDouble(index);
    } else if (type == BigDecimal.class) {
      result = getBigDecimal(index);
    } else if (type == BigInteger.class) {
      result = getBigDecimal(index).toBigInteger();
    } else if (type == byte[].class) {
      result = getBytes(index);
    } else if (type == LocalDate.class) {
      result = localDate(index);
    } else if (type == LocalTime.class) {
      result = localTime(index);
    } else if (type == LocalDateTime.class) {
      result = localDateTime(index);
    } else if (type == Date.class) {
      result = getDate(index);
    } else if (type == Time.class) {
      result = getTime(index);
    } else if (type == Timestamp.class || type == java.util.Date.class) {
      result = getTimestamp(index);
    } else if (type == Object.class) {
      result = getObject(index);
    } else {
      throw JdbcErrors.error(
          ErrorCode.INVALID_CAST,
          "Cannot convert "
              + what(index)
              + " of type "
              + type(index).sql()
              + " to class ["
              + type.getName()
              + "]");
    }
    return type.cast(result);
  }

  @Override
  public Object getObject(int index, Map<String, Class<?>> map) throws SQLException {
    if (map != null && !map.isEmpty()) {
      checkOpen();
      throw JdbcErrors.notSupported("custom type maps");
    }
    return getObject(index);
  }

  @Override
  public Reader getCharacterStream(int index) throws SQLException {
    String s = getString(index);
    return s == null ? null : new StringReader(s);
  }

  @Override
  public InputStream getBinaryStream(int index) throws SQLException {
    byte[] b = getBytes(index);
    return b == null ? null : new ByteArrayInputStream(b);
  }

  @Override
  public InputStream getAsciiStream(int index) throws SQLException {
    String s = getString(index);
    return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
  }

  @Override
  @Deprecated
  public InputStream getUnicodeStream(int index) throws SQLException {
    checkOpen();
    throw JdbcErrors.notSupported("getUnicodeStream (deprecated); use getCharacterStream");
  }

  @Override
  public String getNString(int index) throws SQLException {
    return getString(index);
  }

  @Override
  public Reader getNCharacterStream(int index) throws SQLException {
    return getCharacterStream(index);
  }

  @Override
  public Ref getRef(int index) throws SQLException {
    throw unsupportedType("REF");
  }

  @Override
  public Blob getBlob(int index) throws SQLException {
    throw unsupportedType("BLOB");
  }

  @Override
  public Clob getClob(int index) throws SQLException {
    throw unsupportedType("CLOB");
  }

  @Override
  public NClob getNClob(int index) throws SQLException {
    throw unsupportedType("NCLOB");
  }

  @Override
  public Array getArray(int index) throws SQLException {
    throw unsupportedType("ARRAY");
  }

  @Override
  public URL getURL(int index) throws SQLException {
    throw unsupportedType("DATALINK (URL)");
  }

  @Override
  public RowId getRowId(int index) throws SQLException {
    throw unsupportedType("ROWID");
  }

  @Override
  public SQLXML getSQLXML(int index) throws SQLException {
    throw unsupportedType("SQLXML");
  }

  private SQLException unsupportedType(String type) throws SQLException {
    checkOpen();
    return JdbcErrors.notSupported(type + " values");
  }

  // ---------------------------------------------------------------------------------------------
  // By label

  @Override
  public String getString(String label) throws SQLException {
    return getString(findColumn(label));
  }

  @Override
  public boolean getBoolean(String label) throws SQLException {
    return getBoolean(findColumn(label));
  }

  @Override
  public byte getByte(String label) throws SQLException {
    return getByte(findColumn(label));
  }

  @Override
  public short getShort(String label) throws SQLException {
    return getShort(findColumn(label));
  }

  @Override
  public int getInt(String label) throws SQLException {
    return getInt(findColumn(label));
  }

  @Override
  public long getLong(String label) throws SQLException {
    return getLong(findColumn(label));
  }

  @Override
  public float getFloat(String label) throws SQLException {
    return getFloat(findColumn(label));
  }

  @Override
  public double getDouble(String label) throws SQLException {
    return getDouble(findColumn(label));
  }

  @Override
  @Deprecated
  @SuppressForbidden(reason = "JDBC requires the deprecated by-label form; it delegates by index")
  public BigDecimal getBigDecimal(String label, int scale) throws SQLException {
    return getBigDecimal(findColumn(label), scale);
  }

  @Override
  public BigDecimal getBigDecimal(String label) throws SQLException {
    return getBigDecimal(findColumn(label));
  }

  @Override
  public byte[] getBytes(String label) throws SQLException {
    return getBytes(findColumn(label));
  }

  @Override
  public Date getDate(String label) throws SQLException {
    return getDate(findColumn(label));
  }

  @Override
  public Date getDate(String label, Calendar calendar) throws SQLException {
    return getDate(findColumn(label), calendar);
  }

  @Override
  public Time getTime(String label) throws SQLException {
    return getTime(findColumn(label));
  }

  @Override
  public Time getTime(String label, Calendar calendar) throws SQLException {
    return getTime(findColumn(label), calendar);
  }

  @Override
  public Timestamp getTimestamp(String label) throws SQLException {
    return getTimestamp(findColumn(label));
  }

  @Override
  public Timestamp getTimestamp(String label, Calendar calendar) throws SQLException {
    return getTimestamp(findColumn(label), calendar);
  }

  @Override
  public Object getObject(String label) throws SQLException {
    return getObject(findColumn(label));
  }

  @Override
  public <T> T getObject(String label, Class<T> type) throws SQLException {
    return getObject(findColumn(label), type);
  }

  @Override
  public Object getObject(String label, Map<String, Class<?>> map) throws SQLException {
    return getObject(findColumn(label), map);
  }

  @Override
  public InputStream getAsciiStream(String label) throws SQLException {
    return getAsciiStream(findColumn(label));
  }

  @Override
  @Deprecated
  @SuppressForbidden(reason = "JDBC requires the deprecated by-label form; it delegates by index")
  public InputStream getUnicodeStream(String label) throws SQLException {
    return getUnicodeStream(findColumn(label));
  }

  @Override
  public InputStream getBinaryStream(String label) throws SQLException {
    return getBinaryStream(findColumn(label));
  }

  @Override
  public Reader getCharacterStream(String label) throws SQLException {
    return getCharacterStream(findColumn(label));
  }

  @Override
  public String getNString(String label) throws SQLException {
    return getNString(findColumn(label));
  }

  @Override
  public Reader getNCharacterStream(String label) throws SQLException {
    return getNCharacterStream(findColumn(label));
  }

  @Override
  public Ref getRef(String label) throws SQLException {
    return getRef(findColumn(label));
  }

  @Override
  public Blob getBlob(String label) throws SQLException {
    return getBlob(findColumn(label));
  }

  @Override
  public Clob getClob(String label) throws SQLException {
    return getClob(findColumn(label));
  }

  @Override
  public NClob getNClob(String label) throws SQLException {
    return getNClob(findColumn(label));
  }

  @Override
  public Array getArray(String label) throws SQLException {
    return getArray(findColumn(label));
  }

  @Override
  public URL getURL(String label) throws SQLException {
    return getURL(findColumn(label));
  }

  @Override
  public RowId getRowId(String label) throws SQLException {
    return getRowId(findColumn(label));
  }

  @Override
  public SQLXML getSQLXML(String label) throws SQLException {
    return getSQLXML(findColumn(label));
  }

  // ---------------------------------------------------------------------------------------------
  // Wrapper

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

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT, "CairnResultSet[columns=%d, row=%d]", columns.size(), rowNumber);
  }
}
