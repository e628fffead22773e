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
@NotOnHBase(
    "snapshot reads and all-or-nothing commits across rows: HBase is atomic per row only (LATEST_PER_ROW)")
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
      s.executeUpdate("INSERT INTO T VALUES (5, 'mine')"); // absent at the transaction's snapshot
    }
    try (Statement s = reader.createStatement()) {
      s.executeUpdate("INSERT INTO T VALUES (5, 'theirs')"); // committed first
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(writer::commit)
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("Duplicate key in [PUBLIC.T]")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("23505");
    assertThat(countU(reader)).isZero();
    assertThat(rows(reader)).containsExactly("1=one", "5=theirs");
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO U VALUES (8)");
      s.executeUpdate("UPSERT INTO T VALUES (2, 'two')");
    }
    writer.commit();
    assertThat(countU(reader)).isEqualTo(1);
    assertThat(rows(reader)).containsExactly("1=one", "2=two", "5=theirs");
  }

  @Test
  void anInsertOfAKeyTheTransactionSeesFailsAtOnce() throws SQLException {
    writer.setAutoCommit(false);
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO U VALUES (7)");
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> s.executeUpdate("INSERT INTO T VALUES (1, 'again')"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("Duplicate key in [PUBLIC.T]")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("23505");
      s.executeUpdate("INSERT INTO T VALUES (3, 'three')");
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> s.executeUpdate("INSERT INTO T VALUES (3, 'trois')"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("ID=3");
      // a key the transaction deleted can be inserted again
      s.executeUpdate("DELETE FROM T WHERE ID = 1");
      s.executeUpdate("INSERT INTO T VALUES (1, 'uno')");
    }
    writer.commit();
    assertThat(rows(reader)).containsExactly("1=uno", "3=three");
    assertThat(countU(reader)).isEqualTo(1);
  }

  @Test
  void anUpsertThenADeleteOfAKeyDeletesIt() throws SQLException {
    writer.setAutoCommit(false);
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO T VALUES (2, 'two')");
      s.executeUpdate("DELETE FROM T WHERE ID = 2");
      s.executeUpdate("UPSERT INTO T VALUES (3, 'three')");
      s.executeUpdate("DELETE FROM T WHERE ID = 1");
      s.executeUpdate("UPSERT INTO T VALUES (1, 'uno')");
      s.executeUpdate("DELETE FROM T WHERE ID = 3");
    }
    assertThat(rows(writer)).containsExactly("1=uno");
    writer.commit();
    assertThat(rows(reader)).containsExactly("1=uno");
  }

  @Test
  void statementsSeeTheTransactionsOwnWrites() throws SQLException {
    writer.setAutoCommit(false);
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO T VALUES (2, 'two'), (3, 'three'), (4, 'four')");
      s.executeUpdate("UPDATE T SET V = 'deux' WHERE ID = 2");
      s.executeUpdate("DELETE FROM T WHERE ID = 4");
      s.executeUpdate("UPDATE T SET V = V || '!' WHERE ID <= 2");
      assertThat(rows(writer)).containsExactly("1=one!", "2=deux!", "3=three");
      try (ResultSet rs =
          s.executeQuery("SELECT COUNT(*), MAX(ID), MIN(V) FROM T WHERE V <> 'three'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(2);
        assertThat(rs.getInt(2)).isEqualTo(2);
        assertThat(rs.getString(3)).isEqualTo("deux!");
      }
      try (ResultSet rs = s.executeQuery("SELECT V FROM T ORDER BY V DESC LIMIT 1 OFFSET 1")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("one!");
      }
      try (ResultSet rs = s.executeQuery("SELECT V FROM T WHERE ID = 3")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("three");
      }
      try (ResultSet rs =
          s.executeQuery("SELECT T.V FROM T JOIN U ON T.ID = U.ID")) { // U untouched
        assertThat(rs.next()).isFalse();
      }
      s.executeUpdate("UPSERT INTO U SELECT ID FROM T WHERE ID > 1");
      assertThat(countU(writer)).isEqualTo(2);
    }
    assertThat(rows(reader)).containsExactly("1=one");
    assertThat(countU(reader)).isZero();
    writer.commit();
    assertThat(rows(reader)).containsExactly("1=one!", "2=deux!", "3=three");
    assertThat(countU(reader)).isEqualTo(2);
  }

  @Test
  void aTableWithoutPrimaryKeyShowsTheTransactionsWrites() throws SQLException {
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("CREATE TABLE LOG (MSG VARCHAR(10))");
      s.executeUpdate("UPSERT INTO LOG VALUES ('a')");
    }
    writer.setAutoCommit(false);
    try (Statement s = writer.createStatement()) {
      s.executeUpdate("UPSERT INTO LOG VALUES ('b'), ('c')");
      s.executeUpdate("DELETE FROM LOG WHERE MSG = 'a'");
      try (ResultSet rs = s.executeQuery("SELECT MSG FROM LOG ORDER BY MSG")) {
        List<String> seen = new ArrayList<>();
        while (rs.next()) {
          seen.add(rs.getString(1));
        }
        assertThat(seen).containsExactly("b", "c");
      }
    }
    writer.commit();
    try (Statement s = reader.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*), MIN(MSG) FROM LOG")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getLong(1)).isEqualTo(2);
      assertThat(rs.getString(2)).isEqualTo("b");
    }
  }

  @Test
  void aTransactionReadsOneSnapshotWhileOthersCommit() throws SQLException {
    writer.setAutoCommit(false);
    assertThat(rows(writer)).containsExactly("1=one");
    try (Statement s = reader.createStatement()) {
      s.executeUpdate("UPSERT INTO T VALUES (2, 'two')");
      s.executeUpdate("UPDATE T SET V = 'uno' WHERE ID = 1");
    }
    assertThat(rows(writer)).containsExactly("1=one"); // repeatable: the same snapshot
    writer.commit(); // ends the transaction; the next one reads a new snapshot
    assertThat(rows(writer)).containsExactly("1=uno", "2=two");
  }

  @Test
  void theFirstOfTwoTransactionsChangingARowWins() throws SQLException {
    writer.setAutoCommit(false);
    reader.setAutoCommit(false);
    try (Statement w = writer.createStatement();
        Statement r = reader.createStatement()) {
      w.executeUpdate("UPDATE T SET V = V || 'W' WHERE ID = 1");
      r.executeUpdate("UPDATE T SET V = V || 'R' WHERE ID = 1");
      reader.commit();
      org.assertj.core.api.Assertions.assertThatThrownBy(writer::commit)
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("Write conflict in [PUBLIC.T]")
          .hasMessageContaining("ID=1")
          .extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("40001");
    }
    reader.setAutoCommit(true);
    assertThat(rows(reader)).containsExactly("1=oneR");
    // the failed commit rolled the transaction back: the connection goes on
    try (Statement w = writer.createStatement()) {
      w.executeUpdate("UPDATE T SET V = V || 'W' WHERE ID = 1");
    }
    writer.commit();
    assertThat(rows(reader)).containsExactly("1=oneRW");
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
    // The transaction's own statements see its writes; other connections do not.
    assertThat(rows(writer)).containsExactly("1=uno", "2=two");

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
