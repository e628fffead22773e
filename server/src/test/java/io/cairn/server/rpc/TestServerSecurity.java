package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static io.cairn.server.rpc.TestingRpcTables.K;
import static io.cairn.server.rpc.TestingRpcTables.page;
import static io.cairn.server.rpc.TestingRpcTables.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Ping;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.testing.TestCertificates;
import io.cairn.server.security.PasswordHasher;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Users, TLS and the status page, configured as the server's settings configure them. */
@ExtendWith(NettyLeakCheck.class)
class TestServerSecurity {
  private CairnServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  private static CairnServer start(Map<String, String> settings) {
    return CairnServer.start(TestingServers.config(settings));
  }

  @Test
  void usersOfTheConfigurationMustAuthenticate() {
    String hash = PasswordHasher.hash("secret".toCharArray(), PasswordHasher.MIN_ITERATIONS);
    server = start(Map.of("user.ann", hash));
    for (String[] wrong : new String[][] {{"ann", "nope"}, {"bob", "secret"}, {"", ""}}) {
      try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
        assertError(client.hello("", wrong[0], wrong[1]), ErrorCode.AUTHENTICATION_FAILED);
        assertThat(client.closedByServer()).isTrue();
      }
    }
    try (TestingRpcClient client = TestingRpcClient.connect(server.port())) {
      assertThat(client.hello("", "ann", "secret").hasHelloOk()).isTrue();
      assertThat(server.status().clients())
          .singleElement()
          .satisfies(
              c -> {
                assertThat(c.user()).isEqualTo("ann");
              });
    }
  }

  @Test
  void aMalformedHashStopsTheStartNamingTheKey() {
    assertThatThrownBy(() -> TestingServers.config(Map.of("user.ann", "plaintext")))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("user.ann");
  }

  @Test
  void withTlsOnlyTlsClientsGetIn(@TempDir Path dir) {
    TestCertificates.CertificateFiles files = TestCertificates.selfSigned(dir);
    server =
        start(
            Map.of(
                ServerConfig.TLS_CERTIFICATE,
                files.certificate().toString(),
                ServerConfig.TLS_KEY,
                files.privateKey().toString()));
    try (TestingRpcClient client =
        TestingRpcClient.connectTls(server.port(), files.certificate())) {
      assertThat(client.hello("").hasHelloOk()).isTrue();
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 5000);
      assertThat(
              rows(
                  page(
                      client.call(
                          TestingRpcTables.get(TestingRpcTables.count(t, Optional.empty()))))))
          .containsExactly(List.of(5000L));
      // scans of several pages over TLS
      var first =
          page(
              client.call(
                  TestingRpcTables.openScan(
                      TestingRpcTables.scan(t, Optional.empty(), List.of(K)), 1000, 0, 0)));
      assertThat(first.getRowCount()).isEqualTo(1000);
    }
    // plain bytes are not TLS: the connection is closed without an answer
    try (TestingRpcClient plain = TestingRpcClient.connect(server.port())) {
      plain.send(Request.newBuilder().setPing(Ping.getDefaultInstance()));
      boolean closed;
      try {
        Response answer = plain.read();
        closed = answer == null;
      } catch (UncheckedIOException e) {
        closed = true;
      }
      assertThat(closed).isTrue();
    }
  }

  @Test
  void missingTlsFilesStopTheStartNamingTheFile(@TempDir Path dir) {
    Path missing = dir.resolve("missing.pem");
    assertThatThrownBy(
            () ->
                start(
                    Map.of(
                        ServerConfig.TLS_CERTIFICATE,
                        missing.toString(),
                        ServerConfig.TLS_KEY,
                        missing.toString())))
        .isInstanceOf(CairnException.class)
        .hasMessageContaining(missing.toString());
  }

  @Test
  void theStatusPageShowsRegionsClientsAndSlowRequests(@TempDir Path dir) throws Exception {
    Map<String, String> settings = new HashMap<>();
    settings.put(ServerConfig.HTTP_PORT, "0");
    settings.put(ServerConfig.SLOW_REQUEST_MILLIS, "0"); // every request is slow
    settings.put(ServerConfig.DATA, dir.toString());
    server = start(settings);
    assertThat(server.statusAddress()).isPresent();
    int httpPort = server.statusAddress().get().getPort();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "");
        TestingRpcClient named = TestingRpcClient.open(server.port(), "sales")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 100);
      TableDescriptor s = TestingRpcTables.create(named, "S");
      HttpClient http = HttpClient.newHttpClient();
      String page =
          http.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/")).build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      // tables by their SQL names, with the KV table's name after them
      assertThat(page)
          .contains(t.qualifiedName() + " (" + t.kvTableName() + ")")
          .contains("sales:" + s.qualifiedName() + " (" + s.kvTableName() + ")")
          .contains("MUTATE")
          .contains(dir.toString());
      String json =
          http.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + httpPort + "/status.json"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(json)
          .contains("\"" + t.qualifiedName() + " (" + t.kvTableName() + ")\"")
          .contains("CREATE_TABLE");
      assertThat(server.status().clients()).hasSize(2);
      assertThat(server.status().clients().get(0).requestsServed()).isGreaterThanOrEqualTo(3);
      assertThat(server.status().clients().get(0).bytesOut()).isPositive();
    }
    server.close();
    server = null;
  }

  @Test
  void withTlsAndUsersTheStatusPageIsHttpsWithBasicAuthentication(@TempDir Path dir)
      throws Exception {
    TestCertificates.CertificateFiles files = TestCertificates.selfSigned(dir);
    String hash = PasswordHasher.hash("secret".toCharArray(), PasswordHasher.MIN_ITERATIONS);
    Map<String, String> settings = new HashMap<>();
    settings.put(ServerConfig.HTTP_PORT, "0");
    settings.put(ServerConfig.TLS_CERTIFICATE, files.certificate().toString());
    settings.put(ServerConfig.TLS_KEY, files.privateKey().toString());
    settings.put("user.ann", hash);
    settings.put(ServerConfig.ADMINS, "ann");
    server = start(settings);
    int httpPort = server.statusAddress().orElseThrow().getPort();
    java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (java.io.InputStream in = java.nio.file.Files.newInputStream(files.certificate())) {
      trust.setCertificateEntry(
          "server",
          java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    javax.net.ssl.TrustManagerFactory tmf =
        javax.net.ssl.TrustManagerFactory.getInstance(
            javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    javax.net.ssl.SSLContext tls = javax.net.ssl.SSLContext.getInstance("TLS");
    tls.init(null, tmf.getTrustManagers(), null);
    HttpClient https = HttpClient.newBuilder().sslContext(tls).build();
    URI page = URI.create("https://127.0.0.1:" + httpPort + "/status.json");
    HttpResponse<String> refused =
        https.send(HttpRequest.newBuilder(page).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(401);
    String basic =
        java.util.Base64.getEncoder()
            .encodeToString("ann:secret".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    HttpResponse<String> ok =
        https.send(
            HttpRequest.newBuilder(page).header("Authorization", "Basic " + basic).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.body()).contains("\"view\":{\"clients\":true,\"keys\":false}");
    // plain HTTP is not served
    HttpClient plain = HttpClient.newHttpClient();
    assertThatThrownBy(
            () ->
                plain.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/health"))
                        .timeout(java.time.Duration.ofSeconds(10))
                        .build(),
                    HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(java.io.IOException.class);
    server.close();
    server = null;
  }
}
