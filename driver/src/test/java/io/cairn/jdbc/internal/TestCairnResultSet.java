package io.cairn.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import io.cairn.jdbc.internal.engine.ColumnInfo;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.Properties;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestCairnResultSet {
  static final List<ColumnInfo> COLUMNS =
      List.of(
          column("B", DataType.BOOLEAN),
          column("TI", DataType.TINYINT),
          column("SI", DataType.SMALLINT),
          column("I", DataType.INTEGER),
          column("BI", DataType.BIGINT),
          column("F", DataType.FLOAT),
          column("D", DataType.DOUBLE),
          column("DEC", DataType.decimal(10, 2)),
          column("C", DataType.chars(3)),
          column("V", DataType.varchar(20)),
          column("BIN", DataType.VARBINARY),
          column("DT", DataType.DATE),
          column("TM", DataType.TIME),
          column("TS", DataType.TIMESTAMP),
          column("IV", DataType.of(TypeName.INTERVAL_DAY_TIME)));

  static final LocalDateTime TS = LocalDateTime.of(2024, 2, 29, 13, 45, 7, 120_000_000);

  static final Object[] ROW = {
    true,
    (byte) 7,
    (short) 300,
    70_000,
    5_000_000_000L,
    1.5f,
    2.25,
    new BigDecimal("12345.60"),
    "abc",
    "42",
    new byte[] {1, 2, (byte) 0xff},
    LocalDate.of(2024, 2, 29),
    LocalTime.of(13, 45, 7),
    TS,
    86_400_000L
  };

  static ColumnInfo column(String name, DataType type) {
    return new ColumnInfo(name, name, "S", "T", type);
  }

  TestingSession session;
  Connection connection;

  @BeforeEach
  void setUp() {
    session = new TestingSession();
    List<Object[]> rows = new ArrayList<>();
    rows.add(ROW.clone());
    rows.add(new Object[COLUMNS.size()]);
    session.query("SELECT ALL", COLUMNS, rows);
    connection = new CairnConnection(session, "jdbc:cairn:mem:test", new Properties());
  }

  @AfterEach
  void tearDown() throws SQLException {
    connection.close();
  }

  ResultSet firstRow() throws SQLException {
    ResultSet rs = connection.createStatement().executeQuery("SELECT ALL");
    assertThat(rs.next()).isTrue();
    return rs;
  }

  @Test
  void getObjectReturnsJdbcClasses() throws SQLException {
    ResultSet rs = firstRow();
    assertThat(rs.getObject(1)).isEqualTo(true);
    assertThat(rs.getObject(2)).isEqualTo(7);
    assertThat(rs.getObject(3)).isEqualTo(300);
    assertThat(rs.getObject(4)).isEqualTo(70_000);
    assertThat(rs.getObject(5)).isEqualTo(5_000_000_000L);
    assertThat(rs.getObject(6)).isEqualTo(1.5f);
    assertThat(rs.getObject(7)).isEqualTo(2.25);
    assertThat(rs.getObject(8)).isEqualTo(new BigDecimal("12345.60"));
    assertThat(rs.getObject(9)).isEqualTo("abc");
    assertThat((byte[]) rs.getObject(11)).containsExactly(1, 2, 0xff);
    assertThat(rs.getObject(12)).isEqualTo(Date.valueOf(LocalDate.of(2024, 2, 29)));
    assertThat(rs.getObject(13)).isEqualTo(Time.valueOf(LocalTime.of(13, 45, 7)));
    assertThat(rs.getObject(14)).isEqualTo(Timestamp.valueOf(TS));
    assertThat(rs.getObject(15)).isEqualTo(86_400_000L);
    ResultSetMetaData md = rs.getMetaData();
    for (int i = 1; i <= 14; i++) {
      assertThat(rs.getObject(i).getClass().getName())
          .as("class of column %s", i)
          .isEqualTo(md.getColumnClassName(i));
    }
  }

  @Test
  void getStringFormats() throws SQLException {
    ResultSet rs = firstRow();
    assertThat(rs.getString("b")).isEqualTo("true");
    assertThat(rs.getString("DEC")).isEqualTo("12345.60");
    assertThat(rs.getString("DT")).isEqualTo("2024-02-29");
    assertThat(rs.getString("TM")).isEqualTo("13:45:07");
    assertThat(rs.getString("TS")).isEqualTo("2024-02-29 13:45:07.12");
    assertThat(rs.getString("BIN")).isEqualTo("0102FF");
    assertThat(rs.getString("F")).isEqualTo("1.5");
    assertThat(rs.getNString("C")).isEqualTo("abc");
  }

  @Test
  void getStringOfTimestampWithDeclaredPrecisionPadsFraction() throws SQLException {
    session.query(
        "SELECT TS3",
        List.of(column("TS", new DataType(TypeName.TIMESTAMP, 3, 0, true))),
        List.<Object[]>of(new Object[] {LocalDateTime.of(2024, 1, 2, 3, 4, 5)}));
    ResultSet rs = connection.createStatement().executeQuery("SELECT TS3");
    rs.next();
    assertThat(rs.getString(1)).isEqualTo("2024-01-02 03:04:05.000");
  }

  @Test
  void numericGettersConvert() throws SQLException {
    ResultSet rs = firstRow();
    assertThat(rs.getLong("I")).isEqualTo(70_000L);
    assertThat(rs.getShort("TI")).isEqualTo((short) 7);
    assertThat(rs.getByte("TI")).isEqualTo((byte) 7);
    assertThat(rs.getDouble("F")).isEqualTo(1.5);
    assertThat(rs.getFloat("D")).isEqualTo(2.25f);
    assertThat(rs.getInt("DEC")).isEqualTo(12345);
    assertThat(rs.getLong("D")).isEqualTo(2L);
    assertThat(rs.getInt("V")).isEqualTo(42);
    assertThat(rs.getBigDecimal("V")).isEqualTo(new BigDecimal("42"));
    assertThat(rs.getBigDecimal("I")).isEqualTo(new BigDecimal("70000"));
    assertThat(rs.getBigDecimal("F")).isEqualTo(new BigDecimal("1.5"));
    assertThat(rs.getBoolean("TI")).isTrue();
    assertThat(rs.getInt("B")).isEqualTo(1);
    assertThat(rs.getObject("I", BigInteger.class)).isEqualTo(BigInteger.valueOf(70_000));
  }

  @SuppressWarnings("deprecation")
  @Test
  void getBigDecimalWithScaleRounds() throws SQLException {
    ResultSet rs = firstRow();
    assertThat(rs.getBigDecimal("DEC", 1)).isEqualTo(new BigDecimal("12345.6"));
    assertThat(rs.getBigDecimal(8, 0)).isEqualTo(new BigDecimal("12346"));
  }

  @Test
  void narrowingOutOfRangeIs22003() throws SQLException {
    ResultSet rs = firstRow();
    assertThatThrownBy(() -> rs.getInt("BI"))
        .isInstanceOf(SQLDataException.class)
        .hasMessageContaining("5000000000")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22003");
    assertThatThrownBy(() -> rs.getByte("SI"))
        .isInstanceOf(SQLDataException.class)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22003");
    assertThatThrownBy(() -> rs.getShort("I"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22003");
  }

  @Test
  void unparsableStringIs22018() throws SQLException {
    ResultSet rs = firstRow();
    assertThatThrownBy(() -> rs.getInt("C"))
        .isInstanceOf(SQLDataException.class)
        .hasMessageContaining("'abc'")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
    assertThatThrownBy(() -> rs.getDouble("C"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
    assertThatThrownBy(() -> rs.getBigDecimal("C"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
    assertThatThrownBy(() -> rs.getBoolean("C"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
    assertThatThrownBy(() -> rs.getBytes("C"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
    assertThatThrownBy(() -> rs.getDate("I"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
    assertThatThrownBy(() -> rs.getDate("C"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22007");
  }

  @Test
  void datetimeGettersAreZoneLess() throws SQLException {
    ResultSet rs = firstRow();
    assertThat(rs.getDate("DT").toLocalDate()).isEqualTo(LocalDate.of(2024, 2, 29));
    assertThat(rs.getDate("TS").toLocalDate()).isEqualTo(LocalDate.of(2024, 2, 29));
    assertThat(rs.getTime("TM").toLocalTime()).isEqualTo(LocalTime.of(13, 45, 7));
    assertThat(rs.getTime("TS").toLocalTime()).isEqualTo(LocalTime.of(13, 45, 7));
    assertThat(rs.getTimestamp("TS").toLocalDateTime()).isEqualTo(TS);
    assertThat(rs.getTimestamp("DT").toLocalDateTime())
        .isEqualTo(LocalDate.of(2024, 2, 29).atStartOfDay());
    assertThat(rs.getObject("DT", LocalDate.class)).isEqualTo(LocalDate.of(2024, 2, 29));
    assertThat(rs.getObject("TM", LocalTime.class)).isEqualTo(LocalTime.of(13, 45, 7));
    assertThat(rs.getObject("TS", LocalDateTime.class)).isEqualTo(TS);
    assertThat(rs.getObject("TS", LocalDate.class)).isEqualTo(LocalDate.of(2024, 2, 29));
  }

  @Test
  void calendarGettersUseTheCalendarZone() throws SQLException {
    ResultSet rs = firstRow();
    Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"));
    ZoneId zone = ZoneId.of("Asia/Tokyo");
    Timestamp t = rs.getTimestamp("TS", tokyo);
    assertThat(t.toInstant()).isEqualTo(TS.atZone(zone).toInstant());
    assertThat(t.getNanos()).isEqualTo(120_000_000);
    Date d = rs.getDate("DT", tokyo);
    assertThat(d.getTime())
        .isEqualTo(LocalDate.of(2024, 2, 29).atStartOfDay(zone).toInstant().toEpochMilli());
    Time tm = rs.getTime("TM", tokyo);
    assertThat(tm.getTime())
        .isEqualTo(
            LocalTime.of(13, 45, 7)
                .atDate(LocalDate.EPOCH)
                .atZone(zone)
                .toInstant()
                .toEpochMilli());
    assertThat(rs.getTimestamp("TS", null)).isEqualTo(Timestamp.valueOf(TS));
  }

  @Test
  void getObjectWithClass() throws SQLException {
    ResultSet rs = firstRow();
    assertThat(rs.getObject("I", Integer.class)).isEqualTo(70_000);
    assertThat(rs.getObject("I", Long.class)).isEqualTo(70_000L);
    assertThat(rs.getObject("I", String.class)).isEqualTo("70000");
    assertThat(rs.getObject("TI", Byte.class)).isEqualTo((byte) 7);
    assertThat(rs.getObject("SI", Short.class)).isEqualTo((short) 300);
    assertThat(rs.getObject("F", Float.class)).isEqualTo(1.5f);
    assertThat(rs.getObject("D", Double.class)).isEqualTo(2.25);
    assertThat(rs.getObject("B", Boolean.class)).isTrue();
    assertThat(rs.getObject("DEC", BigDecimal.class)).isEqualTo(new BigDecimal("12345.60"));
    assertThat(rs.getObject("BIN", byte[].class)).containsExactly(1, 2, 0xff);
    assertThat(rs.getObject("TS", Timestamp.class)).isEqualTo(Timestamp.valueOf(TS));
    assertThat(rs.getObject("I", Object.class)).isEqualTo(70_000);
    assertThatThrownBy(() -> rs.getObject("I", List.class))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
  }

  @Test
  void nullsAndWasNull() throws SQLException {
    ResultSet rs = firstRow();
    rs.getInt("I");
    assertThat(rs.wasNull()).isFalse();
    assertThat(rs.next()).isTrue();
    assertThat(rs.getInt("I")).isZero();
    assertThat(rs.wasNull()).isTrue();
    assertThat(rs.getBoolean("B")).isFalse();
    assertThat(rs.getDouble("D")).isZero();
    assertThat(rs.getString("V")).isNull();
    assertThat(rs.getBigDecimal("DEC")).isNull();
    assertThat(rs.getBytes("BIN")).isNull();
    assertThat(rs.getDate("DT")).isNull();
    assertThat(rs.getTimestamp("TS", Calendar.getInstance(TimeZone.getTimeZone("UTC")))).isNull();
    assertThat(rs.getObject("I")).isNull();
    assertThat(rs.getObject("I", Integer.class)).isNull();
    assertThat(rs.wasNull()).isTrue();
  }

  @Test
  void getBytesReturnsACopy() throws SQLException {
    ResultSet rs = firstRow();
    byte[] b = rs.getBytes("BIN");
    b[0] = 99;
    assertThat(rs.getBytes("BIN")[0]).isEqualTo((byte) 1);
  }

  @Test
  void findColumnIsCaseInsensitiveAndNamesTheColumns() throws SQLException {
    ResultSet rs = firstRow();
    assertThat(rs.findColumn("dec")).isEqualTo(8);
    assertThatThrownBy(() -> rs.findColumn("NOPE"))
        .isInstanceOf(SQLSyntaxErrorException.class)
        .hasMessageContaining("[NOPE]")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("42S22");
    assertThatThrownBy(() -> rs.getInt(0))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("07009");
    assertThatThrownBy(() -> rs.getInt(16))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("07009");
  }

  @Test
  void gettersOutsideARowAre24000() throws SQLException {
    ResultSet rs = connection.createStatement().executeQuery("SELECT ALL");
    assertThatThrownBy(() -> rs.getInt(1))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("24000");
    while (rs.next()) {
      // drain
    }
    assertThatThrownBy(() -> rs.getInt(1))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("24000");
  }

  @Test
  void positionAndCursorLifecycle() throws SQLException {
    ResultSet rs = connection.createStatement().executeQuery("SELECT ALL");
    assertThat(rs.isBeforeFirst()).isTrue();
    assertThat(rs.getRow()).isZero();
    assertThat(rs.next()).isTrue();
    assertThat(rs.isFirst()).isTrue();
    assertThat(rs.isLast()).isFalse();
    assertThat(rs.getInt("I")).isEqualTo(70_000);
    assertThat(rs.getRow()).isEqualTo(1);
    assertThat(rs.next()).isTrue();
    assertThat(rs.isLast()).isTrue();
    assertThat(rs.getRow()).isEqualTo(2);
    assertThat(rs.next()).isFalse();
    assertThat(rs.isAfterLast()).isTrue();
    assertThat(session.cursors.get(0).closed).as("exhausted cursor is closed").isTrue();
    assertThat(rs.next()).isFalse();
    assertThat(rs.isClosed()).isFalse();
    assertThat(rs.getType()).isEqualTo(ResultSet.TYPE_FORWARD_ONLY);
    assertThat(rs.getConcurrency()).isEqualTo(ResultSet.CONCUR_READ_ONLY);
    assertThat(rs.getHoldability()).isEqualTo(ResultSet.HOLD_CURSORS_OVER_COMMIT);
    rs.close();
    assertThat(session.cursors.get(0).closeCalls).isEqualTo(1);
  }

  @Test
  void emptyResultIsNeitherBeforeFirstNorAfterLast() throws SQLException {
    session.query("SELECT NONE", COLUMNS, List.of());
    ResultSet rs = connection.createStatement().executeQuery("SELECT NONE");
    assertThat(rs.isBeforeFirst()).isFalse();
    assertThat(rs.next()).isFalse();
    assertThat(rs.isAfterLast()).isFalse();
  }

  @Test
  void closedResultSetThrowsHy010() throws SQLException {
    Statement statement = connection.createStatement();
    ResultSet rs = statement.executeQuery("SELECT ALL");
    rs.close();
    rs.close();
    assertThat(rs.isClosed()).isTrue();
    assertThat(session.cursors.get(0).closed).isTrue();
    for (ThrowingCall call :
        List.<ThrowingCall>of(
            rs::next, () -> rs.getInt(1), rs::getMetaData, () -> rs.findColumn("I"), rs::wasNull)) {
      assertThatThrownBy(call::run)
          .isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("HY010");
    }
    assertThat(statement.getResultSet()).isNull();
  }

  @Test
  void readOnlyAndForwardOnlyOperationsAreNotSupported() throws SQLException {
    ResultSet rs = firstRow();
    assertThatThrownBy(() -> rs.updateInt(1, 3))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThatThrownBy(rs::insertRow).isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThatThrownBy(rs::previous).isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThatThrownBy(() -> rs.absolute(1)).isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThatThrownBy(() -> rs.getBlob(1)).isInstanceOf(SQLFeatureNotSupportedException.class);
    assertThatThrownBy(() -> rs.setFetchDirection(ResultSet.FETCH_REVERSE))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
    rs.setFetchSize(100);
    assertThat(rs.getFetchSize()).isEqualTo(100);
  }

  @Test
  void metaDataDescribesColumns() throws SQLException {
    ResultSetMetaData md = firstRow().getMetaData();
    assertThat(md.getColumnCount()).isEqualTo(15);
    int[] expected = {
      Types.BOOLEAN,
      Types.TINYINT,
      Types.SMALLINT,
      Types.INTEGER,
      Types.BIGINT,
      Types.REAL,
      Types.DOUBLE,
      Types.DECIMAL,
      Types.CHAR,
      Types.VARCHAR,
      Types.VARBINARY,
      Types.DATE,
      Types.TIME,
      Types.TIMESTAMP,
      Types.OTHER
    };
    int[] actual = new int[15];
    for (int i = 1; i <= 15; i++) {
      actual[i - 1] = md.getColumnType(i);
    }
    assertThat(Arrays.toString(actual)).isEqualTo(Arrays.toString(expected));
    assertThat(md.getColumnLabel(8)).isEqualTo("DEC");
    assertThat(md.getColumnName(8)).isEqualTo("DEC");
    assertThat(md.getTableName(8)).isEqualTo("T");
    assertThat(md.getSchemaName(8)).isEqualTo("S");
    assertThat(md.getCatalogName(8)).isEmpty();
    assertThat(md.getColumnTypeName(8)).isEqualTo("DECIMAL");
    assertThat(md.getColumnTypeName(6)).isEqualTo("FLOAT");
    assertThat(md.getPrecision(8)).isEqualTo(10);
    assertThat(md.getScale(8)).isEqualTo(2);
    assertThat(md.getPrecision(10)).isEqualTo(20);
    assertThat(md.getColumnDisplaySize(10)).isEqualTo(20);
    assertThat(md.getPrecision(4)).isEqualTo(10);
    assertThat(md.isSigned(4)).isTrue();
    assertThat(md.isSigned(10)).isFalse();
    assertThat(md.isCaseSensitive(10)).isTrue();
    assertThat(md.isCaseSensitive(4)).isFalse();
    assertThat(md.isNullable(4)).isEqualTo(ResultSetMetaData.columnNullable);
    assertThat(md.isAutoIncrement(4)).isFalse();
    assertThat(md.isReadOnly(4)).isTrue();
    assertThat(md.getColumnClassName(2)).isEqualTo("java.lang.Integer");
    assertThat(md.getColumnClassName(11)).isEqualTo("[B");
    assertThatThrownBy(() -> md.getColumnType(16))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("07009");
  }

  @Test
  void notNullColumnAndExpressionLabel() throws SQLException {
    session.query(
        "SELECT EXPR",
        List.of(new ColumnInfo("TOTAL", "", "", "", DataType.BIGINT.withNullable(false))),
        List.<Object[]>of(new Object[] {1L}));
    ResultSetMetaData md = connection.createStatement().executeQuery("SELECT EXPR").getMetaData();
    assertThat(md.isNullable(1)).isEqualTo(ResultSetMetaData.columnNoNulls);
    assertThat(md.getColumnName(1)).isEqualTo("TOTAL");
    assertThat(md.getTableName(1)).isEmpty();
  }

  @Test
  void cursorReusingItsArrayIsSafeWithLookahead() throws SQLException {
    Object[] shared = new Object[1];
    int[] n = {0};
    session.command(
        "SELECT REUSE",
        io.cairn.jdbc.internal.engine.PreparedCommand.Kind.QUERY,
        List.of(column("N", DataType.INTEGER)),
        List.of(),
        (params, control) ->
            new io.cairn.jdbc.internal.engine.CommandResult.Rows(
                new io.cairn.jdbc.internal.engine.ResultCursor() {
                  @Override
                  public Object[] next() {
                    if (n[0] == 3) {
                      return null;
                    }
                    shared[0] = ++n[0];
                    return shared;
                  }

                  @Override
                  public void close() {}
                }));
    ResultSet rs = connection.createStatement().executeQuery("SELECT REUSE");
    assertThat(rs.next()).isTrue();
    assertThat(rs.isLast()).isFalse();
    assertThat(rs.getInt(1)).isEqualTo(1);
    assertThat(rs.next()).isTrue();
    assertThat(rs.getInt(1)).isEqualTo(2);
  }

  interface ThrowingCall {
    void run() throws Exception;
  }
}
