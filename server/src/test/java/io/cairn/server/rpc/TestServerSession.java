package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.SystemViews;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.GetCatalog;
import io.cairn.protocol.Hello;
import io.cairn.protocol.Ping;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The handshake: Hello first, protocol versions, authentication, databases. */
@ExtendWith(NettyLeakCheck.class)
class TestServerSession {
  private CairnServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void helloAnswersTheServersVersionASessionAndTheFrameSize() {
    server = TestingServers.start(Map.of(ServerConfig.MAX_FRAME_BYTES, "1m"));
    try (TestingRpcClient a = TestingRpcClient.connect(server.port());
        TestingRpcClient b = TestingRpcClient.connect(server.port())) {
      Response first = a.hello("");
      Response second = b.hello("");
      assertThat(first.getHelloOk().getProtocolVersion()).isEqualTo(1);
      assertThat(first.getHelloOk().getServerVersion()).isNotEmpty();
      assertThat(first.getHelloOk().getMaxFrameBytes()).isEqualTo(1 << 20);
      assertThat(first.getHelloOk().getSessionId())
          .isNotZero()
          .isNotEqualTo(second.getHelloOk().getSessionId());
      assertThat(first.getCatalog().getVersion()).isPositive();
      assertThat(first.getCatalog().getInstance()).isEqualTo(second.getCatalog().getInstance());
      assertThat(a.call(Request.newBuilder().setPing(Ping.getDefaultInstance())).hasPong())
          .isTrue();
    }
  }

  @Test
  void anotherProtocolVersionIsRefusedNamingBothAndTheConnectionClosed() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
      Response answer =
          client.call(Request.newBuilder().setHello(Hello.newBuilder().setProtocolVersion(2)));
      assertError(answer, ErrorCode.PROTOCOL_VERSION_MISMATCH);
      assertThat(answer.getError().getMessage()).contains("[1]").contains("[2]");
      assertThat(client.closedByServer()).isTrue();
    }
  }

  @Test
  void aRequestBeforeHelloIsRefusedAndNothingIsDone() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
      long id = client.send(TestingRpcTables.createTable("EARLY"));
      Response answer = client.read();
      assertError(answer, ErrorCode.AUTHENTICATION_REQUIRED);
      assertThat(answer.getId()).isEqualTo(id); // the refused request's own id
      assertThat(client.closedByServer()).isTrue();
    }
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      Response catalog = client.call(Request.newBuilder().setGetCatalog(GetCatalog.newBuilder()));
      assertThat(catalog.getCatalogData().getTablesCount())
          .isEqualTo(SystemViews.all().size()); // the system views
      // the table was never created: creating it now works
      TestingRpcTables.create(client, "EARLY");
    }
  }

  @Test
  void requestIdZeroIsAProtocolErrorThatClosesTheConnection() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      client.sendAsIs(Request.newBuilder().setId(0).setPing(Ping.getDefaultInstance()).build());
      Response answer = client.read();
      assertError(answer, ErrorCode.PROTOCOL_ERROR);
      assertThat(client.closedByServer()).isTrue();
    }
  }

  @Test
  void requestsPipelinedBehindHelloAreAnsweredAfterIt() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
      ByteArrayOutputStream frames = new ByteArrayOutputStream();
      byte[] hello =
          client.frame(Request.newBuilder().setHello(Hello.newBuilder().setProtocolVersion(1)));
      byte[] create = client.frame(TestingRpcTables.createTable("PIPELINED"));
      byte[] ping = client.frame(Request.newBuilder().setPing(Ping.getDefaultInstance()));
      frames.writeBytes(hello);
      frames.writeBytes(create);
      frames.writeBytes(ping);
      client.writeRaw(frames.toByteArray());
      assertThat(client.await(1).hasHelloOk()).isTrue();
      assertThat(client.await(2).hasTableDescriptor()).isTrue();
      assertThat(client.await(3).hasPong()).isTrue();
      // a second Hello is refused, the session goes on
      assertError(client.hello(""), ErrorCode.PROTOCOL_ERROR);
      assertThat(client.call(Request.newBuilder().setPing(Ping.getDefaultInstance())).hasPong())
          .isTrue();
    }
  }

  @Test
  void badDatabaseNamesAreRefusedNamingTheRule() {
    server = TestingServers.start();
    for (String name : new String[] {"a/b", "..", "x".repeat(65), "é"}) {
      try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
        Response answer = client.hello(name);
        assertError(answer, ErrorCode.INVALID_ARGUMENT);
        assertThat(answer.getError().getMessage()).contains("A-Z, a-z, 0-9, _ and -");
        assertThat(client.closedByServer()).isTrue();
      }
    }
  }

  @Test
  void namedDatabasesAreSeparateAndLiveUnderTheDataDirectory(@TempDir Path dir) {
    server = TestingServers.start(Map.of(ServerConfig.DATA, dir.toString()));
    try (TestingRpcClient a = TestingRpcClient.open(server.port(), "sales");
        TestingRpcClient b = TestingRpcClient.open(server.port(), "hr");
        TestingRpcClient main = TestingRpcClient.open(server.port(), "")) {
      TestingRpcTables.create(a, "T");
      TestingRpcTables.create(b, "T"); // same name, another database
      assertError(a.call(TestingRpcTables.createTable("T")), ErrorCode.TABLE_ALREADY_EXISTS);
      Response catalog = main.call(Request.newBuilder().setGetCatalog(GetCatalog.newBuilder()));
      assertThat(catalog.getCatalogData().getTablesCount())
          .isEqualTo(SystemViews.all().size()); // system views only
    }
    assertThat(dir.resolve("databases/sales")).isDirectory();
    assertThat(dir.resolve("databases/hr")).isDirectory();
    assertThat(Files.exists(dir.resolve("store.manifest")) || Files.exists(dir.resolve("tables")))
        .isTrue();
  }

  @Test
  void usersMustAuthenticateWhenConfigured() {
    Authenticator authenticator =
        new Authenticator() {
          @Override
          public boolean required() {
            return true;
          }

          @Override
          public boolean authenticate(String user, char[] password) {
            return user.equals("ann") && Arrays.equals(password, "secret".toCharArray());
          }
        };
    server = CairnServer.start(TestingServers.config(Map.of()), authenticator, null);
    String[][] refused = {{"ann", "wrong"}, {"bob", "secret"}, {"", ""}, {"ann", ""}};
    for (String[] credentials : refused) {
      try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
        Response answer =
            client.call(
                Request.newBuilder()
                    .setHello(
                        Hello.newBuilder()
                            .setProtocolVersion(1)
                            .setUser(credentials[0])
                            .setPassword(credentials[1])));
        assertError(answer, ErrorCode.AUTHENTICATION_FAILED);
        assertThat(answer.getError().getMessage())
            .isEqualTo("Authentication failed: wrong user or password");
        assertThat(client.closedByServer()).isTrue();
      }
    }
    try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
      Response answer =
          client.call(
              Request.newBuilder()
                  .setHello(
                      Hello.newBuilder()
                          .setProtocolVersion(1)
                          .setUser("ann")
                          .setPassword("secret")));
      assertThat(answer.hasHelloOk()).isTrue();
    }
  }
}
