package io.cairn.jdbc.internal.remote;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.SystemViews;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.engine.ProgressListener;
import io.cairn.jdbc.internal.remote.RpcConnection.ServerCatalog;
import io.cairn.jdbc.internal.session.IndexBuildReporter;
import io.cairn.kv.IndexCheck;
import io.cairn.protocol.AlterTable;
import io.cairn.protocol.CatalogData;
import io.cairn.protocol.CreateIndex;
import io.cairn.protocol.CreateTable;
import io.cairn.protocol.DropIndex;
import io.cairn.protocol.DropTable;
import io.cairn.protocol.GetCatalog;
import io.cairn.protocol.IndexCheckResult;
import io.cairn.protocol.IndexResult;
import io.cairn.protocol.RebuildIndex;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.TableDescriptorResult;
import io.cairn.protocol.VerifyIndex;
import io.cairn.protocol.wire.WireMessages;
import io.cairn.relocated.protobuf.ByteString;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.UnaryOperator;

/**
 * A copy of a server's catalog, following it: loaded with GetCatalog, brought up to date before
 * each statement when the server's catalog version (carried by every response and pushed as the
 * catalog_changed event) differs from the one loaded, and reloaded after every reconnect. DDL goes
 * to the server (CreateTable, AlterTable, DropTable, and CreateIndex, DropIndex, RebuildIndex,
 * which answer with the index's table) and its answer updates the copy at once, so the connection
 * that ran it sees the change in its next statement. The server builds indexes itself and reports
 * the rows indexed while it builds and in its answer.
 *
 * <p>{@link #version()} is this copy's own counter, changed whenever the copy changes (plan caches
 * key on it); the server's numbers are not used for it because a restarted server starts again.
 * Thread-safe: the copy is an immutable snapshot replaced as a whole.
 */
final class RemoteCatalog implements Catalog {
  /** One state of the copy: the tables, and the server catalog they correspond to. */
  private record Snapshot(
      long version, ServerCatalog server, Map<String, TableDescriptor> tables) {}

  private final RpcConnection connection;
  private final AtomicLong versions = new AtomicLong();
  private final Object reloading = new Object();
  private volatile Snapshot snapshot;

  RemoteCatalog(RpcConnection connection) {
    this.connection = requireNonNull(connection, "connection is null");
  }

  /**
   * Reloads the copy when the server reported another catalog than the one loaded (or a reconnect
   * happened); cheap otherwise. Connects first when the connection is down, so that a restarted
   * server's catalog is what the next statement is planned against.
   */
  void refreshIfStale() {
    if (!connection.isConnected()) {
      connection.awaitChannel();
    }
    Snapshot s = snapshot;
    if (s == null || !s.server().equals(connection.serverCatalog())) {
      reload();
    }
  }

  /** Loads the server's whole catalog. */
  void reload() {
    synchronized (reloading) {
      RpcChannel channel = connection.awaitChannel();
      Snapshot s = snapshot;
      if (s != null && s.server().equals(connection.serverCatalog())) {
        return; // another thread reloaded meanwhile
      }
      Response response =
          Rpc.await(
              channel
                  .send(
                      Request.newBuilder().setGetCatalog(GetCatalog.getDefaultInstance()),
                      "GetCatalog",
                      connection.config().requestTimeout())
                  .future());
      if (!response.hasCatalogData()) {
        throw unexpected("GetCatalog", "CatalogData", response);
      }
      CatalogData data = response.getCatalogData();
      Map<String, TableDescriptor> tables = new HashMap<>();
      for (ByteString bytes : data.getTablesList()) {
        TableDescriptor t = descriptor(bytes);
        if (!SystemViews.isView(t)) {
          tables.put(key(t.schemaName(), t.tableName()), t);
        }
      }
      ServerCatalog loaded =
          new ServerCatalog(
              channel.generation(),
              data.getVersion().getInstance(),
              data.getVersion().getVersion());
      // later answers may already have reported a newer version: then the next check reloads
      snapshot = new Snapshot(versions.incrementAndGet(), loaded, Map.copyOf(tables));
    }
  }

  private Snapshot current() {
    Snapshot s = snapshot;
    if (s == null) {
      refreshIfStale();
      s = snapshot;
    }
    return s;
  }

  private static String key(String schema, String name) {
    return schema + "\u0000" + name;
  }

  @Override
  public long version() {
    return current().version();
  }

  @Override
  public Optional<TableDescriptor> table(String schema, String name) {
    TableDescriptor t = current().tables().get(key(schema, name));
    return t != null ? Optional.of(t) : SystemViews.find(schema, name);
  }

  @Override
  public List<TableDescriptor> tables() {
    List<TableDescriptor> list = new ArrayList<>(current().tables().values());
    list.addAll(SystemViews.all());
    list.sort(
        Comparator.comparing(TableDescriptor::schemaName)
            .thenComparing(TableDescriptor::tableName));
    return list;
  }

  @Override
  public List<String> schemas() {
    TreeSet<String> names = new TreeSet<>();
    names.add(DEFAULT_SCHEMA);
    names.add(SystemViews.SCHEMA);
    for (TableDescriptor t : current().tables().values()) {
      names.add(t.schemaName());
    }
    return List.copyOf(names);
  }

  // --- DDL -------------------------------------------------------------------------------------

  @Override
  public Optional<TableDescriptor> createTable(
      TableDescriptor draft, boolean ifNotExists, List<Bytes> splitPoints) {
    CreateTable.Builder create =
        CreateTable.newBuilder()
            .setDraft(ByteString.copyFrom(DescriptorSerializer.serialize(draft)))
            .setIfNotExists(ifNotExists);
    for (Bytes point : splitPoints) {
      create.addSplitPoints(WireMessages.bytes(point));
    }
    String what = "CreateTable " + draft.qualifiedName();
    Response response = connection.callAndWait(Request.newBuilder().setCreateTable(create), what);
    TableDescriptorResult result = result(what, response);
    if (result.getTable().isEmpty()) {
      return Optional.empty();
    }
    TableDescriptor created = descriptor(result.getTable());
    apply(response, tables -> put(tables, created));
    return Optional.of(created);
  }

  @Override
  public TableDescriptor alterTableOptions(
      String schema, String name, Map<String, String> changes) {
    String what = "AlterTable " + schema + "." + name;
    Response response =
        connection.callAndWait(
            Request.newBuilder()
                .setAlterTable(
                    AlterTable.newBuilder().setSchema(schema).setName(name).putAllOptions(changes)),
            what);
    TableDescriptor altered = descriptor(result(what, response).getTable());
    apply(response, tables -> put(tables, altered));
    return altered;
  }

  @Override
  public boolean dropTable(String schema, String name, boolean ifExists) {
    String what = "DropTable " + schema + "." + name;
    Response response =
        connection.callAndWait(
            Request.newBuilder()
                .setDropTable(
                    DropTable.newBuilder().setSchema(schema).setName(name).setIfExists(ifExists)),
            what);
    boolean dropped = result(what, response).getDropped();
    if (dropped) {
      apply(
          response,
          tables -> {
            Map<String, TableDescriptor> copy = new HashMap<>(tables);
            copy.remove(key(schema, name));
            return copy;
          });
    }
    return dropped;
  }

  // --- local indexes: built by the server, whose answer carries the index's table ------------

  /**
   * Sends CreateIndex; the server builds the index before answering. It reports the rows indexed so
   * far while it builds (IndexProgress events, each restarting the request timeout, so a build may
   * take longer than one timeout) and in its answer: they go to {@code progress} (from the
   * connection's event loop, then from this thread).
   */
  @Override
  public Optional<IndexDescriptor> createIndex(
      String schema,
      String table,
      IndexDescriptor draft,
      boolean ifNotExists,
      LongConsumer progress) {
    String what = "CreateIndex " + schema + "." + draft.name();
    Response response =
        connection.callAndWait(
            Request.newBuilder()
                .setCreateIndex(
                    CreateIndex.newBuilder()
                        .setSchema(schema)
                        .setTable(table)
                        .setDraft(ByteString.copyFrom(DescriptorSerializer.serializeIndex(draft)))
                        .setIfNotExists(ifNotExists)
                        .setReportProgress(true)
                        .setProgressIntervalMillis(intervalMillis(progress))),
            what,
            progressOf(progress));
    Optional<IndexDescriptor> created = changedIndex(what, response);
    if (created.isPresent() && progress != null) {
      progress.accept(response.getIndexResult().getRowsIndexed());
    }
    return created;
  }

  /**
   * How often the server is asked to report: the statement's listener's interval ({@link
   * IndexBuildReporter}), else once a second (the reports also keep the request from timing out).
   */
  private static int intervalMillis(LongConsumer progress) {
    Duration interval =
        progress instanceof IndexBuildReporter r ? r.interval() : ProgressListener.DEFAULT_INTERVAL;
    return (int) Math.min(Integer.MAX_VALUE, interval.toMillis());
  }

  private static LongConsumer progressOf(LongConsumer progress) {
    return progress != null ? progress : rows -> {};
  }

  @Override
  public boolean dropIndex(String schema, String name, String table, boolean ifExists) {
    String what = "DropIndex " + schema + "." + name;
    DropIndex.Builder drop =
        DropIndex.newBuilder().setSchema(schema).setName(name).setIfExists(ifExists);
    if (table != null) {
      drop.setTable(table);
    }
    Response response = connection.callAndWait(Request.newBuilder().setDropIndex(drop), what);
    IndexResult result = indexResult(what, response);
    if (result.getTable().isEmpty()) {
      return false;
    }
    TableDescriptor changed = descriptor(result.getTable());
    apply(response, tables -> put(tables, changed));
    return true;
  }

  @Override
  public IndexDescriptor rebuildIndex(
      String schema, String table, String name, LongConsumer progress) {
    String what = "RebuildIndex " + schema + "." + name;
    Response response =
        connection.callAndWait(
            Request.newBuilder()
                .setRebuildIndex(
                    RebuildIndex.newBuilder()
                        .setSchema(schema)
                        .setTable(table)
                        .setName(name)
                        .setReportProgress(true)
                        .setProgressIntervalMillis(intervalMillis(progress))),
            what,
            progressOf(progress));
    IndexDescriptor rebuilt =
        changedIndex(what, response)
            .orElseThrow(() -> unexpected(what, "the rebuilt index's table", response));
    if (progress != null) {
      progress.accept(response.getIndexResult().getRowsIndexed());
    }
    return rebuilt;
  }

  @Override
  public IndexCheck verifyIndex(String schema, String table, String name) {
    String what = "VerifyIndex " + schema + "." + name;
    Response response =
        connection.callAndWait(
            Request.newBuilder()
                .setVerifyIndex(
                    VerifyIndex.newBuilder().setSchema(schema).setTable(table).setName(name)),
            what);
    if (!response.hasIndexCheck()) {
      throw unexpected(what, "IndexCheckResult", response);
    }
    IndexCheckResult check = response.getIndexCheck();
    return new IndexCheck(
        check.getRows(),
        check.getEntries(),
        check.getMissing(),
        check.getExtra(),
        check.getSamplesList());
  }

  /** The index an IndexResult names, its table patched into the copy; empty: nothing changed. */
  private Optional<IndexDescriptor> changedIndex(String what, Response response) {
    IndexResult result = indexResult(what, response);
    if (result.getTable().isEmpty()) {
      return Optional.empty();
    }
    TableDescriptor changed = descriptor(result.getTable());
    IndexDescriptor index =
        changed
            .index(result.getIndex())
            .orElseThrow(
                () ->
                    new CairnException(
                        ErrorCode.PROTOCOL_ERROR,
                        "Expected index ["
                            + result.getIndex()
                            + "] in the table the server answered ["
                            + what
                            + "] with, found ["
                            + changed.qualifiedName()
                            + "] without it"));
    apply(response, tables -> put(tables, changed));
    return Optional.of(index);
  }

  private static IndexResult indexResult(String what, Response response) {
    if (!response.hasIndexResult()) {
      throw unexpected(what, "IndexResult", response);
    }
    return response.getIndexResult();
  }

  private static Map<String, TableDescriptor> put(
      Map<String, TableDescriptor> tables, TableDescriptor t) {
    Map<String, TableDescriptor> copy = new HashMap<>(tables);
    copy.put(key(t.schemaName(), t.tableName()), t);
    return copy;
  }

  /**
   * Applies this connection's own DDL to the copy. When the answer's catalog version is the one
   * loaded plus one, the DDL was the only change and the copy is patched; otherwise other changes
   * happened too and the copy is reloaded.
   */
  private void apply(Response response, UnaryOperator<Map<String, TableDescriptor>> change) {
    synchronized (reloading) {
      Snapshot s = snapshot;
      ServerCatalog now = connection.serverCatalog();
      boolean onlyThis =
          s != null
              && response.hasCatalog()
              && now != null
              && now.generation() == s.server().generation()
              && response.getCatalog().getInstance() == s.server().instance()
              && response.getCatalog().getVersion() == s.server().version() + 1;
      if (onlyThis) {
        ServerCatalog after =
            new ServerCatalog(
                s.server().generation(),
                response.getCatalog().getInstance(),
                response.getCatalog().getVersion());
        snapshot =
            new Snapshot(versions.incrementAndGet(), after, Map.copyOf(change.apply(s.tables())));
        return;
      }
    }
    snapshot = null;
    reloadAfterDdl();
  }

  private void reloadAfterDdl() {
    synchronized (reloading) {
      if (snapshot == null) {
        reload();
      }
    }
  }

  private static TableDescriptorResult result(String what, Response response) {
    if (!response.hasTableDescriptor()) {
      throw unexpected(what, "TableDescriptorResult", response);
    }
    return response.getTableDescriptor();
  }

  private static TableDescriptor descriptor(ByteString bytes) {
    try {
      return DescriptorSerializer.deserialize(bytes.toByteArray());
    } catch (RuntimeException e) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "The server sent a table descriptor that cannot be read: " + e.getMessage(),
          e);
    }
  }

  static CairnException unexpected(String request, String expected, Response response) {
    return new CairnException(
        ErrorCode.PROTOCOL_ERROR,
        "Expected "
            + expected
            + " in answer to ["
            + request
            + "], found ["
            + response.getBodyCase()
            + "]");
  }
}
