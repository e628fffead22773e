package io.cairn.jdbc.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.jdbc.internal.ConnectionUrl.ServerAddress;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.PageScanner;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.protocol.MutateResult;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.SnapshotOpened;
import io.cairn.server.rpc.CairnServer;
import io.cairn.server.rpc.ServerConfig;
import io.cairn.server.rpc.ServerMXBean;
import io.cairn.store.StoreConfig;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import javax.management.JMX;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The KV SPI's snapshots over the network against a real server (in this JVM): scans at a
 * snapshot's read point across many pages, UNCHANGED_SINCE conditions after a concurrent commit,
 * SNAPSHOT_TOO_OLD, and the server's count of what the client holds; and against a scripted server,
 * the requests the client sends.
 */
class TestRemoteSnapshots {
  private static final DataType K_TYPE = DataType.BIGINT.withNullable(false);

  @TempDir Path dir;

  private CairnServer server;
  private ServerMXBean metrics;
  private final List<RpcConnection> connections = new ArrayList<>();

  @AfterEach
  void close() {
    connections.forEach(RpcConnection::close);
    if (server != null) {
      server.close();
    }
  }

  /** A durable server whose pages hold 100 rows, with {@code settings}. */
  private void start(Map<String, String> settings) throws Exception {
    Map<String, String> all = new HashMap<>();
    all.put("port", "0");
    all.put("http.port", "-1");
    all.put("data", dir.toString());
    all.put("page.max-rows", "100");
    all.putAll(settings);
    server = CairnServer.start(ServerConfig.from(all));
    metrics =
        JMX.newMXBeanProxy(
            ManagementFactory.getPlatformMBeanServer(),
            new ObjectName("io.cairn:type=Server,port=" + server.port()),
            ServerMXBean.class);
  }

  /** A client of its own network connection. */
  private RemoteKvStore client() {
    RpcConnection c =
        new RpcConnection(RemoteConfig.of(new ServerAddress("127.0.0.1", server.port(), "")));
    connections.add(c);
    return new RemoteKvStore(c);
  }

  /** Creates T(K BIGINT PRIMARY KEY, V VARCHAR) through the server's catalog. */
  private static TableDescriptor create(RemoteKvStore store, String name) {
    return new RemoteCatalog(store.connection())
        .createTable(descriptor(name), false, List.of())
        .orElseThrow();
  }

  /** The draft of T(K BIGINT PRIMARY KEY, V VARCHAR). */
  private static TableDescriptor descriptor(String name) {
    return new TableDescriptor(
        0,
        "PUBLIC",
        name,
        List.of(
            new ColumnDescriptor("K", 1, K_TYPE),
            new ColumnDescriptor("V", 2, DataType.varchar(100))),
        List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
        Map.of(),
        1);
  }

  private static Mutation.Put put(TableDescriptor t, long k, String v) {
    RowCodec codec = new RowCodec(t.layout());
    Object[] row = {k, v};
    return new Mutation.Put(codec.encodeKey(row), codec.encodeValue(row));
  }

  private static Mutation.Put put(TableDescriptor t, long k, String v, Mutation.Condition c) {
    Mutation.Put p = put(t, k, v);
    return new Mutation.Put(p.key(), p.value(), c);
  }

  private static List<Mutation> rows(TableDescriptor t, int count, String prefix) {
    List<Mutation> rows = new ArrayList<>();
    for (long k = 0; k < count; k++) {
      rows.add(put(t, k, prefix + k));
    }
    return rows;
  }

  private static ScanRequest scanAll(TableDescriptor t) {
    RowLayout layout = t.layout();
    return new ScanRequest(
        List.of(KeyRange.ALL),
        new ScanProgram(
            layout,
            Optional.empty(),
            List.of(new Expr.ColumnRef(0, K_TYPE), new Expr.ColumnRef(1, DataType.varchar(100))),
            ScanProgram.NO_LIMIT),
        EvalContext.EMPTY,
        true);
  }

  private static List<List<Object>> readAll(RowScanner scanner) {
    try (scanner) {
      List<List<Object>> rows = new ArrayList<>();
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        rows.add(Arrays.asList(row));
      }
      return rows;
    }
  }

  private static void awaitUntil(BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s: " + what);
      }
      Thread.sleep(5);
    }
  }

  @Test
  void aScanAtASnapshotDoesNotSeeACommitMadeWhileItsPagesAreRead() throws Exception {
    start(Map.of());
    RemoteKvStore reader = client();
    RemoteKvStore writer = client();
    TableDescriptor t = create(reader, "T");
    KvTable table = reader.handle(t.kvTableName());
    KvTable written = writer.handle(t.kvTableName());
    table.mutate(rows(t, 1000, "old"));
    List<List<Object>> old = readAll(table.scan(scanAll(t)));

    try (KvSnapshot snapshot = reader.openSnapshot()) {
      assertThat(snapshot.readPoint()).isPositive();
      assertThat(metrics.getOpenSnapshots()).isEqualTo(1);
      ScanRequest atSnapshot = scanAll(t).atReadPoint(snapshot.readPoint());
      // a paged scan (100 rows a page): the first page, then another connection's commit
      List<List<Object>> seen = new ArrayList<>();
      try (RowScanner scanner = table.scan(atSnapshot)) {
        seen.add(Arrays.asList(scanner.next()));
        written.mutate(rows(t, 1000, "new"));
        for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
          seen.add(Arrays.asList(row));
        }
      }
      assertThat(seen).isEqualTo(old);
      // a scan opened after the commit, at the same read point, page by page as parallel chunks
      // read theirs
      List<List<Object>> paged = new ArrayList<>();
      int pages = 0;
      try (PageScanner scanner = ((RemoteKvTable) table).scanPages(atSnapshot)) {
        PageScanner.Page page;
        do {
          page = scanner.nextPage().get();
          pages++;
          page.rows().forEach(row -> paged.add(Arrays.asList(row)));
        } while (!page.last());
      }
      assertThat(pages).isGreaterThanOrEqualTo(10);
      assertThat(paged).isEqualTo(old);
      // point keys (a Get) at the read point too
      ScanRequest points =
          new ScanRequest(
                  List.of(KeyRange.point(put(t, 7, null).key())),
                  atSnapshot.program(),
                  EvalContext.EMPTY,
                  true)
              .atReadPoint(snapshot.readPoint());
      assertThat(readAll(table.scan(points))).containsExactly(Arrays.asList(7L, "old7"));
      // without a read point: the latest state
      assertThat(readAll(table.scan(scanAll(t))).get(7)).isEqualTo(Arrays.asList(7L, "new7"));
    }
    // closed without waiting for the server's answer, which comes soon after
    awaitUntil(() -> metrics.getOpenSnapshots() == 0, "the snapshot was released");
  }

  @Test
  void anUnchangedSincePutAfterAConcurrentCommitFailsAsAWriteConflict() throws Exception {
    start(Map.of());
    RemoteKvStore mine = client();
    RemoteKvStore other = client();
    TableDescriptor a = create(mine, "A");
    TableDescriptor b = create(mine, "B");
    KvTable ta = mine.handle(a.kvTableName());
    KvTable tb = mine.handle(b.kvTableName());
    ta.mutate(rows(a, 5, "a"));
    tb.mutate(rows(b, 5, "b"));
    try (KvSnapshot snapshot = mine.openSnapshot()) {
      Mutation.Condition unchanged = Mutation.Condition.unchangedSince(snapshot.readPoint());
      other.handle(b.kvTableName()).mutate(List.of(put(b, 3, "theirs")));

      Mutation.Put conflicting = put(b, 3, "mine", unchanged);
      assertThatThrownBy(() -> tb.mutate(List.of(put(b, 1, "mine", unchanged), conflicting)))
          .isInstanceOfSatisfying(
              ConditionFailedException.class,
              e -> {
                assertThat(e.isConflict()).isTrue();
                assertThat(e.kind()).isEqualTo(Mutation.Condition.Kind.UNCHANGED_SINCE);
                assertThat(e.errorCode()).isEqualTo(ErrorCode.WRITE_CONFLICT);
                assertThat(e.mutationIndex()).isEqualTo(1);
                assertThat(e.key()).isEqualTo(conflicting.key());
              });
      // a multi-table commit names the failing table's batch; nothing of it is applied
      assertThatThrownBy(
              () ->
                  mine.mutate(
                      List.of(
                          new KvStore.TableBatch(ta, List.of(put(a, 1, "mine", unchanged))),
                          new KvStore.TableBatch(
                              tb, List.of(new Mutation.Delete(conflicting.key(), unchanged)))),
                      null))
          .isInstanceOfSatisfying(
              ConditionFailedException.class,
              e -> {
                assertThat(e.isConflict()).isTrue();
                assertThat(e.batchIndex()).isEqualTo(1);
                assertThat(e.mutationIndex()).isZero();
              });
      assertThat(readAll(ta.scan(scanAll(a))).get(1)).isEqualTo(Arrays.asList(1L, "a1"));
      // rows nobody changed since the read point are written
      mine.mutate(
          List.of(
              new KvStore.TableBatch(ta, List.of(put(a, 1, "mine", unchanged))),
              new KvStore.TableBatch(tb, List.of(put(b, 1, "mine", unchanged)))),
          null);
      assertThat(readAll(tb.scan(scanAll(b))))
          .containsExactly(
              Arrays.asList(0L, "b0"),
              Arrays.asList(1L, "mine"),
              Arrays.asList(2L, "b2"),
              Arrays.asList(3L, "theirs"),
              Arrays.asList(4L, "b4"));
      // an INSERT of an existing key is still a duplicate key, not a conflict
      assertThatThrownBy(
              () -> ta.mutate(List.of(put(a, 2, "again", Mutation.Condition.MUST_NOT_EXIST))))
          .isInstanceOfSatisfying(
              ConditionFailedException.class,
              e -> {
                assertThat(e.isConflict()).isFalse();
                assertThat(e.errorCode()).isEqualTo(ErrorCode.DUPLICATE_KEY);
              });
    }
  }

  @Test
  void aSnapshotPastTheMaximumAgeFailsWithSnapshotTooOld() throws Exception {
    start(Map.of(StoreConfig.SNAPSHOT_MAX_AGE, "100ms", "scanner-idle-timeout", "50ms"));
    RemoteKvStore store = client();
    TableDescriptor t = create(store, "T");
    KvTable table = store.handle(t.kvTableName());
    table.mutate(rows(t, 10, "old"));
    KvSnapshot snapshot = store.openSnapshot();
    long readPoint = snapshot.readPoint();
    table.mutate(rows(t, 10, "new"));
    awaitUntil(() -> metrics.getOpenSnapshots() == 0, "the server released the snapshot");
    table.flush(); // merges the versions the read point needed
    assertThatThrownBy(() -> readAll(table.scan(scanAll(t).atReadPoint(readPoint))))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.SNAPSHOT_TOO_OLD);
              assertThat(e.getMessage()).contains(StoreConfig.SNAPSHOT_MAX_AGE);
            });
    assertThatThrownBy(
            () ->
                table.mutate(
                    List.of(put(t, 1, "late", Mutation.Condition.unchangedSince(readPoint)))))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SNAPSHOT_TOO_OLD));
    snapshot.close(); // an expired snapshot closes quietly, once
    snapshot.close();
    assertThat(readAll(table.scan(scanAll(t)))).hasSize(10);
  }

  @Test
  void readsAndWritesSendTheirReadPointsAndCloseDoesNotWaitForTheAnswer() throws Exception {
    try (TestingRpcServer scripted =
        new TestingRpcServer(
            (request, c) -> {
              switch (request.getBodyCase()) {
                case OPEN_SNAPSHOT ->
                    c.answer(
                        request,
                        Response.newBuilder()
                            .setSnapshotOpened(
                                SnapshotOpened.newBuilder().setSnapshotId(7).setReadPoint(42)));
                case GET ->
                    c.answer(
                        request,
                        Response.newBuilder()
                            .setScanPage(ScanPage.newBuilder().setColumnCount(2).setDone(true)));
                case MUTATE ->
                    c.answer(
                        request,
                        Response.newBuilder().setMutateResult(MutateResult.getDefaultInstance()));
                default -> {} // CloseSnapshot: never answered
              }
            })) {
      RpcConnection connection = new RpcConnection(scripted.config());
      connections.add(connection);
      RemoteKvStore store = new RemoteKvStore(connection);
      KvTable table = store.handle("T9");
      KvSnapshot snapshot = store.openSnapshot();
      assertThat(scripted.nextRequest().hasOpenSnapshot()).isTrue();
      assertThat(snapshot.readPoint()).isEqualTo(42);

      TableDescriptor t = descriptor("T");
      ScanRequest point =
          new ScanRequest(
              List.of(KeyRange.point(put(t, 1, null).key())),
              scanAll(t).program(),
              EvalContext.EMPTY,
              true);
      assertThat(readAll(table.scan(point.atReadPoint(snapshot.readPoint())))).isEmpty();
      assertThat(scripted.nextRequest().getGet().getScan().getReadPoint()).isEqualTo(42);
      assertThat(readAll(table.scan(point))).isEmpty();
      assertThat(scripted.nextRequest().getGet().getScan().getReadPoint()).isZero();

      table.mutate(
          List.of(
              put(t, 1, "x", Mutation.Condition.unchangedSince(42)),
              new Mutation.Delete(put(t, 2, null).key(), Mutation.Condition.unchangedSince(42))));
      Request mutate = scripted.nextRequest();
      assertThat(mutate.getMutate().getBatches(0).getMutationsList())
          .extracting(io.cairn.protocol.Mutation::getUnchangedSince)
          .containsExactly(42L, 42L);

      snapshot.close(); // returns although the server never answers
      Request close = scripted.nextRequest();
      assertThat(close.getCloseSnapshot().getSnapshotId()).isEqualTo(7);
      snapshot.close(); // sends nothing: the next request the server sees is the next Get
      readAll(table.scan(point));
      assertThat(scripted.nextRequest().hasGet()).isTrue();
    }
  }

  @Test
  void theServerReleasesAClientsSnapshotsWhenItsConnectionCloses() throws Exception {
    start(Map.of());
    RemoteKvStore store = client();
    TableDescriptor t = create(store, "T");
    store.handle(t.kvTableName()).mutate(rows(t, 1, "x"));
    KvSnapshot first = store.openSnapshot();
    KvSnapshot second = store.openSnapshot();
    assertThat(second.readPoint()).isEqualTo(first.readPoint()); // nothing committed between
    assertThat(metrics.getOpenSnapshots()).isEqualTo(2);
    first.close();
    first.close(); // idempotent: one CloseSnapshot
    awaitUntil(() -> metrics.getOpenSnapshots() == 1, "one snapshot was released");
    store.connection().close();
    awaitUntil(() -> metrics.getOpenSnapshots() == 0, "the connection's snapshots were released");
    second.close(); // on a closed connection: nothing to send, no error
  }
}
