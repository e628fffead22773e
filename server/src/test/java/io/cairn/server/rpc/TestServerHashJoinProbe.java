package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static io.cairn.server.rpc.TestingRpcTables.K;
import static io.cairn.server.rpc.TestingRpcTables.N;
import static io.cairn.server.rpc.TestingRpcTables.page;
import static io.cairn.server.rpc.TestingRpcTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.kv.HashProbe;
import io.cairn.kv.JoinHashTable;
import io.cairn.kv.ScanProgram;
import io.cairn.protocol.RemoveHashCache;
import io.cairn.protocol.Request;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.wire.WireHashTables;
import io.cairn.relocated.protobuf.ByteString;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A scan whose program probes a hash cache the connection put: the server decodes the cache once,
 * counts it until it is removed or the connection closes, and fails a probe of a missing cache with
 * HASH_CACHE_NOT_FOUND.
 */
@ExtendWith(NettyLeakCheck.class)
class TestServerHashJoinProbe {
  private CairnServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  private static JoinHashTable build() {
    JoinHashTable.Builder b = JoinHashTable.builder(2, List.of(0));
    b.add(new Object[] {5, "five"});
    b.add(new Object[] {5, "five again"});
    b.add(new Object[] {7, "seven"});
    b.add(new Object[] {null, "no key"});
    return b.build();
  }

  private static ScanProgram probing(TableDescriptor t, String cacheId) {
    // T's joined row: K 0, V 1, N 2, row key 3, build key 4, build name 5
    return new ScanProgram(
        t.layout(),
        Optional.empty(),
        List.of(K, new Expr.ColumnRef(5, DataType.VARCHAR)),
        ScanProgram.NO_LIMIT,
        0,
        List.of(),
        List.of(),
        List.of(),
        Optional.of(
            new HashProbe(
                cacheId,
                List.of(N),
                HashProbe.Kind.INNER,
                List.of(DataType.INTEGER, DataType.VARCHAR),
                Optional.empty(),
                false)));
  }

  @Test
  void aScanProbesTheConnectionsCacheUntilItIsRemoved() {
    server = TestingServers.start();
    HashCacheMemory memory = server.context().hashCacheMemory();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 1000); // N = K % 100
      assertThat(
              client
                  .call(Request.newBuilder().setPutHashCache(WireHashTables.toProto("c1", build())))
                  .hasDone())
          .isTrue();
      assertThat(memory.used()).isPositive();

      ScanPage joined =
          page(
              client.call(
                  TestingRpcTables.openScan(
                      TestingRpcTables.scan(t, probing(t, "c1")), 5000, 0, 0)));
      assertThat(joined.getDone()).isTrue();
      List<List<Object>> rows = rows(joined);
      assertThat(rows).hasSize(30);
      assertThat(rows.get(0)).containsExactly(5L, "five");
      assertThat(rows.get(1)).containsExactly(5L, "five again");
      assertThat(rows.get(2)).containsExactly(7L, "seven");

      assertThat(
              client
                  .call(
                      Request.newBuilder()
                          .setRemoveHashCache(
                              RemoveHashCache.newBuilder()
                                  .setCacheId(ByteString.copyFromUtf8("c1"))))
                  .hasDone())
          .isTrue();
      assertThat(memory.used()).isZero();
      assertError(
          client.call(
              TestingRpcTables.openScan(TestingRpcTables.scan(t, probing(t, "c1")), 5000, 0, 0)),
          ErrorCode.HASH_CACHE_NOT_FOUND);
    }
  }

  @Test
  void anotherConnectionDoesNotSeeTheCache() {
    server = TestingServers.start();
    HashCacheMemory memory = server.context().hashCacheMemory();
    try (TestingRpcClient a = TestingRpcClient.open(server.port(), "");
        TestingRpcClient b = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(a, "T");
      TestingRpcTables.load(a, t, 0, 10);
      assertThat(
              a.call(Request.newBuilder().setPutHashCache(WireHashTables.toProto("c1", build())))
                  .hasDone())
          .isTrue();
      assertError(
          b.call(TestingRpcTables.openScan(TestingRpcTables.scan(t, probing(t, "c1")), 100, 0, 0)),
          ErrorCode.HASH_CACHE_NOT_FOUND);
      assertThat(memory.used()).isPositive();
    }
    // the connection closed with its cache put: gone
    TestingAwait.until(() -> memory.used() == 0, "hash caches of a closed connection dropped");
  }
}
