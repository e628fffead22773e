package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static io.cairn.server.rpc.TestingRpcTables.K;
import static io.cairn.server.rpc.TestingRpcTables.N;
import static io.cairn.server.rpc.TestingRpcTables.V;
import static io.cairn.server.rpc.TestingRpcTables.page;
import static io.cairn.server.rpc.TestingRpcTables.rows;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Mutation;
import io.cairn.protocol.Admin;
import io.cairn.protocol.AllocateIds;
import io.cairn.protocol.AlterTable;
import io.cairn.protocol.CloseScan;
import io.cairn.protocol.Compact;
import io.cairn.protocol.DropTable;
import io.cairn.protocol.Flush;
import io.cairn.protocol.GetCatalog;
import io.cairn.protocol.GetTable;
import io.cairn.protocol.Mutate;
import io.cairn.protocol.Ping;
import io.cairn.protocol.PutHashCache;
import io.cairn.protocol.RemoveHashCache;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.TableInfo;
import io.cairn.protocol.wire.WireMessages;
import io.cairn.relocated.protobuf.ByteString;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every request of the protocol against a real server over a socket. */
@ExtendWith(NettyLeakCheck.class)
class TestServerRequests {
  private CairnServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  private static Request.Builder getCatalog() {
    return Request.newBuilder().setGetCatalog(GetCatalog.getDefaultInstance());
  }

  private static List<String> tableNames(Response catalog) {
    List<String> names = new ArrayList<>();
    for (ByteString bytes : catalog.getCatalogData().getTablesList()) {
      names.add(DescriptorSerializer.deserialize(bytes.toByteArray()).qualifiedName());
    }
    return names;
  }

  @Test
  void ddlChangesTheCatalogAndEveryConnectionOfTheDatabaseHearsOfIt() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "");
        TestingRpcClient listener = TestingRpcClient.open(server.port(), "");
        TestingRpcClient elsewhere = TestingRpcClient.open(server.port(), "other")) {
      long before = client.call(getCatalog()).getCatalogData().getVersion().getVersion();

      Response created = client.call(TestingRpcTables.createTable("T"));
      TableDescriptor t =
          DescriptorSerializer.deserialize(created.getTableDescriptor().getTable().toByteArray());
      assertThat(t.tableId()).isPositive();
      assertThat(created.getCatalog().getVersion()).isGreaterThan(before);
      Response event = listener.awaitEvent();
      assertThat(event.getId()).isZero();
      assertThat(event.getEvent().getCatalogChanged()).isEqualTo(created.getCatalog());

      Response catalog = client.call(getCatalog());
      assertThat(catalog.getCatalogData().getVersion()).isEqualTo(created.getCatalog());
      assertThat(tableNames(catalog))
          .containsExactly(
              "PUBLIC.T",
              "SYSTEM.BLOCK_CACHE",
              "SYSTEM.BUFFER_POOL",
              "SYSTEM.INDEXES",
              "SYSTEM.INDEX_STATS",
              "SYSTEM.STATS");

      // if not exists: an empty answer, no change
      Response again =
          client.call(
              TestingRpcTables.createTable("T")
                  .setCreateTable(
                      TestingRpcTables.createTable("T").getCreateTable().toBuilder()
                          .setIfNotExists(true)));
      assertThat(again.getTableDescriptor().getTable().isEmpty()).isTrue();
      assertThat(again.getCatalog()).isEqualTo(created.getCatalog());
      assertError(client.call(TestingRpcTables.createTable("T")), ErrorCode.TABLE_ALREADY_EXISTS);

      Response altered =
          client.call(
              Request.newBuilder()
                  .setAlterTable(
                      AlterTable.newBuilder().setName("T").putOptions("COMPRESSION", "lz4")));
      assertThat(
              DescriptorSerializer.deserialize(
                      altered.getTableDescriptor().getTable().toByteArray())
                  .options())
          .containsEntry("COMPRESSION", "LZ4");
      assertThat(listener.awaitEvent().getEvent().getCatalogChanged())
          .isEqualTo(altered.getCatalog());
      assertError(
          client.call(
              Request.newBuilder()
                  .setAlterTable(AlterTable.newBuilder().setName("T").putOptions("NO_SUCH", "1"))),
          ErrorCode.UNKNOWN_TABLE_OPTION);

      Response dropped =
          client.call(Request.newBuilder().setDropTable(DropTable.newBuilder().setName("T")));
      assertThat(dropped.getTableDescriptor().getDropped()).isTrue();
      assertThat(listener.awaitEvent().getEvent().getCatalogChanged())
          .isEqualTo(dropped.getCatalog());
      Response droppedAgain =
          client.call(
              Request.newBuilder()
                  .setDropTable(DropTable.newBuilder().setName("T").setIfExists(true)));
      assertThat(droppedAgain.getTableDescriptor().getDropped()).isFalse();
      assertError(
          client.call(Request.newBuilder().setDropTable(DropTable.newBuilder().setName("T"))),
          ErrorCode.TABLE_NOT_FOUND);

      // the other database heard nothing
      elsewhere.call(Request.newBuilder().setPing(Ping.getDefaultInstance()));
      assertThat(elsewhere.events()).isEmpty();
    }
  }

  @Test
  void aDraftThatIsNotADescriptorIsAProtocolError() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      Response answer =
          client.call(
              Request.newBuilder()
                  .setCreateTable(
                      io.cairn.protocol.CreateTable.newBuilder()
                          .setDraft(ByteString.copyFromUtf8("not a descriptor"))));
      assertError(answer, ErrorCode.PROTOCOL_ERROR);
      assertThat(client.call(getCatalog()).hasCatalogData()).isTrue();
    }
  }

  @Test
  void getTableDescribesTheKvTableAndAllocateIdsHandsOutRanges() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 10);
      TableInfo info =
          client
              .call(
                  Request.newBuilder().setGetTable(GetTable.newBuilder().setTable(t.kvTableName())))
              .getTableInfo();
      assertThat(info.getExists()).isTrue();
      assertThat(info.getTable()).isEqualTo(t.kvTableName());
      assertThat(info.getRegionsCount()).isEqualTo(1);
      assertThat(info.getRegions(0).getStart().isEmpty()).isTrue();
      assertThat(info.getApproximateRowCount()).isBetween(-1L, 10L);
      TableInfo missing =
          client
              .call(Request.newBuilder().setGetTable(GetTable.newBuilder().setTable("T999")))
              .getTableInfo();
      assertThat(missing.getExists()).isFalse();

      long first = allocate(client, t.kvTableName(), 10);
      long second = allocate(client, t.kvTableName(), 5);
      assertThat(second).isGreaterThanOrEqualTo(first + 10);
      assertError(
          client.call(
              Request.newBuilder()
                  .setAllocateIds(AllocateIds.newBuilder().setTable(t.kvTableName()))),
          ErrorCode.INVALID_ARGUMENT);
      assertError(
          client.call(
              Request.newBuilder()
                  .setAllocateIds(AllocateIds.newBuilder().setTable("T999").setCount(1))),
          ErrorCode.TABLE_NOT_FOUND);
    }
  }

  private static long allocate(TestingRpcClient client, String table, long count) {
    return client
        .call(
            Request.newBuilder()
                .setAllocateIds(AllocateIds.newBuilder().setTable(table).setCount(count)))
        .getIdRange()
        .getFirst();
  }

  @Test
  void mutateWritesAtomicallyAcrossTablesAndAFailedConditionNamesTheKey() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor a = TestingRpcTables.create(client, "A");
      TableDescriptor b = TestingRpcTables.create(client, "B");
      Response written =
          client.call(
              Request.newBuilder()
                  .setMutate(
                      Mutate.newBuilder()
                          .addBatches(
                              WireMessages.toProto(
                                  a.kvTableName(),
                                  List.of(
                                      TestingRpcTables.put(a, 1, "one", 1),
                                      TestingRpcTables.put(a, 2, "two", 2))))
                          .addBatches(
                              WireMessages.toProto(
                                  b.kvTableName(), List.of(TestingRpcTables.put(b, 1, "x", 9))))
                          .setDurability(io.cairn.protocol.Durability.DURABILITY_SYNC)));
      assertThat(written.hasMutateResult()).isTrue();

      // an INSERT of an existing key in the second batch: nothing of either batch is applied
      Mutation existing = TestingRpcTables.insert(b, 1, "again", 0);
      Response failed =
          client.call(
              Request.newBuilder()
                  .setMutate(
                      Mutate.newBuilder()
                          .addBatches(
                              WireMessages.toProto(
                                  a.kvTableName(), List.of(TestingRpcTables.put(a, 3, "three", 3))))
                          .addBatches(
                              WireMessages.toProto(
                                  b.kvTableName(),
                                  List.of(TestingRpcTables.insert(b, 2, "new", 0), existing)))));
      assertError(failed, ErrorCode.DUPLICATE_KEY);
      assertThat(failed.getError().getConditionFailed()).isTrue();
      assertThat(failed.getError().getBatchIndex()).isEqualTo(1);
      assertThat(failed.getError().getMutationIndex()).isEqualTo(1);
      assertThat(WireMessages.bytes(failed.getError().getKey())).isEqualTo(existing.key());

      assertThat(rows(page(client.call(TestingRpcTables.get(scanAll(a))))))
          .containsExactly(List.of(1L, "one", 1), List.of(2L, "two", 2));
      assertThat(rows(page(client.call(TestingRpcTables.get(scanAll(b))))))
          .containsExactly(List.of(1L, "x", 9));

      // deletes
      client.call(TestingRpcTables.mutate(a, List.of(new Mutation.Delete(existingKey(a, 1)))));
      assertThat(rows(page(client.call(TestingRpcTables.get(scanAll(a))))))
          .containsExactly(List.of(2L, "two", 2));

      // the catalog's own table and unknown tables are refused
      assertError(
          client.call(
              Request.newBuilder()
                  .setMutate(
                      Mutate.newBuilder()
                          .addBatches(
                              WireMessages.toProto(
                                  "SYSTEM.CATALOG",
                                  List.of(
                                      new Mutation.Put(
                                          Bytes.wrap(new byte[] {1}),
                                          Bytes.wrap(new byte[] {2}))))))),
          ErrorCode.NOT_SUPPORTED);
      assertError(
          client.call(
              Request.newBuilder()
                  .setMutate(
                      Mutate.newBuilder()
                          .addBatches(
                              WireMessages.toProto(
                                  "T999", List.of(TestingRpcTables.put(a, 1, "x", 1)))))),
          ErrorCode.TABLE_NOT_FOUND);
    }
  }

  private static Bytes existingKey(TableDescriptor t, long k) {
    return TestingRpcTables.put(t, k, null, null).key();
  }

  private static io.cairn.protocol.ScanSpec scanAll(TableDescriptor t) {
    return TestingRpcTables.scan(t, Optional.empty(), List.of(K, V, N));
  }

  @Test
  void scansComeInPagesBoundedByRowsAndBytes() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 1000);

      List<List<Object>> all = new ArrayList<>();
      ScanPage first = page(client.call(TestingRpcTables.openScan(scanAll(t), 100, 0, 0)));
      assertThat(first.getRowCount()).isEqualTo(100);
      assertThat(first.getColumnCount()).isEqualTo(3);
      assertThat(first.getDone()).isFalse();
      long scanner = first.getScannerId();
      assertThat(scanner).isPositive();
      assertThat(server.context().metrics().getOpenScanners()).isEqualTo(1);
      all.addAll(rows(first));
      int pages = 1;
      ScanPage next;
      do {
        next = page(client.call(TestingRpcTables.scanNext(scanner, 100, 0, 0)));
        assertThat(next.getRowCount()).isLessThanOrEqualTo(100);
        all.addAll(rows(next));
        pages++;
      } while (!next.getDone());
      assertThat(pages).isBetween(10, 11);
      assertThat(all).hasSize(1000);
      for (int i = 0; i < 1000; i++) {
        assertThat(all.get(i)).isEqualTo(Arrays.asList((long) i, "v" + i, i % 100));
      }
      // done: the scanner is gone
      assertError(
          client.call(TestingRpcTables.scanNext(scanner, 0, 0, 0)), ErrorCode.UNKNOWN_SCANNER);
      assertThat(server.context().metrics().getOpenScanners()).isZero();

      // a page ends after the row that crosses max_bytes
      ScanPage small = page(client.call(TestingRpcTables.openScan(scanAll(t), 0, 100, 0)));
      assertThat(small.getRowCount()).isBetween(5, 20);
      assertThat(small.getRows().size()).isBetween(100, 120);
      // CloseScan ends it early
      Response closed =
          client.call(
              Request.newBuilder()
                  .setCloseScan(CloseScan.newBuilder().setScannerId(small.getScannerId())));
      assertThat(closed.hasDone()).isTrue();
      assertError(
          client.call(TestingRpcTables.scanNext(small.getScannerId(), 0, 0, 0)),
          ErrorCode.UNKNOWN_SCANNER);
      assertThat(server.context().metrics().getOpenScanners()).isZero();

      // a scan that fits its first page is done at once, with no scanner left open
      ScanPage whole = page(client.call(TestingRpcTables.openScan(scanAll(t), 5000, 0, 0)));
      assertThat(whole.getDone()).isTrue();
      assertThat(whole.getScannerId()).isZero();
      assertThat(whole.getRowCount()).isEqualTo(1000);
    }
  }

  @Test
  void pipelinedPagesOfOneScannerComeInTheOrderTheyWereAsked() {
    server = TestingServers.start(Map.of(ServerConfig.WORKER_THREADS, "8"));
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 2000);
      io.cairn.protocol.ScanSpec keys = TestingRpcTables.scan(t, Optional.empty(), List.of(K));
      for (int round = 0; round < 5; round++) {
        ScanPage first = page(client.call(TestingRpcTables.openScan(keys, 10, 0, 0)));
        List<List<Object>> all = new ArrayList<>(rows(first));
        java.io.ByteArrayOutputStream frames = new java.io.ByteArrayOutputStream();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          Request.Builder next = TestingRpcTables.scanNext(first.getScannerId(), 10, 0, 0);
          frames.writeBytes(client.frame(next));
          ids.add(next.getId());
        }
        client.writeRaw(frames.toByteArray()); // in one write: they arrive together
        for (long id : ids) {
          all.addAll(rows(page(client.await(id))));
        }
        assertThat(all).hasSize(310);
        for (int i = 0; i < all.size(); i++) {
          assertThat(all.get(i)).isEqualTo(List.of((long) i));
        }
        client.call(
            Request.newBuilder()
                .setCloseScan(CloseScan.newBuilder().setScannerId(first.getScannerId())));
      }
    }
  }

  @Test
  void aSelectiveScanAnswersPagesWithoutRowsInsteadOfGoingSilent() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 300_000);
      io.cairn.protocol.ScanSpec needle =
          TestingRpcTables.scan(t, TestingRpcTables.vEquals("v299999"), List.of(K));
      ScanPage page = page(client.call(TestingRpcTables.openScan(needle, 0, 0, 1)));
      int empty = 0;
      List<List<Object>> found = new ArrayList<>(rows(page));
      while (!page.getDone()) {
        if (page.getRowCount() == 0) {
          empty++;
        }
        page = page(client.call(TestingRpcTables.scanNext(page.getScannerId(), 0, 0, 1)));
        found.addAll(rows(page));
      }
      assertThat(found).containsExactly(List.of(299_999L));
      assertThat(empty).as("pages of progress without rows").isGreaterThanOrEqualTo(2);

      // an aggregate: one row of partial states at the end, progress pages before it
      ScanPage count =
          page(
              client.call(
                  TestingRpcTables.openScan(TestingRpcTables.count(t, Optional.empty()), 0, 0, 1)));
      List<List<Object>> counted = new ArrayList<>(rows(count));
      int countPages = 1;
      while (!count.getDone()) {
        assertThat(count.getColumnCount()).isEqualTo(1);
        count = page(client.call(TestingRpcTables.scanNext(count.getScannerId(), 0, 0, 1)));
        counted.addAll(rows(count));
        countPages++;
      }
      assertThat(counted).containsExactly(List.of(300_000L));
      assertThat(countPages).isGreaterThanOrEqualTo(2);
      // Get runs the whole scan in one answer
      ScanPage got =
          page(
              client.call(
                  TestingRpcTables.get(TestingRpcTables.count(t, TestingRpcTables.vEquals("v7")))));
      assertThat(got.getDone()).isTrue();
      assertThat(rows(got)).containsExactly(List.of(1L));
    }
  }

  @Test
  void aGetLargerThanAFrameFailsAndTheConnectionGoesOn() {
    server = TestingServers.start(Map.of(ServerConfig.MAX_FRAME_BYTES, "64k"));
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 20_000);
      Response answer = client.call(TestingRpcTables.get(scanAll(t)));
      assertError(answer, ErrorCode.FRAME_TOO_LARGE);
      assertThat(answer.getError().getMessage()).contains("[65536]").contains("OpenScan");
      // pages asked larger than the frame are cut to half a frame
      ScanPage page = page(client.call(TestingRpcTables.openScan(scanAll(t), 0, 1 << 30, 0)));
      assertThat(page.getRows().size()).isBetween(32 << 10, 33 << 10);
      assertThat(client.call(Request.newBuilder().setPing(Ping.getDefaultInstance())).hasPong())
          .isTrue();
    }
  }

  @Test
  void failuresAreAnswersAndTheConnectionGoesOn() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      io.cairn.protocol.ScanSpec missing = scanAll(t).toBuilder().setTable("T999").build();
      assertError(client.call(TestingRpcTables.get(missing)), ErrorCode.TABLE_NOT_FOUND);
      assertError(
          client.call(TestingRpcTables.openScan(missing, 0, 0, 0)), ErrorCode.TABLE_NOT_FOUND);
      // a scan without a program is not a scan
      assertError(
          client.call(TestingRpcTables.get(scanAll(t).toBuilder().clearProgram().build())),
          ErrorCode.PROTOCOL_ERROR);
      // a request type this server does not know (no body)
      long id = client.send(Request.newBuilder());
      Response unknown = client.await(id);
      assertError(unknown, ErrorCode.PROTOCOL_ERROR);
      assertThat(unknown.getError().getMessage()).contains("unknown request type");
      // a newer client's request type: id 77, then field 99 (not in this protocol), empty
      byte[] newer = {0x08, 77, (byte) 0x9a, 0x06, 0x00};
      client.writeRaw(new byte[] {0, 0, 0, (byte) newer.length});
      client.writeRaw(newer);
      Response newerAnswer = client.await(77);
      assertError(newerAnswer, ErrorCode.PROTOCOL_ERROR);
      assertThat(newerAnswer.getError().getMessage()).contains("[77]");
      // admin needs an action and a table
      assertError(
          client.call(Request.newBuilder().setAdmin(Admin.newBuilder().setTable(t.kvTableName()))),
          ErrorCode.PROTOCOL_ERROR);
      assertError(
          client.call(
              Request.newBuilder()
                  .setAdmin(
                      Admin.newBuilder().setTable("T999").setFlush(Flush.getDefaultInstance()))),
          ErrorCode.TABLE_NOT_FOUND);
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
      assertThat(
              client
                  .call(
                      Request.newBuilder()
                          .setAdmin(
                              Admin.newBuilder()
                                  .setTable(t.kvTableName())
                                  .setCompact(Compact.newBuilder().setMajor(true))))
                  .hasAdminResult())
          .isTrue();
      assertThat(client.call(Request.newBuilder().setPing(Ping.getDefaultInstance())).hasPong())
          .isTrue();
      assertThat(server.context().metrics().getErrors()).isGreaterThanOrEqualTo(6);
    }
  }

  @Test
  void adminSplitSplitsTheRegionsOfADurableTable(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    server = TestingServers.start(Map.of(ServerConfig.DATA, dir.toString()));
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 2000);
      Request.Builder getTable =
          Request.newBuilder().setGetTable(GetTable.newBuilder().setTable(t.kvTableName()));
      assertThat(client.call(getTable).getTableInfo().getRegionsCount()).isEqualTo(1);
      Response split =
          client.call(
              Request.newBuilder()
                  .setAdmin(
                      Admin.newBuilder()
                          .setTable(t.kvTableName())
                          .setSplit(io.cairn.protocol.Split.getDefaultInstance())));
      assertThat(split.hasAdminResult()).isTrue();
      TableInfo info = client.call(getTable).getTableInfo();
      assertThat(info.getRegionsCount()).isEqualTo(2);
      assertThat(info.getRegions(0).getStop()).isEqualTo(info.getRegions(1).getStart());
      assertThat(info.getRegions(0).getFileBytes()).isPositive();
      assertThat(info.getRegions(1).getFileBytes()).isPositive();
    }
  }

  @Test
  void statisticsAreAskedForAndUpdatedOverTheWire(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    server = TestingServers.start(Map.of(ServerConfig.DATA, dir.toString()));
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 300);
      Request.Builder get =
          Request.newBuilder()
              .setGetStatistics(
                  io.cairn.protocol.GetStatistics.newBuilder().setTable(t.kvTableName()));
      io.cairn.kv.TableStatistics before =
          io.cairn.protocol.wire.WireMessages.fromProto(client.call(get).getStatistics());
      assertThat(before.rows()).as("not collected since the table was created").isZero();
      assertThat(before.guidePostWidth()).isEqualTo(32L << 20);
      Response updated =
          client.call(
              Request.newBuilder()
                  .setAdmin(
                      Admin.newBuilder()
                          .setTable(t.kvTableName())
                          .setUpdateStatistics(
                              io.cairn.protocol.UpdateStatistics.getDefaultInstance())));
      io.cairn.kv.TableStatistics after =
          io.cairn.protocol.wire.WireMessages.fromProto(updated.getAdminResult().getStatistics());
      assertThat(after.rows()).isEqualTo(300);
      assertThat(io.cairn.protocol.wire.WireMessages.fromProto(client.call(get).getStatistics()))
          .isEqualTo(after);
      Response missing =
          client.call(
              Request.newBuilder()
                  .setGetStatistics(io.cairn.protocol.GetStatistics.newBuilder().setTable("T999")));
      assertThat(missing.getError().getCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND.code());
    }
  }

  @Test
  void hashCachesCountAgainstTheServersLimitUntilRemovedOrTheConnectionCloses() {
    server = TestingServers.start(Map.of(ServerConfig.HASH_CACHE_MAX_BYTES, "10k"));
    HashCacheMemory memory = server.context().hashCacheMemory();
    TestingRpcClient b = TestingRpcClient.open(server.port(), "");
    try (TestingRpcClient a = TestingRpcClient.open(server.port(), "")) {
      assertThat(a.call(putHashCache("one", 6000)).hasDone()).isTrue();
      assertThat(memory.used()).isEqualTo(6000);
      Response tooMuch = b.call(putHashCache("two", 6000));
      assertError(tooMuch, ErrorCode.HASH_CACHE_TOO_LARGE);
      assertThat(tooMuch.getError().getMessage())
          .contains("[10240]")
          .contains("hash-cache.max-bytes");
      // replacing a cache gives back the old bytes
      assertThat(a.call(putHashCache("one", 1000)).hasDone()).isTrue();
      assertThat(memory.used()).isEqualTo(1000);
      assertThat(b.call(putHashCache("two", 6000)).hasDone()).isTrue();
      assertThat(memory.used()).isEqualTo(7000);
      assertThat(
              a.call(
                      Request.newBuilder()
                          .setRemoveHashCache(
                              RemoveHashCache.newBuilder()
                                  .setCacheId(ByteString.copyFromUtf8("one"))))
                  .hasDone())
          .isTrue();
      assertThat(memory.used()).isEqualTo(6000);
      b.close();
      TestingAwait.until(() -> memory.used() == 0, "hash caches of a closed connection dropped");
    }
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

  @Test
  void anIdleScannerExpires() {
    server = TestingServers.start(Map.of(ServerConfig.SCANNER_IDLE_TIMEOUT, "200ms"));
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 100);
      ScanPage first = page(client.call(TestingRpcTables.openScan(scanAll(t), 10, 0, 0)));
      // a scanner in use does not expire
      for (int i = 0; i < 4; i++) {
        TestingAwait.sleep(80);
        page(client.call(TestingRpcTables.scanNext(first.getScannerId(), 10, 0, 0)));
      }
      TestingAwait.until(
          () -> server.context().metrics().getOpenScanners() == 0, "the idle scanner closed");
      Response late = client.call(TestingRpcTables.scanNext(first.getScannerId(), 10, 0, 0));
      assertError(late, ErrorCode.UNKNOWN_SCANNER);
      assertThat(late.getError().getMessage()).contains("scanner-idle-timeout");
    }
  }

  @Test
  void theServerIsAJmxBean() throws Exception {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      client.call(Request.newBuilder().setPing(Ping.getDefaultInstance()));
      ObjectName name = new ObjectName("io.cairn:type=Server,port=" + server.port());
      var beans = ManagementFactory.getPlatformMBeanServer();
      assertThat((Long) beans.getAttribute(name, "Requests")).isGreaterThanOrEqualTo(2);
      assertThat((Integer) beans.getAttribute(name, "Connections")).isEqualTo(1);
      assertThat((Long) beans.getAttribute(name, "BytesIn")).isPositive();
      assertThat((Long) beans.getAttribute(name, "BytesOut")).isPositive();
      server.close();
      assertThat(beans.isRegistered(name)).isFalse();
      server = null;
    }
  }
}
