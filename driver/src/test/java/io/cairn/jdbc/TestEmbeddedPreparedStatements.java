package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

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

/** One PreparedStatement executed many times with different parameters. */
class TestEmbeddedPreparedStatements {
  private Connection connection;

  @BeforeEach
  void open() throws SQLException {
    connection = DriverManager.getConnection(TestUrls.database("prepared-" + UUID.randomUUID()));
    try (Statement s = connection.createStatement()) {
      s.executeUpdate(
          "CREATE TABLE T (ID INTEGER PRIMARY KEY, NAME VARCHAR(20), QTY BIGINT NOT NULL)");
    }
    try (PreparedStatement ps = connection.prepareStatement("UPSERT INTO T VALUES (?, ?, ?)")) {
      for (int i = 1; i <= 100; i++) {
        ps.setInt(1, i);
        ps.setString(2, "n" + i);
        ps.setLong(3, i * 10L);
        assertThat(ps.executeUpdate()).isEqualTo(1);
      }
    }
  }

  @AfterEach
  void close() throws SQLException {
    connection.close();
  }

  private static List<Integer> ids(PreparedStatement ps) throws SQLException {
    List<Integer> ids = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        ids.add(rs.getInt(1));
      }
    }
    return ids;
  }

  @Test
  void pointLookups() throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement("SELECT ID, NAME, QTY FROM T WHERE ID = ?")) {
      for (int i = 1; i <= 100; i += 7) {
        ps.setInt(1, i);
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(i);
          assertThat(rs.getString(2)).isEqualTo("n" + i);
          assertThat(rs.getLong(3)).isEqualTo(i * 10L);
          assertThat(rs.next()).isFalse();
        }
      }
      ps.setInt(1, 1000);
      assertThat(ids(ps)).isEmpty();
      ps.setInt(1, 5);
      assertThat(ids(ps)).containsExactly(5);
    }
  }

  @Test
  void rangesWithParameterBounds() throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement("SELECT ID FROM T WHERE ID >= ? AND ID < ? ORDER BY ID")) {
      ps.setInt(1, 10);
      ps.setInt(2, 15);
      assertThat(ids(ps)).containsExactly(10, 11, 12, 13, 14);
      ps.setInt(1, 98);
      ps.setInt(2, 1000);
      assertThat(ids(ps)).containsExactly(98, 99, 100);
      ps.setInt(1, -5);
      ps.setInt(2, 3);
      assertThat(ids(ps)).containsExactly(1, 2);
      ps.setInt(1, 50);
      ps.setInt(2, 50);
      assertThat(ids(ps)).isEmpty();
      ps.setInt(1, 60);
      ps.setInt(2, 40);
      assertThat(ids(ps)).isEmpty();
    }
    try (PreparedStatement ps =
        connection.prepareStatement(
            "SELECT ID FROM T WHERE ID BETWEEN ? AND ? AND QTY > ? ORDER BY ID DESC")) {
      ps.setInt(1, 20);
      ps.setInt(2, 30);
      ps.setLong(3, 250);
      assertThat(ids(ps)).containsExactly(30, 29, 28, 27, 26);
      ps.setLong(3, 0);
      assertThat(ids(ps)).hasSize(11);
    }
    try (PreparedStatement ps =
        connection.prepareStatement("SELECT ID FROM T WHERE NAME = ? OR ID IN (?, ?) ORDER BY 1")) {
      ps.setString(1, "n42");
      ps.setInt(2, 7);
      ps.setInt(3, 77);
      assertThat(ids(ps)).containsExactly(7, 42, 77);
      ps.setString(1, "none");
      ps.setInt(2, 1);
      ps.setInt(3, 1);
      assertThat(ids(ps)).containsExactly(1);
    }
  }

  @Test
  void upsertAndDeleteWithParameters() throws SQLException {
    try (PreparedStatement upsert =
            connection.prepareStatement("UPSERT INTO T (ID, QTY) VALUES (?, ?)");
        PreparedStatement delete = connection.prepareStatement("DELETE FROM T WHERE ID = ?");
        PreparedStatement deleteRange =
            connection.prepareStatement("DELETE FROM T WHERE ID > ? AND QTY <= ?");
        PreparedStatement read =
            connection.prepareStatement("SELECT NAME, QTY FROM T WHERE ID = ?")) {
      for (int i = 1; i <= 10; i++) {
        upsert.setInt(1, i);
        upsert.setLong(2, -i);
        assertThat(upsert.executeUpdate()).isEqualTo(1);
      }
      for (int i = 1; i <= 10; i++) {
        read.setInt(1, i);
        try (ResultSet rs = read.executeQuery()) {
          assertThat(rs.next()).isTrue();
          // UPSERT of some columns keeps the others (Phoenix semantics).
          assertThat(rs.getString(1)).isEqualTo("n" + i);
          assertThat(rs.getLong(2)).isEqualTo(-i);
        }
      }
      upsert.setInt(1, 500);
      upsert.setLong(2, Long.MIN_VALUE);
      upsert.executeUpdate();
      read.setInt(1, 500);
      try (ResultSet rs = read.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isNull();
        assertThat(rs.getLong(2)).isEqualTo(Long.MIN_VALUE);
      }

      for (int i = 1; i <= 10; i += 2) {
        delete.setInt(1, i);
        assertThat(delete.executeUpdate()).isEqualTo(1);
      }
      delete.setInt(1, 12345);
      assertThat(delete.executeUpdate()).isZero();

      deleteRange.setInt(1, 90);
      deleteRange.setLong(2, 950);
      assertThat(deleteRange.executeUpdate()).isEqualTo(6); // 91..95 and 500
      deleteRange.setInt(1, 0);
      deleteRange.setLong(2, -5);
      assertThat(deleteRange.executeUpdate()).isEqualTo(3); // 6, 8 and 10
    }
    try (PreparedStatement ps = connection.prepareStatement("SELECT ID FROM T ORDER BY ID")) {
      List<Integer> expected = new ArrayList<>();
      expected.add(2);
      expected.add(4);
      for (int i = 11; i <= 100; i++) {
        if (i < 91 || i > 95) {
          expected.add(i);
        }
      }
      assertThat(ids(ps)).isEqualTo(expected);
    }
  }

  @Test
  void parameterizedAggregateReusedManyTimes() throws SQLException {
    try (PreparedStatement ps =
        connection.prepareStatement("SELECT COUNT(*), SUM(QTY) FROM T WHERE ID <= ?")) {
      for (int n = 0; n <= 100; n += 10) {
        ps.setInt(1, n);
        try (ResultSet rs = ps.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(n);
          long sum = rs.getLong(2);
          assertThat(rs.wasNull()).isEqualTo(n == 0);
          assertThat(sum).isEqualTo(10L * n * (n + 1) / 2);
        }
      }
    }
  }
}
