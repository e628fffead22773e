package io.cairn.it.server;

import static io.cairn.it.server.ServerChecks.RELEASE_PATIENCE;
import static io.cairn.it.server.ServerChecks.assertError;
import static io.cairn.it.server.ServerChecks.awaitIdle;
import static io.cairn.it.server.ServerChecks.awaitValue;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that disappear in the middle of paged scans: the server must close their scanners and
 * give back every pooled buffer and cached block they held (an open scan holds no pooled buffer
 * between pages: its cursor copies each data block it reads and releases the buffer at once).
 * Checked through the server's own figures over JMX ({@code io.cairn:type=Server} OpenScanners and
 * Connections, {@code io.cairn:type=BufferPool} UsedBuffers), and at the end by its log, which must
 * hold no leak report after a graceful stop (the server runs with paranoid leak detection).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
final class TestServerScanRelease {
  /** Read without the block cache, into buffers of the store's pool. */
  private static final String POOLED = "SCANNED_POOLED";

  /** Read through the block cache: an open scan holds cached blocks. */
  private static final String CACHED = "SCANNED_CACHED";

  private static final int ROWS = 3000;

  @TempDir(cleanup = CleanupMode.ON_SUCCESS)
  static Path temp;

  private static ServerProcess server;
  private static KvRows pooled;
  private static KvRows cached;
  private static long baselineBuffers;

  @BeforeAll
  static void startServerWithFlushedRows() throws Exception {
    server = ServerProcess.options(temp).data(temp.resolve("data")).name("scan-release").start();
    try (RawClient client = RawClient.open(server.port(), "loader")) {
      pooled =
          new KvRows(
              KvRows.created(
                  client.call(
                      KvRows.createTable(KvRows.draft(POOLED, Map.of("BLOCKCACHE", "FALSE"))))));
      cached = new KvRows(KvRows.created(client.call(KvRows.createTable(CACHED))));
      for (KvRows rows : List.of(pooled, cached)) {
        // two block files, so that a scan reads blocks from both while it is open
        for (long from = 0; from < ROWS; from += 500) {
          RawClient.ok(client.call(rows.upsertRange(from, from + 500, 200)));
          if (from == ROWS / 2) {
            RawClient.ok(client.call(rows.flush()));
          }
        }
        RawClient.ok(client.call(rows.flush()));
        assertThat(rows.scanAll(client, 1000)).hasSize(ROWS);
      }
    }
    awaitIdle(server);
    assertThat(server.queryNames("io.cairn:type=BufferPool,*"))
        .as("the durable store's buffer pool bean, whose UsedBuffers the tests watch")
        .isNotEmpty();
    baselineBuffers = server.bufferPoolSum("UsedBuffers");
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      try {
        ServerChecks.stopAndAssertNoLeaks(server);
      } finally {
        server.close();
      }
    }
  }

  @BeforeEach
  void nothingHeld() throws Exception {
    awaitIdle(server);
  }

  @Test
  void scannersOfAConnectionResetMidScanAreClosed() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "reset-mid-scan")) {
      List<Long> scanners = openScans(client, 4);
      awaitValue("open scanners", () -> server.serverMetric("OpenScanners"), 4L, RELEASE_PATIENCE);
      assertHoldsNoPooledBuffers();
      // two pages requested and never read, then a TCP reset
      client.send(KvRows.scanNext(scanners.get(0), 10, 0));
      client.send(KvRows.scanNext(scanners.get(1), 10, 0));
      client.abort();
    }
    assertReleased();
  }

  @Test
  void scannersOfAConnectionClosedMidScanAreClosed() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "closed-mid-scan")) {
      openScans(client, 3);
      awaitValue("open scanners", () -> server.serverMetric("OpenScanners"), 3L, RELEASE_PATIENCE);
      assertHoldsNoPooledBuffers();
    }
    assertReleased();
  }

  @Test
  void scannersOfAKilledClientProcessAreClosed() throws Exception {
    Path out = temp.resolve("abandoned-client.out");
    Path err = temp.resolve("abandoned-client.err");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx64m",
            "-XX:+UseSerialGC",
            "-cp",
            ServerProcess.classpath(),
            AbandonedScanClient.class.getName(),
            Integer.toString(server.port()),
            "5",
            "PUBLIC." + POOLED,
            "PUBLIC." + CACHED);
    Process child =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    try {
      awaitValue(
          "the client process prints READY (stderr: " + err + ")",
          () -> Files.exists(out) && Files.readString(out, UTF_8).contains("READY\n"),
          true,
          Duration.ofSeconds(60));
      awaitValue("open scanners", () -> server.serverMetric("OpenScanners"), 5L, RELEASE_PATIENCE);
      assertHoldsNoPooledBuffers();
      child.destroyForcibly();
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the client died of SIGKILL").isTrue();
    } finally {
      child.destroyForcibly();
    }
    assertReleased();
  }

  @Test
  void aClosedScannerIsUNKNOWN_SCANNERAndOthersGoOn() throws Exception {
    try (RawClient client = RawClient.open(server.port(), "close-scan")) {
      List<Long> scanners = openScans(client, 2);
      RawClient.ok(client.call(KvRows.closeScan(scanners.get(0))));
      assertError(client.call(KvRows.scanNext(scanners.get(0), 10, 0)), ErrorCode.UNKNOWN_SCANNER);
      // the other scanner still reads to the end, from where it stopped
      List<Object[]> rest = new ArrayList<>();
      Response page = client.call(KvRows.scanNext(scanners.get(1), 1000, 0));
      while (true) {
        rest.addAll(List.of(KvRows.rows(page)));
        if (page.getScanPage().getDone()) {
          break;
        }
        page = client.call(KvRows.scanNext(scanners.get(1), 1000, 0));
      }
      assertThat(rest).hasSize(ROWS - 10);
      assertThat(rest.get(0)[0]).isEqualTo(10L);
      awaitValue(
          "open scanners after the last page",
          () -> server.serverMetric("OpenScanners"),
          0L,
          RELEASE_PATIENCE);
    }
    assertReleased();
  }

  @Test
  void aScannerBelongsToItsConnection() throws Exception {
    try (RawClient owner = RawClient.open(server.port(), "owner");
        RawClient other = RawClient.open(server.port(), "other")) {
      long scanner = openScans(owner, 1).get(0);
      // scanner ids may repeat across connections: the other one holds none, so none is found
      assertError(other.call(KvRows.scanNext(scanner, 10, 0)), ErrorCode.UNKNOWN_SCANNER);
      RawClient.ok(other.call(KvRows.closeScan(scanner)));
      assertThat(KvRows.rows(owner.call(KvRows.scanNext(scanner, 10, 0))))
          .as("the owner's scanner, untouched by the other connection's requests")
          .hasNumberOfRows(10);
      RawClient.ok(owner.call(KvRows.closeScan(scanner)));
    }
    assertReleased();
  }

  @Test
  void anIdleScannerExpiresWhileItsConnectionStaysOpen() throws Exception {
    Path dir = temp.resolve("idle");
    try (ServerProcess idle =
        ServerProcess.options(dir)
            .data(dir.resolve("data"))
            .set("scanner-idle-timeout", "500ms")
            .name("idle-scanners")
            .start()) {
      try (RawClient client = RawClient.open(idle.port(), "idle-scanner")) {
        KvRows idleRows = new KvRows(KvRows.created(client.call(KvRows.createTable("IDLE"))));
        RawClient.ok(client.call(idleRows.upsertRange(0, 100, 50)));
        RawClient.ok(client.call(idleRows.flush()));
        Response page = RawClient.ok(client.call(KvRows.openScan(idleRows.fullScan(), 10, 0)));
        long scanner = page.getScanPage().getScannerId();
        awaitValue("open scanners", () -> idle.serverMetric("OpenScanners"), 0L, RELEASE_PATIENCE);
        assertError(client.call(KvRows.scanNext(scanner, 10, 0)), ErrorCode.UNKNOWN_SCANNER);
        assertThat(client.call(KvRows.ping()).hasPong()).isTrue();
        awaitValue(
            "pooled buffers in use", () -> idle.bufferPoolSum("UsedBuffers"), 0L, RELEASE_PATIENCE);
      }
      ServerChecks.stopAndAssertNoLeaks(idle);
    }
  }

  /**
   * Opens {@code count} scans of 10-row pages, of the pooled and the cached table in turn, and
   * reads their first page; returns their ids.
   */
  private static List<Long> openScans(RawClient client, int count) throws Exception {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      KvRows rows = i % 2 == 0 ? pooled : cached;
      Response page = client.call(KvRows.openScan(rows.fullScan(), 10, 0));
      assertThat(KvRows.rows(page)).hasNumberOfRows(10);
      assertThat(page.getScanPage().getDone()).isFalse();
      ids.add(page.getScanPage().getScannerId());
    }
    return ids;
  }

  /**
   * Open scans, of the pooled table too, hold no buffer of the pool between pages: a cursor copies
   * a data block read into a pooled buffer and gives the buffer back at once, so a client that
   * vanishes mid-scan strands no pooled memory even before its scanners are closed.
   */
  private static void assertHoldsNoPooledBuffers() throws Exception {
    assertThat(server.bufferPoolSum("UsedBuffers"))
        .as("pooled buffers in use with scans of %s open (baseline %s)", POOLED, baselineBuffers)
        .isEqualTo(baselineBuffers);
  }

  private static void assertReleased() throws Exception {
    awaitIdle(server);
    awaitValue(
        "pooled buffers in use (baseline " + baselineBuffers + ")",
        () -> server.bufferPoolSum("UsedBuffers"),
        baselineBuffers,
        RELEASE_PATIENCE);
    ServerChecks.assertServes(server);
  }
}
