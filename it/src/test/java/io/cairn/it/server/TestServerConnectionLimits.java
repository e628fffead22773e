package io.cairn.it.server;

import static io.cairn.it.server.ServerChecks.assertClosingError;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Error;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.relocated.protobuf.ByteString;
import io.cairn.relocated.protobuf.UnknownFieldSet;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's admission against a real server process (docs/server.md, "Connections and logins"):
 * thousands of sockets that never send a byte do not keep a real client from logging in nor the
 * status page from answering; a connection that does not log in is closed at the handshake
 * deadline; frames before login are capped small; the total and per-address limits refuse only the
 * new connection; idle connections and half-sent frames time out; and the accept loop survives
 * running out of file descriptors.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerConnectionLimits {
  private static final Duration PATIENCE = Duration.ofSeconds(30);

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  Path temp;

  @Test
  void thousandsOfIdleSocketsDoNotLockOutARealClientNorTheStatusPage() throws Exception {
    int sockets = 3000;
    int maxUnauthenticated = 256;
    int httpPort = freePort();
    try (ServerProcess server =
        ServerProcess.options(temp)
            .set("http.port", Integer.toString(httpPort))
            .set("max-connections", "4000")
            .set("max-connections-per-address", "4000")
            .set("max-unauthenticated-connections", Integer.toString(maxUnauthenticated))
            .set("handshake-timeout", "60s")
            .name("idle-sockets")
            .start()) {
      // the driver's classes loaded and its code warm, so that the login below measures the server
      query(server, "CREATE TABLE WARM (K BIGINT PRIMARY KEY)");
      List<Socket> idle = new ArrayList<>();
      try {
        long started = System.nanoTime();
        for (int i = 0; i < sockets; i++) {
          Socket s = new Socket();
          idle.add(s);
          s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
          s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()), 10_000);
        }
        long openMillis = millisSince(started);
        // every socket beyond the limit closed the oldest idle one to make room
        awaitAtLeast(server, "ConnectionsEvicted", sockets - maxUnauthenticated);
        // once the evicted ones have closed (their event loops may lag behind the accepts)
        awaitAtMost(server, "UnauthenticatedConnections", maxUnauthenticated);

        // and more of them while the client logs in: one address flooding evicts its own sockets
        ExecutorService background = Executors.newSingleThreadExecutor();
        List<Socket> more = Collections.synchronizedList(new ArrayList<>());
        Future<?> flood =
            background.submit(
                () -> {
                  for (int i = 0; i < sockets; i++) {
                    Socket s = new Socket();
                    more.add(s);
                    s.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
                    s.connect(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()),
                        10_000);
                  }
                  return null;
                });
        long login = System.nanoTime();
        try (Connection c =
                DriverManager.getConnection(
                    "jdbc:cairn://127.0.0.1:" + server.port() + ";connectTimeout=5s");
            Statement s = c.createStatement()) {
          long loginMillis = millisSince(login);
          s.execute("CREATE TABLE T (K BIGINT PRIMARY KEY, V INTEGER)");
          s.execute("UPSERT INTO T VALUES (1, 10)");
          s.execute("UPSERT INTO T VALUES (2, 20)");
          try (ResultSet rs = s.executeQuery("SELECT SUM(V) FROM T")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(30);
          }
          long healthStart = System.nanoTime();
          assertThat(health(httpPort)).isEqualTo("ok");
          System.out.printf(
              "idle sockets: %d opened in %d ms; evicted %d, refused %d, held unauthenticated %d;"
                  + " JDBC login %d ms, /health %d ms%n",
              sockets,
              openMillis,
              server.serverMetric("ConnectionsEvicted"),
              server.serverMetric("ConnectionsRefused"),
              server.serverMetric("UnauthenticatedConnections"),
              loginMillis,
              millisSince(healthStart));
        } finally {
          flood.get(60, TimeUnit.SECONDS);
          background.shutdown();
          synchronized (more) {
            for (Socket s : more) {
              s.close();
            }
          }
        }
        // the oldest socket was evicted, and told why
        idle.get(0).setSoTimeout(10_000);
        byte[] said = idle.get(0).getInputStream().readAllBytes();
        assertThat(new String(said, UTF_8))
            .as("the error frame of an evicted socket")
            .contains("max-unauthenticated-connections");
      } finally {
        for (Socket s : idle) {
          s.close();
        }
      }
    }
  }

  @Test
  void aConnectionThatDoesNotLogInIsClosedAtTheHandshakeDeadline() throws Exception {
    try (ServerProcess server =
        ServerProcess.options(temp).set("handshake-timeout", "1s").name("handshake").start()) {
      try (RawClient silent = RawClient.connect(server.port())) {
        long started = System.nanoTime();
        Response r = assertClosingError(silent, ErrorCode.PROTOCOL_ERROR);
        long millis = millisSince(started);
        assertThat(r.getError().getMessage()).contains("No Hello within [1000] ms");
        assertThat(millis).isBetween(500L, 10_000L);
        System.out.printf(
            "a silent socket was closed after %d ms (handshake-timeout 1s)%n", millis);
      }
      try (RawClient half = RawClient.connect(server.port())) {
        // half a Hello: the deadline covers a frame cut short before login
        half.sendRaw(concat(length(100), new byte[10]));
        assertClosingError(half, ErrorCode.PROTOCOL_ERROR);
      }
      assertThat(server.serverMetric("HandshakeTimeouts")).isEqualTo(2);
      try (RawClient client = RawClient.open(server.port(), "in-time")) {
        assertThat(client.call(KvRows.ping()).hasPong()).isTrue();
      }
    }
  }

  @Test
  void anOversizedFrameBeforeLoginIsRefusedAndTheFullSizeAppliesAfter() throws Exception {
    try (ServerProcess server = ServerProcess.options(temp).name("pre-login").start()) {
      try (RawClient client = RawClient.connect(server.port())) {
        client.sendRaw(length(65537));
        Error e = assertClosingError(client, ErrorCode.FRAME_TOO_LARGE).getError();
        assertThat(e.getMessage())
            .contains("[65537]")
            .contains("[65536]")
            .contains("pre-login.max-frame-bytes");
      }
      try (RawClient client = RawClient.open(server.port(), "big-after-login")) {
        Request ping = padded(KvRows.ping().setId(client.nextId()), 200_000);
        client.send(ping);
        assertThat(client.await(ping.getId()).hasPong()).isTrue();
      }
    }
  }

  @Test
  void limitsRefuseTheNewConnectionAndLeaveTheOthersAlone() throws Exception {
    try (ServerProcess server =
        ServerProcess.options(temp)
            .set("max-connections", "40")
            .set("max-connections-per-address", "30")
            .name("limits")
            .start()) {
      List<RawClient> clients = new ArrayList<>();
      try {
        for (int i = 0; i < 30; i++) {
          clients.add(hello(RawClient.connectFrom("127.0.0.3", server.port()), "a" + i));
        }
        try (RawClient refused = RawClient.connectFrom("127.0.0.3", server.port())) {
          Error e = assertClosingError(refused, ErrorCode.SERVER_BUSY).getError();
          assertThat(e.getMessage())
              .contains("[30] connections from [127.0.0.3]")
              .contains("max-connections-per-address [30]");
        }
        for (int i = 0; i < 10; i++) {
          clients.add(hello(RawClient.connectFrom("127.0.0.4", server.port()), "b" + i));
        }
        try (RawClient refused = RawClient.connectFrom("127.0.0.5", server.port())) {
          Error e = assertClosingError(refused, ErrorCode.SERVER_BUSY).getError();
          assertThat(e.getMessage())
              .contains("[40] connections are open, the most max-connections [40]");
        }
        for (RawClient c : clients) {
          assertThat(c.call(KvRows.ping()).hasPong()).as("the clients already in").isTrue();
        }
        clients.remove(0).close();
        ServerChecks.awaitValue(
            "admitted connections",
            () -> server.serverMetric("AdmittedConnections"),
            39L,
            PATIENCE);
        clients.add(hello(RawClient.connectFrom("127.0.0.5", server.port()), "c"));
        assertThat(server.serverMetric("ConnectionsRefused")).isEqualTo(2);
      } finally {
        for (RawClient c : clients) {
          c.close();
        }
      }
    }
  }

  @Test
  void idleConnectionsAndHalfSentFramesTimeOut() throws Exception {
    try (ServerProcess server =
        ServerProcess.options(temp)
            .set("idle-timeout", "1s")
            .set("frame-read-timeout", "1s")
            .name("timeouts")
            .start()) {
      try (RawClient idle = RawClient.open(server.port(), "idle")) {
        Error e = assertClosingError(idle, ErrorCode.CONNECTION_LOST).getError();
        assertThat(e.getMessage()).contains("idle-timeout");
      }
      try (RawClient half = RawClient.open(server.port(), "half")) {
        half.sendRaw(concat(length(1000), new byte[10]));
        Error e = assertClosingError(half, ErrorCode.PROTOCOL_ERROR).getError();
        assertThat(e.getMessage()).contains("frame-read-timeout");
      }
      // the driver opens a new connection for the next statement after an idle close
      try (Connection c =
              DriverManager.getConnection(
                  "jdbc:cairn://127.0.0.1:" + server.port() + ";connectTimeout=5s");
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE T (K BIGINT PRIMARY KEY)");
        long before = server.serverMetric("IdleTimeouts");
        awaitAtLeast(server, "IdleTimeouts", before + 1);
        s.execute("UPSERT INTO T VALUES (1)");
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM T")) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getLong(1)).isEqualTo(1);
        }
      }
      assertThat(server.serverMetric("FrameReadTimeouts")).isEqualTo(1);
    }
  }

  @Test
  void theAcceptLoopSurvivesRunningOutOfFileDescriptors() throws Exception {
    int httpPort = freePort();
    try (ServerProcess server =
        ServerProcess.options(temp)
            .fileDescriptorLimit(400)
            .set("http.port", Integer.toString(httpPort))
            .set("max-connections", "100000")
            .set("max-connections-per-address", "100000")
            .set("max-unauthenticated-connections", "100000")
            .set("handshake-timeout", "60s")
            .name("emfile")
            .start()) {
      List<Socket> flood = new ArrayList<>();
      try {
        for (int i = 0; i < 800; i++) {
          Socket s = new Socket();
          flood.add(s);
          try {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()), 2000);
          } catch (IOException e) {
            break; // the backlog is full too
          }
          if (i % 50 == 0 && countLines(server, "Cannot accept connections") > 0) {
            break;
          }
        }
        awaitLogLine(server, "Cannot accept connections");
      } finally {
        for (Socket s : flood) {
          s.close();
        }
      }
      // once descriptors are free again, the server accepts and serves
      long deadline = System.nanoTime() + PATIENCE.toNanos();
      while (true) {
        try (RawClient client = RawClient.open(server.port(), "after-emfile")) {
          assertThat(client.call(KvRows.ping()).hasPong()).isTrue();
          break;
        } catch (IOException | AssertionError e) {
          if (System.nanoTime() > deadline) {
            throw new AssertionError("no connection after the flood: " + server.describe(), e);
          }
          Thread.sleep(100);
        }
      }
      assertThat(server.isAlive()).isTrue();
      assertThat(health(httpPort)).as("the status page after the flood").isEqualTo("ok");
      long warnings = countLines(server, "Cannot accept connections");
      System.out.printf(
          "EMFILE: %d failed accepts, %d 'Cannot accept' log line(s)%n",
          server.serverMetric("AcceptFailures"), warnings);
      assertThat(warnings).as("one line per burst").isLessThanOrEqualTo(3);
      assertThat(server.serverMetric("AcceptFailures")).isPositive();
    }
  }

  // --- helpers ---------------------------------------------------------------------------------

  private static void query(ServerProcess server, String sql) throws Exception {
    try (Connection c =
            DriverManager.getConnection(
                "jdbc:cairn://127.0.0.1:" + server.port() + ";connectTimeout=5s");
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static RawClient hello(RawClient client, String name) throws IOException {
    try {
      client.hello(name);
      return client;
    } catch (IOException | RuntimeException | AssertionError e) {
      client.close();
      throw e;
    }
  }

  private static void awaitAtLeast(ServerProcess server, String metric, long atLeast)
      throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    long last;
    while ((last = server.serverMetric(metric)) < atLeast) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            metric
                + ": expected at least ["
                + atLeast
                + "] within "
                + PATIENCE
                + ", found ["
                + last
                + "]");
      }
      Thread.sleep(20);
    }
  }

  private static void awaitAtMost(ServerProcess server, String metric, long atMost)
      throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    long last;
    while ((last = server.serverMetric(metric)) > atMost) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            metric
                + ": expected at most ["
                + atMost
                + "] within "
                + PATIENCE
                + ", found ["
                + last
                + "]");
      }
      Thread.sleep(20);
    }
  }

  private static void awaitLogLine(ServerProcess server, String text) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (countLines(server, text) == 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no log line with [" + text + "]: " + server.describe());
      }
      Thread.sleep(20);
    }
  }

  private static long countLines(ServerProcess server, String text) {
    return server.logLines().stream().filter(l -> l.contains(text)).count();
  }

  private static String health(int port) throws IOException {
    HttpURLConnection http =
        (HttpURLConnection)
            URI.create("http://127.0.0.1:" + port + "/health").toURL().openConnection();
    http.setConnectTimeout(5000);
    http.setReadTimeout(5000);
    try {
      assertThat(http.getResponseCode()).isEqualTo(200);
      return new String(http.getInputStream().readAllBytes(), UTF_8).strip();
    } finally {
      http.disconnect();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static long millisSince(long startNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
  }

  private static byte[] length(int length) {
    return ByteBuffer.allocate(4).putInt(length).array();
  }

  private static byte[] concat(byte[]... parts) {
    int total = 0;
    for (byte[] p : parts) {
      total += p.length;
    }
    ByteBuffer b = ByteBuffer.allocate(total);
    for (byte[] p : parts) {
      b.put(p);
    }
    return b.array();
  }

  /** {@code request} with an unknown field of padding, serialized to about {@code size} bytes. */
  private static Request padded(Request.Builder request, int size) {
    return request
        .setUnknownFields(
            UnknownFieldSet.newBuilder()
                .addField(
                    1000,
                    UnknownFieldSet.Field.newBuilder()
                        .addLengthDelimited(ByteString.copyFrom(new byte[size]))
                        .build())
                .build())
        .build();
  }
}
