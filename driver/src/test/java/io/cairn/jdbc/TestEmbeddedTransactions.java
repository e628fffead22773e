package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Transactions seen from a second connection to the same in-memory database. */
class TestEmbeddedTransactions {
  private String url;
  private Connection writer;
  private Connection reader;

  @BeforeEach
  void open() throws SQLException {
    url = TestUrls.database("tx-" + UUID.randomUUID());
    writer = DriverManager.getConnection(url);
    reader = DriverManager.getConnection(url);
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(10))");
      s.executeUpdate("CREATE TABLE U (ID INTEGER PRIMARY KEY)");
      s.executeUpdate("UPSERT INTO T VALUES (1, 'one')");
    }
  }

  @AfterEach
  void close() throws SQLException {
    writer.close();
    reader.close();
  }

  private static List<String> rows(Connection c) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT ID, V FROM T ORDER BY ID")) {
      while (rs.next()) {
        rows.add(rs.getInt(1) + "=" + rs.getString(2));
      }
    }
    return rows;
  }

  private static long countU(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM U")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void aCommitAcrossTablesIsAllOrNothing() throws SQLException {
    writer.setAutoCommit(false);
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO U VALUES (7)");
      s.executeUpdate("INSERT INTO T VALUES (1, 'again')"); // ID 1 exists: fails at commit
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(writer::commit)
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("Duplicate key in [PUBLIC.T]")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("23505");
    assertThat(countU(reader)).isZero();
    assertThat(rows(reader)).containsExactly("1=one");
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO U VALUES (8)");
      s.executeUpdate("UPSERT INTO T VALUES (2, 'two')");
    }
    writer.commit();
    assertThat(countU(reader)).isEqualTo(1);
    assertThat(rows(reader)).containsExactly("1=one", "2=two");
  }

  @Test
  void commitMakesWritesVisible() throws SQLException {
    writer.setAutoCommit(false);
    try (Statement s = writer.createStatement()) {
      assertThat(s.executeUpdate("UPSERT INTO T VALUES (2, 'two'), (3, 'three')")).isEqualTo(2);
      assertThat(s.executeUpdate("UPDATE T SET V = 'uno' WHERE ID = 1")).isEqualTo(1);
      assertThat(s.executeUpdate("UPSERT INTO U VALUES (7)")).isEqualTo(1);
      assertThat(s.executeUpdate("DELETE FROM T WHERE ID = 3")).isGreaterThanOrEqualTo(0);
    }
    assertThat(rows(reader)).containsExactly("1=one");
    assertThat(countU(reader)).isZero();
    // Queries read committed data, not the connection's own pending writes.
    assertThat(rows(writer)).containsExactly("1=one");

    writer.commit();
    assertThat(rows(reader)).contains("1=uno", "2=two");
    assertThat(countU(reader)).isEqualTo(1);
  }

  @Test
  void rollbackDiscardsWrites() throws SQLException {
    writer.setAutoCommit(false);
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO T VALUES (2, 'two')");
      s.executeUpdate("DELETE FROM T WHERE ID = 1");
    }
    writer.rollback();
    assertThat(rows(reader)).containsExactly("1=one");
    writer.commit();
    assertThat(rows(reader)).containsExactly("1=one");
    // The connection keeps working in the transaction after a rollback.
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO T VALUES (4, 'four')");
    }
    writer.commit();
    assertThat(rows(reader)).containsExactly("1=one", "4=four");
  }

  @Test
  void closingDiscardsPendingWrites() throws SQLException {
    Connection c = DriverManager.getConnection(url);
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.executeUpdate("UPSERT INTO T VALUES (5, 'five')");
    }
    c.close();
    assertThat(rows(reader)).containsExactly("1=one");
  }

  @Test
  void setAutoCommitTrueCommitsPendingWrites() throws SQLException {
    writer.setAutoCommit(false);
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO T VALUES (6, 'six')");
    }
    assertThat(rows(reader)).containsExactly("1=one");
    writer.setAutoCommit(true);
    assertThat(rows(reader)).containsExactly("1=one", "6=six");
    // Back in autocommit: each statement is visible at once.
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO T VALUES (7, 'seven')");
    }
    assertThat(rows(reader)).containsExactly("1=one", "6=six", "7=seven");
  }

  @Test
  void failedStatementInATransactionLeavesEarlierWritesPending() throws SQLException {
    writer.setAutoCommit(false);
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO T VALUES (8, 'eight')");
      try {
        s.executeUpdate("UPSERT INTO T VALUES (9, 'far too long')");
        throw new AssertionError("expected 22001");
      } catch (SQLException e) {
        assertThat(e.getSQLState()).isEqualTo("22001");
      }
    }
    writer.commit();
    assertThat(rows(reader)).containsExactly("1=one", "8=eight");
  }
}
