package io.cairn.jdbc.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.ConnectionUrl.ServerAddress;
import io.cairn.protocol.CatalogVersion;
import io.cairn.protocol.Error;
import io.cairn.protocol.Event;
import io.cairn.protocol.GetCatalog;
import io.cairn.protocol.HelloOk;
import io.cairn.protocol.Mutate;
import io.cairn.protocol.Mutation;
import io.cairn.protocol.Ping;
import io.cairn.protocol.Pong;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ShuttingDown;
import io.cairn.protocol.TableBatch;
import io.cairn.relocated.protobuf.ByteString;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client's connection handling against a scripted server: handshake, ids, timeouts, breaks. */
class TestRpcConnection {
  private final List<AutoCloseable> resources = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable r : resources) {
      r.close();
    }
  }

  private TestingRpcServer server(TestingRpcServer.Handler handler) throws IOException {
    TestingRpcServer server = new TestingRpcServer(handler);
    resources.add(server);
    return server;
  }

  private RpcConnection connect(RemoteConfig config) {
    return connect(config, RpcConnection.PROTOCOL_VERSION);
  }

  private RpcConnection connect(RemoteConfig config, int protocolVersion) {
    RpcConnection connection = new RpcConnection(config, protocolVersion);
    resources.add(connection::close);
    return connection;
  }

  private static RemoteConfig withTimeouts(RemoteConfig c, Duration connect, Duration request) {
    return new RemoteConfig(
        c.address(), c.user(), c.password(), c.tls(), c.tlsTrustCertificate(), connect, request);
  }

  private static Request.Builder ping() {
    return Request.newBuilder().setPing(Ping.getDefaultInstance());
  }

  private static void pong(Request request, TestingRpcServer.Connection c) throws IOException {
    c.answer(request, Response.newBuilder().setPong(Pong.getDefaultInstance()));
  }

  private static CairnException failure(Runnable call) {
    try {
      call.run();
    } catch (CairnException e) {
      return e;
    }
    throw new AssertionError("expected a CairnException");
  }

  @Test
  void noServerIsConnectionFailedNamingTheServer() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    RpcConnection connection = connect(RemoteConfig.of(new ServerAddress("127.0.0.1", port, "")));
    CairnException e = failure(connection::awaitChannel);
    assertThat(e.errorCode()).isEqualTo(ErrorCode.CONNECTION_FAILED);
    assertThat(e.errorCode().sqlState()).isEqualTo("08001");
    assertThat(e)
        .hasMessage(
            "Cannot connect to the Cairn server at 127.0.0.1:" + port + ": Connection refused");
  }

  @Test
  void helloCarriesVersionDatabaseAndUser() throws Exception {
    List<Request> hellos = new ArrayList<>();
    TestingRpcServer server = server(TestRpcConnection::pong);
    server.helloHandler =
        (request, c) -> {
          hellos.add(request);
          TestingRpcServer.helloOk(request, c);
        };
    RemoteConfig base = server.config();
    RpcConnection connection =
        connect(
            new RemoteConfig(
                base.address(),
                "bob",
                "secret",
                false,
                Optional.empty(),
                base.connectTimeout(),
                base.requestTimeout()));
    assertThat(connection.ping(Duration.ofSeconds(5))).isTrue();
    assertThat(hellos).hasSize(1);
    assertThat(hellos.get(0).getId()).isEqualTo(1);
    assertThat(hellos.get(0).getHello().getProtocolVersion()).isEqualTo(1);
    assertThat(hellos.get(0).getHello().getDatabase()).isEqualTo("db");
    assertThat(hellos.get(0).getHello().getUser()).isEqualTo("bob");
    assertThat(hellos.get(0).getHello().getPassword()).isEqualTo("secret");
    assertThat(hellos.get(0).getHello().getClientName()).startsWith("cairn-jdbc ");
    assertThat(connection.serverCatalog()).isEqualTo(new RpcConnection.ServerCatalog(1, 1, 1));
  }

  @Test
  void otherProtocolVersionNamesBothVersions() throws Exception {
    TestingRpcServer server = server(TestRpcConnection::pong);
    server.helloHandler =
        (request, c) -> {
          c.answer(
              request,
              Response.newBuilder()
                  .setError(
                      Error.newBuilder()
                          .setCode(ErrorCode.PROTOCOL_VERSION_MISMATCH.code())
                          .setSqlState(ErrorCode.PROTOCOL_VERSION_MISMATCH.sqlState())
                          .setMessage(
                              "Protocol version: this server speaks [1], the client speaks ["
                                  + request.getHello().getProtocolVersion()
                                  + "]")));
          c.drop();
        };
    CairnException e = failure(connect(server.config(), 7)::awaitChannel);
    assertThat(e.errorCode()).isEqualTo(ErrorCode.PROTOCOL_VERSION_MISMATCH);
    assertThat(e.getMessage())
        .startsWith("The Cairn server at 127.0.0.1:" + server.port())
        .contains("this client's protocol version [7]")
        .contains("this server speaks [1]");

    // a server that answers HelloOk with another version is refused by the client
    server.helloHandler =
        (request, c) ->
            c.answer(
                request,
                Response.newBuilder()
                    .setHelloOk(HelloOk.newBuilder().setProtocolVersion(2).setMaxFrameBytes(1000)));
    e = failure(connect(server.config())::awaitChannel);
    assertThat(e.errorCode()).isEqualTo(ErrorCode.PROTOCOL_VERSION_MISMATCH);
    assertThat(e.getMessage())
        .contains("answered with protocol version [2]")
        .contains("this client speaks version [1]");
  }

  @Test
  void badCredentialsAreAuthenticationFailed() throws Exception {
    TestingRpcServer server = server(TestRpcConnection::pong);
    server.helloHandler =
        (request, c) ->
            c.answer(
                request,
                Response.newBuilder()
                    .setError(
                        Error.newBuilder()
                            .setCode(ErrorCode.AUTHENTICATION_FAILED.code())
                            .setSqlState(ErrorCode.AUTHENTICATION_FAILED.sqlState())
                            .setMessage("Authentication failed: wrong user or password")));
    CairnException e = failure(connect(server.config())::awaitChannel);
    assertThat(e.errorCode()).isEqualTo(ErrorCode.AUTHENTICATION_FAILED);
    assertThat(e.errorCode().sqlState()).isEqualTo("28P01");
    assertThat(e)
        .hasMessage(
            "Cannot connect to the Cairn server at 127.0.0.1:"
                + server.port()
                + ": Authentication failed: wrong user or password");
  }

  @Test
  void silentHandshakeTimesOutAsConnectionFailed() throws Exception {
    TestingRpcServer server = server(TestRpcConnection::pong);
    server.helloHandler = (request, c) -> {};
    RpcConnection connection =
        connect(withTimeouts(server.config(), Duration.ofMillis(300), Duration.ofSeconds(60)));
    long start = System.nanoTime();
    CairnException e = failure(connection::awaitChannel);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(e.errorCode()).isEqualTo(ErrorCode.CONNECTION_FAILED);
    assertThat(e.getMessage())
        .contains(
            "no answer to the handshake within [300] ms (connection property connectTimeout)");
  }

  @Test
  void requestTimeoutNamesTheRequestAndCancelsIt() throws Exception {
    TestingRpcServer server = server((request, c) -> {});
    RpcConnection connection =
        connect(withTimeouts(server.config(), Duration.ofSeconds(10), Duration.ofMillis(200)));
    CairnException e =
        failure(
            () ->
                connection.callAndWait(
                    Request.newBuilder().setGetCatalog(GetCatalog.getDefaultInstance()),
                    "GetCatalog"));
    assertThat(e.errorCode()).isEqualTo(ErrorCode.REQUEST_TIMEOUT);
    assertThat(e)
        .hasMessage(
            "Request [GetCatalog] to the Cairn server at 127.0.0.1:"
                + server.port()
                + " got no answer within [200] ms (connection property requestTimeout)");
    Request sent = server.nextRequest();
    assertThat(sent.hasGetCatalog()).isTrue();
    Request cancel = server.nextRequest();
    assertThat(cancel.getCancel().getTarget()).isEqualTo(sent.getId());
    // the connection stays usable
    server.handler(TestRpcConnection::pong);
    assertThat(connection.ping(Duration.ofSeconds(5))).isTrue();
    assertThat(server.connections).hasSize(1);
  }

  @Test
  void answersAreMatchedByIdInAnyOrder() throws Exception {
    List<Request> held = new ArrayList<>();
    TestingRpcServer server =
        server(
            (request, c) -> {
              held.add(request);
              if (held.size() == 3) {
                for (int i = 2; i >= 0; i--) {
                  Request r = held.get(i);
                  c.answer(
                      r,
                      Response.newBuilder()
                          .setError(
                              Error.newBuilder()
                                  .setCode(ErrorCode.INVALID_ARGUMENT.code())
                                  .setSqlState("22023")
                                  .setMessage("answer to " + r.getId())));
                }
              }
            });
    RpcConnection connection = connect(server.config());
    connection.awaitChannel(); // Hello is id 1; the pings are 2, 3 and 4
    List<CompletableFuture<Response>> calls = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      calls.add(connection.call(ping(), "Ping " + i));
    }
    for (CompletableFuture<Response> call : calls) {
      CairnException e = failure(() -> Rpc.await(call));
      assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
    }
    List<String> messages = new ArrayList<>();
    for (CompletableFuture<Response> call : calls) {
      messages.add(failure(() -> Rpc.await(call)).getMessage());
    }
    assertThat(messages).containsExactly("answer to 2", "answer to 3", "answer to 4");
  }

  @Test
  void aBrokenConnectionFailsWhatIsInFlightAndTheNextRequestReconnects() throws Exception {
    TestingRpcServer server = server((request, c) -> {});
    RpcConnection connection = connect(server.config());
    CompletableFuture<Response> inFlight = connection.call(ping(), "Ping in flight");
    server.nextRequest();
    server.dropAll();
    CairnException e = failure(() -> Rpc.await(inFlight));
    assertThat(e.errorCode()).isEqualTo(ErrorCode.CONNECTION_LOST);
    assertThat(e.errorCode().sqlState()).isEqualTo("08006");
    assertThat(e.getMessage())
        .startsWith(
            "Lost the connection to the Cairn server at 127.0.0.1:"
                + server.port()
                + " while waiting for the answer to [Ping in flight]");

    server.handler(TestRpcConnection::pong);
    server.catalog = CatalogVersion.newBuilder().setInstance(2).setVersion(5).build();
    assertThat(connection.ping(Duration.ofSeconds(5))).isTrue();
    assertThat(server.connections).hasSize(1); // the new one
    assertThat(connection.serverCatalog()).isEqualTo(new RpcConnection.ServerCatalog(2, 2, 5));
  }

  @Test
  void eventsMoveTheCatalogVersionAndAnnounceShutdown() throws Exception {
    TestingRpcServer server = server(TestRpcConnection::pong);
    RpcConnection connection = connect(server.config());
    assertThat(connection.ping(Duration.ofSeconds(5))).isTrue();
    TestingRpcServer.Connection c = server.connections.get(0);
    c.send(
        Response.newBuilder()
            .setEvent(
                Event.newBuilder()
                    .setCatalogChanged(CatalogVersion.newBuilder().setInstance(1).setVersion(9))));
    awaitCatalog(connection, new RpcConnection.ServerCatalog(1, 1, 9));
    // an older version reported later does not move it back
    assertThat(connection.ping(Duration.ofSeconds(5))).isTrue();
    assertThat(connection.serverCatalog()).isEqualTo(new RpcConnection.ServerCatalog(1, 1, 9));

    c.send(
        Response.newBuilder()
            .setEvent(Event.newBuilder().setShuttingDown(ShuttingDown.getDefaultInstance())));
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (connection.isConnected() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(connection.isConnected()).isFalse();
    // the next request goes to a new connection
    assertThat(connection.ping(Duration.ofSeconds(5))).isTrue();
    assertThat(server.connections).hasSize(2);
  }

  private static void awaitCatalog(RpcConnection connection, RpcConnection.ServerCatalog expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (!expected.equals(connection.serverCatalog()) && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(connection.serverCatalog()).isEqualTo(expected);
  }

  @Test
  void aRequestBeyondTheServersFrameLimitFailsAloneAndLocally() throws Exception {
    TestingRpcServer server = server(TestRpcConnection::pong);
    RpcConnection connection = connect(server.config());
    Request.Builder big =
        Request.newBuilder()
            .setMutate(
                Mutate.newBuilder()
                    .addBatches(
                        TableBatch.newBuilder()
                            .setTable("T1")
                            .addMutations(
                                Mutation.newBuilder()
                                    .setKey(ByteString.copyFromUtf8("k"))
                                    .setValue(ByteString.copyFrom(new byte[2 << 20])))));
    CairnException e = failure(() -> connection.callAndWait(big, "Mutate of 1 rows in T1"));
    assertThat(e.errorCode()).isEqualTo(ErrorCode.FRAME_TOO_LARGE);
    assertThat(e.getMessage())
        .contains("Request [Mutate of 1 rows in T1] needs a frame of [")
        .contains("accepts at most [1048576] bytes per frame");
    assertThat(connection.ping(Duration.ofSeconds(5))).isTrue();
    assertThat(server.connections).hasSize(1);
  }
}
