package io.cairn.jdbc.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.ConnectionUrl.ServerAddress;
import io.cairn.server.rpc.CairnServer;
import io.cairn.server.rpc.ServerConfig;
import io.cairn.server.rpc.ServerMXBean;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import javax.management.JMX;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * JDBC connections to a real server (in this JVM, on its own port): sharing one network connection,
 * connection pools, other connections' DDL, cancel and timeouts of remote scans, the server's view
 * of what the client left open, protocol versions.
 */
class TestRemoteJdbc {
  private static CairnServer server;
  private static ServerMXBean metrics;

  @BeforeAll
  static void start() throws Exception {
    // small pages: a scan of a few thousand rows takes many round trips
    server =
        CairnServer.start(
            ServerConfig.from(Map.of("port", "0", "http.port", "-1", "page.max-rows", "100")));
    metrics =
        JMX.newMXBeanProxy(
            ManagementFactory.getPlatformMBeanServer(),
            new ObjectName("io.cairn:type=Server,port=" + server.port()),
            ServerMXBean.class);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static String url(String database, String properties) {
    return "jdbc:cairn://127.0.0.1:" + server.port() + "/" + database + properties;
  }

  private static void execute(Connection c, String... statements) throws SQLException {
    try (Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    }
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  private static void load(Connection c, String table, int rows) throws SQLException {
    execute(c, "CREATE TABLE " + table + " (ID INTEGER PRIMARY KEY, V VARCHAR(20))");
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement("UPSERT INTO " + table + " VALUES (?, ?)")) {
      for (int i = 0; i < rows; i++) {
        ps.setInt(1, i);
        ps.setString(2, "value " + i);
        ps.executeUpdate();
      }
    }
    c.commit();
    c.setAutoCommit(true);
  }

  /** Waits up to 10 s for {@code value} to become {@code expected}. */
  private static void await(IntSupplier value, int expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (value.getAsInt() != expected && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(value.getAsInt()).isEqualTo(expected);
  }

  @Test
  void connectionsOfOneJvmShareOneNetworkConnection() throws Exception {
    await(metrics::getConnections, 0);
    long before = metrics.getConnectionsTotal();
    try (Connection a = DriverManager.getConnection(url("shared", ""));
        Connection b = DriverManager.getConnection(url("shared", ""))) {
      execute(a, "CREATE TABLE T (ID INTEGER PRIMARY KEY)", "UPSERT INTO T VALUES (1), (2)");
      assertThat(count(b, "SELECT COUNT(*) FROM T")).isEqualTo(2);
      assertThat(metrics.getConnections()).isEqualTo(1);
      assertThat(a.isValid(5)).isTrue();
      // other settings (here, the request timeout) make another network connection
      try (Connection c = DriverManager.getConnection(url("shared", ";requestTimeout=59s"))) {
        assertThat(count(c, "SELECT COUNT(*) FROM T")).isEqualTo(2);
        assertThat(metrics.getConnections()).isEqualTo(2);
      }
      b.close();
      assertThat(count(a, "SELECT COUNT(*) FROM T")).isEqualTo(2);
      assertThat(metrics.getConnectionsTotal() - before).isEqualTo(2);
    }
    // the last JDBC connection closes the network connection
    await(metrics::getConnections, 0);
    assertThat(RemoteDatabase.open()).isZero();
  }

  @Test
  void aConnectionPoolOfRemoteConnectionsWorks() throws Exception {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url("pooled", ""));
    config.setMaximumPoolSize(4);
    config.setMinimumIdle(1);
    config.setPoolName("cairn-test");
    try (HikariDataSource pool = new HikariDataSource(config)) {
      try (Connection c = pool.getConnection()) {
        execute(c, "CREATE TABLE IF NOT EXISTS P (ID INTEGER PRIMARY KEY, W INTEGER)");
      }
      ExecutorService threads = Executors.newFixedThreadPool(8);
      try {
        List<Future<Long>> results = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          int worker = t;
          results.add(
              threads.submit(
                  () -> {
                    long seen = 0;
                    for (int i = 0; i < 50; i++) {
                      try (Connection c = pool.getConnection();
                          PreparedStatement ps =
                              c.prepareStatement("UPSERT INTO P VALUES (?, ?)")) {
                        ps.setInt(1, worker * 1000 + i);
                        ps.setInt(2, worker);
                        ps.executeUpdate();
                        seen = count(c, "SELECT COUNT(*) FROM P WHERE W = " + worker);
                      }
                    }
                    return seen;
                  }));
        }
        for (Future<Long> r : results) {
          assertThat(r.get(60, TimeUnit.SECONDS)).isEqualTo(50);
        }
      } finally {
        threads.shutdownNow();
      }
      try (Connection c = pool.getConnection()) {
        assertThat(count(c, "SELECT COUNT(*) FROM P")).isEqualTo(400);
      }
      // every pooled connection rides on the same network connection
      assertThat(metrics.getConnections()).isEqualTo(1);
    }
    await(metrics::getConnections, 0);
  }

  @Test
  void ddlOfOneConnectionIsSeenByAnothersNextStatement() throws Exception {
    // different request timeouts: two network connections, two catalog copies
    try (Connection a = DriverManager.getConnection(url("ddl", ""));
        Connection b = DriverManager.getConnection(url("ddl", ";requestTimeout=58s"))) {
      assertThat(metrics.getConnections()).isEqualTo(2);
      assertThatThrownBy(() -> count(b, "SELECT COUNT(*) FROM D"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42S02"));
      execute(
          a, "CREATE TABLE D (ID INTEGER PRIMARY KEY, V INTEGER)", "UPSERT INTO D VALUES (1, 10)");
      assertThat(count(b, "SELECT COUNT(*) FROM D")).isEqualTo(1);
      assertThat(count(b, "SELECT SUM(V) FROM D")).isEqualTo(10);

      // a dropped and re-created table: b's cached plans are not used against it
      execute(
          a,
          "DROP TABLE D",
          "CREATE TABLE D (ID INTEGER PRIMARY KEY, W BIGINT)",
          "UPSERT INTO D VALUES (1, 5), (2, 6)");
      assertThat(count(b, "SELECT COUNT(*) FROM D")).isEqualTo(2);
      assertThat(count(b, "SELECT SUM(W) FROM D")).isEqualTo(11);
      assertThatThrownBy(() -> count(b, "SELECT SUM(V) FROM D"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42S22"));

      // and b's DDL is seen by a
      execute(b, "ALTER TABLE D SET TTL = 3600");
      try (ResultSet rs = a.getMetaData().getTables(null, "PUBLIC", "D", null)) {
        assertThat(rs.next()).isTrue();
      }
      execute(b, "DROP TABLE D");
      assertThatThrownBy(() -> count(a, "SELECT COUNT(*) FROM D"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42S02"));
    }
  }

  @Test
  void cancelStopsARemoteScanAndClosesItsServerScanner() throws Exception {
    try (Connection c = DriverManager.getConnection(url("cancel", ""))) {
      load(c, "BIG", 5000);
      await(metrics::getOpenScanners, 0);
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT * FROM BIG")) {
        assertThat(rs.next()).isTrue();
        assertThat(metrics.getOpenScanners()).isEqualTo(1);
        s.cancel();
        assertThatThrownBy(
                () -> {
                  while (rs.next()) {
                    // rows already on the client may come first
                  }
                })
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
      }
      await(metrics::getOpenScanners, 0);
      assertThat(count(c, "SELECT COUNT(*) FROM BIG")).isEqualTo(5000);
    }
  }

  @Test
  void aQueryTimeoutStopsARemoteScanEvenWhileTheClientWaits() throws Exception {
    try (Connection c = DriverManager.getConnection(url("timeout", ""))) {
      load(c, "BIG", 5000);
      await(metrics::getOpenScanners, 0);
      try (Statement s = c.createStatement()) {
        s.setQueryTimeout(1);
        try (ResultSet rs = s.executeQuery("SELECT * FROM BIG")) {
          assertThat(rs.next()).isTrue();
          assertThat(metrics.getOpenScanners()).isEqualTo(1);
          // nobody reads: the deadline alone closes the scanner on the server
          await(metrics::getOpenScanners, 0);
          assertThatThrownBy(
                  () -> {
                    while (rs.next()) {
                      // rows already on the client may come first
                    }
                  })
              .isInstanceOf(SQLTimeoutException.class);
        }
      }
      assertThat(count(c, "SELECT COUNT(*) FROM BIG")).isEqualTo(5000);
    }
  }

  @Test
  void closingAResultSetEarlyClosesItsServerScanner() throws Exception {
    try (Connection c = DriverManager.getConnection(url("early", ""))) {
      load(c, "BIG", 2000);
      await(metrics::getOpenScanners, 0);
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT V FROM BIG WHERE ID >= 10")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("value 10");
      }
      await(metrics::getOpenScanners, 0);
      // LIMIT without ORDER BY goes to the server: the scan ends there
      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT ID FROM BIG LIMIT 3")) {
        int rows = 0;
        while (rs.next()) {
          rows++;
        }
        assertThat(rows).isEqualTo(3);
      }
      await(metrics::getOpenScanners, 0);
    }
  }

  @Test
  void anotherProtocolVersionIsRefusedNamingBothVersions() {
    RpcConnection connection =
        new RpcConnection(RemoteConfig.of(new ServerAddress("127.0.0.1", server.port(), "")), 99);
    try {
      assertThatThrownBy(connection::awaitChannel)
          .isInstanceOfSatisfying(
              CairnException.class,
              e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PROTOCOL_VERSION_MISMATCH))
          .hasMessageContaining("protocol version [99]")
          .hasMessageContaining("this server speaks [1]");
    } finally {
      connection.close();
    }
  }

  /**
   * Column statistics (issue 18) travel with a table's statistics: the client's planner sees the
   * distinct values, nulls and bounds the server's store collected.
   */
  @Test
  void columnStatisticsReachTheClient() throws Exception {
    try (Connection c = DriverManager.getConnection(url("colstats", ""))) {
      execute(c, "CREATE TABLE CS (ID INTEGER PRIMARY KEY, V INTEGER, W VARCHAR(10))");
      try (PreparedStatement p = c.prepareStatement("UPSERT INTO CS VALUES (?, ?, ?)")) {
        for (int i = 0; i < 200; i++) {
          p.setInt(1, i);
          p.setInt(2, i % 7);
          p.setString(3, i % 4 == 0 ? null : "w" + (i % 3));
          p.addBatch();
        }
        p.executeBatch();
      }
      execute(c, "UPDATE STATISTICS CS");
    }
    RpcConnection connection =
        new RpcConnection(
            RemoteConfig.from(
                "//127.0.0.1:" + server.port() + "/colstats", new java.util.Properties()));
    try {
      RemoteCatalog catalog = new RemoteCatalog(connection);
      catalog.reload();
      String kvName = catalog.table("PUBLIC", "CS").orElseThrow().kvTableName();
      List<io.cairn.kv.ColumnStatistics> columns =
          new RemoteKvStore(connection).handle(kvName).columnStatistics();
      assertThat(columns).hasSize(3);
      assertThat(columns.get(0).distinct()).as("an estimate").isBetween(196L, 204L);
      assertThat(columns.get(1).distinct()).isEqualTo(7);
      assertThat(columns.get(1).min()).isEqualTo(0);
      assertThat(columns.get(1).max()).isEqualTo(6);
      assertThat(columns.get(2).nulls()).isEqualTo(50);
      assertThat(columns.get(2).distinct()).isEqualTo(3);
      assertThat(columns.get(2).min()).isEqualTo("w0");
    } finally {
      connection.close();
    }
  }
}
