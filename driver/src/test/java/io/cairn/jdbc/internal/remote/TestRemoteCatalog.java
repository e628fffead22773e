package io.cairn.jdbc.internal.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.catalog.ColumnDescriptor;
import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.SystemViews;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexCheck;
import io.cairn.protocol.CatalogData;
import io.cairn.protocol.CatalogVersion;
import io.cairn.protocol.CreateIndex;
import io.cairn.protocol.DropIndex;
import io.cairn.protocol.Event;
import io.cairn.protocol.IndexCheckResult;
import io.cairn.protocol.IndexResult;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.TableDescriptorResult;
import io.cairn.relocated.protobuf.ByteString;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The catalog copy against a scripted server: when it reloads, and that its version follows. */
class TestRemoteCatalog {
  private final List<TableDescriptor> tables = new CopyOnWriteArrayList<>();
  private final TestingRpcServer server;
  private final RpcConnection connection;
  private int getCatalogs;

  TestRemoteCatalog() throws IOException {
    server = new TestingRpcServer(this::handle);
    connection = new RpcConnection(server.config());
  }

  @AfterEach
  void close() throws IOException {
    connection.close();
    server.close();
  }

  private static TableDescriptor table(long id, String name) {
    return new TableDescriptor(
        id,
        "PUBLIC",
        name,
        List.of(new ColumnDescriptor("ID", 1, DataType.INTEGER.withNullable(false))),
        List.of(new RowLayout.KeyColumn(0, SortOrder.ASC)),
        Map.of(),
        1);
  }

  private static ByteString bytes(TableDescriptor t) {
    return ByteString.copyFrom(DescriptorSerializer.serialize(t));
  }

  private synchronized void handle(Request request, TestingRpcServer.Connection c)
      throws IOException {
    switch (request.getBodyCase()) {
      case GET_CATALOG -> {
        getCatalogs++;
        CatalogData.Builder data = CatalogData.newBuilder().setVersion(server.catalog);
        tables.forEach(t -> data.addTables(bytes(t)));
        SystemViews.all().forEach(t -> data.addTables(bytes(t)));
        c.answer(request, Response.newBuilder().setCatalogData(data));
      }
      case CREATE_TABLE -> {
        TableDescriptor draft =
            DescriptorSerializer.deserialize(request.getCreateTable().getDraft().toByteArray());
        TableDescriptor created = table(100 + tables.size(), draft.tableName());
        tables.add(created);
        bump();
        c.answer(
            request,
            Response.newBuilder()
                .setTableDescriptor(TableDescriptorResult.newBuilder().setTable(bytes(created))));
      }
      case CREATE_INDEX -> {
        CreateIndex create = request.getCreateIndex();
        IndexDescriptor draft =
            DescriptorSerializer.deserializeIndex(create.getDraft().toByteArray());
        TableDescriptor t = find(create.getTable());
        if (t.index(draft.name()).isPresent()) {
          c.answer(request, Response.newBuilder().setIndexResult(IndexResult.getDefaultInstance()));
          return;
        }
        List<IndexDescriptor> indexes = new ArrayList<>(t.indexes());
        indexes.add(
            new IndexDescriptor(
                5, draft.name(), draft.columns(), draft.include(), IndexDescriptor.State.ACTIVE));
        TableDescriptor changed = replace(t, t.withIndexes(indexes));
        bump(); // BUILDING
        bump(); // ACTIVE
        c.answer(request, indexResult(changed, draft.name()));
      }
      case DROP_INDEX -> {
        DropIndex drop = request.getDropIndex();
        TableDescriptor t = find(drop.getTable());
        List<IndexDescriptor> indexes = new ArrayList<>(t.indexes());
        indexes.removeIf(i -> i.name().equals(drop.getName()));
        TableDescriptor changed = replace(t, t.withIndexes(indexes));
        bump();
        c.answer(request, indexResult(changed, drop.getName()));
      }
      case VERIFY_INDEX ->
          c.answer(
              request,
              Response.newBuilder()
                  .setIndexCheck(
                      IndexCheckResult.newBuilder()
                          .setRows(3)
                          .setEntries(4)
                          .setExtra(1)
                          .addSamples(request.getVerifyIndex().getName())));
      default -> throw new IOException("unexpected " + request.getBodyCase());
    }
  }

  private TableDescriptor find(String name) {
    return tables.stream().filter(t -> t.tableName().equals(name)).findFirst().orElseThrow();
  }

  private TableDescriptor replace(TableDescriptor old, TableDescriptor changed) {
    tables.set(tables.indexOf(old), changed);
    return changed;
  }

  private static Response.Builder indexResult(TableDescriptor t, String index) {
    return Response.newBuilder()
        .setIndexResult(IndexResult.newBuilder().setTable(bytes(t)).setIndex(index));
  }

  private void bump() {
    server.catalog = server.catalog.toBuilder().setVersion(server.catalog.getVersion() + 1).build();
  }

  private synchronized int getCatalogs() {
    return getCatalogs;
  }

  private void awaitServerVersion(long version) throws InterruptedException {
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (connection.serverCatalog().version() != version && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(connection.serverCatalog().version()).isEqualTo(version);
  }

  @Test
  void reloadsOnlyWhenTheServersCatalogChangedOrAfterAReconnect() throws Exception {
    tables.add(table(7, "A"));
    RemoteCatalog catalog = new RemoteCatalog(connection);
    catalog.refreshIfStale();
    assertThat(getCatalogs()).isEqualTo(1);
    long first = catalog.version();
    assertThat(catalog.table("PUBLIC", "A")).contains(table(7, "A"));
    // the system views are listed once, as the embedded catalog lists them
    assertThat(catalog.tables()).hasSize(1 + SystemViews.all().size());
    assertThat(catalog.schemas()).containsExactly("PUBLIC", "SYSTEM");

    catalog.refreshIfStale();
    assertThat(getCatalogs()).isEqualTo(1);
    assertThat(catalog.version()).isEqualTo(first);

    // another client's DDL: the server pushes catalog_changed
    tables.add(table(8, "B"));
    bump();
    server
        .connections
        .get(0)
        .send(Response.newBuilder().setEvent(Event.newBuilder().setCatalogChanged(server.catalog)));
    awaitServerVersion(2);
    catalog.refreshIfStale();
    assertThat(getCatalogs()).isEqualTo(2);
    assertThat(catalog.version()).isNotEqualTo(first);
    assertThat(catalog.table("PUBLIC", "B")).isPresent();

    // this client's own DDL patches the copy without a reload
    long beforeDdl = catalog.version();
    assertThat(catalog.createTable(table(0, "C"), false)).contains(table(102, "C"));
    assertThat(catalog.table("PUBLIC", "C")).contains(table(102, "C"));
    assertThat(catalog.version()).isNotEqualTo(beforeDdl);
    catalog.refreshIfStale();
    assertThat(getCatalogs()).isEqualTo(2);

    // a restarted server (same numbers, another instance) or just a reconnect: reload
    long beforeReconnect = catalog.version();
    server.dropAll();
    server.catalog = CatalogVersion.newBuilder().setInstance(9).setVersion(3).build();
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (connection.isConnected() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    catalog.refreshIfStale();
    assertThat(getCatalogs()).isEqualTo(3);
    assertThat(catalog.version()).isNotEqualTo(beforeReconnect);
  }

  @Test
  void indexDdlGoesToTheServerAndItsAnswerUpdatesTheCopy() throws Exception {
    tables.add(table(7, "A"));
    RemoteCatalog catalog = new RemoteCatalog(connection);
    catalog.refreshIfStale();
    IndexDescriptor draft =
        new IndexDescriptor(
            0,
            "BY_ID",
            List.of(
                new IndexDescriptor.IndexColumn(
                    new Expr.ColumnRef(0, DataType.INTEGER), "ID", SortOrder.DESC)),
            List.of(),
            IndexDescriptor.State.BUILDING);

    long before = catalog.version();
    IndexDescriptor created = catalog.createIndex("PUBLIC", "A", draft, false, null).orElseThrow();
    assertThat(created.indexId()).isEqualTo(5);
    assertThat(created.state()).isEqualTo(IndexDescriptor.State.ACTIVE);
    assertThat(created.columns()).isEqualTo(draft.columns());
    assertThat(catalog.table("PUBLIC", "A").orElseThrow().indexes()).containsExactly(created);
    assertThat(catalog.version()).isNotEqualTo(before);
    // the version moved by two (BUILDING, ACTIVE): the copy was loaded again, and agrees
    assertThat(getCatalogs()).isEqualTo(2);

    // a taken name with IF NOT EXISTS: nothing changes
    assertThat(catalog.createIndex("PUBLIC", "A", draft, true, null)).isEmpty();

    IndexCheck check = catalog.verifyIndex("PUBLIC", "A", "BY_ID");
    assertThat(check).isEqualTo(new IndexCheck(3, 4, 0, 1, List.of("BY_ID")));
    assertThat(check.consistent()).isFalse();

    assertThat(catalog.dropIndex("PUBLIC", "BY_ID", "A", false)).isTrue();
    assertThat(catalog.table("PUBLIC", "A").orElseThrow().indexes()).isEmpty();
    assertThat(getCatalogs()).as("one change: the answer patched the copy").isEqualTo(2);
  }
}
