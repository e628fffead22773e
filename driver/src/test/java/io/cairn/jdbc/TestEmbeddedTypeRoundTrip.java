package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.Calendar;
import java.util.Locale;
import java.util.TimeZone;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Parameters of every type through UPSERT and back through SELECT, extremes and NULLs. */
class TestEmbeddedTypeRoundTrip {
  private static final BigDecimal MAX_DECIMAL =
      new BigDecimal("9".repeat(36) + ".99"); // DECIMAL(38,2)
  private static final byte[] BYTES = {0, -1, 127, -128, 42};

  private static final LocalDate OLD_DATE = LocalDate.of(1901, 2, 3);
  private static final LocalDate FAR_DATE = LocalDate.of(2199, 12, 31);
  private static final LocalTime MIDNIGHT = LocalTime.MIDNIGHT;
  private static final LocalTime LATE = LocalTime.of(23, 59, 59);
  private static final LocalDateTime OLD_TS =
      LocalDateTime.of(1969, 12, 31, 23, 59, 58, 123_000_000);
  private static final LocalDateTime FAR_TS =
      LocalDateTime.of(2150, 6, 30, 12, 34, 56, 789_000_000);
  // A time that does not exist in many time zones (spring-forward gap): must not be shifted.
  private static final LocalDateTime DST_GAP_TS = LocalDateTime.of(2021, 3, 28, 2, 30, 0);

  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("types-" + UUID.randomUUID()));
    try (Statement s = connection.createStatement()) {
      s.executeUpdate(
          "CREATE TABLE TY (ID INTEGER PRIMARY KEY, BO BOOLEAN, TI TINYINT, SI SMALLINT,"
              + " I INTEGER, BI BIGINT, F FLOAT, D DOUBLE, DE DECIMAL(38,2), CH CHAR(5),"
              + " VC VARCHAR(10), DA DATE, TM TIME, TS TIMESTAMP, VB VARBINARY(16))");
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private PreparedStatement upsert() throws SQLException {
    return connection.prepareStatement(
        "UPSERT INTO TY VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  }

  private ResultSet row(PreparedStatement select, int id) throws SQLException {
    select.setInt(1, id);
    ResultSet rs = select.executeQuery();
    assertThat(rs.next()).isTrue();
    return rs;
  }

  @Test
  void minimumsWithTypedSetters() throws SQLException {
    try (PreparedStatement ps = upsert()) {
      ps.setInt(1, 1);
      ps.setBoolean(2, false);
      ps.setByte(3, Byte.MIN_VALUE);
      ps.setShort(4, Short.MIN_VALUE);
      ps.setInt(5, Integer.MIN_VALUE);
      ps.setLong(6, Long.MIN_VALUE);
      ps.setFloat(7, -Float.MAX_VALUE);
      ps.setDouble(8, -Double.MAX_VALUE);
      ps.setBigDecimal(9, MAX_DECIMAL.negate());
      ps.setString(10, "");
      ps.setString(11, "");
      ps.setDate(12, Date.valueOf(OLD_DATE));
      ps.setTime(13, Time.valueOf(MIDNIGHT));
      ps.setTimestamp(14, Timestamp.valueOf(OLD_TS));
      ps.setBytes(15, new byte[0]);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    try (PreparedStatement select = connection.prepareStatement("SELECT * FROM TY WHERE ID = ?");
        ResultSet rs = row(select, 1)) {
      assertThat(rs.getObject(2)).isEqualTo(Boolean.FALSE);
      assertThat(rs.getBoolean(2)).isFalse();
      assertThat(rs.getByte(3)).isEqualTo(Byte.MIN_VALUE);
      assertThat(((Number) rs.getObject(3)).intValue()).isEqualTo(Byte.MIN_VALUE);
      assertThat(rs.getShort(4)).isEqualTo(Short.MIN_VALUE);
      assertThat(((Number) rs.getObject(4)).intValue()).isEqualTo(Short.MIN_VALUE);
      assertThat(rs.getInt(5)).isEqualTo(Integer.MIN_VALUE);
      assertThat(rs.getObject(5)).isEqualTo(Integer.MIN_VALUE);
      assertThat(rs.getLong(6)).isEqualTo(Long.MIN_VALUE);
      assertThat(rs.getObject(6)).isEqualTo(Long.MIN_VALUE);
      assertThat(rs.getFloat(7)).isEqualTo(-Float.MAX_VALUE);
      assertThat(rs.getObject(7)).isEqualTo(-Float.MAX_VALUE);
      assertThat(rs.getDouble(8)).isEqualTo(-Double.MAX_VALUE);
      assertThat(rs.getObject(8)).isEqualTo(-Double.MAX_VALUE);
      assertThat(rs.getBigDecimal(9)).isEqualTo(MAX_DECIMAL.negate());
      assertThat(rs.getObject(9)).isEqualTo(MAX_DECIMAL.negate());
      assertThat(rs.getString(10)).isEqualTo("     ");
      assertThat(rs.getString(11)).isEqualTo("");
      assertThat(rs.wasNull()).isFalse();
      assertThat(rs.getDate(12)).isEqualTo(Date.valueOf(OLD_DATE));
      assertThat(rs.getObject(12)).isEqualTo(Date.valueOf(OLD_DATE));
      assertThat(rs.getObject(12, LocalDate.class)).isEqualTo(OLD_DATE);
      assertThat(rs.getTime(13).toLocalTime()).isEqualTo(MIDNIGHT);
      assertThat(rs.getObject(13, LocalTime.class)).isEqualTo(MIDNIGHT);
      assertThat(rs.getTimestamp(14)).isEqualTo(Timestamp.valueOf(OLD_TS));
      assertThat(rs.getTimestamp(14).toLocalDateTime()).isEqualTo(OLD_TS);
      assertThat(rs.getObject(14)).isEqualTo(Timestamp.valueOf(OLD_TS));
      assertThat(rs.getObject(14, LocalDateTime.class)).isEqualTo(OLD_TS);
      assertThat(rs.getBytes(15)).isEmpty();
    }
  }

  @Test
  void maximumsWithSetObject() throws SQLException {
    try (PreparedStatement ps = upsert()) {
      ps.setObject(1, 2);
      ps.setObject(2, true);
      ps.setObject(3, Byte.MAX_VALUE);
      ps.setObject(4, Short.MAX_VALUE);
      ps.setObject(5, Integer.MAX_VALUE);
      ps.setObject(6, Long.MAX_VALUE);
      ps.setObject(7, Float.MAX_VALUE);
      ps.setObject(8, Double.MAX_VALUE);
      ps.setObject(9, MAX_DECIMAL);
      ps.setObject(10, "abcde");
      ps.setObject(11, "0123456789");
      ps.setObject(12, FAR_DATE);
      ps.setObject(13, LATE);
      ps.setObject(14, FAR_TS);
      ps.setObject(15, BYTES);
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    try (PreparedStatement select = connection.prepareStatement("SELECT * FROM TY WHERE ID = ?");
        ResultSet rs = row(select, 2)) {
      assertThat(rs.getObject(2)).isEqualTo(Boolean.TRUE);
      assertThat(rs.getByte(3)).isEqualTo(Byte.MAX_VALUE);
      assertThat(rs.getShort(4)).isEqualTo(Short.MAX_VALUE);
      assertThat(rs.getObject(5)).isEqualTo(Integer.MAX_VALUE);
      assertThat(rs.getObject(6)).isEqualTo(Long.MAX_VALUE);
      assertThat(rs.getObject(7)).isEqualTo(Float.MAX_VALUE);
      assertThat(rs.getObject(8)).isEqualTo(Double.MAX_VALUE);
      assertThat(rs.getObject(9)).isEqualTo(MAX_DECIMAL);
      assertThat(rs.getObject(10)).isEqualTo("abcde");
      assertThat(rs.getObject(11)).isEqualTo("0123456789");
      assertThat(rs.getObject(12, LocalDate.class)).isEqualTo(FAR_DATE);
      assertThat(rs.getDate(12).toLocalDate()).isEqualTo(FAR_DATE);
      assertThat(rs.getObject(13, LocalTime.class)).isEqualTo(LATE);
      assertThat(rs.getTime(13)).isEqualTo(Time.valueOf(LATE));
      assertThat(rs.getObject(14, LocalDateTime.class)).isEqualTo(FAR_TS);
      assertThat(rs.getTimestamp(14).toLocalDateTime()).isEqualTo(FAR_TS);
      assertThat(rs.getObject(15)).isEqualTo(BYTES);
      assertThat(rs.getBytes(15)).isEqualTo(BYTES);
    }
  }

  @Test
  void nullsOfEveryType() throws SQLException {
    int[] types = {
      Types.BOOLEAN, Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.REAL,
      Types.DOUBLE, Types.DECIMAL, Types.CHAR, Types.VARCHAR, Types.DATE, Types.TIME,
      Types.TIMESTAMP, Types.VARBINARY
    };
    try (PreparedStatement ps = upsert()) {
      ps.setInt(1, 3);
      for (int i = 0; i < types.length; i++) {
        ps.setNull(i + 2, types[i]);
      }
      ps.executeUpdate();
      ps.setInt(1, 4);
      for (int i = 0; i < types.length; i++) {
        ps.setObject(i + 2, null);
      }
      ps.executeUpdate();
    }
    try (PreparedStatement select = connection.prepareStatement("SELECT * FROM TY WHERE ID = ?")) {
      for (int id = 3; id <= 4; id++) {
        try (ResultSet rs = row(select, id)) {
          for (int c = 2; c <= 15; c++) {
            assertThat(rs.getObject(c)).as("column %s", c).isNull();
            assertThat(rs.wasNull()).isTrue();
          }
          assertThat(rs.getInt(5)).isZero();
          assertThat(rs.wasNull()).isTrue();
          assertThat(rs.getBoolean(2)).isFalse();
          assertThat(rs.getBigDecimal(9)).isNull();
          assertThat(rs.getObject(12, LocalDate.class)).isNull();
          assertThat(rs.getObject(14, LocalDateTime.class)).isNull();
          assertThat(rs.getBytes(15)).isNull();
        }
      }
    }
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*), COUNT(TS), COUNT(VB) FROM TY")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(2);
      assertThat(rs.getLong(2)).isZero();
      assertThat(rs.getLong(3)).isZero();
    }
  }

  @Test
  void timestampsAreNotShiftedByTheJvmTimeZone() throws SQLException {
    LocalDateTime[] values = {OLD_TS, FAR_TS, DST_GAP_TS, LocalDateTime.of(1970, 1, 1, 0, 0)};
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO TY (ID, TS, DA) VALUES (?, ?, ?)")) {
      for (int i = 0; i < values.length; i++) {
        ps.setInt(1, 10 + i);
        if (i % 2 == 0) {
          ps.setTimestamp(2, Timestamp.valueOf(values[i]));
        } else {
          ps.setObject(2, values[i]);
        }
        ps.setObject(3, values[i].toLocalDate());
        ps.executeUpdate();
      }
    }
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT TS, CAST(TS AS VARCHAR(40)), EXTRACT(HOUR FROM TS), DA,"
                + " CAST(DA AS VARCHAR(20)) FROM TY WHERE ID = ?")) {
      for (int i = 0; i < values.length; i++) {
        try (ResultSet rs = row(select, 10 + i)) {
          LocalDateTime expected = values[i];
          assertThat(rs.getTimestamp(1).toLocalDateTime()).isEqualTo(expected);
          assertThat(rs.getTimestamp(1)).isEqualTo(Timestamp.valueOf(expected));
          assertThat(rs.getObject(1, LocalDateTime.class)).isEqualTo(expected);
          // The engine sees the wall-clock value, not an instant shifted by the JVM zone.
          assertThat(rs.getString(2)).startsWith(expected.toLocalDate() + " ");
          assertThat(rs.getInt(3)).isEqualTo(expected.getHour());
          assertThat(rs.getObject(4, LocalDate.class)).isEqualTo(expected.toLocalDate());
          assertThat(rs.getString(5)).isEqualTo(expected.toLocalDate().toString());
        }
      }
    }
    // A parameter compared against stored timestamps: the key of the comparison is wall-clock.
    try (PreparedStatement ps =
        connection.prepareStatement("SELECT ID FROM TY WHERE TS = ? ORDER BY ID")) {
      ps.setTimestamp(1, Timestamp.valueOf(DST_GAP_TS));
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(12);
        assertThat(rs.next()).isFalse();
      }
    }
  }

  @Test
  void calendarVariantsApplyOnlyTheCallersZone() throws SQLException {
    Calendar tokyo = Calendar.getInstance(TimeZone.getTimeZone("Asia/Tokyo"), Locale.ROOT);
    Timestamp instant = Timestamp.valueOf(FAR_TS);
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO TY (ID, TS) VALUES (30, ?)")) {
      ps.setTimestamp(1, instant, tokyo);
      ps.executeUpdate();
    }
    LocalDateTime tokyoWallClock =
        instant.toInstant().atZone(ZoneId.of("Asia/Tokyo")).toLocalDateTime();
    try (PreparedStatement select = connection.prepareStatement("SELECT TS FROM TY WHERE ID = ?");
        ResultSet rs = row(select, 30)) {
      // Stored as the wall-clock time in the caller's zone...
      assertThat(rs.getObject(1, LocalDateTime.class)).isEqualTo(tokyoWallClock);
      // ...and read back through the same calendar as the same instant.
      assertThat(rs.getTimestamp(1, tokyo)).isEqualTo(instant);
    }
  }

  @Test
  void literalsAndParametersAgree() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.executeUpdate(
          "UPSERT INTO TY (ID, DA, TS, DE, BI) VALUES (20, DATE '1850-07-14',"
              + " TIMESTAMP '2120-01-02 03:04:05.678', -12.34, -9223372036854775808)");
    }
    try (PreparedStatement ps =
        connection.prepareStatement(
            "SELECT ID FROM TY WHERE DA = ? AND TS = ? AND DE = ? AND BI = ?")) {
      ps.setObject(1, LocalDate.of(1850, 7, 14));
      ps.setTimestamp(2, Timestamp.valueOf(LocalDateTime.of(2120, 1, 2, 3, 4, 5, 678_000_000)));
      ps.setBigDecimal(3, new BigDecimal("-12.34"));
      ps.setLong(4, Long.MIN_VALUE);
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(20);
      }
    }
  }
}
