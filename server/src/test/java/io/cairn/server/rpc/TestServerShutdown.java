package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static io.cairn.server.rpc.TestingRpcTables.K;
import static io.cairn.server.rpc.TestingRpcTables.N;
import static io.cairn.server.rpc.TestingRpcTables.V;
import static io.cairn.server.rpc.TestingRpcTables.page;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.StoreCatalog;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvStore;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.protocol.Durability;
import io.cairn.protocol.Ping;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.store.Stores;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Graceful shutdown: clients are told, running requests finish, stores are flushed. */
@ExtendWith(NettyLeakCheck.class)
class TestServerShutdown {
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

  /** Writes rows 0..count-1 with SKIP durability: only a flush keeps them. */
  private static void writeUnlogged(TestingRpcClient client, TableDescriptor t, int count) {
    for (int from = 0; from < count; from += 1000) {
      List<io.cairn.kv.Mutation> batch = new ArrayList<>();
      for (int k = from; k < Math.min(count, from + 1000); k++) {
        batch.add(TestingRpcTables.put(t, k, "v" + k, k % 100));
      }
      Request.Builder mutate = TestingRpcTables.mutate(t, batch);
      mutate.getMutateBuilder().setDurability(Durability.DURABILITY_SKIP);
      assertThat(client.call(mutate).hasMutateResult()).isTrue();
    }
  }

  private static long countRows(Path dir, String table) {
    try (KvStore store = Stores.open(dir, Map.of())) {
      TableDescriptor t = StoreCatalog.open(store).table("PUBLIC", table).orElseThrow();
      long rows = 0;
      ScanRequest all =
          new ScanRequest(
              List.of(KeyRange.ALL),
              new ScanProgram(t.layout(), Optional.empty(), List.of(K, V, N), ScanProgram.NO_LIMIT),
              EvalContext.EMPTY,
              true);
      try (RowScanner scanner = store.table(t.kvTableName()).orElseThrow().scan(all)) {
        while (scanner.next() != null) {
          rows++;
        }
      }
      return rows;
    }
  }

  @Test
  void aGracefulShutdownFlushesEveryDatabaseSoAcknowledgedWritesSurvive(@TempDir Path dir) {
    server = TestingServers.start(Map.of(ServerConfig.DATA, dir.toString()));
    try (TestingRpcClient main = TestingRpcClient.open(server.port(), "");
        TestingRpcClient named = TestingRpcClient.open(server.port(), "archive")) {
      writeUnlogged(main, TestingRpcTables.create(main, "T"), 5000);
      writeUnlogged(named, TestingRpcTables.create(named, "A"), 3000);
      server.close();
      server = null;
      assertThat(main.awaitEvent().getEvent().hasCatalogChanged()).isTrue();
      assertThat(main.awaitEvent().getEvent().hasShuttingDown()).isTrue();
      assertThat(main.closedByServer()).isTrue();
    }
    assertThat(countRows(dir, "T")).isEqualTo(5000);
    assertThat(countRows(dir.resolve("databases/archive"), "A")).isEqualTo(3000);
  }

  @Test
  void runningRequestsFinishAndNewOnesAreRefusedWhileShuttingDown() throws Exception {
    server =
        CairnServer.start(
            TestingServers.config(Map.of()),
            Authenticator.NONE,
            null,
            TestingGatedStore.opener(stores));
    TestingGatedStore store = stores.get(0);
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 10);
      store.closeGate();
      long running =
          client.send(TestingRpcTables.get(TestingRpcTables.scan(t, Optional.empty(), List.of(K))));
      TestingAwait.until(() -> store.waiting() == 1, "the get running");
      CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
      Response event = client.awaitEvent();
      while (!event.getEvent().hasShuttingDown()) {
        event = client.awaitEvent();
      }
      assertError(
          client.call(Request.newBuilder().setPing(Ping.getDefaultInstance())),
          ErrorCode.SERVER_SHUTTING_DOWN);
      assertThat(closing).isNotDone();
      store.openGate();
      assertThat(page(client.await(running)).getRowCount()).isEqualTo(10);
      closing.get(30, TimeUnit.SECONDS);
      assertThat(client.closedByServer()).isTrue();
      server = null;
    }
    // a new connection is refused: nobody listens
    assertThat(store.openScanners()).isZero();
  }

  @Test
  void requestsStillRunningAfterTheShutdownTimeoutAreCancelled() throws Exception {
    server =
        CairnServer.start(
            TestingServers.config(Map.of(ServerConfig.SHUTDOWN_TIMEOUT, "200ms")),
            Authenticator.NONE,
            null,
            TestingGatedStore.opener(stores));
    TestingGatedStore store = stores.get(0);
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 10);
      store.closeGate();
      long running =
          client.send(TestingRpcTables.get(TestingRpcTables.scan(t, Optional.empty(), List.of(K))));
      TestingAwait.until(() -> store.waiting() == 1, "the get running");
      long started = System.nanoTime();
      server.close();
      server = null;
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5000);
      assertError(client.await(running), ErrorCode.QUERY_CANCELED);
      assertThat(client.closedByServer()).isTrue();
    }
    assertThat(store.openScanners()).isZero();
  }
}
