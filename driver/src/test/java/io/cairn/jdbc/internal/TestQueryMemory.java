package io.cairn.jdbc.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.memory.MemoryPool;
import io.cairn.jdbc.internal.exec.DriverMemory;
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
 * The driver's query memory ({@link DriverMemory}): every operator that holds rows reserves them in
 * the query's pool, fails with 53200 naming the limit and the connection property past it, and
 * gives everything back when it ends, fails or is closed early.
 */
class TestQueryMemory {
  /** 2,000 rows of about 250 estimated bytes: about 500 KB in any operator that keeps them. */
  private static final int ROWS = 2000;

  private final String name = "querymemory-" + UUID.randomUUID();
  private Connection limited;

  @BeforeEach
  void load() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:cairn:mem:" + name);
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE T (ID INTEGER PRIMARY KEY, G INTEGER, S VARCHAR(200))");
      try (PreparedStatement ps = c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?)")) {
        for (int i = 0; i < ROWS; i++) {
          ps.setInt(1, i);
          ps.setInt(2, i % 7);
          ps.setString(3, "row-" + i + "-" + "x".repeat(100));
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
    limited = DriverManager.getConnection("jdbc:cairn:mem:" + name + ";queryMemoryMaxBytes=64k");
  }

  @AfterEach
  void close() throws SQLException {
    limited.close();
  }

  private static MemoryPool pool(Connection c) {
    return ((DatabaseSession) ((CairnConnection) c).session()).memory();
  }

  /** Runs {@code sql} to its end on {@code c}; returns the rows. */
  private static long drain(Connection c, String sql) throws SQLException {
    long rows = 0;
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(TestSpill.clientJoins(sql))) {
      while (rs.next()) {
        rows++;
      }
    }
    return rows;
  }

  private void assertOverTheLimit(String sql, String operator) {
    assertThatThrownBy(() -> drain(limited, sql))
        .isInstanceOfSatisfying(
            SQLException.class,
            e -> {
              assertThat(e.getSQLState()).isEqualTo("53200");
              assertThat(e.getMessage())
                  .contains(operator)
                  .contains("the query")
                  .contains("[65536] bytes")
                  .contains("[queryMemoryMaxBytes (connection property)]");
            });
    assertThat(pool(limited).used()).isZero();
  }

  @Test
  void fullSortOverTheLimitSpills() throws SQLException {
    String sql = "SELECT ID, S FROM (SELECT ID, S FROM T UNION ALL SELECT ID, S FROM T) ORDER BY S";
    assertThat(drain(limited, sql)).isEqualTo(2L * ROWS);
    assertThat(pool(limited).used()).isZero();
  }

  @Test
  void topNOverTheLimit() {
    assertOverTheLimit(
        "SELECT ID, S FROM (SELECT ID, S FROM T UNION ALL SELECT ID, S FROM T)"
            + " ORDER BY S LIMIT 100000",
        "ORDER BY");
  }

  @Test
  void topNWithinTheLimitKeepsOnlyItsRows() throws SQLException {
    assertThat(
            drain(
                limited,
                "SELECT ID, S FROM (SELECT ID, S FROM T UNION ALL SELECT ID, S FROM T)"
                    + " ORDER BY S LIMIT 10"))
        .isEqualTo(10);
    assertThat(pool(limited).used()).isZero();
  }

  @Test
  void joinBuildSideOverTheLimitSpills() throws SQLException {
    assertThat(drain(limited, "SELECT A.ID, B.S FROM T A JOIN T B ON A.ID = B.ID")).isEqualTo(ROWS);
    assertThat(pool(limited).used()).isZero();
  }

  /** 7 keys of about 286 rows each: one key's build rows alone pass 64 KiB. */
  @Test
  void joinKeyOverTheLimit() {
    assertOverTheLimit("SELECT A.ID, B.S FROM T A JOIN T B ON A.G = B.G", "one join key");
  }

  @Test
  void nestedLoopBuildSideOverTheLimit() {
    assertOverTheLimit("SELECT COUNT(*) FROM T A JOIN T B ON A.ID < B.G", "JOIN");
  }

  @Test
  void groupsOverTheLimitSpill() throws SQLException {
    assertThat(
            drain(
                limited,
                "SELECT S, COUNT(*) FROM (SELECT S FROM T UNION ALL SELECT S FROM T) GROUP BY S"))
        .isEqualTo(ROWS);
    assertThat(pool(limited).used()).isZero();
  }

  @Test
  void groupingSetsOverTheLimit() {
    assertOverTheLimit(
        "SELECT S, ID, COUNT(*) FROM (SELECT S, ID FROM T UNION ALL SELECT S, ID FROM T)"
            + " GROUP BY ROLLUP (S, ID)",
        "GROUP BY");
  }

  @Test
  void setOperationsOverTheLimit() {
    assertOverTheLimit("SELECT S FROM T INTERSECT SELECT S FROM T", "INTERSECT");
    assertOverTheLimit("SELECT S FROM T EXCEPT SELECT S FROM T WHERE ID < 10", "EXCEPT");
  }

  @Test
  void windowPartitionsOverTheLimit() {
    assertOverTheLimit("SELECT ID, ROW_NUMBER() OVER (PARTITION BY G ORDER BY S) FROM T", "window");
  }

  @Test
  void memoryGoesBackWhenAResultSetIsClosedEarly() throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:cairn:mem:" + name);
        Statement s = c.createStatement()) {
      ResultSet rs =
          s.executeQuery("SELECT A.ID, B.S FROM T A JOIN T B ON A.G = B.G ORDER BY B.S, A.ID");
      assertThat(rs.next()).isTrue();
      assertThat(pool(c).used()).isPositive();
      assertThat(DriverMemory.jvm().used()).isGreaterThanOrEqualTo(pool(c).used());
      rs.close();
      assertThat(pool(c).used()).isZero();
    }
  }

  @Test
  void theConnectionGoesOnAfterTheLimit() throws SQLException {
    assertOverTheLimit("SELECT A.ID, B.S FROM T A JOIN T B ON A.G = B.G", "JOIN");
    assertThat(drain(limited, "SELECT ID FROM T WHERE ID < 5 ORDER BY ID DESC")).isEqualTo(5);
    assertThat(pool(limited).used()).isZero();
  }

  @Test
  void invalidLimitIsRejected() {
    assertThatThrownBy(
            () -> DriverManager.getConnection("jdbc:cairn:mem:" + name + ";queryMemoryMaxBytes=1"))
        .isInstanceOfSatisfying(
            SQLException.class,
            e -> {
              assertThat(e.getSQLState()).isEqualTo("08001");
              assertThat(e.getMessage()).contains("queryMemoryMaxBytes").contains("[1]");
            });
  }

  @Test
  void theJvmPoolIsHalfTheHeapByDefault() {
    if (System.getProperty(DriverMemory.JVM_PROPERTY) == null) {
      assertThat(DriverMemory.jvm().limit()).isEqualTo(MemoryPool.heapFraction(0.5));
    }
    assertThat(DriverMemory.jvm().setting())
        .isEqualTo("cairn.driver.memoryMaxBytes (system property)");
  }
}
