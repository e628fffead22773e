package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static io.cairn.server.rpc.TestingRpcTables.K;
import static io.cairn.server.rpc.TestingRpcTables.page;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.protocol.Cancel;
import io.cairn.protocol.Ping;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.ScanSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Cancels, the worker pool's bounds and clients that go away, over scans that run until the test
 * lets them go (a gated store).
 */
@ExtendWith(NettyLeakCheck.class)
class TestServerCancel {
  private final List<TestingGatedStore> stores = new ArrayList<>();
  private CairnServer server;

  @AfterEach
  void close() {
    for (TestingGatedStore s : stores) {
      s.openGate();
    }
    if (server != null) {
      server.close();
    }
  }

  private TestingGatedStore start(Map<String, String> settings) {
    server =
        CairnServer.start(
            TestingServers.config(settings),
            Authenticator.NONE,
            null,
            TestingGatedStore.opener(stores));
    return stores.get(0);
  }

  private static ScanSpec keys(TableDescriptor t) {
    return TestingRpcTables.scan(t, Optional.empty(), List.of(K));
  }

  private static Request.Builder cancel(long target) {
    return Request.newBuilder().setCancel(Cancel.newBuilder().setTarget(target));
  }

  private static Request.Builder ping() {
    return Request.newBuilder().setPing(Ping.getDefaultInstance());
  }

  @Test
  void aCancelStopsARunningScanAndItsScannerIsClosed() {
    TestingGatedStore store = start(Map.of());
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 10);
      store.closeGate();

      // OpenScan
      long open = client.send(TestingRpcTables.openScan(keys(t), 0, 0, 60_000));
      TestingAwait.until(() -> store.waiting() == 1, "the scan running");
      client.send(cancel(open));
      Response cancelled = client.await(open);
      assertError(cancelled, ErrorCode.QUERY_CANCELED);
      assertThat(cancelled.getError().getMessage()).contains("[" + open + "]");
      TestingAwait.until(() -> store.openScanners() == 0, "the store's scanner closed");

      // Get
      long get = client.send(TestingRpcTables.get(keys(t)));
      TestingAwait.until(() -> store.waiting() == 1, "the get running");
      client.send(cancel(get));
      assertError(client.await(get), ErrorCode.QUERY_CANCELED);
      TestingAwait.until(() -> store.openScanners() == 0, "the get's scanner closed");

      // ScanNext: the scanner is closed with it
      store.openGate();
      ScanPage first = page(client.call(TestingRpcTables.openScan(keys(t), 2, 0, 0)));
      assertThat(first.getDone()).isFalse();
      store.closeGate();
      long next = client.send(TestingRpcTables.scanNext(first.getScannerId(), 2, 0, 60_000));
      TestingAwait.until(() -> store.waiting() == 1, "the page running");
      client.send(cancel(next));
      assertError(client.await(next), ErrorCode.QUERY_CANCELED);
      store.openGate();
      assertError(
          client.call(TestingRpcTables.scanNext(first.getScannerId(), 2, 0, 0)),
          ErrorCode.UNKNOWN_SCANNER);
      assertThat(store.openScanners()).isZero();
      assertThat(server.context().metrics().getOpenScanners()).isZero();

      // a cancel of what is not running is ignored; the connection goes on
      client.send(cancel(12345));
      assertThat(client.call(ping()).hasPong()).isTrue();
    }
  }

  @Test
  void aFullWorkQueueAnswersServerBusyAndTheConnectionGoesOn() {
    TestingGatedStore store =
        start(Map.of(ServerConfig.WORKER_THREADS, "1", ServerConfig.QUEUE_SIZE, "1"));
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 10);
      store.closeGate();
      long running = client.send(TestingRpcTables.get(keys(t)));
      TestingAwait.until(() -> store.waiting() == 1, "the worker busy");
      long queued = client.send(ping());
      TestingAwait.until(
          () -> server.context().metrics().getQueuedRequests() == 1, "a request queued");
      Response busy = client.call(ping());
      assertError(busy, ErrorCode.SERVER_BUSY);
      assertThat(busy.getError().getMessage()).contains("[1]").contains("queue-size");
      store.openGate();
      assertThat(page(client.await(running)).getRowCount()).isEqualTo(10);
      assertThat(client.await(queued).hasPong()).isTrue();
      assertThat(client.call(ping()).hasPong()).isTrue();
    }
  }

  @Test
  void requestsBeyondMaxInFlightWaitTheirTurnInsteadOfFailing() {
    TestingGatedStore store = start(Map.of(ServerConfig.MAX_IN_FLIGHT, "2"));
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 10);
      store.closeGate();
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        ids.add(client.send(TestingRpcTables.get(keys(t))));
      }
      TestingAwait.until(() -> store.waiting() == 2, "two requests running");
      TestingAwait.sleep(100);
      assertThat(store.waiting()).isEqualTo(2);
      assertThat(server.context().metrics().getActiveRequests()).isEqualTo(2);
      store.openGate();
      for (long id : ids) {
        assertThat(page(client.await(id)).getRowCount()).isEqualTo(10);
      }
    }
  }

  @Test
  void aClientThatGoesAwayMidScanHasItsWorkStoppedAndScannersClosed() {
    TestingGatedStore store = start(Map.of());
    TestingRpcClient client = TestingRpcClient.open(server.port(), "");
    TableDescriptor t = TestingRpcTables.create(client, "T");
    TestingRpcTables.load(client, t, 0, 100);
    ScanPage open = page(client.call(TestingRpcTables.openScan(keys(t), 10, 0, 0)));
    assertThat(open.getDone()).isFalse();
    store.closeGate();
    client.send(TestingRpcTables.get(keys(t)));
    TestingAwait.until(() -> store.waiting() == 1, "the get running");
    client.close();
    // the gate stays closed: only the server's cancel ends the get
    TestingAwait.until(() -> store.openScanners() == 0, "both scanners closed");
    TestingAwait.until(
        () ->
            server.context().metrics().getOpenScanners() == 0
                && server.context().metrics().getConnections() == 0,
        "the connection forgotten");
  }
}
