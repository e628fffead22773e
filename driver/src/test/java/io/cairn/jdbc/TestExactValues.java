package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Values are stored and computed exactly: string expressions over literals are VARCHAR (never
 * padded CHAR), every assignment path checks length and range as a literal in VALUES does, dates
 * stay within years 0001..9999 and TIMESTAMP keeps nanoseconds (issue 14, item 4).
 */
class TestExactValues {
  private static final LocalDateTime NANOS = LocalDateTime.of(2024, 2, 29, 23, 59, 58, 123_456_789);

  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("exact-" + UUID.randomUUID()));
    update("CREATE TABLE T3 (K INTEGER PRIMARY KEY)");
    update("UPSERT INTO T3 VALUES (1)");
    update("UPSERT INTO T3 VALUES (2)");
    update("UPSERT INTO T3 VALUES (3)");
    update(
        "CREATE TABLE TV (K INTEGER PRIMARY KEY, V VARCHAR(5), C CHAR(3), I INTEGER,"
            + " D DECIMAL(10,2), B VARBINARY(3), S SMALLINT, DB DOUBLE, DA DATE, TS TIMESTAMP,"
            + " T3 TIMESTAMP(3))");
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  // ------------------------------------------------------------------ VARCHAR, not padded CHAR

  @Test
  void caseOverLiteralsStoresUnpaddedStrings() throws SQLException {
    update("UPSERT INTO TV (K, V) SELECT K, CASE WHEN K = 1 THEN 'no' ELSE 'yes' END FROM T3");
    assertThat(strings("SELECT V FROM TV WHERE K = 1")).containsExactly("no");
    assertThat(strings("SELECT K FROM TV WHERE V = 'no'")).containsExactly("1");
    assertThat(strings("SELECT CHAR_LENGTH(V) FROM TV ORDER BY K")).containsExactly("2", "3", "3");
  }

  @Test
  void coalesceAndUnionOfLiteralsAreVarchar() throws SQLException {
    update("UPSERT INTO TV (K, V) VALUES (1, 'a')");
    assertThat(strings("SELECT K FROM TV WHERE V = COALESCE('a', 'ab')")).containsExactly("1");
    assertThat(strings("SELECT COALESCE('', 'a')")).containsExactly("");
    assertThat(strings("SELECT 'b' UNION SELECT 'ab' ORDER BY 1")).containsExactly("ab", "b");
    assertThat(strings("SELECT CASE WHEN 1 = 1 THEN 'no' ELSE 'yes' END")).containsExactly("no");
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT COALESCE('', 'a')")) {
      assertThat(rs.getMetaData().getColumnTypeName(1)).isEqualTo("VARCHAR");
    }
  }

  @Test
  void charColumnsCompareWithPadSpace() throws SQLException {
    update("UPSERT INTO TV (K, C, V) VALUES (1, 'a', 'a')");
    update("UPSERT INTO TV (K, C, V) VALUES (2, 'ab', 'ab ')");
    assertThat(strings("SELECT K FROM TV WHERE C = 'a'")).containsExactly("1");
    assertThat(strings("SELECT K FROM TV WHERE C = 'a  '")).containsExactly("1");
    assertThat(strings("SELECT K FROM TV WHERE C = V ORDER BY K")).containsExactly("1", "2");
    assertThat(strings("SELECT K FROM TV WHERE C = CAST('ab' AS VARCHAR(5))")).containsExactly("2");
  }

  @Test
  void keysAreLookedUpWithTheirWholeValue() throws SQLException {
    update("CREATE TABLE KC (K CHAR(3) PRIMARY KEY)");
    update("UPSERT INTO KC VALUES ('a')");
    assertThat(strings("SELECT CHAR_LENGTH(K) FROM KC WHERE K = 'a'")).containsExactly("1");
    update("CREATE TABLE KV (K VARCHAR(5) PRIMARY KEY)");
    update("UPSERT INTO KV VALUES ('abcde')");
    try (PreparedStatement ps = connection.prepareStatement("SELECT K FROM KV WHERE K = ?")) {
      ps.setString(1, "abcdefgh");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isFalse();
      }
      ps.setString(1, "abcde");
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
      }
    }
  }

  // ------------------------------------------------------------------ lengths on every path

  @Test
  void everyAssignmentPathChecksTheLength() throws SQLException {
    assertTooLong(() -> update("UPSERT INTO TV (K, V) VALUES (1, 'abcdefgh')"), "V VARCHAR(5)", 8);
    assertTooLong(
        () -> update("UPSERT INTO TV (K, V) VALUES (1, CAST('abcdefgh' AS VARCHAR(10)))"),
        "V VARCHAR(5)",
        8);
    assertTooLong(
        () -> update("UPSERT INTO TV (K, V) SELECT K, 'abcdefgh' FROM T3"), "V VARCHAR(5)", 8);
    assertTooLong(
        () ->
            update(
                "UPSERT INTO TV (K, V) SELECT K, CASE WHEN K = 1 THEN 'abcdefg' ELSE 'x' END"
                    + " FROM T3"),
        "V VARCHAR(5)",
        7);
    assertTooLong(
        () ->
            update(
                "UPSERT INTO TV (K, V) VALUES (1, 'ab' || 'cd'), (2, CAST('abcdefgh' AS"
                    + " VARCHAR(10)))"),
        "V VARCHAR(5)",
        8);
    update("UPSERT INTO TV (K, V) VALUES (1, 'abcd')");
    assertTooLong(() -> update("UPDATE TV SET V = V || 'qq' WHERE K = 1"), "V VARCHAR(5)", 6);
    assertTooLong(
        () -> update("UPSERT INTO TV (K, B) VALUES (1, X'0102030405')"), "B VARBINARY(3)", 5);
    assertTooLong(() -> update("UPSERT INTO TV (K, C) VALUES (1, 'abcd')"), "C CHAR(3)", 4);
    assertThat(strings("SELECT V FROM TV")).containsExactly("abcd");
    assertThat(strings("SELECT COUNT(*) FROM TV")).containsExactly("1");
  }

  @Test
  void parametersAreCheckedLikeLiterals() throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO TV (K, V) VALUES (?, ?)")) {
      ps.setInt(1, 1);
      ps.setString(2, "abcdefgh");
      assertTooLong(ps::executeUpdate, "V VARCHAR(5)", 8);
      ps.setInt(2, 1234567);
      assertTooLong(ps::executeUpdate, "V VARCHAR(5)", 7);
      ps.setString(2, "abc  "); // trailing spaces beyond the length are dropped, as for a literal
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO TV (K, B) VALUES (?, ?)")) {
      ps.setInt(1, 2);
      ps.setBytes(2, new byte[] {1, 2, 3, 4, 5});
      assertTooLong(ps::executeUpdate, "B VARBINARY(3)", 5);
    }
    try (PreparedStatement ps = connection.prepareStatement("UPDATE TV SET V = ? WHERE K = ?")) {
      ps.setString(1, "abcdefgh");
      ps.setInt(2, 1);
      assertTooLong(ps::executeUpdate, "V VARCHAR(5)", 8);
    }
    assertThat(strings("SELECT V FROM TV")).containsExactly("abc  ");
  }

  // ------------------------------------------------------------------ numbers

  @Test
  void literalAndParameterRoundTheSameWay() throws SQLException {
    update("UPSERT INTO TV (K, I, D) VALUES (1, 1.9, 1.555)");
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO TV (K, I, D) VALUES (?, ?, ?)")) {
      ps.setInt(1, 2);
      ps.setBigDecimal(2, new BigDecimal("1.9"));
      ps.setBigDecimal(3, new BigDecimal("1.555"));
      ps.executeUpdate();
      ps.setInt(1, 3);
      ps.setDouble(2, -1.5);
      ps.setString(3, "1.239");
      ps.executeUpdate();
    }
    update("UPSERT INTO TV (K, I, D) VALUES (4, -1.5, 1.239)");
    // HALF_UP, as PostgreSQL's assignment and Cairn's CAST: both ways the same
    assertThat(strings("SELECT I || ' ' || D FROM TV ORDER BY K"))
        .containsExactly("2 1.56", "2 1.56", "-2 1.24", "-2 1.24");
    assertThat(strings("SELECT CAST(1.9 AS INTEGER) || ' ' || CAST(1.555 AS DECIMAL(10,2))"))
        .containsExactly("2 1.56");
  }

  @Test
  void outOfRangeNumbersAre22003OnEveryPath() throws SQLException {
    assertOutOfRange(() -> update("UPSERT INTO TV (K, S) VALUES (1, 40000)"), "S SMALLINT");
    assertOutOfRange(
        () -> update("UPSERT INTO TV (K, D) VALUES (1, 123456789.5)"), "D DECIMAL(10,2)");
    assertOutOfRange(
        () -> update("UPSERT INTO TV (K, S) SELECT K, K * 40000 FROM T3"), "S SMALLINT");
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO TV (K, S) VALUES (1, ?)")) {
      SQLException e =
          failure(
              () -> {
                ps.setInt(1, 40000); // refused when set: the parameter is typed SMALLINT
                ps.executeUpdate();
              });
      assertThat(e.getSQLState()).isEqualTo("22003");
    }
    SQLException overflow = failure(() -> strings("SELECT 1e308 * 10"));
    assertThat(overflow.getSQLState()).isEqualTo("22003");
    update("UPSERT INTO TV (K, DB) VALUES (1, 1e308)");
    assertThat(failure(() -> strings("SELECT DB * 10 FROM TV")).getSQLState()).isEqualTo("22003");
    assertThat(strings("SELECT COUNT(*) FROM TV")).containsExactly("1");
  }

  // ------------------------------------------------------------------ dates

  @Test
  void datesOutsideYears1To9999Are22008() throws SQLException {
    for (String sql :
        List.of(
            "SELECT CAST('-0001-01-01' AS DATE)",
            "SELECT CAST('10000-01-01' AS DATE)",
            "SELECT CAST('12000-01-01 10:00:00' AS TIMESTAMP)",
            "SELECT DATE '9999-12-31' + INTERVAL '1' DAY",
            "UPSERT INTO TV (K, DA) VALUES (1, CAST('-0001-01-01' AS DATE))")) {
      assertThat(failure(() -> strings(sql)).getSQLState()).as(sql).isEqualTo("22008");
    }
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO TV (K, DA, TS) VALUES (1, ?, ?)")) {
      ps.setObject(1, LocalDate.of(10000, 1, 1));
      ps.setObject(2, NANOS);
      assertThat(failure(ps::executeUpdate).getSQLState()).isEqualTo("22008");
      ps.setDate(1, Date.valueOf(LocalDate.of(2024, 1, 1)));
      ps.setObject(2, LocalDateTime.of(-5, 1, 1, 0, 0));
      assertThat(failure(ps::executeUpdate).getSQLState()).isEqualTo("22008");
      ps.setObject(2, LocalDateTime.of(12000, 1, 1, 0, 0));
      assertThat(failure(ps::executeUpdate).getSQLState()).isEqualTo("22008");
      ps.setObject(1, LocalDate.of(1, 1, 1));
      ps.setObject(2, LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999));
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    assertThat(strings("SELECT DA || ' ' || TS FROM TV"))
        .containsExactly("0001-01-01 9999-12-31 23:59:59.999999999");
  }

  // ------------------------------------------------------------------ TIMESTAMP nanoseconds

  @Test
  void timestampsKeepNanoseconds() throws SQLException {
    assertThat(strings("SELECT CAST('2024-02-29 23:59:58.123456789' AS TIMESTAMP)"))
        .containsExactly("2024-02-29 23:59:58.123456789");
    assertThat(strings("SELECT TIMESTAMP '2024-02-29 23:59:58.123456789'"))
        .containsExactly("2024-02-29 23:59:58.123456789");
    assertThat(strings("SELECT CAST(TIMESTAMP '2024-02-29 23:59:58.123456789' AS VARCHAR)"))
        .containsExactly("2024-02-29 23:59:58.123456789");
    // the text form drops trailing zeros of the fraction, and the fraction when it is zero
    assertThat(strings("SELECT CAST(TIMESTAMP '2024-02-29 23:59:58.120' AS VARCHAR)"))
        .containsExactly("2024-02-29 23:59:58.12");
    assertThat(strings("SELECT CAST(TIMESTAMP '2024-02-29 23:59:58' AS VARCHAR)"))
        .containsExactly("2024-02-29 23:59:58");

    update("UPSERT INTO TV (K, TS) VALUES (1, TIMESTAMP '2024-02-29 23:59:58.123456789')");
    update("UPSERT INTO TV (K, TS) VALUES (2, CAST('2024-02-29 23:59:58.123456789' AS TIMESTAMP))");
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO TV (K, TS) VALUES (?, ?)")) {
      ps.setInt(1, 3);
      ps.setTimestamp(2, Timestamp.valueOf(NANOS));
      ps.executeUpdate();
      ps.setInt(1, 4);
      ps.setObject(2, NANOS);
      ps.executeUpdate();
      ps.setInt(1, 5);
      ps.setString(2, "2024-02-29 23:59:58.123456789");
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
            connection.prepareStatement("SELECT TS, CAST(TS AS VARCHAR) FROM TV ORDER BY K");
        ResultSet rs = ps.executeQuery()) {
      int rows = 0;
      while (rs.next()) {
        rows++;
        assertThat(rs.getTimestamp(1).getNanos()).isEqualTo(123_456_789);
        assertThat(rs.getTimestamp(1).toLocalDateTime()).isEqualTo(NANOS);
        assertThat(rs.getObject(1, LocalDateTime.class)).isEqualTo(NANOS);
        assertThat(rs.getString(2)).isEqualTo("2024-02-29 23:59:58.123456789");
      }
      assertThat(rows).isEqualTo(5);
    }
    try (PreparedStatement ps = connection.prepareStatement("SELECT K FROM TV WHERE TS = ?")) {
      ps.setTimestamp(1, Timestamp.valueOf(NANOS));
      try (ResultSet rs = ps.executeQuery()) {
        int rows = 0;
        while (rs.next()) {
          rows++;
        }
        assertThat(rows).isEqualTo(5);
      }
    }
  }

  @Test
  void timestampWithPrecisionRoundsToItsDigits() throws SQLException {
    update("UPSERT INTO TV (K, T3) VALUES (1, TIMESTAMP '2024-02-29 23:59:58.123656789')");
    update("UPSERT INTO TV (K, T3) VALUES (2, CAST('2024-02-29 23:59:58.1234' AS TIMESTAMP))");
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO TV (K, T3) VALUES (?, ?)")) {
      ps.setInt(1, 3);
      ps.setTimestamp(2, Timestamp.valueOf(LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_600_000)));
      ps.executeUpdate();
    }
    assertThat(strings("SELECT CAST(T3 AS VARCHAR) FROM TV ORDER BY K"))
        .containsExactly(
            "2024-02-29 23:59:58.124", "2024-02-29 23:59:58.123", "2024-03-01 00:00:00");
    assertThat(strings("SELECT CAST(TIMESTAMP '2024-02-29 23:59:58.123456789' AS TIMESTAMP(6))"))
        .containsExactly("2024-02-29 23:59:58.123457");
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT T3, TS FROM TV")) {
      ResultSetMetaData md = rs.getMetaData();
      assertThat(md.getScale(1)).isEqualTo(3);
      assertThat(md.getPrecision(1)).isEqualTo(23); // yyyy-MM-dd HH:mm:ss.fff
      assertThat(md.getScale(2)).isEqualTo(9);
    }
    assertThat(
            failure(() -> update("CREATE TABLE BAD (K INTEGER PRIMARY KEY, TS TIMESTAMP(10))"))
                .getSQLState())
        .isEqualTo("42P16");
  }

  // ------------------------------------------------------------------ helpers

  private void update(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    }
  }

  private List<String> strings(String sql) throws SQLException {
    List<String> result = new ArrayList<>();
    try (Statement s = connection.createStatement()) {
      if (!s.execute(sql)) {
        return result;
      }
      try (ResultSet rs = s.getResultSet()) {
        while (rs.next()) {
          result.add(rs.getString(1));
        }
      }
    }
    return result;
  }

  private static SQLException failure(ThrowingCallable call) {
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(call);
    assertThat(thrown).isInstanceOf(SQLException.class);
    return (SQLException) thrown;
  }

  private static void assertTooLong(ThrowingCallable call, String column, int found) {
    SQLException e = failure(call);
    assertThat(e.getSQLState()).isEqualTo("22001");
    assertThat(e.getMessage()).contains("[" + column + "]").contains("found [" + found + "]");
  }

  private static void assertOutOfRange(ThrowingCallable call, String column) {
    SQLException e = failure(call);
    assertThat(e.getSQLState()).isEqualTo("22003");
    assertThat(e.getMessage()).contains("[" + column + "]");
  }
}
