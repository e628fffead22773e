package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static io.cairn.server.rpc.TestingRpcTables.V;
import static io.cairn.server.rpc.TestingRpcTables.page;
import static io.cairn.server.rpc.TestingRpcTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.AggregateKind;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.DataType;
import io.cairn.kv.ScanProgram;
import io.cairn.protocol.CloseScan;
import io.cairn.protocol.PutHashCache;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.ScanSpec;
import io.cairn.relocated.protobuf.ByteString;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server's query memory budgets over the wire: a grouped scan's groups count in its
 * connection's, database's and server's budgets until its last page or its close; past a budget the
 * request fails with 53200 naming it and the connection goes on; hash caches count too.
 */
@ExtendWith(NettyLeakCheck.class)
class TestServerQueryMemory {
  private static final int ROWS = 5000;

  private CairnServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  /** GROUP BY V with COUNT(*): V is unique, one group per row. */
  private static ScanSpec groupByV(TableDescriptor t) {
    return TestingRpcTables.scan(
        t,
        new ScanProgram(
            t.layout(),
            Optional.empty(),
            List.of(V),
            ScanProgram.NO_LIMIT,
            0,
            List.of(0),
            List.of(
                new AggregateCall(
                    AggregateKind.COUNT_STAR,
                    List.of(),
                    false,
                    DataType.BIGINT.withNullable(false))),
            List.of()));
  }

  private TableDescriptor loaded(TestingRpcClient client) {
    TableDescriptor t = TestingRpcTables.create(client, "T");
    TestingRpcTables.load(client, t, 0, ROWS);
    return t;
  }

  @Test
  void aGroupedScanHoldsItsMemoryUntilItsLastPageOrItsClose() {
    server = TestingServers.start(Map.of());
    QueryMemory memory = server.context().queryMemory();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = loaded(client);
      ScanPage first = page(client.call(TestingRpcTables.openScan(groupByV(t), 100, 0, 0)));
      assertThat(first.getDone()).isFalse();
      long held = memory.used();
      assertThat(held).isGreaterThan(ROWS * 100L);
      assertThat(memory.database("").used()).isEqualTo(held);
      assertThat(server.context().metrics().getQueryMemoryBytes()).isEqualTo(held);
      int groups = rows(first).size();
      ScanPage next = first;
      while (!next.getDone()) {
        next = page(client.call(TestingRpcTables.scanNext(first.getScannerId(), 1000, 0, 0)));
        groups += rows(next).size();
      }
      assertThat(groups).isEqualTo(ROWS);
      assertThat(memory.used()).as("after the last page").isZero();

      // a client that reads one page and closes the scan
      ScanPage again = page(client.call(TestingRpcTables.openScan(groupByV(t), 100, 0, 0)));
      assertThat(memory.used()).isPositive();
      client.call(
          Request.newBuilder()
              .setCloseScan(CloseScan.newBuilder().setScannerId(again.getScannerId())));
      assertThat(memory.used()).as("after CloseScan").isZero();
    }
  }

  @Test
  void pastABudgetTheRequestFailsNamingItAndTheConnectionGoesOn() {
    for (String setting :
        List.of(
            ServerConfig.QUERY_MEMORY_MAX_BYTES,
            ServerConfig.QUERY_MEMORY_DATABASE_MAX_BYTES,
            ServerConfig.QUERY_MEMORY_CONNECTION_MAX_BYTES)) {
      server = TestingServers.start(Map.of(setting, "256k", ServerConfig.QUERY_MEMORY_WAIT, "0ms"));
      QueryMemory memory = server.context().queryMemory();
      try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
        TableDescriptor t = loaded(client);
        Response failed = client.call(TestingRpcTables.openScan(groupByV(t), 100, 0, 0));
        assertError(failed, ErrorCode.MEMORY_LIMIT_EXCEEDED);
        assertThat(failed.getError().getSqlState()).isEqualTo("53200");
        assertThat(failed.getError().getMessage())
            .contains("[" + setting + "]")
            .contains("[262144]")
            .contains("a grouped aggregation in the store");
        assertThat(memory.used()).isZero();
        // the connection goes on: a scan within the budget is answered
        ScanPage count =
            page(client.call(TestingRpcTables.get(TestingRpcTables.count(t, Optional.empty()))));
        assertThat(rows(count)).containsExactly(List.of((long) ROWS));
      }
      server.close();
      server = null;
    }
  }

  @Test
  void hashCachesCountInTheServersBudget() {
    server =
        TestingServers.start(
            Map.of(
                ServerConfig.QUERY_MEMORY_MAX_BYTES, "8k", ServerConfig.QUERY_MEMORY_WAIT, "0ms"));
    QueryMemory memory = server.context().queryMemory();
    HashCacheMemory caches = server.context().hashCacheMemory();
    TestingRpcClient b = TestingRpcClient.open(server.port(), "");
    try (TestingRpcClient a = TestingRpcClient.open(server.port(), "")) {
      assertThat(a.call(putHashCache("one", 6000)).hasDone()).isTrue();
      assertThat(memory.used()).isEqualTo(6000);
      Response tooMuch = b.call(putHashCache("two", 6000));
      assertError(tooMuch, ErrorCode.MEMORY_LIMIT_EXCEEDED);
      assertThat(tooMuch.getError().getMessage())
          .contains("[8192]")
          .contains("[" + ServerConfig.QUERY_MEMORY_MAX_BYTES + "]");
      assertThat(caches.used()).isEqualTo(6000);
      assertThat(memory.used()).isEqualTo(6000);
      b.close();
    }
    TestingAwait.until(() -> memory.used() == 0, "hash caches of closed connections given back");
    assertThat(caches.used()).isZero();
  }

  private static Request.Builder putHashCache(String id, int bytes) {
    return Request.newBuilder()
        .setPutHashCache(
            PutHashCache.newBuilder()
                .setCacheId(ByteString.copyFromUtf8(id))
                .setColumnCount(1)
                .addKeyColumns(0)
                .setRowCount(bytes)
                .setRows(ByteString.copyFrom(new byte[bytes])));
  }
}
