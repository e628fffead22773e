package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans of a durable table that end early (abandoned, failed, cancelled, limited) give back every
 * block they hold: the read buffers are all back at once, and the leak check (paranoid mode, see
 * io.cairn.store.testing.LeakCheckExtension) finds no cached block still held when the database
 * closes after each test.
 */
@EmbeddedOnly("inspects the embedded durable store's buffer pool and block cache after scans")
class TestScanRelease {
  private static final int ROWS = 30_000;

  @TempDir Path dir;
  private String url;

  @BeforeEach
  void load() throws SQLException {
    url = "jdbc:cairn:file:" + dir + ";cairn.block-cache.size=2m";
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.executeUpdate("CREATE TABLE T (K INTEGER PRIMARY KEY, D INTEGER, V VARCHAR(60))");
      try (PreparedStatement p = c.prepareStatement("UPSERT INTO T VALUES (?, ?, ?)")) {
        for (int i = 0; i < ROWS; i++) {
          p.setInt(1, i);
          p.setInt(2, ROWS - 1000 - i); // 0 at row ROWS - 1000: a division by zero late in the scan
          p.setString(3, "row " + i + " of the release test");
          p.addBatch();
        }
        p.executeBatch();
      }
      c.commit();
      s.executeUpdate("FLUSH TABLE T");
    }
  }

  private static long usedBuffers(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT USED_BUFFERS FROM SYSTEM.BUFFER_POOL")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void abandonedResultSetsAreReleasedWhenTheConnectionCloses() throws SQLException {
    Connection c = DriverManager.getConnection(url);
    Statement s = c.createStatement();
    ResultSet cached = s.executeQuery("SELECT * FROM T");
    assertThat(cached.next()).isTrue();
    Statement s2 = c.createStatement();
    ResultSet uncached = s2.executeQuery("SELECT /*+ NO_CACHE */ * FROM T");
    for (int i = 0; i < 5000; i++) {
      assertThat(uncached.next()).isTrue();
    }
    // neither is closed: closing the connection (and with it the database) must release both
    c.close();
  }

  @Test
  void aScanThatFailsMidwayReleasesItsBlocks() throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String hint : new String[] {"", "/*+ NO_CACHE */"}) {
        assertThatThrownBy(
                () -> {
                  try (ResultSet rs = s.executeQuery("SELECT " + hint + " K / D FROM T")) {
                    while (rs.next()) {
                      rs.getLong(1);
                    }
                  }
                })
            .isInstanceOf(SQLException.class)
            .hasMessageContaining("ivision by zero");
        assertThat(usedBuffers(c)).isZero();
      }
      // the aggregate runs inside the store: the error comes from the scan program
      assertThatThrownBy(
              () -> {
                try (ResultSet rs = s.executeQuery("SELECT /*+ NO_CACHE */ SUM(K / D) FROM T")) {
                  rs.next();
                }
              })
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("ivision by zero");
      assertThat(usedBuffers(c)).isZero();
    }
  }

  @Test
  void limitsAndEarlyClosesReleaseTheirBlocks() throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT /*+ NO_CACHE */ * FROM T LIMIT 10")) {
        int n = 0;
        while (rs.next()) {
          n++;
        }
        assertThat(n).isEqualTo(10);
      }
      try (ResultSet rs = s.executeQuery("SELECT /*+ NO_CACHE */ * FROM T WHERE K > 100")) {
        assertThat(rs.next()).isTrue();
      }
      assertThat(usedBuffers(c)).isZero();
    }
  }

  @Test
  void aCancelledScanReleasesItsBlocks() throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor();
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      CountDownLatch started = new CountDownLatch(1);
      Future<Long> rows =
          executor.submit(
              () -> {
                long n = 0;
                try (ResultSet rs = s.executeQuery("SELECT /*+ NO_CACHE */ * FROM T")) {
                  while (rs.next()) {
                    if (++n == 100) {
                      started.countDown();
                      TimeUnit.MILLISECONDS.sleep(50); // the cancel arrives mid-scan
                    }
                  }
                } catch (SQLException e) {
                  assertThat(e.getSQLState()).isEqualTo("57014");
                  return -1L;
                }
                return n;
              });
      assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
      s.cancel();
      assertThat(rows.get(60, TimeUnit.SECONDS)).isEqualTo(-1L);
      assertThat(usedBuffers(c)).isZero();
    } finally {
      executor.shutdownNow();
    }
  }
}
