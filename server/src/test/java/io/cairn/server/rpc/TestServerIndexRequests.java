package io.cairn.server.rpc;

import static io.cairn.server.rpc.TestingRpcClient.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.IndexDescriptor.IndexColumn;
import io.cairn.core.catalog.IndexDescriptor.State;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.type.SortOrder;
import io.cairn.protocol.CatalogVersion;
import io.cairn.protocol.CreateIndex;
import io.cairn.protocol.DropIndex;
import io.cairn.protocol.GetCatalog;
import io.cairn.protocol.IndexProgress;
import io.cairn.protocol.IndexResult;
import io.cairn.protocol.Ping;
import io.cairn.protocol.RebuildIndex;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.VerifyIndex;
import io.cairn.relocated.protobuf.ByteString;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The local-index requests against a real server: answers, errors, and what is left unchanged. */
@ExtendWith(NettyLeakCheck.class)
class TestServerIndexRequests {
  private CairnServer server;

  @AfterEach
  void close() {
    if (server != null) {
      server.close();
    }
  }

  static IndexDescriptor draft(String name) {
    return new IndexDescriptor(
        0,
        name,
        List.of(new IndexColumn(TestingRpcTables.V, "V", SortOrder.ASC)),
        List.of(2),
        State.BUILDING);
  }

  static Request.Builder createIndex(String table, IndexDescriptor draft, boolean ifNotExists) {
    return Request.newBuilder()
        .setCreateIndex(
            CreateIndex.newBuilder()
                .setTable(table)
                .setDraft(ByteString.copyFrom(DescriptorSerializer.serializeIndex(draft)))
                .setIfNotExists(ifNotExists));
  }

  @Test
  void badRequestsAreRefusedAndChangeNothing() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TestingRpcTables.create(client, "T");
      long version =
          client.call(createIndex("MISSING", draft("I"), false)).getCatalog().getVersion();

      assertError(
          client.call(
              Request.newBuilder()
                  .setCreateIndex(
                      CreateIndex.newBuilder()
                          .setTable("T")
                          .setDraft(ByteString.copyFromUtf8("not an index")))),
          ErrorCode.PROTOCOL_ERROR);
      assertError(
          client.call(createIndex("MISSING", draft("I"), false)), ErrorCode.TABLE_NOT_FOUND);
      Response onAView =
          client.call(
              Request.newBuilder()
                  .setCreateIndex(
                      CreateIndex.newBuilder()
                          .setSchema("SYSTEM")
                          .setTable("STATS")
                          .setDraft(
                              ByteString.copyFrom(
                                  DescriptorSerializer.serializeIndex(draft("I"))))));
      assertError(onAView, ErrorCode.NOT_SUPPORTED);
      assertError(
          client.call(Request.newBuilder().setDropIndex(DropIndex.newBuilder().setName("I"))),
          ErrorCode.INDEX_NOT_FOUND);
      Response dropIfExists =
          client.call(
              Request.newBuilder()
                  .setDropIndex(DropIndex.newBuilder().setName("I").setIfExists(true)));
      assertThat(dropIfExists.getIndexResult()).isEqualTo(IndexResult.getDefaultInstance());
      assertError(
          client.call(
              Request.newBuilder()
                  .setRebuildIndex(RebuildIndex.newBuilder().setTable("T").setName("I"))),
          ErrorCode.INDEX_NOT_FOUND);
      Response verify =
          client.call(
              Request.newBuilder()
                  .setVerifyIndex(VerifyIndex.newBuilder().setTable("T").setName("I")));
      assertError(verify, ErrorCode.INDEX_NOT_FOUND);
      assertThat(verify.getCatalog().getVersion()).isEqualTo(version);
    }
  }

  @Test
  void theServerBuildsTheIndexAnswersWithItsTableAndEveryConnectionHears() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "");
        TestingRpcClient listener = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      TestingRpcTables.load(client, t, 0, 200);
      long before =
          client
              .call(Request.newBuilder().setPing(Ping.getDefaultInstance()))
              .getCatalog()
              .getVersion();

      Response created = client.call(createIndex("T", draft("BY_V"), false));
      assertThat(created.hasIndexResult()).as("%s", created).isTrue();
      assertThat(created.getIndexResult().getIndex()).isEqualTo("BY_V");
      TableDescriptor withIndex =
          DescriptorSerializer.deserialize(created.getIndexResult().getTable().toByteArray());
      IndexDescriptor index = withIndex.index("BY_V").orElseThrow();
      assertThat(index.state()).isEqualTo(State.ACTIVE);
      assertThat(index.columns()).isEqualTo(draft("BY_V").columns());
      assertThat(index.include()).containsExactly(2);
      assertThat(created.getCatalog().getVersion())
          .as("BUILDING, then ACTIVE")
          .isEqualTo(before + 2);
      // the listener hears CreateTable's version, then the index's (the last event of the build)
      CatalogVersion heard = listener.awaitEvent().getEvent().getCatalogChanged();
      while (heard.getVersion() < created.getCatalog().getVersion()) {
        heard = listener.awaitEvent().getEvent().getCatalogChanged();
      }
      assertThat(heard).isEqualTo(created.getCatalog());
      Response catalog =
          client.call(Request.newBuilder().setGetCatalog(GetCatalog.getDefaultInstance()));
      assertThat(catalog.getCatalogData().getTablesList())
          .map(b -> DescriptorSerializer.deserialize(b.toByteArray()))
          .contains(withIndex);

      // a taken name with if_not_exists: nothing changes
      Response again = client.call(createIndex("T", draft("BY_V"), true));
      assertThat(again.getIndexResult()).isEqualTo(IndexResult.getDefaultInstance());
      assertThat(again.getCatalog()).isEqualTo(created.getCatalog());

      Response verified =
          client.call(
              Request.newBuilder()
                  .setVerifyIndex(VerifyIndex.newBuilder().setTable("T").setName("BY_V")));
      assertThat(verified.getIndexCheck().getRows()).isEqualTo(200);
      assertThat(verified.getIndexCheck().getEntries()).isEqualTo(200);
      assertThat(verified.getIndexCheck().getMissing()).isZero();
      assertThat(verified.getIndexCheck().getExtra()).isZero();

      Response rebuilt =
          client.call(
              Request.newBuilder()
                  .setRebuildIndex(RebuildIndex.newBuilder().setTable("T").setName("BY_V")));
      IndexDescriptor rebuiltIndex =
          DescriptorSerializer.deserialize(rebuilt.getIndexResult().getTable().toByteArray())
              .index("BY_V")
              .orElseThrow();
      assertThat(rebuiltIndex.indexId()).isNotEqualTo(index.indexId());
      assertThat(rebuiltIndex.state()).isEqualTo(State.ACTIVE);

      Response dropped =
          client.call(Request.newBuilder().setDropIndex(DropIndex.newBuilder().setName("BY_V")));
      assertThat(
              DescriptorSerializer.deserialize(dropped.getIndexResult().getTable().toByteArray())
                  .indexes())
          .isEmpty();
      assertThat(dropped.getIndexResult().getIndex()).isEqualTo("BY_V");
    }
  }

  /** The rows indexed that the IndexProgress events of request {@code id} read so far said. */
  private static List<Long> progressOf(TestingRpcClient client, long id) {
    return client.events().stream()
        .filter(e -> e.getEvent().hasIndexProgress())
        .map(e -> e.getEvent().getIndexProgress())
        .filter(p -> p.getRequest() == id)
        .map(IndexProgress::getRowsIndexed)
        .toList();
  }

  @Test
  void buildsReportTheirRowsInTheAnswerAndAsEventsWhenAsked() {
    server = TestingServers.start();
    try (TestingRpcClient client = TestingRpcClient.open(server.port(), "")) {
      TableDescriptor t = TestingRpcTables.create(client, "T");
      // the store's build reports every 65,536 rows, and at the end
      TestingRpcTables.load(client, t, 0, 70_000);

      long quiet = client.send(createIndex("T", draft("QUIET"), false));
      assertThat(client.await(quiet).getIndexResult().getRowsIndexed()).isEqualTo(70_000);
      assertThat(progressOf(client, quiet)).as("not asked for").isEmpty();

      Request.Builder asked = createIndex("T", draft("LOUD"), false);
      asked.getCreateIndexBuilder().setReportProgress(true).setProgressIntervalMillis(0);
      long loud = client.send(asked);
      assertThat(client.await(loud).getIndexResult().getRowsIndexed()).isEqualTo(70_000);
      assertThat(progressOf(client, loud)).contains(65_536L).isSorted();

      long rebuild =
          client.send(
              Request.newBuilder()
                  .setRebuildIndex(
                      RebuildIndex.newBuilder()
                          .setTable("T")
                          .setName("LOUD")
                          .setReportProgress(true)
                          .setProgressIntervalMillis(0)));
      assertThat(client.await(rebuild).getIndexResult().getRowsIndexed()).isEqualTo(70_000);
      assertThat(progressOf(client, rebuild)).contains(65_536L);

      Response dropped =
          client.call(Request.newBuilder().setDropIndex(DropIndex.newBuilder().setName("QUIET")));
      assertThat(dropped.getIndexResult().getRowsIndexed()).isZero();
    }
  }

  @Test
  void progressIsPassedOnAtMostOncePerInterval() {
    List<Long> sent = new java.util.ArrayList<>();
    IndexRequests.BuildProgress hourly =
        new IndexRequests.BuildProgress(sent::add, java.util.concurrent.TimeUnit.HOURS.toNanos(1));
    hourly.accept(10);
    hourly.accept(30);
    hourly.accept(20); // another thread's older count
    assertThat(sent).isEmpty();
    assertThat(hourly.rows()).isEqualTo(30);

    IndexRequests.BuildProgress every = new IndexRequests.BuildProgress(sent::add, 0);
    every.accept(10);
    every.accept(5);
    assertThat(sent).containsExactly(10L, 10L);
    assertThat(new IndexRequests.BuildProgress(null, 0).rows()).isZero();
  }
}
