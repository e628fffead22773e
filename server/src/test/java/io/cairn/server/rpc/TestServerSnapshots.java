package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static io.cairn.server.rpc.TestingRpcTables.K;
import static io.cairn.server.rpc.TestingRpcTables.N;
import static io.cairn.server.rpc.TestingRpcTables.V;
import static io.cairn.server.rpc.TestingRpcTables.page;
import static io.cairn.server.rpc.TestingRpcTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Mutation;
import io.cairn.protocol.Admin;
import io.cairn.protocol.CloseSnapshot;
import io.cairn.protocol.ConditionKind;
import io.cairn.protocol.Flush;
import io.cairn.protocol.Mutate;
import io.cairn.protocol.OpenSnapshot;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.ScanSpec;
import io.cairn.protocol.SnapshotOpened;
import io.cairn.protocol.wire.WireMessages;
import io.cairn.store.EmbeddedStore;
import io.cairn.store.StoreConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots over the wire: OpenSnapshot and CloseSnapshot, scans and Gets at a read point,
 * UNCHANGED_SINCE conditions on puts and deletes, and the snapshots a connection holds (released on
 * close, on disconnect and past the maximum age; bounded in number).
 */
@ExtendWith(NettyLeakCheck.class)
class TestServerSnapshots {
  @TempDir Path dir;

  private CairnServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  private static Request.Builder openSnapshot() {
    return Request.newBuilder().setOpenSnapshot(OpenSnapshot.getDefaultInstance());
  }

  private static Request.Builder closeSnapshot(long id) {
    return Request.newBuilder().setCloseSnapshot(CloseSnapshot.newBuilder().setSnapshotId(id));
  }

  private static SnapshotOpened snapshot(Response answer) {
    assertThat(answer.hasSnapshotOpened()).as("%s", answer).isTrue();
    return answer.getSnapshotOpened();
  }

  private static ScanSpec scanAll(TableDescriptor t, long readPoint) {
    return TestingRpcTables.scan(t, Optional.empty(), List.of(K, V, N)).toBuilder()
        .setReadPoint(readPoint)
        .build();
  }

  /** Every row of an OpenScan of {@code rows} rows a page. */
  private static List<List<Object>> scanPages(TestingRpcClient client, ScanSpec spec, int rows) {
    List<List<Object>> all = new ArrayList<>();
    ScanPage page = page(client.call(TestingRpcTables.openScan(spec, rows, 0, 0)));
    all.addAll(rows(page));
    while (!page.getDone()) {
      page = page(client.call(TestingRpcTables.scanNext(page.getScannerId(), rows, 0, 0)));
      all.addAll(rows(page));
    }
    return all;
  }

  private static Mutation unchangedSince(Mutation m, long readPoint) {
    Mutation.Condition c = Mutation.Condition.unchangedSince(readPoint);
    return m instanceof Mutation.Put p
        ? new Mutation.Put(p.key(), p.value(), c)
        : new Mutation.Delete(m.key(), c);
  }

  private EmbeddedStore store() {
    return (EmbeddedStore) server.context().databases().openDefault().store();
  }

  @Test
  void scansAndGetsAtASnapshotsReadPointDoNotSeeLaterCommitsOnAnyPage() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "");
        TestingRpcClient writer = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 100);
      SnapshotOpened s = snapshot(client.call(openSnapshot()));
      assertThat(s.getSnapshotId()).isPositive();
      assertThat(s.getReadPoint()).isPositive();

      // another connection changes every row, deletes some and adds others
      List<Mutation> changes = new ArrayList<>();
      for (long k = 0; k < 100; k++) {
        changes.add(
            k % 10 == 0
                ? new Mutation.Delete(TestingRpcTables.put(t, k, null, null).key())
                : TestingRpcTables.put(t, k, "changed", -1));
      }
      changes.add(TestingRpcTables.put(t, 500, "new", 5));
      assertThat(writer.call(TestingRpcTables.mutate(t, changes)).hasMutateResult()).isTrue();

      // ten pages at the read point: the state before the change on each of them
      List<List<Object>> before = scanPages(client, scanAll(t, s.getReadPoint()), 10);
      assertThat(before).hasSize(100);
      for (int i = 0; i < 100; i++) {
        assertThat(before.get(i)).isEqualTo(Arrays.asList((long) i, "v" + i, i % 100));
      }
      // also a Get, and from another connection (a read point is the database's)
      assertThat(rows(page(writer.call(TestingRpcTables.get(scanAll(t, s.getReadPoint()))))))
          .isEqualTo(before);
      // read point 0: the latest state
      List<List<Object>> latest = scanPages(client, scanAll(t, 0), 10);
      assertThat(latest).hasSize(91).contains(Arrays.asList(500L, "new", 5));
      assertThat(latest.get(0)).isEqualTo(Arrays.asList(1L, "changed", -1));

      // a read point the database never reached is refused
      assertError(
          client.call(TestingRpcTables.get(scanAll(t, s.getReadPoint() + 1000))),
          ErrorCode.INVALID_ARGUMENT);
    }
  }

  @Test
  void unchangedSinceFailsAsAWriteConflictNamingTheBatchMutationAndKey() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor a = TestingRpcTables.create(client, "A");
      TableDescriptor b = TestingRpcTables.create(client, "B");
      TestingRpcTables.load(client, a, 0, 5);
      TestingRpcTables.load(client, b, 0, 5);
      long rp = snapshot(client.call(openSnapshot())).getReadPoint();
      client.call(TestingRpcTables.mutate(b, List.of(TestingRpcTables.put(b, 2, "other", 0))));

      Mutation changed = unchangedSince(TestingRpcTables.put(b, 2, "mine", 1), rp);
      Response failed =
          client.call(
              Request.newBuilder()
                  .setMutate(
                      Mutate.newBuilder()
                          .addBatches(
                              WireMessages.toProto(
                                  a.kvTableName(),
                                  List.of(
                                      unchangedSince(TestingRpcTables.put(a, 1, "mine", 1), rp))))
                          .addBatches(
                              WireMessages.toProto(
                                  b.kvTableName(),
                                  List.of(
                                      unchangedSince(TestingRpcTables.put(b, 1, "mine", 1), rp),
                                      changed)))));
      assertError(failed, ErrorCode.WRITE_CONFLICT);
      assertThat(failed.getError().getConditionFailed()).isTrue();
      assertThat(failed.getError().getConditionKind())
          .isEqualTo(ConditionKind.CONDITION_UNCHANGED_SINCE);
      assertThat(failed.getError().getBatchIndex()).isEqualTo(1);
      assertThat(failed.getError().getMutationIndex()).isEqualTo(1);
      assertThat(WireMessages.bytes(failed.getError().getKey())).isEqualTo(changed.key());
      // nothing of either batch was applied
      assertThat(rows(page(client.call(TestingRpcTables.get(scanAll(a, 0))))).get(1))
          .isEqualTo(Arrays.asList(1L, "v1", 1));

      // a delete of the changed row conflicts too; one of an unchanged row applies
      Response delete =
          client.call(
              TestingRpcTables.mutate(
                  b,
                  List.of(
                      unchangedSince(
                          new Mutation.Delete(TestingRpcTables.put(b, 2, null, null).key()), rp))));
      assertError(delete, ErrorCode.WRITE_CONFLICT);
      assertThat(delete.getError().getMutationIndex()).isZero();
      Response applied =
          client.call(
              TestingRpcTables.mutate(
                  b,
                  List.of(
                      unchangedSince(
                          new Mutation.Delete(TestingRpcTables.put(b, 3, null, null).key()), rp),
                      unchangedSince(TestingRpcTables.put(b, 4, "mine", 4), rp))));
      assertThat(applied.hasMutateResult()).as("%s", applied).isTrue();
      assertThat(rows(page(client.call(TestingRpcTables.get(scanAll(b, 0))))))
          .containsExactly(
              Arrays.asList(0L, "v0", 0),
              Arrays.asList(1L, "v1", 1),
              Arrays.asList(2L, "other", 0),
              Arrays.asList(4L, "mine", 4));

      // MUST_NOT_EXIST still fails as a duplicate key, its kind named
      Response duplicate =
          client.call(
              TestingRpcTables.mutate(b, List.of(TestingRpcTables.insert(b, 0, "again", 0))));
      assertError(duplicate, ErrorCode.DUPLICATE_KEY);
      assertThat(duplicate.getError().getConditionKind())
          .isEqualTo(ConditionKind.CONDITION_MUST_NOT_EXIST);
    }
  }

  @Test
  void aConnectionsSnapshotsAreReleasedOnCloseSnapshotAndOnDisconnect() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      SnapshotOpened first = snapshot(client.call(openSnapshot()));
      SnapshotOpened second = snapshot(client.call(openSnapshot()));
      assertThat(second.getSnapshotId()).isNotEqualTo(first.getSnapshotId());
      assertThat(server.context().metrics().getOpenSnapshots()).isEqualTo(2);
      assertThat(store().openSnapshots()).isEqualTo(2);
      assertThat(server.status().clients().get(0).openSnapshots()).isEqualTo(2);

      assertThat(client.call(closeSnapshot(first.getSnapshotId())).hasDone()).isTrue();
      assertThat(store().openSnapshots()).isEqualTo(1);
      // again, and one never opened: answered Done too
      assertThat(client.call(closeSnapshot(first.getSnapshotId())).hasDone()).isTrue();
      assertThat(client.call(closeSnapshot(999)).hasDone()).isTrue();
      assertThat(server.context().metrics().getOpenSnapshots()).isEqualTo(1);

      // another connection cannot close this one's snapshot
      try (TestingRpcClient other = TestingRpcClient.open(server.port(), "")) {
        assertThat(other.call(closeSnapshot(second.getSnapshotId())).hasDone()).isTrue();
        assertThat(store().openSnapshots()).isEqualTo(1);
      }
      snapshot(client.call(openSnapshot()));
      assertThat(store().openSnapshots()).isEqualTo(2);
    }
    // the client went away: what it held is released
    TestingAwait.until(() -> store().openSnapshots() == 0, "the snapshots were released");
    TestingAwait.until(
        () -> server.context().metrics().getOpenSnapshots() == 0, "the snapshots were counted");
  }

  @Test
  void aConnectionHoldsAtMostMaxSnapshotsPerConnection() {
    server = TestingServers.start(Map.of(ServerConfig.MAX_SNAPSHOTS_PER_CONNECTION, "3"));
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "");
        TestingRpcClient other = TestingRpcClient.open(server.port(), "")) {
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        ids.add(snapshot(client.call(openSnapshot())).getSnapshotId());
      }
      Response refused = client.call(openSnapshot());
      assertError(refused, ErrorCode.SERVER_BUSY);
      assertThat(refused.getError().getMessage())
          .contains(ServerConfig.MAX_SNAPSHOTS_PER_CONNECTION)
          .contains("[3]");
      assertThat(store().openSnapshots()).isEqualTo(3);
      // the limit is per connection, and closing one makes room
      snapshot(other.call(openSnapshot()));
      client.call(closeSnapshot(ids.get(0)));
      snapshot(client.call(openSnapshot()));
      assertThat(server.context().metrics().getOpenSnapshots()).isEqualTo(4);
    }
  }

  @Test
  void aSnapshotPastTheMaximumAgeIsForgottenAndItsReadsAndWritesFailTooOld() {
    server =
        TestingServers.start(
            Map.of(
                ServerConfig.DATA,
                dir.toString(),
                StoreConfig.SNAPSHOT_MAX_AGE,
                "100ms",
                ServerConfig.SCANNER_IDLE_TIMEOUT,
                "50ms"));
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 10);
      long rp = snapshot(client.call(openSnapshot())).getReadPoint();
      TestingRpcTables.load(client, t, 0, 10); // new versions of every row
      TestingAwait.until(
          () -> server.context().metrics().getOpenSnapshots() == 0,
          "the connection forgot its snapshot past " + StoreConfig.SNAPSHOT_MAX_AGE);
      assertThat(store().openSnapshots()).isZero();
      // a flush merges the versions the read point needed
      assertThat(
              client
                  .call(
                      Request.newBuilder()
                          .setAdmin(
                              Admin.newBuilder()
                                  .setTable(t.kvTableName())
                                  .setFlush(Flush.getDefaultInstance())))
                  .hasAdminResult())
          .isTrue();
      Response scan = client.call(TestingRpcTables.openScan(scanAll(t, rp), 0, 0, 0));
      assertError(scan, ErrorCode.SNAPSHOT_TOO_OLD);
      assertThat(scan.getError().getMessage()).contains(StoreConfig.SNAPSHOT_MAX_AGE);
      assertError(
          client.call(
              TestingRpcTables.mutate(
                  t, List.of(unchangedSince(TestingRpcTables.put(t, 1, "late", 1), rp)))),
          ErrorCode.SNAPSHOT_TOO_OLD);
      // the latest state reads as ever
      assertThat(rows(page(client.call(TestingRpcTables.get(scanAll(t, 0)))))).hasSize(10);
    }
  }
}
