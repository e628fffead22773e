package io.cairn.server.status;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.TableSpec;
import io.cairn.store.EmbeddedStore;
import io.cairn.store.StoreConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestStatusServer {
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.BIGINT),
              new RowLayout.ColumnLayout(2, DataType.INTEGER)),
          List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
          false,
          1);
  private static final RowCodec CODEC = new RowCodec(LAYOUT);
  private static final InetAddress LOOPBACK = loopback();
  private static final String EVIL = "<script>alert('x')</script>";

  @TempDir Path dir;
  private EmbeddedStore store;
  private StatusServer server;
  private final SlowRequestLog slow = new SlowRequestLog(Duration.ofMillis(100));
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final Instant started = Instant.parse("2025-01-02T03:04:05Z");

  @BeforeEach
  void setUp() {
    store = EmbeddedStore.open(dir.resolve("store"), StoreConfig.from(Map.of()));
  }

  @AfterEach
  void tearDown() {
    if (server != null) {
      server.close();
    }
    store.close();
  }

  private static InetAddress loopback() {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    } catch (java.net.UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  private static Bytes key(long k) {
    return CODEC.encodeKey(new Object[] {k, null});
  }

  private static Mutation put(long k, int v) {
    Object[] row = {k, v};
    return new Mutation.Put(CODEC.encodeKey(row), CODEC.encodeValue(row));
  }

  private static long scanCount(KvTable table) {
    ScanProgram program =
        new ScanProgram(
            LAYOUT,
            Optional.empty(),
            List.<Expr>of(new Expr.ColumnRef(0, DataType.BIGINT)),
            ScanProgram.NO_LIMIT);
    long n = 0;
    try (RowScanner scanner =
        table.scan(new ScanRequest(List.of(KeyRange.ALL), program, EvalContext.EMPTY, true))) {
      while (scanner.next() != null) {
        n++;
      }
    }
    return n;
  }

  private ServerStatus snapshot() {
    Instant now = Instant.now();
    return new ServerStatus(
        now,
        ServerInfo.of("0.1.0-test", started, now, "127.0.0.1:7070", true, false),
        StoreStatus.collect(store),
        List.of(
            new ClientInfo(
                "127.0.0.1:50123", "alice", 42, started.plusSeconds(60), 1234, 2, 3, 5678, 91011)),
        slow.recent());
  }

  private StatusServer start() {
    server = StatusServer.start(new InetSocketAddress(LOOPBACK, 0), this::snapshot);
    return server;
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET());
  }

  private HttpResponse<String> send(HttpRequest.Builder request)
      throws IOException, InterruptedException {
    return http.send(
        request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  @Test
  void pageShowsTablesRegionsAndTheBlockCache() throws Exception {
    KvTable orders =
        store.createTable("ORDERS", new TableSpec(Map.of(), List.of(key(100), key(200))));
    List<Mutation> rows = new ArrayList<>();
    for (long k = 0; k < 300; k++) {
      rows.add(put(k, (int) k * 7));
    }
    orders.mutate(rows);
    orders.flush();
    orders.mutate(List.of(put(5, 5), put(150, 150), put(250, 250)));
    orders.flush();
    orders.compact(true); // one compaction of two files into one in each region
    orders.mutate(List.of(put(1000, 1))); // something in a memstore
    assertThat(scanCount(orders)).isEqualTo(301);
    assertThat(scanCount(orders)).isEqualTo(301); // the second scan hits the block cache
    slow.record(
        Instant.now(), "127.0.0.1:50123", "OpenScan", "ORDERS", Duration.ofMillis(250), 301);
    slow.record(Instant.now(), "127.0.0.1:50123", "Get", "ORDERS", Duration.ofMillis(3), 1); // fast

    start();
    HttpResponse<String> response = get("/?keys=1");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
    String page = response.body();
    assertThat(page)
        .contains(
            "<h2 id=\"server\">Server</h2>",
            "<h2 id=\"tables\">Tables and regions</h2>",
            "<h2 id=\"memstores\">Memstores</h2>",
            "<h2 id=\"block-cache\">Block cache</h2>",
            "<h2 id=\"compactions\">Compactions</h2>",
            "<h2 id=\"clients\">Clients</h2>",
            "<h2 id=\"slow-requests\">Slow requests</h2>")
        .contains("0.1.0-test", "127.0.0.1:7070", "<td>on</td>", "<td>off</td>")
        .contains("<h3>ORDERS</h3>", "3 regions")
        .contains("alice", "127.0.0.1:50123", "OpenScan")
        .doesNotContain(">Get<"); // below the threshold
    List<RegionInfo> regions = orders.regions();
    assertThat(regions).hasSize(3);
    for (RegionInfo r : regions) {
      assertThat(r.fileCount()).isEqualTo(1);
      assertThat(page)
          .contains("title=\"" + r.fileBytes() + " bytes\">" + Formats.bytes(r.fileBytes()) + "<")
          .contains("title=\"" + r.memstoreBytes() + " bytes\"");
    }
    String low = Formats.key(key(100));
    // a non-null marker, then the BIGINT with its sign bit flipped: 100 ends in 'd' (0x64)
    assertThat(low).isEqualTo("\\x01\\x80\\x00\\x00\\x00\\x00\\x00\\x00d");
    assertThat(page)
        .contains("<td class=\"k none\">(first)</td>")
        .contains("<td class=\"k\" title=\"" + key(100) + "\">" + Formats.html(low) + "</td>")
        .contains(Formats.html(Formats.key(key(200))))
        .contains("<td class=\"k none\">(last)</td>");
    assertThat(page).contains("<td>L1</td>", "<td>L2</td>", "Read buffers");
    assertThat(page).contains("None running.").doesNotContain("None since the store opened.");
    for (RegionInfo r : regions) {
      assertThat(page)
          .containsPattern(
              "<td>ORDERS</td><td class=\"n\">"
                  + r.regionId()
                  + "</td><td>major</td><td class=\"n\">2</td>.*<td>succeeded</td>");
    }
    assertThat(page).doesNotContain("<script");
  }

  @Test
  void jsonHasTheSameSnapshot() throws Exception {
    KvTable t = store.createTable("T", new TableSpec(Map.of(), List.of(key(10))));
    t.mutate(List.of(put(1, 1), put(20, 2)));
    t.flush();
    scanCount(t);
    scanCount(t);
    start();
    HttpResponse<String> response = get("/status.json?keys=1");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValue("application/json; charset=utf-8");
    JsonNode json = new ObjectMapper().readTree(response.body());
    assertThat(json.at("/server/version").asText()).isEqualTo("0.1.0-test");
    assertThat(json.at("/server/tls").asBoolean()).isTrue();
    assertThat(json.at("/server/authentication").asBoolean()).isFalse();
    assertThat(json.at("/server/uptimeMillis").asLong()).isPositive();
    assertThat(json.at("/store/durable").asBoolean()).isTrue();
    JsonNode table = null;
    for (JsonNode n : json.at("/store/tables")) {
      if (n.get("name").asText().equals("T")) {
        table = n;
      }
    }
    assertThat(table).as("table T in %s", json.at("/store/tables")).isNotNull();
    JsonNode regions = table.get("regions");
    assertThat(regions).hasSize(2);
    assertThat(regions.get(0).get("startKey").asText()).isEmpty();
    assertThat(regions.get(0).get("stopKeyHex").asText()).isEqualTo(key(10).toString());
    assertThat(regions.get(1).get("startKey").asText()).isEqualTo(Formats.key(key(10)));
    List<RegionInfo> infos = store.table("T").orElseThrow().regions();
    for (int i = 0; i < 2; i++) {
      assertThat(regions.get(i).get("fileBytes").asLong()).isEqualTo(infos.get(i).fileBytes());
      assertThat(regions.get(i).get("fileCount").asInt()).isEqualTo(1);
    }
    List<String> levels = new ArrayList<>();
    for (JsonNode l : json.at("/store/blockCache/levels")) {
      levels.add(l.get("level").asText());
      assertThat(l.get("hitRatio").isNumber()).isTrue();
    }
    assertThat(levels).containsExactly("L1", "L2");
    long hits = 0;
    for (JsonNode l : json.at("/store/blockCache/levels")) {
      hits += l.get("hits").asLong();
    }
    assertThat(hits).as("hits after scanning twice").isPositive();
    assertThat(json.at("/store/blockCache/bufferPool/bufferSize").asInt()).isPositive();
    assertThat(json.at("/clients/0/user").asText()).isEqualTo("alice");
    assertThat(json.at("/clients/0/sessionId").asLong()).isEqualTo(42);
    assertThat(json.at("/clients/0/openScanners").asInt()).isEqualTo(2);
    assertThat(json.at("/clients/0/openSnapshots").asInt()).isEqualTo(3);
    assertThat(json.at("/store/compactions/running").isArray()).isTrue();
    assertThat(json.at("/slowRequests").isArray()).isTrue();
  }

  @Test
  void namesAndKeysAreEscaped() throws Exception {
    Bytes evilKey = Bytes.wrap("<script>\\\"&'".getBytes(UTF_8));
    KvTable t = store.createTable(EVIL, new TableSpec(Map.of(), List.of(evilKey)));
    t.mutate(
        List.of(new Mutation.Put(Bytes.wrap("a".getBytes(UTF_8)), Bytes.wrap(new byte[] {1}))));
    slow.record(Instant.now(), "<img src=x>", "<b>", EVIL, Duration.ofSeconds(1), 0);
    start();
    String page = get("/?keys=1").body();
    assertThat(page).doesNotContain("<script", "<img", "<b>");
    assertThat(page)
        .contains("<h3>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</h3>")
        .contains(">&lt;script&gt;\\x5C&quot;&amp;&#39;</td>") // the key, backslash escaped
        .contains("&lt;img src=x&gt;");
    String json = get("/status.json?keys=1").body();
    assertThat(json).doesNotContain("<script", "<img");
    JsonNode parsed = new ObjectMapper().readTree(json);
    List<String> names = new ArrayList<>();
    parsed.at("/store/tables").forEach(n -> names.add(n.get("name").asText()));
    assertThat(names).contains(EVIL);
    assertThat(parsed.at("/slowRequests/0/client").asText()).isEqualTo("<img src=x>");
  }

  @Test
  void healthNotFoundAndMethodNotAllowed() throws Exception {
    start();
    HttpResponse<String> health = get("/health");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("ok\n");
    assertThat(get("/nope").statusCode()).isEqualTo(404);
    assertThat(get("/status.json/extra").statusCode()).isEqualTo(404);
    HttpResponse<String> post =
        send(HttpRequest.newBuilder(uri("/")).POST(HttpRequest.BodyPublishers.ofString("x=1")));
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).hasValue("GET");
    HttpResponse<String> delete = send(HttpRequest.newBuilder(uri("/health")).DELETE());
    assertThat(delete.statusCode()).isEqualTo(405);
    assertThat(get("/").headers().firstValue("Content-Security-Policy")).isPresent();
  }

  @Test
  void failingSnapshotIsA500AndTheServerGoesOn() throws Exception {
    AtomicReference<RuntimeException> failure =
        new AtomicReference<>(new IllegalStateException("boom"));
    server =
        StatusServer.start(
            new InetSocketAddress(LOOPBACK, 0),
            () -> {
              RuntimeException e = failure.get();
              if (e != null) {
                throw e;
              }
              return snapshot();
            });
    HttpResponse<String> response = get("/");
    assertThat(response.statusCode()).isEqualTo(500);
    assertThat(response.body()).isEqualTo("Status unavailable: IllegalStateException");
    assertThat(get("/health").statusCode()).isEqualTo(200);
    failure.set(null);
    assertThat(get("/").statusCode()).isEqualTo(200);
  }

  @Test
  void closeFreesThePortQuickly() throws Exception {
    start();
    int port = server.port();
    assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
    assertThat(get("/health").statusCode()).isEqualTo(200);
    long startNanos = System.nanoTime();
    server.close();
    assertThat(Duration.ofNanos(System.nanoTime() - startNanos)).isLessThan(Duration.ofSeconds(1));
    server.close(); // again: nothing
    // a new server can listen there (as any server does, with SO_REUSEADDR: the closed
    // connections of the first may linger in TIME_WAIT)
    server = StatusServer.start(new InetSocketAddress(LOOPBACK, port), this::snapshot);
    assertThat(server.port()).isEqualTo(port);
    HttpClient fresh = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    assertThat(
            fresh
                .send(
                    HttpRequest.newBuilder(uri("/health")).build(),
                    HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  void portInUseIsNamed() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, LOOPBACK)) {
      InetSocketAddress address = new InetSocketAddress(LOOPBACK, taken.getLocalPort());
      assertThatThrownBy(() -> StatusServer.start(address, this::snapshot))
          .isInstanceOfSatisfying(
              CairnException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.IO_ERROR))
          .hasMessageStartingWith("Cannot serve the status page on [" + address + "]");
    }
  }

  @Test
  void inMemoryStoreHasNoBlockCache() throws Exception {
    try (EmbeddedStore memory = new EmbeddedStore("scratch")) {
      memory.createTable("M").mutate(List.of(put(1, 1)));
      StoreStatus s = StoreStatus.collect(memory);
      assertThat(s.durable()).isFalse();
      assertThat(s.name()).isEqualTo("scratch");
      assertThat(s.blockCache().levels()).isEmpty();
      assertThat(s.blockCache().bufferSize()).isZero();
      assertThat(s.tables()).extracting(TableStatus::name).containsExactly("M");
      assertThat(s.tables().get(0).memstoreBytes()).isPositive();
      assertThat(s.memstores().bytes()).isPositive();
      server =
          StatusServer.start(
              new InetSocketAddress(LOOPBACK, 0),
              () ->
                  new ServerStatus(
                      Instant.now(),
                      ServerInfo.of("v", started, Instant.now(), "local", false, true),
                      StoreStatus.collect(memory),
                      List.of(),
                      List.of()));
      String page = get("/").body();
      assertThat(page)
          .contains("No block cache (an in-memory store reads no files).")
          .contains("No clients connected.", "No slow requests.", "None running.")
          .doesNotContain("Read buffers");
      server.close();
      server = null;
    }
  }

  // --- access ----------------------------------------------------------------------------------

  private StatusServer startWithUsers() {
    server =
        StatusServer.start(
            new InetSocketAddress(LOOPBACK, 0),
            this::snapshot,
            StatusAccess.users(
                (user, password) ->
                    (user.equals("root") || user.equals("bob"))
                        && new String(password).equals("secret"),
                Set.of("root")),
            null);
    return server;
  }

  private HttpResponse<String> get(String path, String user, String password)
      throws IOException, InterruptedException {
    String basic = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(UTF_8));
    return send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Basic " + basic).GET());
  }

  @Test
  void withUsersThePageNeedsALoginAndHealthDoesNot() throws Exception {
    startWithUsers();
    for (String path : List.of("/", "/status.json", "/?keys=1")) {
      HttpResponse<String> refused = get(path);
      assertThat(refused.statusCode()).as(path).isEqualTo(401);
      assertThat(refused.headers().firstValue("WWW-Authenticate"))
          .hasValue("Basic realm=\"Cairn status\", charset=\"UTF-8\"");
      assertThat(refused.body()).doesNotContain("alice", "127.0.0.1:50123");
    }
    assertThat(get("/health").statusCode()).isEqualTo(200);
    assertThat(get("/", "root", "secret").statusCode()).isEqualTo(200);
    assertThat(get("/status.json", "bob", "secret").statusCode()).isEqualTo(200);
  }

  @Test
  void onlyAnAdminWhoAsksSeesKeysAndOnlyAdminsSeeClients() throws Exception {
    Bytes secretKey = Bytes.wrap("someone@example.com".getBytes(UTF_8));
    KvTable t = store.createTable("T", new TableSpec(Map.of(), List.of(secretKey)));
    t.mutate(List.of(new Mutation.Put(secretKey, Bytes.wrap(new byte[] {1}))));
    slow.record(Instant.now(), "10.1.2.3:4567 alice", "OpenScan", "T", Duration.ofSeconds(1), 0);
    startWithUsers();

    for (String path : List.of("/status.json", "/status.json?keys=1", "/", "/?keys=1")) {
      String body = get(path, "bob", "secret").body();
      assertThat(body)
          .as("what user bob sees at %s", path)
          .doesNotContain("someone@example.com", "startKey", "stopKeyHex", secretKey.toString())
          .doesNotContain("alice", "127.0.0.1:50123", "10.1.2.3", "remoteAddress");
    }
    JsonNode bob = new ObjectMapper().readTree(get("/status.json", "bob", "secret").body());
    assertThat(bob.at("/view/clients").asBoolean()).isFalse();
    assertThat(bob.at("/view/keys").asBoolean()).isFalse();
    assertThat(bob.at("/clients/0/sessionId").asLong()).isEqualTo(42);
    assertThat(bob.at("/clients/0/user").isMissingNode()).isTrue();
    assertThat(bob.at("/slowRequests/0/requestType").asText()).isEqualTo("OpenScan");
    assertThat(bob.at("/slowRequests/0/client").isMissingNode()).isTrue();

    String rootWithoutKeys = get("/status.json", "root", "secret").body();
    assertThat(rootWithoutKeys)
        .contains("alice", "127.0.0.1:50123", "10.1.2.3")
        .doesNotContain("someone@example.com", "startKey");
    assertThat(get("/", "root", "secret").body())
        .doesNotContain("someone@example.com")
        .contains("Show them with ?keys=1.");

    JsonNode root =
        new ObjectMapper().readTree(get("/status.json?keys=1", "root", "secret").body());
    assertThat(root.at("/view/keys").asBoolean()).isTrue();
    assertThat(root.toString()).contains("someone@example.com");
    assertThat(get("/?keys=1", "root", "secret").body()).contains("someone@example.com");
  }

  @Test
  void wrongPasswordsBackOffPerAddressAndRightOnesAreRemembered() throws Exception {
    AtomicInteger checks = new AtomicInteger();
    server =
        StatusServer.start(
            new InetSocketAddress(LOOPBACK, 0),
            this::snapshot,
            StatusAccess.users(
                (user, password) -> {
                  checks.incrementAndGet();
                  return user.equals("root") && new String(password).equals("secret");
                },
                Set.of("root")),
            null);
    assertThat(get("/", "root", "secret").statusCode()).isEqualTo(200);
    assertThat(get("/status.json", "root", "secret").statusCode()).isEqualTo(200);
    assertThat(get("/", "root", "secret").statusCode()).isEqualTo(200);
    assertThat(checks).as("password checks for three requests").hasValue(1);

    assertThat(get("/", "root", "wrong").statusCode()).isEqualTo(401);
    assertThat(checks).hasValue(2);
    // at once again from the same address: refused without a check
    HttpResponse<String> throttled = get("/", "root", "wrong");
    assertThat(throttled.statusCode()).isEqualTo(429);
    assertThat(throttled.headers().firstValue("Retry-After")).isPresent();
    assertThat(checks).hasValue(2);
    // a remembered login still gets in, and /health stays open
    assertThat(get("/", "root", "secret").statusCode()).isEqualTo(200);
    assertThat(get("/health").statusCode()).isEqualTo(200);
    // no credentials: 401 without a check
    assertThat(get("/").statusCode()).isEqualTo(401);
    assertThat(checks).hasValue(2);
  }

  @Test
  void aSlowPasswordCheckHoldsOneThreadAndHealthStillAnswers() throws Exception {
    java.util.concurrent.CountDownLatch checking = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
    server =
        StatusServer.start(
            new InetSocketAddress(LOOPBACK, 0),
            this::snapshot,
            StatusAccess.users(
                (user, password) -> {
                  checking.countDown();
                  try {
                    return finish.await(30, java.util.concurrent.TimeUnit.SECONDS)
                        && user.equals("root");
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                  }
                },
                Set.of("root")),
            null);
    java.util.concurrent.CompletableFuture<HttpResponse<String>> slow =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> {
              try {
                return get("/", "root", "secret");
              } catch (IOException | InterruptedException e) {
                throw new AssertionError(e);
              }
            });
    assertThat(checking.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    // another login waits a quarter second for the check, then is told to retry
    HttpResponse<String> busy = get("/", "bob", "secret");
    assertThat(busy.statusCode()).isEqualTo(503);
    assertThat(busy.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(get("/health").statusCode()).isEqualTo(200);
    finish.countDown();
    assertThat(slow.get(30, java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(200);
  }
}
