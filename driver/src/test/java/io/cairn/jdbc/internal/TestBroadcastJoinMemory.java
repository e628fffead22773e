package io.cairn.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.memory.MemoryPool;
import io.cairn.jdbc.internal.session.DatabaseSession;
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
 * A join probed in the store holds its build side in the query's pool while it runs, and gives it
 * back when the result set closes early and when the statement is cancelled mid-probe.
 */
class TestBroadcastJoinMemory {
  private Connection c;

  @BeforeEach
  void load() throws SQLException {
    c = DriverManager.getConnection("jdbc:cairn:mem:broadcast-memory-" + UUID.randomUUID());
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE P (ID INTEGER PRIMARY KEY, K INTEGER) SPLIT ON (2000, 4000)");
      s.execute("CREATE TABLE B (ID INTEGER PRIMARY KEY, K INTEGER, NAME VARCHAR(20))");
    }
    try (PreparedStatement p = c.prepareStatement("UPSERT INTO P VALUES (?, ?)")) {
      for (int i = 0; i < 6000; i++) {
        p.setInt(1, i);
        p.setInt(2, i % 50);
        p.addBatch();
      }
      p.executeBatch();
    }
    try (PreparedStatement b = c.prepareStatement("UPSERT INTO B VALUES (?, ?, ?)")) {
      for (int i = 0; i < 100; i++) {
        b.setInt(1, i);
        b.setInt(2, i % 50);
        b.setString(3, "name " + i);
        b.addBatch();
      }
      b.executeBatch();
    }
  }

  @AfterEach
  void close() throws SQLException {
    c.close();
  }

  private MemoryPool pool() {
    return ((DatabaseSession) ((CairnConnection) c).session()).memory();
  }

  @Test
  void closingTheResultSetEarlyGivesTheBuildSideBack() throws SQLException {
    try (Statement s = c.createStatement()) {
      ResultSet rs = s.executeQuery("SELECT P.ID, B.NAME FROM P JOIN B ON P.K = B.K");
      assertThat(rs.next()).isTrue();
      assertThat(pool().used()).isPositive();
      rs.close();
      assertThat(pool().used()).isZero();
    }
  }

  @Test
  void aCancelMidProbeGivesTheBuildSideBack() throws SQLException {
    try (Statement s = c.createStatement()) {
      s.setFetchSize(1);
      ResultSet rs = s.executeQuery("SELECT P.ID, B.NAME FROM P JOIN B ON P.K = B.K");
      assertThat(rs.next()).isTrue();
      s.cancel();
      assertThatThrownBy(
              () -> {
                while (rs.next()) {
                  // read until the cancel stops the probe
                }
              })
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("cancel");
      rs.close();
      assertThat(pool().used()).isZero();
    }
  }
}
