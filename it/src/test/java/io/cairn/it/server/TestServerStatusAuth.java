package io.cairn.it.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.server.security.PasswordHasher;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status page of a real server process with users (docs/server-security.md, "The status page"):
 * it needs a login, shows a user who is not an administrator no key values, client addresses or
 * user names, shows keys to an administrator who asks, and keeps /health open.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
final class TestServerStatusAuth {
  private static final String PASSWORD = "s3cret";

  /** A primary-key value that becomes a region boundary: what the page must not leak. */
  private static final String SECRET_KEY = "someone@example.com";

  private static final Pattern STATUS_PORT =
      Pattern.compile("Status page on http://127\\.0\\.0\\.1:(\\d+)/");

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path temp;

  private static ServerProcess server;
  private static int statusPort;
  private static Connection bobsConnection;

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @BeforeAll
  static void startServer() throws Exception {
    String hash = PasswordHasher.hash(PASSWORD.toCharArray(), PasswordHasher.MIN_ITERATIONS);
    server =
        ServerProcess.options(temp)
            .data(temp.resolve("data"))
            .name("status-auth")
            .set("http.port", "0")
            .set("user.root", hash)
            .set("user.bob", hash)
            .set("admins", "root")
            .start();
    statusPort = statusPort(server);
    bobsConnection =
        DriverManager.getConnection(
            "jdbc:cairn://127.0.0.1:"
                + server.port()
                + ";user=bob;password="
                + PASSWORD
                + ";connectTimeout=5s;requestTimeout=20s");
    try (Statement s = bobsConnection.createStatement()) {
      s.executeUpdate(
          "CREATE TABLE people (email VARCHAR(64) PRIMARY KEY, name VARCHAR(20))"
              + " SPLIT ON ('"
              + SECRET_KEY
              + "')");
      s.executeUpdate("UPSERT INTO people VALUES ('" + SECRET_KEY + "', 'Someone')");
    }
  }

  @AfterAll
  static void stopServer() throws Exception {
    try {
      if (bobsConnection != null) {
        bobsConnection.close();
      }
    } finally {
      if (server != null) {
        try {
          int exit = server.stop();
          assertThat(exit).as("exit status after SIGTERM\n%s", server.describe()).isIn(0, 143);
          assertThat(server.leakReports()).as("leaks in the server's log").isEmpty();
        } finally {
          server.close();
        }
      }
    }
  }

  private static int statusPort(ServerProcess server) {
    for (String line : server.logLines()) {
      Matcher m = STATUS_PORT.matcher(line);
      if (m.find()) {
        return Integer.parseInt(m.group(1));
      }
    }
    throw new AssertionError("no status page address in the log:\n" + server.describe());
  }

  private HttpResponse<String> get(String path, String user)
      throws IOException, InterruptedException {
    return get(path, user, PASSWORD);
  }

  private HttpResponse<String> get(String path, String user, String password)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + statusPort + path))
            .timeout(Duration.ofSeconds(20))
            .GET();
    if (user != null) {
      String basic = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(UTF_8));
      request.header("Authorization", "Basic " + basic);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void withoutCredentialsThePageAndItsJsonAre401AndHealthIs200() throws Exception {
    for (String path : List.of("/", "/status.json", "/status.json?keys=1")) {
      HttpResponse<String> refused = get(path, null);
      assertThat(refused.statusCode()).as(path).isEqualTo(401);
      assertThat(refused.headers().firstValue("WWW-Authenticate"))
          .as(path)
          .hasValueSatisfying(v -> assertThat(v).startsWith("Basic realm="));
      assertThat(refused.body()).doesNotContain(SECRET_KEY, "bob", "people");
    }
    HttpResponse<String> health = get("/health", null);
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("ok\n");
  }

  @Test
  void aUserWhoIsNotAnAdminSeesNoKeysNoUsersAndNoClientAddresses() throws Exception {
    for (String path : List.of("/", "/?keys=1", "/status.json", "/status.json?keys=1")) {
      HttpResponse<String> page = get(path, "bob");
      assertThat(page.statusCode()).as(path).isEqualTo(200);
      assertThat(page.body())
          .as("what bob sees at %s", path)
          .contains("PEOPLE")
          .doesNotContain(SECRET_KEY, "someone", "startKey", "stopKeyHex", "remoteAddress")
          .doesNotContain("bob", "/127.0.0.1:"); // clients' addresses are /HOST:PORT
    }
    String json = get("/status.json", "bob").body();
    assertThat(json).contains("\"view\":{\"clients\":false,\"keys\":false}");
  }

  @Test
  void anAdminSeesClientsAndKeysWhenAsking() throws Exception {
    String json = get("/status.json", "root").body();
    assertThat(json)
        .contains("\"view\":{\"clients\":true,\"keys\":false}", "\"user\":\"bob\"", "remoteAddress")
        .doesNotContain(SECRET_KEY, "startKey");
    String withKeys = get("/status.json?keys=1", "root").body();
    assertThat(withKeys).contains("\"keys\":true", "startKey", SECRET_KEY);
    assertThat(get("/?keys=1", "root").body()).contains(SECRET_KEY);
  }

  /**
   * Last: a wrong password makes its address wait (429) before its next check, while a login
   * checked before (remembered for a minute) still gets in at once.
   */
  @Test
  @Order(Integer.MAX_VALUE)
  void aWrongPasswordIs401AndTheAddressBacksOff() throws Exception {
    assertThat(get("/status.json", "root").statusCode()).isEqualTo(200); // remembered now
    HttpResponse<String> refused = get("/status.json", "nobody", "wrong");
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.body()).doesNotContain(SECRET_KEY, "bob");
    HttpResponse<String> throttled = get("/status.json", "nobody", "wrong");
    assertThat(throttled.statusCode()).isEqualTo(429);
    assertThat(throttled.headers().firstValue("Retry-After")).isPresent();
    assertThat(get("/status.json", "root").statusCode()).isEqualTo(200);
    assertThat(get("/health", null).statusCode()).isEqualTo(200);
  }
}
