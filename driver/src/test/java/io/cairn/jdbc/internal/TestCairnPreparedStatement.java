package io.cairn.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.type.DataType;
import io.cairn.core.type.TypeName;
import io.cairn.jdbc.internal.engine.ColumnInfo;
import io.cairn.jdbc.internal.engine.ParameterInfo;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.Date;
import java.sql.JDBCType;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Calendar;
import java.util.List;
import java.util.Properties;
import java.util.TimeZone;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestCairnPreparedStatement {
  static final String SQL = "UPSERT ALL";
  static final List<DataType> TYPES =
      List.of(
          DataType.BOOLEAN,
          DataType.TINYINT,
          DataType.SMALLINT,
          DataType.INTEGER,
          DataType.BIGINT,
          DataType.FLOAT,
          DataType.DOUBLE,
          DataType.decimal(10, 2),
          DataType.varchar(10),
          DataType.VARBINARY,
          DataType.DATE,
          DataType.TIME,
          DataType.TIMESTAMP);

  TestingSession session;
  Connection connection;
  PreparedStatement ps;

  @BeforeEach
  void setUp() throws SQLException {
    session = new TestingSession();
    session.update(SQL, TYPES.stream().map(ParameterInfo::new).toList(), 1);
    connection = new CairnConnection(session, "jdbc:cairn:mem:test", new Properties());
    ps = connection.prepareStatement(SQL);
  }

  @AfterEach
  void tearDown() throws SQLException {
    connection.close();
  }

  void setAllNull() throws SQLException {
    for (int i = 1; i <= TYPES.size(); i++) {
      ps.setNull(i, Types.NULL);
    }
  }

  List<Object> executeAndGetParameters() throws SQLException {
    assertThat(ps.executeUpdate()).isEqualTo(1);
    return session.executions.get(session.executions.size() - 1);
  }

  @Test
  void valuesArriveAsTheParameterTypesJavaClass() throws SQLException {
    ps.setBoolean(1, true);
    ps.setInt(2, 5);
    ps.setLong(3, 300);
    ps.setShort(4, (short) 7);
    ps.setInt(5, 42);
    ps.setDouble(6, 1.5);
    ps.setFloat(7, 0.1f);
    ps.setDouble(8, 3.14159);
    ps.setInt(9, 123);
    ps.setBytes(10, new byte[] {1, 2});
    ps.setString(11, "2024-02-29");
    ps.setString(12, "10:11:12");
    ps.setString(13, "2024-02-29 10:11:12.5");
    List<Object> p = executeAndGetParameters();
    assertThat(p.get(0)).isEqualTo(true);
    assertThat(p.get(1)).isEqualTo((byte) 5);
    assertThat(p.get(2)).isEqualTo((short) 300);
    assertThat(p.get(3)).isEqualTo(7);
    assertThat(p.get(4)).isEqualTo(42L);
    assertThat(p.get(5)).isEqualTo(1.5f);
    assertThat(p.get(6)).isEqualTo((double) 0.1f);
    assertThat(p.get(7)).isEqualTo(new BigDecimal("3.14"));
    assertThat(p.get(8)).isEqualTo("123");
    assertThat((byte[]) p.get(9)).containsExactly(1, 2);
    assertThat(p.get(10)).isEqualTo(LocalDate.of(2024, 2, 29));
    assertThat(p.get(11)).isEqualTo(LocalTime.of(10, 11, 12));
    assertThat(p.get(12)).isEqualTo(LocalDateTime.of(2024, 2, 29, 10, 11, 12, 500_000_000));
  }

  @Test
  void stringsParseIntoNumbersAndBooleans() throws SQLException {
    setAllNull();
    ps.setString(1, "TRUE");
    ps.setString(2, " 12 ");
    ps.setString(4, "-5");
    ps.setString(5, "9000000000");
    ps.setString(6, "2.5");
    ps.setString(7, "1e3");
    ps.setString(8, "7.125");
    List<Object> p = executeAndGetParameters();
    assertThat(p.subList(0, 8))
        .containsExactly(
            true, (byte) 12, null, -5, 9_000_000_000L, 2.5f, 1000.0, new BigDecimal("7.13"));
  }

  @Test
  void unparsableStringIs22018NamingTheValue() {
    assertThatThrownBy(() -> ps.setString(4, "12abc"))
        .isInstanceOf(SQLDataException.class)
        .hasMessageContaining("'12abc'")
        .hasMessageContaining("parameter 4")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
    assertThatThrownBy(() -> ps.setString(1, "maybe"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
    assertThatThrownBy(() -> ps.setString(10, "0102"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
    assertThatThrownBy(() -> ps.setInt(11, 3))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
    assertThatThrownBy(() -> ps.setString(11, "29/02/2024"))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22007");
    // a fraction into an integer parameter rounds HALF_UP, as a literal does (1.5 -> 2)
    assertThatCode(() -> ps.setDouble(4, 1.5)).doesNotThrowAnyException();
  }

  @Test
  void outOfRangeIs22003() {
    assertThatThrownBy(() -> ps.setLong(4, 3_000_000_000L))
        .isInstanceOf(SQLDataException.class)
        .hasMessageContaining("3000000000")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22003");
    assertThatThrownBy(() -> ps.setInt(2, 128))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22003");
    assertThatThrownBy(() -> ps.setInt(3, 40_000))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22003");
    assertThatThrownBy(() -> ps.setDouble(6, 1e300))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22003");
    assertThatThrownBy(() -> ps.setBigDecimal(8, new BigDecimal("123456789")))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22003");
    assertThatThrownBy(() -> ps.setDouble(5, Double.NaN))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22003");
  }

  @Test
  void datetimeSettersAreZoneLess() throws SQLException {
    setAllNull();
    LocalDateTime ts = LocalDateTime.of(2024, 3, 31, 2, 30, 0, 123_456_789);
    ps.setDate(11, Date.valueOf(LocalDate.of(2024, 3, 31)));
    ps.setTime(12, Time.valueOf(LocalTime.of(2, 30)));
    ps.setTimestamp(13, Timestamp.valueOf(ts));
    List<Object> p = executeAndGetParameters();
    assertThat(p.get(10)).isEqualTo(LocalDate.of(2024, 3, 31));
    assertThat(p.get(11)).isEqualTo(LocalTime.of(2, 30));
    assertThat(p.get(12)).isEqualTo(ts);
  }

  @Test
  void calendarSettersInterpretInTheCalendarZone() throws SQLException {
    setAllNull();
    ZoneId zone = ZoneId.of("America/New_York");
    Calendar calendar = Calendar.getInstance(TimeZone.getTimeZone(zone));
    LocalDateTime local = LocalDateTime.of(2024, 7, 4, 9, 15, 30, 250_000_000);
    Timestamp instant = Timestamp.from(local.atZone(zone).toInstant());
    ps.setTimestamp(13, instant, calendar);
    ps.setDate(11, Date.valueOf(LocalDate.of(2024, 7, 4)), null);
    ps.setTime(12, Time.valueOf(LocalTime.of(9, 15, 30)), null);
    List<Object> p = executeAndGetParameters();
    assertThat(p.get(12)).isEqualTo(local);
    assertThat(p.get(10)).isEqualTo(LocalDate.of(2024, 7, 4));
    // A java.sql.Date made for midnight in New York is that date in New York's calendar.
    Date d = Date.valueOf(LocalDate.EPOCH);
    d.setTime(LocalDate.of(2024, 7, 4).atStartOfDay(zone).toInstant().toEpochMilli());
    ps.setDate(11, d, calendar);
    assertThat(executeAndGetParameters().get(10)).isEqualTo(LocalDate.of(2024, 7, 4));
  }

  @Test
  void setObjectAcceptsJavaTimeAndJdbcClasses() throws SQLException {
    setAllNull();
    ps.setObject(1, Boolean.FALSE);
    ps.setObject(4, BigInteger.TEN);
    ps.setObject(9, 'x');
    ps.setObject(11, LocalDate.of(2020, 1, 1));
    ps.setObject(12, LocalTime.of(1, 2, 3));
    ps.setObject(13, LocalDateTime.of(2020, 1, 1, 1, 2, 3));
    List<Object> p = executeAndGetParameters();
    assertThat(p.get(0)).isEqualTo(false);
    assertThat(p.get(3)).isEqualTo(10);
    assertThat(p.get(8)).isEqualTo("x");
    assertThat(p.get(10)).isEqualTo(LocalDate.of(2020, 1, 1));
    assertThat(p.get(11)).isEqualTo(LocalTime.of(1, 2, 3));
    assertThat(p.get(12)).isEqualTo(LocalDateTime.of(2020, 1, 1, 1, 2, 3));
    assertThatThrownBy(() -> ps.setObject(9, new Object()))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("22018");
  }

  @Test
  void setObjectWithTargetType() throws SQLException {
    setAllNull();
    ps.setObject(9, 12.5, Types.DECIMAL, 2);
    ps.setObject(4, "17", Types.INTEGER);
    ps.setObject(8, "1.005", Types.NUMERIC, 2);
    ps.setObject(13, "2020-05-06", Types.DATE);
    List<Object> p = executeAndGetParameters();
    assertThat(p.get(8)).isEqualTo("12.50");
    assertThat(p.get(3)).isEqualTo(17);
    assertThat(p.get(7)).isEqualTo(new BigDecimal("1.01"));
    assertThat(p.get(12)).isEqualTo(LocalDateTime.of(2020, 5, 6, 0, 0));
    assertThatThrownBy(() -> ps.setObject(4, "x", Types.STRUCT))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
    ps.setObject(4, "21", JDBCType.INTEGER);
    assertThat(executeAndGetParameters().get(3)).isEqualTo(21);
    assertThatThrownBy(() -> ps.setObject(4, 1, JDBCType.ARRAY))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
  }

  @Test
  void streamsAreRead() throws SQLException {
    setAllNull();
    ps.setCharacterStream(9, new StringReader("hello"));
    ps.setBinaryStream(10, new ByteArrayInputStream(new byte[] {5, 6, 7}), 2);
    List<Object> p = executeAndGetParameters();
    assertThat(p.get(8)).isEqualTo("hello");
    assertThat((byte[]) p.get(9)).containsExactly(5, 6);
    ps.setAsciiStream(9, new ByteArrayInputStream("abc".getBytes(StandardCharsets.US_ASCII)));
    assertThat(executeAndGetParameters().get(8)).isEqualTo("abc");
  }

  @Test
  void setBytesCopiesTheArray() throws SQLException {
    setAllNull();
    byte[] b = {1, 2};
    ps.setBytes(10, b);
    b[0] = 9;
    assertThat((byte[]) executeAndGetParameters().get(9)).containsExactly(1, 2);
  }

  @Test
  void setNullAcceptsAnyTypeCode() throws SQLException {
    setAllNull();
    ps.setNull(4, Types.OTHER);
    ps.setNull(9, Types.JAVA_OBJECT, "X");
    assertThat(executeAndGetParameters()).containsOnlyNulls();
  }

  @Test
  void unsetParameterIs07001NamingIt() throws SQLException {
    setAllNull();
    ps.clearParameters();
    for (int i = 1; i <= TYPES.size(); i++) {
      if (i != 5) {
        ps.setNull(i, Types.INTEGER);
      }
    }
    assertThatThrownBy(ps::executeUpdate)
        .hasMessageContaining("[5]")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("07001");
    assertThat(session.executions).isEmpty();
  }

  @Test
  void indexOutOfRangeIs07009() {
    assertThatThrownBy(() -> ps.setInt(0, 1))
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("07009");
    assertThatThrownBy(() -> ps.setString(14, "x"))
        .hasMessageContaining("1..13")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("07009");
  }

  @Test
  void parameterMetaData() throws SQLException {
    ParameterMetaData md = ps.getParameterMetaData();
    assertThat(md.getParameterCount()).isEqualTo(13);
    assertThat(md.getParameterType(8)).isEqualTo(Types.DECIMAL);
    assertThat(md.getPrecision(8)).isEqualTo(10);
    assertThat(md.getScale(8)).isEqualTo(2);
    assertThat(md.getParameterTypeName(6)).isEqualTo("FLOAT");
    assertThat(md.getParameterType(6)).isEqualTo(Types.REAL);
    assertThat(md.getParameterClassName(4)).isEqualTo("java.lang.Integer");
    assertThat(md.isNullable(1)).isEqualTo(ParameterMetaData.parameterNullable);
    assertThat(md.getParameterMode(1)).isEqualTo(ParameterMetaData.parameterModeIn);
    assertThat(md.isSigned(5)).isTrue();
    assertThat(ps.getMetaData()).isNull();
  }

  @Test
  void preparedQueryMetaDataAndExecution() throws SQLException {
    session.query(
        "SELECT ?",
        List.of(new ColumnInfo("X", "X", "", "", DataType.INTEGER)),
        List.of(new ParameterInfo(DataType.BIGINT)),
        List.<Object[]>of(new Object[] {1}, new Object[] {2}));
    PreparedStatement q = connection.prepareStatement("SELECT ?");
    assertThat(q.getMetaData().getColumnLabel(1)).isEqualTo("X");
    q.setInt(1, 5);
    ResultSet rs = q.executeQuery();
    assertThat(session.executions.get(0)).containsExactly(5L);
    assertThat(rs.next()).isTrue();
    ResultSet again = q.executeQuery();
    assertThat(rs.isClosed()).as("re-executing closes the previous result set").isTrue();
    assertThat(again.next()).isTrue();
    assertThatThrownBy(q::executeUpdate)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("07003");
    assertThatThrownBy(() -> q.executeQuery("SELECT ?"))
        .isInstanceOf(SQLFeatureNotSupportedException.class);
  }

  @Test
  void prepareFailureIsMapped() {
    assertThatThrownBy(() -> connection.prepareStatement("SELEC 1"))
        .isInstanceOf(java.sql.SQLSyntaxErrorException.class)
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("42601");
  }

  @Test
  void batchOfParameterSets() throws SQLException {
    setAllNull();
    ps.setString(9, "a");
    ps.addBatch();
    ps.setString(9, "b");
    ps.addBatch();
    assertThat(ps.executeBatch()).containsExactly(1, 1);
    assertThat(session.executions).hasSize(2);
    assertThat(session.executions.get(0).get(8)).isEqualTo("a");
    assertThat(session.executions.get(1).get(8)).isEqualTo("b");
    assertThat(ps.executeBatch()).isEmpty();
  }

  @Test
  void batchFailureReportsCountsOfTheEntriesBeforeIt() throws SQLException {
    setAllNull();
    ps.setString(9, "a");
    ps.addBatch();
    ps.setString(9, "FAIL");
    ps.addBatch();
    ps.setString(9, "c");
    ps.addBatch();
    assertThatThrownBy(ps::executeBatch)
        .isInstanceOfSatisfying(
            BatchUpdateException.class,
            e -> {
              assertThat(e.getUpdateCounts()).containsExactly(1);
              assertThat(e.getLargeUpdateCounts()).containsExactly(1L);
              assertThat(e.getSQLState()).isEqualTo("23505");
              assertThat(e.getCause()).isInstanceOf(SQLIntegrityConstraintViolationException.class);
            });
    assertThat(session.executions).hasSize(2);
  }

  @Test
  void statementBatch() throws SQLException {
    session.update("DELETE A", List.of(), 3).update("DELETE B", List.of(), 4).ddl("CREATE X");
    session.query("SELECT Q", List.of(), List.of());
    Statement st = connection.createStatement();
    st.addBatch("DELETE A");
    st.addBatch("CREATE X");
    st.addBatch("DELETE B");
    assertThat(st.executeLargeBatch()).containsExactly(3L, 0L, 4L);
    st.addBatch("DELETE A");
    st.addBatch("SELECT Q");
    st.addBatch("DELETE B");
    assertThatThrownBy(st::executeBatch)
        .isInstanceOfSatisfying(
            BatchUpdateException.class,
            e -> {
              assertThat(e.getUpdateCounts()).containsExactly(3);
              assertThat(e.getSQLState()).isEqualTo("07003");
            });
    st.addBatch("DELETE A");
    st.clearBatch();
    assertThat(st.executeBatch()).isEmpty();
    st.addBatch("NOT SQL");
    assertThatThrownBy(st::executeBatch)
        .isInstanceOfSatisfying(
            BatchUpdateException.class, e -> assertThat(e.getSQLState()).isEqualTo("42601"));
  }

  @Test
  void intervalParameterTakesLong() throws SQLException {
    session.update(
        "UPSERT IV", List.of(new ParameterInfo(DataType.of(TypeName.INTERVAL_YEAR_MONTH))), 1);
    PreparedStatement p = connection.prepareStatement("UPSERT IV");
    p.setInt(1, 14);
    p.executeUpdate();
    assertThat(session.executions.get(0)).containsExactly(14L);
  }
}
