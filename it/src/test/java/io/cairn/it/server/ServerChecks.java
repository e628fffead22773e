package io.cairn.it.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Error;
import io.cairn.protocol.Response;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Assertions shared by the server robustness tests. */
final class ServerChecks {
  /** How long the server may take to release what a departed client held. */
  static final Duration RELEASE_PATIENCE = Duration.ofSeconds(20);

  private static final AtomicInteger tables = new AtomicInteger();

  private ServerChecks() {}

  /** A condition read from the server (over JMX or the wire). */
  @FunctionalInterface
  interface Probe<T> {
    T read() throws Exception;
  }

  /**
   * Polls {@code probe} every 20 ms until it returns {@code expected}; fails naming {@code what}
   * and the last value after {@code patience}.
   */
  static <T> void awaitValue(String what, Probe<T> probe, T expected, Duration patience)
      throws Exception {
    long deadline = System.nanoTime() + patience.toNanos();
    T last = probe.read();
    while (!expected.equals(last)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            what + ": expected [" + expected + "] within " + patience + ", found [" + last + "]");
      }
      Thread.sleep(20);
      last = probe.read();
    }
  }

  /** Fails unless {@code response} is an error with exactly {@code code} and its SQLState. */
  static Error assertError(Response response, ErrorCode code) {
    assertThat(response).as("the answer (null: the connection closed without one)").isNotNull();
    assertThat(response.hasError())
        .as("expected error %s, found %s", code, RawClient.describe(response))
        .isTrue();
    Error e = response.getError();
    assertThat(e.getCode())
        .as("error code of %s (expected %s)", RawClient.describe(response), code)
        .isEqualTo(code.code());
    assertThat(e.getSqlState())
        .as("SQLState of %s", RawClient.describe(response))
        .isEqualTo(code.sqlState());
    return e;
  }

  /**
   * Reads what the server still sends on {@code client} until it closes the connection: exactly one
   * error of {@code code} for request {@code id}, then the end of the stream.
   */
  static Error assertErrorThenClosed(RawClient client, long id, ErrorCode code) throws IOException {
    Response frame = assertClosingError(client, code);
    assertThat(frame.getId()).as("request id of %s", RawClient.describe(frame)).isEqualTo(id);
    return frame.getError();
  }

  /**
   * Reads what the server still sends on {@code client} until it closes the connection: exactly one
   * error of {@code code} (whatever its request id), then the end of the stream.
   */
  static Response assertClosingError(RawClient client, ErrorCode code) throws IOException {
    List<Response> frames = client.readUntilClosed(RawClient.DEFAULT_PATIENCE);
    assertThat(frames)
        .as(
            "frames before the server closed the connection: %s",
            frames.stream().map(RawClient::describe).toList())
        .hasSize(1);
    assertError(frames.get(0), code);
    return frames.get(0);
  }

  /**
   * The server still does everything for a new client: Hello, CREATE TABLE, a write, a paged scan
   * and a get, with the exact rows.
   */
  static void assertServes(ServerProcess server) throws IOException {
    String name = "SERVES_" + tables.incrementAndGet();
    try (RawClient client = RawClient.open(server.port(), "serves-check")) {
      TableDescriptor created = KvRows.created(client.call(KvRows.createTable(name)));
      KvRows rows = new KvRows(created);
      RawClient.ok(client.call(rows.upsert(1, 10, 20, 30)));
      List<Object[]> all = rows.scanAll(client, 2);
      assertThat(all.stream().map(Arrays::asList).toList())
          .as("the rows of %s after a write, through a paged scan", name)
          .containsExactly(
              List.of(10L, KvRows.value(10, 1), 1L),
              List.of(20L, KvRows.value(20, 1), 1L),
              List.of(30L, KvRows.value(30, 1), 1L));
      Object[][] got = KvRows.rows(client.call(KvRows.get(rows.scan(20, 21))));
      assertThat(Arrays.stream(got).map(Arrays::asList).toList())
          .containsExactly(List.of(20L, KvRows.value(20, 1), 1L));
      assertThat(client.call(KvRows.ping()).hasPong()).isTrue();
    }
  }

  /**
   * Waits until the server holds no connection and no scanner: everything a departed client had is
   * released.
   */
  static void awaitIdle(ServerProcess server) throws Exception {
    awaitValue("open connections", () -> server.serverMetric("Connections"), 0L, RELEASE_PATIENCE);
    awaitValue("open scanners", () -> server.serverMetric("OpenScanners"), 0L, RELEASE_PATIENCE);
  }

  /**
   * Runs a GC in the server and a few requests after it (leak detectors report collected buffers
   * when they next track one), stops the server with SIGTERM, and fails if it hangs, exits with an
   * unexpected status, or logged a leak.
   */
  static void stopAndAssertNoLeaks(ServerProcess server) throws Exception {
    server.gc();
    assertServes(server);
    int exit = server.stop();
    assertThat(exit)
        .as(
            "exit status after SIGTERM (0, or 143 for a JVM ended by SIGTERM)\n%s",
            server.describe())
        .isIn(0, 143);
    assertThat(server.leakReports())
        .as("leak reports in the server's log %s", server.log())
        .isEmpty();
  }
}
