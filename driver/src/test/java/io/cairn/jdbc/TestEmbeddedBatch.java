package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** executeBatch through the embedded engine, with a failing entry in autocommit mode. */
class TestEmbeddedBatch {
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("batch-" + UUID.randomUUID()));
    try (Statement s = connection.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(10))");
      s.executeUpdate("UPSERT INTO T VALUES (1, 'one')");
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private List<String> rows() throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT ID, V FROM T ORDER BY ID")) {
      while (rs.next()) {
        rows.add(rs.getInt(1) + "=" + rs.getString(2));
      }
    }
    return rows;
  }

  @Test
  void statementBatchStopsAtTheDuplicateKey() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.addBatch("UPSERT INTO T VALUES (2, 'two'), (3, 'three')");
      s.addBatch("UPSERT INTO T VALUES (1, 'uno')");
      s.addBatch("INSERT INTO T VALUES (4, 'four'), (1, 'dup')");
      s.addBatch("UPSERT INTO T VALUES (5, 'five')");
      BatchUpdateException e = catchThrowableOfType(s::executeBatch, BatchUpdateException.class);
      assertThat((Throwable) e).isNotNull();
      assertThat(e.getSQLState()).isEqualTo("23505");
      assertThat(e.getUpdateCounts()).containsExactly(2, 1);
      assertThat(e.getLargeUpdateCounts()).containsExactly(2L, 1L);
      assertThat(e.getMessage()).contains("ID=1");
      if (TestUrls.hbase()) {
        assertThat(e.getMessage()).contains("other rows of the statement or commit were written");
      }
      // The batch is cleared after execution.
      assertThat(s.executeBatch()).isEmpty();
    }
    // Earlier entries were applied (autocommit); the failing INSERT wrote nothing, not even row 4
    // (on HBase, atomic per row only, row 4 is written and the error says so); later entries did
    // not run.
    if (TestUrls.hbase()) {
      assertThat(rows()).containsExactly("1=uno", "2=two", "3=three", "4=four");
    } else {
      assertThat(rows()).containsExactly("1=uno", "2=two", "3=three");
    }
  }

  @Test
  void preparedBatchStopsAtTheDuplicateKey() throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement("INSERT INTO T VALUES (?, ?)")) {
      int[] ids = {10, 11, 1, 12};
      for (int id : ids) {
        ps.setInt(1, id);
        ps.setString(2, "v" + id);
        ps.addBatch();
      }
      BatchUpdateException e = catchThrowableOfType(ps::executeBatch, BatchUpdateException.class);
      assertThat((Throwable) e).isNotNull();
      assertThat(e.getSQLState()).isEqualTo("23505");
      assertThat(e.getUpdateCounts()).containsExactly(1, 1);
    }
    assertThat(rows()).containsExactly("1=one", "10=v10", "11=v11");
  }

  @Test
  void successfulBatchReturnsEveryCount() throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
      for (int i = 1; i <= 50; i++) {
        ps.setInt(1, i);
        ps.setString(2, "b" + i);
        ps.addBatch();
      }
      int[] counts = ps.executeBatch();
      assertThat(counts).hasSize(50).containsOnly(1);
    }
    try (Statement s = connection.createStatement()) {
      s.addBatch("DELETE FROM T WHERE ID > 40");
      s.addBatch("DELETE FROM T WHERE ID > 40");
      s.addBatch("UPDATE T SET V = 'u' WHERE ID <= 5");
      assertThat(s.executeBatch()).containsExactly(10, 0, 5);
    }
    assertThat(rows()).hasSize(40).startsWith("1=u", "2=u").contains("6=b6", "40=b40");
  }

  @Test
  void batchInATransactionIsRolledBackAsAWhole() throws SQLException {
    connection.setAutoCommit(false);
    try (Statement s = connection.createStatement()) {
      s.addBatch("UPSERT INTO T VALUES (2, 'two')");
      s.addBatch("UPSERT INTO T VALUES (3, 'three')");
      assertThat(s.executeBatch()).containsExactly(1, 1);
    }
    connection.rollback();
    connection.setAutoCommit(true);
    assertThat(rows()).containsExactly("1=one");
  }

  @Test
  void upsertBatchRunsAsOneWriteAndStopsAtTheFirstBadSet() throws SQLException {
    try (PreparedStatement ps = connection.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
      for (int id = 2; id <= 6; id++) {
        ps.setInt(1, id);
        ps.setString(2, id == 4 ? "far too long for ten" : "v" + id);
        ps.addBatch();
      }
      BatchUpdateException e = catchThrowableOfType(ps::executeBatch, BatchUpdateException.class);
      assertThat((Throwable) e).isNotNull();
      assertThat(e.getSQLState()).isEqualTo("22001"); // string data, right truncation
      assertThat(e.getMessage()).startsWith("Batch entry [3] failed");
      assertThat(e.getUpdateCounts()).containsExactly(1, 1);
    }
    // the sets before the bad one were written, none after it
    assertThat(rows()).containsExactly("1=one", "2=v2", "3=v3");
  }

  @Test
  void upsertBatchKeepsTheLastValueOfAKeyAndHonoursTheTransaction() throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO T (V, ID) VALUES (?, ?)")) {
      for (int i = 0; i < 3000; i++) {
        ps.setString(1, "r" + i);
        ps.setInt(2, i % 1000); // every key three times: the last set wins, as run one by one
        ps.addBatch();
      }
      assertThat(ps.executeLargeBatch()).hasSize(3000).containsOnly(1L);
    }
    List<String> rows = rows();
    assertThat(rows).hasSize(1000).contains("0=r2000", "1=r2001", "999=r2999");
    connection.setAutoCommit(false);
    try (PreparedStatement ps = connection.prepareStatement("UPSERT INTO T VALUES (?, ?)")) {
      for (int id = 5000; id < 5100; id++) {
        ps.setInt(1, id);
        ps.setString(2, "t");
        ps.addBatch();
      }
      assertThat(ps.executeBatch()).hasSize(100);
      // the transaction reads its own batch
      try (Statement s = connection.createStatement();
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM T WHERE ID >= 5000")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getLong(1)).isEqualTo(100);
      }
    }
    connection.rollback();
    connection.setAutoCommit(true);
    assertThat(rows()).isEqualTo(rows);
  }

  @Test
  void upsertBatchCastsEachParameterAsOneStatementDoes() throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.executeUpdate(
          "CREATE TABLE N (ID BIGINT PRIMARY KEY, S SMALLINT, D DOUBLE, C CHAR(4), V VARCHAR(3),"
              + " B BOOLEAN, M DECIMAL(6,2))");
    }
    Object[] values = {(short) 3, 2, "ab", "xyz", true, 1.5};
    try (PreparedStatement ps =
        connection.prepareStatement("UPSERT INTO N VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      // the same values in a batch (row 7) and alone (row 17), of other classes than the columns'
      for (long id : new long[] {7, 17}) {
        ps.setObject(1, (int) id);
        for (int i = 0; i < values.length; i++) {
          ps.setObject(i + 2, values[i]);
        }
        if (id == 7) {
          ps.addBatch();
          SQLException tooBig =
              catchThrowableOfType(() -> ps.setObject(2, 70_000), SQLException.class);
          assertThat(tooBig.getSQLState()).isEqualTo("22003"); // numeric value out of range
          assertThat(ps.executeBatch()).containsExactly(1);
        } else {
          assertThat(ps.executeUpdate()).isEqualTo(1);
        }
      }
    }
    List<List<Object>> rows = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM N ORDER BY ID")) {
      while (rs.next()) {
        List<Object> row = new ArrayList<>();
        for (int c = 2; c <= 7; c++) {
          row.add(rs.getObject(c));
        }
        rows.add(row);
      }
    }
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0)).isEqualTo(rows.get(1));
    assertThat(((Number) rows.get(0).get(0)).intValue()).isEqualTo(3);
    assertThat(rows.get(0).get(1)).isEqualTo(2.0);
  }
}
