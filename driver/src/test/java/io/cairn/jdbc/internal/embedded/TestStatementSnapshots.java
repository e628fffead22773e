package io.cairn.jdbc.internal.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.store.EmbeddedStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which statements pin a snapshot of the embedded store and that they all give it back: a statement
 * of several scans, or of one scan over several chunks, holds one while it runs and closes it when
 * it ends (read to the end, closed early, failed, cancelled); point lookups and one-chunk scans
 * take none; a transaction holds one from its first statement to its end.
 */
class TestStatementSnapshots {
  private static final int ROWS = 2000;

  private String name;
  private Connection c;
  private Statement s;
  private EmbeddedStore store;

  @BeforeEach
  void open() throws SQLException {
    name = "mem:snapshots-" + UUID.randomUUID();
    c = DriverManager.getConnection("jdbc:cairn:" + name);
    s = c.createStatement();
    // two regions: a scan of T runs two chunks
    s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, N INTEGER NOT NULL) SPLIT ON (1000)");
    s.executeUpdate("CREATE TABLE SMALL (ID INTEGER PRIMARY KEY, N INTEGER NOT NULL)");
    try (PreparedStatement p = c.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
      for (int i = 0; i < ROWS; i++) {
        p.setInt(1, i);
        p.setInt(2, i % 10);
        p.addBatch();
      }
      p.executeBatch();
    }
    s.executeUpdate("UPSERT INTO SMALL VALUES (1, 0)");
    store = (EmbeddedStore) EmbeddedDatabase.acquireInMemory(name).store();
    assertThat(store.openSnapshots()).isZero();
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
    assertThat(store.openSnapshots()).isZero();
  }

  @Test
  void pointLookupsAndOneChunkScansTakeNone() throws SQLException {
    try (ResultSet rs = s.executeQuery("SELECT N FROM T WHERE ID IN (1, 2, 3)")) {
      assertThat(rs.next()).isTrue();
      assertThat(store.openSnapshots()).isZero();
    }
    try (ResultSet rs = s.executeQuery("SELECT N FROM SMALL")) {
      assertThat(rs.next()).isTrue();
      assertThat(store.openSnapshots()).isZero();
    }
    s.executeUpdate("UPSERT INTO SMALL VALUES (2, 2)"); // a blind write reads nothing
    assertThat(store.openSnapshots()).isZero();
  }

  @Test
  void aStatementOfSeveralChunksOrScansHoldsOneUntilItsCursorCloses() throws SQLException {
    try (ResultSet rs = s.executeQuery("EXPLAIN SELECT ID FROM T")) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString(1)).contains("2-CHUNK");
    }
    try (ResultSet rs = s.executeQuery("SELECT ID FROM T")) {
      assertThat(rs.next()).isTrue();
      assertThat(store.openSnapshots()).isEqualTo(1);
    }
    assertThat(store.openSnapshots()).isZero();
    try (ResultSet rs =
        s.executeQuery(
            "SELECT T.ID FROM T JOIN SMALL ON T.ID = SMALL.ID UNION ALL SELECT ID FROM SMALL")) {
      assertThat(rs.next()).isTrue();
      assertThat(store.openSnapshots()).isEqualTo(1);
      while (rs.next()) {
        assertThat(store.openSnapshots()).isEqualTo(1);
      }
      assertThat(store.openSnapshots()).as("read to the end").isZero();
    }
  }

  @Test
  void failedAndCancelledStatementsGiveItBack() throws SQLException {
    assertThatThrownBy(
            () -> {
              try (ResultSet rs = s.executeQuery("SELECT T.ID / (T.N - 5) FROM T, SMALL")) {
                while (rs.next()) {
                  rs.getInt(1);
                }
              }
            })
        .isInstanceOf(SQLException.class);
    assertThat(store.openSnapshots()).isZero();

    ResultSet rs = s.executeQuery("SELECT T.ID FROM T, SMALL");
    assertThat(rs.next()).isTrue();
    assertThat(store.openSnapshots()).isEqualTo(1);
    s.cancel();
    assertThatThrownBy(
            () -> {
              while (rs.next()) {
                rs.getInt(1);
              }
            })
        .isInstanceOfSatisfying(
            SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
    assertThat(store.openSnapshots()).as("before the result set is closed").isZero();
    rs.close();
  }

  @Test
  void readModifyWritesHoldOneForTheirWriteOnly() throws SQLException {
    assertThat(s.executeUpdate("UPDATE T SET N = N + 1 WHERE ID < 100")).isEqualTo(100);
    assertThat(s.executeUpdate("DELETE FROM T WHERE ID >= 1900")).isEqualTo(100);
    assertThat(s.executeUpdate("UPSERT INTO SMALL (ID) VALUES (1)")).isEqualTo(1);
    assertThat(s.executeUpdate("UPSERT INTO SMALL SELECT ID, N FROM T WHERE ID < 10"))
        .isEqualTo(10);
    assertThat(store.openSnapshots()).isZero();
    assertThatThrownBy(() -> s.executeUpdate("UPDATE T SET N = N / (ID - 5)"))
        .isInstanceOf(SQLException.class);
    assertThat(store.openSnapshots()).isZero();
  }

  @Test
  void aTransactionReadsAtOneSnapshotFromItsFirstStatementToItsEnd() throws SQLException {
    try (Connection other = DriverManager.getConnection("jdbc:cairn:" + name);
        Statement o = other.createStatement()) {
      c.setAutoCommit(false);
      assertThat(count("SELECT N FROM SMALL WHERE ID = 1")).isZero();
      assertThat(store.openSnapshots()).isEqualTo(1);
      o.executeUpdate("UPSERT INTO SMALL VALUES (1, 42)");
      // the transaction still reads at its snapshot, even a point lookup
      assertThat(count("SELECT N FROM SMALL WHERE ID = 1")).isZero();
      c.commit();
      assertThat(store.openSnapshots()).isZero();
      assertThat(count("SELECT N FROM SMALL WHERE ID = 1")).isEqualTo(42);
      assertThat(store.openSnapshots()).isEqualTo(1);
      c.rollback();
      assertThat(store.openSnapshots()).isZero();
      assertThat(count("SELECT N FROM SMALL WHERE ID = 1")).isEqualTo(42);
      c.setAutoCommit(true);
      assertThat(store.openSnapshots()).isZero();
      c.setAutoCommit(false);
      assertThat(count("SELECT N FROM SMALL WHERE ID = 1")).isEqualTo(42);
    }
    // closing the connection in a transaction gives it back (checked after each test)
  }

  private long count(String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }
}
