package io.cairn.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.TestingSession;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

@EmbeddedOnly("URL parsing and DriverManager, over a fake engine session: no database at all")
class TestCairnDriver {
  final TestingSession session = new TestingSession();
  final CairnDriver driver = new CairnDriver(session.factory());

  @Test
  void acceptsOnlyCairnUrls() throws SQLException {
    assertThat(driver.acceptsURL("jdbc:cairn:mem:demo")).isTrue();
    assertThat(driver.acceptsURL("jdbc:cairn:anything")).isTrue();
    assertThat(driver.acceptsURL("jdbc:h2:mem:demo")).isFalse();
    assertThat(driver.acceptsURL("jdbc:cairnx:mem:demo")).isFalse();
    assertThat(driver.connect("jdbc:h2:mem:demo", new Properties())).isNull();
    assertThatThrownBy(() -> driver.acceptsURL(null)).isInstanceOf(SQLException.class);
  }

  @Test
  void memUrlOpensTheNamedStore() throws SQLException {
    Properties info = new Properties();
    info.setProperty("user", "bob");
    try (Connection c = driver.connect("jdbc:cairn:mem:tpch_sf-0.1", info)) {
      assertThat(session.storeName).isEqualTo("mem:tpch_sf-0.1");
      assertThat(session.openedWith.getProperty("user")).isEqualTo("bob");
      assertThat(session.openedWith).isNotSameAs(info);
      assertThat(c.getMetaData().getURL()).isEqualTo("jdbc:cairn:mem:tpch_sf-0.1");
      assertThat(c.getMetaData().getUserName()).isEqualTo("bob");
    }
    assertThat(session.closes).isEqualTo(1);
    try (Connection c = driver.connect("jdbc:cairn:mem:x", null)) {
      assertThat(c.isValid(0)).isTrue();
    }
  }

  static SQLException connectFailure(CairnDriver driver, String url) {
    try {
      driver.connect(url, new Properties());
    } catch (SQLException e) {
      return e;
    }
    throw new AssertionError("expected a failure for " + url);
  }

  @Test
  void serverUrlsNameHostPortAndDatabase() throws SQLException {
    try (Connection c = driver.connect("jdbc:cairn://db1:8765", null)) {
      assertThat(session.storeName).isEqualTo("//db1:8765");
    }
    try (Connection c = driver.connect("jdbc:cairn://127.0.0.1:1/sales_2024", null)) {
      assertThat(session.storeName).isEqualTo("//127.0.0.1:1/sales_2024");
    }
    try (Connection c = driver.connect("jdbc:cairn://[::1]:65535/", null)) {
      assertThat(session.storeName).isEqualTo("//[::1]:65535");
    }
    // without a port: the server's default
    try (Connection c = driver.connect("jdbc:cairn://db1/sales", null)) {
      assertThat(session.storeName).isEqualTo("//db1:7575/sales");
    }
  }

  @Test
  void serverUrlsTakeServerProperties() throws SQLException {
    Properties info = new Properties();
    info.setProperty("User", "alice");
    info.setProperty("requesttimeout", "5s");
    String url =
        "jdbc:cairn://db1:8765/d;user=bob;PASSWORD=secret;tls=true;tlsTrustCertificate=/ca.pem;"
            + "connectTimeout=500;durability=SYNC";
    try (Connection c = driver.connect(url, info)) {
      Properties p = session.openedWith;
      assertThat(p.getProperty("user")).isEqualTo("bob");
      assertThat(p.getProperty("password")).isEqualTo("secret");
      assertThat(p.getProperty("tls")).isEqualTo("true");
      assertThat(p.getProperty("tlsTrustCertificate")).isEqualTo("/ca.pem");
      assertThat(p.getProperty("connectTimeout")).isEqualTo("500");
      assertThat(p.getProperty("requestTimeout")).isEqualTo("5s");
      assertThat(p.getProperty("durability")).isEqualTo("SYNC");
      // the password never shows in getURL
      assertThat(c.getMetaData().getURL())
          .isEqualTo(
              "jdbc:cairn://db1:8765/d;user=bob;PASSWORD=***;tls=true;"
                  + "tlsTrustCertificate=/ca.pem;connectTimeout=500;durability=SYNC");
      assertThat(c.getMetaData().getUserName()).isEqualTo("bob");
    }
  }

  @Test
  void badServerUrlsAre08001() {
    for (String url :
        List.of(
            "jdbc:cairn://db1:",
            "jdbc:cairn://db1:0",
            "jdbc:cairn://db1:70000",
            "jdbc:cairn://db1:x",
            "jdbc:cairn://:1234",
            "jdbc:cairn://db1:1/a/b",
            "jdbc:cairn://db1:1/a b",
            "jdbc:cairn://db1:1;cairn.block-cache.size=1m",
            "jdbc:cairn://db1:1;x=1")) {
      SQLException e = connectFailure(driver, url);
      assertThat(e.getSQLState()).as(url).isEqualTo("08001");
      assertThat(e.getMessage()).as(url).contains("[" + url + "]");
    }
    assertThat(connectFailure(driver, "jdbc:cairn://db1:1;password").getMessage())
        .contains("found [password]");
    assertThat(session.openedWith).isNull();
  }

  @Test
  void hbaseUrlsNameTheQuorumAndTakeHBaseSettings() throws SQLException {
    String url =
        "jdbc:cairn:hbase:zk1,zk-2.example:2181/hbase-unsecure;hbase.client.retries.number=3;"
            + "zookeeper.session.timeout=9000;cairn.hbase.namespace=sales;durability=SYNC";
    try (Connection c = driver.connect(url, null)) {
      assertThat(session.storeName).isEqualTo("hbase:zk1,zk-2.example:2181/hbase-unsecure");
      Properties p = session.openedWith;
      assertThat(p.getProperty("hbase.client.retries.number")).isEqualTo("3");
      assertThat(p.getProperty("zookeeper.session.timeout")).isEqualTo("9000");
      assertThat(p.getProperty("cairn.hbase.namespace")).isEqualTo("sales");
    }
    try (Connection c = driver.connect("jdbc:cairn:hbase:localhost", null)) {
      assertThat(session.storeName).isEqualTo("hbase:localhost");
    }
  }

  @Test
  void badHBaseUrlsAre08001() {
    for (String url :
        List.of(
            "jdbc:cairn:hbase:",
            "jdbc:cairn:hbase::2181",
            "jdbc:cairn:hbase:zk1:port",
            "jdbc:cairn:hbase:zk1,,zk2",
            "jdbc:cairn:hbase:zk1 zk2",
            "jdbc:cairn:hbase:zk1;user=bob",
            "jdbc:cairn:hbase:zk1;hadoop.security.authentication=kerberos")) {
      SQLException e = connectFailure(driver, url);
      assertThat(e.getSQLState()).as(url).isEqualTo("08001");
      assertThat(e.getMessage()).as(url).contains("[" + url + "]");
    }
    assertThat(connectFailure(driver, "jdbc:cairn:hbase:zk1;x=1").getMessage())
        .contains("hbase.* or zookeeper.*");
    assertThat(session.openedWith).isNull();
  }

  @Test
  void fileUrlsOpenTheDirectoryAsWritten() throws SQLException {
    try (Connection c = driver.connect("jdbc:cairn:file:./data/db 1", null)) {
      assertThat(session.storeName).isEqualTo("file:./data/db 1");
    }
    try (Connection c = driver.connect("jdbc:cairn:file:/var/lib/cairn", null)) {
      assertThat(session.storeName).isEqualTo("file:/var/lib/cairn");
    }
  }

  @Test
  void urlPropertiesAreMergedOverConnectProperties() throws SQLException {
    Properties info = new Properties();
    info.setProperty("durability", "SYNC");
    info.setProperty("cairn.wal.segment.bytes", "1");
    info.setProperty("user", "bob");
    String url = "jdbc:cairn:file:/tmp/x;Durability=skip; cairn.block.cache.bytes = 1048576";
    try (Connection c = driver.connect(url, info)) {
      assertThat(session.storeName).isEqualTo("file:/tmp/x");
      assertThat(session.openedWith.getProperty("durability")).isEqualTo("skip");
      assertThat(session.openedWith.getProperty("cairn.block.cache.bytes")).isEqualTo("1048576");
      assertThat(session.openedWith.getProperty("cairn.wal.segment.bytes")).isEqualTo("1");
      assertThat(session.openedWith.getProperty("user")).isEqualTo("bob");
      assertThat(c.getMetaData().getURL()).isEqualTo(url);
    }
    try (Connection c = driver.connect("jdbc:cairn:mem:m;durability=FSYNC", null)) {
      assertThat(session.storeName).isEqualTo("mem:m");
      assertThat(session.openedWith.getProperty("durability")).isEqualTo("FSYNC");
    }
  }

  @Test
  void badUrlPropertiesAre08001() {
    for (String url :
        List.of(
            "jdbc:cairn:mem:x;y=1",
            "jdbc:cairn:mem:x;durability",
            "jdbc:cairn:mem:x;=SYNC",
            "jdbc:cairn:file:/tmp/x;user=bob",
            "jdbc:cairn:file:;durability=SYNC")) {
      SQLException e = connectFailure(driver, url);
      assertThat(e.getSQLState()).as(url).isEqualTo("08001");
      assertThat(e.getMessage()).as(url).contains("[" + url + "]").contains("durability");
    }
    assertThat(session.openedWith).isNull();
  }

  @Test
  void malformedUrlsAre08001NamingTheUrlAndTheForms() {
    for (String url :
        List.of(
            "jdbc:cairn:",
            "jdbc:cairn:mem:",
            "jdbc:cairn:mem:a b",
            "jdbc:cairn:mem:x;y=1",
            "jdbc:cairn:file:",
            "jdbc:cairn:hbase2:zk1",
            "jdbc:cairn:demo")) {
      SQLException e = connectFailure(driver, url);
      assertThat(e.getSQLState()).as(url).isEqualTo("08001");
      assertThat(e.getErrorCode()).isEqualTo(ErrorCode.INVALID_URL.code());
      assertThat(e.getMessage()).contains("[" + url + "]").contains("jdbc:cairn:mem:NAME");
    }
  }

  @Test
  void engineFailureOnOpenIsMapped() {
    CairnDriver failing =
        new CairnDriver(
            (name, info) -> {
              throw new CairnException(ErrorCode.IO_ERROR, "disk gone");
            });
    SQLException e = connectFailure(failing, "jdbc:cairn:mem:x");
    assertThat(e.getSQLState()).isEqualTo("58030");
    assertThat(e.getCause()).isInstanceOf(CairnException.class);
    CairnDriver broken =
        new CairnDriver(
            (name, info) -> {
              throw new IllegalStateException("bug");
            });
    assertThat(connectFailure(broken, "jdbc:cairn:mem:x").getSQLState()).isEqualTo("XX000");
  }

  @Test
  void driverFacts() throws SQLException {
    assertThat(driver.getMajorVersion()).isZero();
    assertThat(driver.getMinorVersion()).isEqualTo(1);
    assertThat(driver.jdbcCompliant()).isFalse();
    DriverPropertyInfo[] properties = driver.getPropertyInfo("jdbc:cairn:mem:x", null);
    assertThat(properties)
        .extracting(p -> p.name)
        .containsExactly(
            "user",
            "password",
            "durability",
            "aggregateMaxBytes",
            "queryMemoryMaxBytes",
            "parallelism");
    assertThat(properties[2].choices).containsExactly("SKIP", "ASYNC", "SYNC", "FSYNC");
    assertThat(driver.getPropertyInfo("jdbc:cairn://h:1", null))
        .extracting(p -> p.name)
        .containsExactly(
            "user",
            "password",
            "durability",
            "aggregateMaxBytes",
            "queryMemoryMaxBytes",
            "parallelism",
            "tls",
            "tlsTrustCertificate",
            "connectTimeout",
            "requestTimeout");
    assertThatThrownBy(driver::getParentLogger).isInstanceOf(SQLFeatureNotSupportedException.class);
  }

  @Test
  void discoveredThroughServiceLoaderAndDriverManager() throws SQLException {
    List<Class<?>> loaded = new ArrayList<>();
    for (Driver d : ServiceLoader.load(Driver.class)) {
      loaded.add(d.getClass());
    }
    assertThat(loaded).contains(CairnDriver.class);
    Driver registered = DriverManager.getDriver("jdbc:cairn:mem:demo");
    assertThat(registered).isInstanceOf(CairnDriver.class);
    assertThat(DriverManager.drivers().toList())
        .filteredOn(d -> d instanceof CairnDriver)
        .isNotEmpty();
  }

  @Test
  void driverManagerReportsAServerThatIsNotThere() {
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:cairn://127.0.0.1:1"))
        .isInstanceOf(SQLNonTransientConnectionException.class)
        .hasMessage("Cannot connect to the Cairn server at 127.0.0.1:1: Connection refused")
        .extracting(e -> ((SQLException) e).getSQLState())
        .isEqualTo("08001");
  }
}
