package io.cairn.jdbc.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.jdbc.TestingServerProcess;
import io.cairn.protocol.testing.TestCertificates;
import io.cairn.protocol.tls.TlsSupport;
import io.cairn.server.rpc.Authenticator;
import io.cairn.server.rpc.CairnServer;
import io.cairn.server.rpc.ServerConfig;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a JDBC user sees when the server is not there, dies mid-query and comes back, speaks TLS or
 * wants a password: against real server processes (killed with SIGKILL) and a server in this JVM.
 */
class TestRemoteFailures {
  @TempDir Path temp;

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static long count(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getLong(1);
    }
  }

  @Test
  void noServerIs08001NamingTheServer() throws Exception {
    int port = freePort();
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:cairn://127.0.0.1:" + port + "/x"))
        .isInstanceOfSatisfying(
            SQLNonTransientConnectionException.class,
            e -> assertThat(e.getSQLState()).isEqualTo("08001"))
        .hasMessage(
            "Cannot connect to the Cairn server at 127.0.0.1:" + port + ": Connection refused");
  }

  @Test
  void aServerKilledMidQueryCostsThatStatementAndTheNextOneWorksAfterItsRestart() throws Exception {
    Path data = temp.resolve("data");
    TestingServerProcess first =
        TestingServerProcess.start("killed", 0, data, "--set", "page.max-rows=50");
    int port = first.port();
    TestingServerProcess second = null;
    try (Connection c = DriverManager.getConnection(first.url("db"))) {
      try (Statement s = c.createStatement()) {
        s.execute("CREATE TABLE T (ID INTEGER PRIMARY KEY, V VARCHAR(10))");
      }
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement("UPSERT INTO T VALUES (?, 'v')")) {
        for (int i = 0; i < 3000; i++) {
          ps.setInt(1, i);
          ps.executeUpdate();
        }
      }
      c.commit();
      c.setAutoCommit(true);

      try (Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT ID FROM T")) {
        assertThat(rs.next()).isTrue();
        first.kill();
        assertThatThrownBy(
                () -> {
                  while (rs.next()) {
                    // the pages already here come first
                  }
                })
            .isInstanceOfSatisfying(
                SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08006"))
            .hasMessageContaining("Lost the connection to the Cairn server at 127.0.0.1:" + port);
      }
      // while the server is down, statements fail to connect
      assertThatThrownBy(() -> count(c, "SELECT COUNT(*) FROM T"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"));

      second = TestingServerProcess.start("restarted", port, data);
      // the same JDBC connection: a new network connection, the catalog reloaded
      assertThat(count(c, "SELECT COUNT(*) FROM T")).isEqualTo(3000);
      assertThat(c.isValid(5)).isTrue();

      // a restart while nothing runs costs nothing, after a graceful stop (the server announces
      // it) as after a kill
      second.close();
      second = TestingServerProcess.start("restarted-gracefully", port, data);
      assertThat(count(c, "SELECT COUNT(*) FROM T WHERE ID < 20")).isEqualTo(20);
      second.kill();
      second = TestingServerProcess.start("restarted-again", port, data);
      assertThat(count(c, "SELECT COUNT(*) FROM T WHERE ID < 10")).isEqualTo(10);
      try (Connection other = DriverManager.getConnection(second.url("db"))) {
        assertThat(count(other, "SELECT MAX(ID) FROM T")).isEqualTo(2999);
      }
    } finally {
      first.kill();
      if (second != null) {
        second.close();
      }
    }
  }

  @Test
  void tlsAndPasswords() throws Exception {
    TestCertificates.CertificateFiles files = TestCertificates.selfSigned(temp.resolve("tls"));
    Authenticator users =
        new Authenticator() {
          @Override
          public boolean required() {
            return true;
          }

          @Override
          public boolean authenticate(String user, char[] password) {
            return user.equals("bob") && new String(password).equals("s3cret");
          }
        };
    try (CairnServer server =
        CairnServer.start(
            ServerConfig.from(Map.of("port", "0", "http.port", "-1")),
            users,
            TlsSupport.server(files.certificate(), files.privateKey(), null))) {
      String base = "jdbc:cairn://localhost:" + server.port() + "/secure";
      String tls = ";tls=true;tlsTrustCertificate=" + files.certificate();
      try (Connection c = DriverManager.getConnection(base + tls + ";user=bob;password=s3cret")) {
        try (Statement s = c.createStatement()) {
          s.execute("CREATE TABLE S (ID INTEGER PRIMARY KEY)");
          s.execute("UPSERT INTO S VALUES (1)");
        }
        assertThat(count(c, "SELECT COUNT(*) FROM S")).isEqualTo(1);
        assertThat(c.getMetaData().getURL()).contains("password=***").doesNotContain("s3cret");
      }
      assertThatThrownBy(() -> DriverManager.getConnection(base + tls + ";user=bob;password=no"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"))
          .hasMessage(
              "Cannot connect to the Cairn server at localhost:"
                  + server.port()
                  + ": Authentication failed: wrong user or password");
      assertThatThrownBy(() -> DriverManager.getConnection(base + tls))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
      // without TLS, or without trusting the server's certificate: no connection
      assertThatThrownBy(() -> DriverManager.getConnection(base + ";user=bob;password=s3cret"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"))
          .hasMessageStartingWith("Cannot connect to the Cairn server at localhost:")
          .hasMessageContaining("connect with connection property tls=true");
      assertThatThrownBy(
              () -> DriverManager.getConnection(base + ";tls=true;user=bob;password=s3cret"))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"))
          .hasMessageContaining("Cannot connect to the Cairn server at localhost:")
          .hasMessageContaining("TLS handshake failed");
      assertThatThrownBy(
              () ->
                  DriverManager.getConnection(
                      base + ";tls=true;tlsTrustCertificate=" + temp.resolve("missing.pem")))
          .isInstanceOfSatisfying(
              SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("08001"))
          .hasMessageContaining("missing.pem");
    }
  }
}
