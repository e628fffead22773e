package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.catalog.TableOptions;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import io.cairn.protocol.Admin;
import io.cairn.protocol.AdminResult;
import io.cairn.protocol.AllocateIds;
import io.cairn.protocol.AlterTable;
import io.cairn.protocol.CatalogData;
import io.cairn.protocol.CreateTable;
import io.cairn.protocol.Done;
import io.cairn.protocol.DropTable;
import io.cairn.protocol.Event;
import io.cairn.protocol.Get;
import io.cairn.protocol.GetTable;
import io.cairn.protocol.Hello;
import io.cairn.protocol.HelloOk;
import io.cairn.protocol.IdRange;
import io.cairn.protocol.Mutate;
import io.cairn.protocol.MutateResult;
import io.cairn.protocol.OpenScan;
import io.cairn.protocol.PageLimits;
import io.cairn.protocol.Pong;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.ScanNext;
import io.cairn.protocol.ScanPage;
import io.cairn.protocol.ScanSpec;
import io.cairn.protocol.SnapshotOpened;
import io.cairn.protocol.TableBatch;
import io.cairn.protocol.TableDescriptorResult;
import io.cairn.protocol.TableInfo;
import io.cairn.protocol.wire.WireMessages;
import io.cairn.relocated.protobuf.ByteString;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Does the work of each request, on a worker thread: the session's Hello, catalog and DDL through
 * the database's catalog, writes, reads and admin through its KV store. Failures are thrown as
 * {@link CairnException}s, which the connection answers as errors.
 */
final class RequestHandler {
  private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);

  /** The only protocol version this server speaks. */
  static final int PROTOCOL_VERSION = 1;

  /** Room for a page's envelope (ids, counts, the catalog version) within a frame. */
  private static final int ENVELOPE_BYTES = 1024;

  private final ServerContext server;

  RequestHandler(ServerContext server) {
    this.server = requireNonNull(server, "server is null");
  }

  /** The answer to {@code call}'s request, without its id and catalog version. */
  Response.Builder handle(ServerConnection connection, Call call) {
    Request request = call.request();
    Response.Builder answer = Response.newBuilder();
    switch (request.getBodyCase()) {
      case HELLO -> answer.setHelloOk(hello(connection, request.getHello()));
      case PING -> answer.setPong(Pong.getDefaultInstance());
      case GET_CATALOG -> answer.setCatalogData(catalog(database(connection)));
      case CREATE_TABLE ->
          answer.setTableDescriptor(createTable(database(connection), request.getCreateTable()));
      case ALTER_TABLE ->
          answer.setTableDescriptor(alterTable(database(connection), request.getAlterTable()));
      case DROP_TABLE ->
          answer.setTableDescriptor(dropTable(database(connection), request.getDropTable()));
      case CREATE_INDEX, DROP_INDEX, REBUILD_INDEX ->
          answer.setIndexResult(IndexRequests.change(database(connection), connection, call));
      case VERIFY_INDEX ->
          answer.setIndexCheck(
              IndexRequests.verify(database(connection), request.getVerifyIndex()));
      case GET_TABLE -> answer.setTableInfo(tableInfo(database(connection), request.getGetTable()));
      case GET_STATISTICS -> answer.setStatistics(statistics(database(connection), request));
      case GET_CHANGE_SEQUENCE ->
          answer.setChangeSequence(
              io.cairn.protocol.ChangeSequence.newBuilder()
                  .setSequence(
                      table(database(connection), request.getGetChangeSequence().getTable())
                          .lastChangeSequence()));
      case ALLOCATE_IDS ->
          answer.setIdRange(allocateIds(database(connection), request.getAllocateIds()));
      case MUTATE -> answer.setMutateResult(mutate(database(connection), request.getMutate()));
      case GET -> answer.setScanPage(get(connection, call, request.getGet()));
      case OPEN_SCAN -> answer.setScanPage(openScan(connection, call, request.getOpenScan()));
      case SCAN_NEXT -> answer.setScanPage(scanNext(connection, call, request.getScanNext()));
      case CLOSE_SCAN -> {
        connection.closeScanner(request.getCloseScan().getScannerId());
        answer.setDone(Done.getDefaultInstance());
      }
      case OPEN_SNAPSHOT -> {
        ServerSnapshot s = connection.openSnapshot(database(connection));
        answer.setSnapshotOpened(
            SnapshotOpened.newBuilder().setSnapshotId(s.id()).setReadPoint(s.readPoint()));
      }
      case CLOSE_SNAPSHOT -> {
        connection.closeSnapshot(request.getCloseSnapshot().getSnapshotId());
        answer.setDone(Done.getDefaultInstance());
      }
      case ADMIN -> answer.setAdminResult(admin(database(connection), request.getAdmin()));
      case PUT_HASH_CACHE -> {
        connection.hashCaches().put(request.getPutHashCache());
        answer.setDone(Done.getDefaultInstance());
      }
      case REMOVE_HASH_CACHE -> {
        connection.hashCaches().remove(request.getRemoveHashCache().getCacheId());
        answer.setDone(Done.getDefaultInstance());
      }
      default ->
          throw CairnException.internal(
              "Request type [" + request.getBodyCase() + "] reached the worker pool");
    }
    return answer;
  }

  private static ServedDatabase database(ServerConnection connection) {
    ServedDatabase db = connection.database();
    if (db == null) {
      throw new CairnException(
          ErrorCode.AUTHENTICATION_REQUIRED, "Expected a successful Hello first");
    }
    return db;
  }

  // --- session ---------------------------------------------------------------------------------

  private HelloOk hello(ServerConnection connection, Hello hello) {
    if (connection.database() != null) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "Hello was already answered on this connection (session " + connection.sessionId() + ")");
    }
    if (server.shuttingDown()) {
      throw new CairnException(ErrorCode.SERVER_SHUTTING_DOWN, "The server is shutting down");
    }
    if (hello.getProtocolVersion() != PROTOCOL_VERSION) {
      throw new CairnException(
          ErrorCode.PROTOCOL_VERSION_MISMATCH,
          "Protocol version: this server speaks ["
              + PROTOCOL_VERSION
              + "], the client speaks ["
              + hello.getProtocolVersion()
              + "]");
    }
    // the password was checked on the login pool before the Hello reached a worker (Logins)
    Authenticator authenticator = server.authenticator();
    if (authenticator.required() && !connection.authenticated()) {
      throw new CairnException(ErrorCode.AUTHENTICATION_FAILED, Logins.AUTHENTICATION_FAILED);
    }
    // held by the session until its connection closes (ServerConnection.opened); privileges go
    // by the authenticated user only (without authentication the user is just a label)
    ServedDatabase db =
        server
            .databases()
            .acquire(hello.getDatabase(), authenticator.required() ? hello.getUser() : "");
    long session = server.nextSessionId();
    connection.opened(db, session, hello.getUser(), hello.getClientName());
    LOG.debug(
        "Session {} from {}: client [{}], user [{}], database {}",
        session,
        connection.remoteAddress(),
        hello.getClientName(),
        hello.getUser(),
        db.displayName());
    return HelloOk.newBuilder()
        .setProtocolVersion(PROTOCOL_VERSION)
        .setServerVersion(server.serverVersion())
        .setSessionId(session)
        .setMaxFrameBytes(server.config().maxFrameBytes())
        .build();
  }

  // --- catalog ---------------------------------------------------------------------------------

  private static CatalogData catalog(ServedDatabase db) {
    synchronized (db.ddlLock()) {
      CatalogData.Builder b = CatalogData.newBuilder().setVersion(db.version());
      for (TableDescriptor t : db.catalog().tables()) {
        b.addTables(descriptorBytes(t));
      }
      return b.build();
    }
  }

  static ByteString descriptorBytes(TableDescriptor t) {
    return ByteString.copyFrom(DescriptorSerializer.serialize(t));
  }

  private static TableDescriptorResult createTable(ServedDatabase db, CreateTable create) {
    TableDescriptor draft;
    try {
      draft = DescriptorSerializer.deserialize(create.getDraft().toByteArray());
      draft.layout();
    } catch (RuntimeException e) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR, "CreateTable: the draft is not a table descriptor: " + e, e);
    }
    TableOptions.validate(draft.options());
    List<Bytes> splitPoints = new ArrayList<>(create.getSplitPointsCount());
    for (ByteString point : create.getSplitPointsList()) {
      splitPoints.add(WireMessages.bytes(point));
    }
    synchronized (db.ddlLock()) {
      Optional<TableDescriptor> created =
          db.catalog().createTable(draft, create.getIfNotExists(), splitPoints);
      TableDescriptorResult.Builder b = TableDescriptorResult.newBuilder();
      if (created.isPresent()) {
        b.setTable(descriptorBytes(created.get()));
        catalogChanged(db);
      }
      return b.build();
    }
  }

  private static TableDescriptorResult alterTable(ServedDatabase db, AlterTable alter) {
    synchronized (db.ddlLock()) {
      TableDescriptor altered =
          db.catalog()
              .alterTableOptions(schema(alter.getSchema()), alter.getName(), alter.getOptionsMap());
      catalogChanged(db);
      return TableDescriptorResult.newBuilder().setTable(descriptorBytes(altered)).build();
    }
  }

  private static TableDescriptorResult dropTable(ServedDatabase db, DropTable drop) {
    synchronized (db.ddlLock()) {
      boolean dropped =
          db.catalog().dropTable(schema(drop.getSchema()), drop.getName(), drop.getIfExists());
      if (dropped) {
        catalogChanged(db);
      }
      return TableDescriptorResult.newBuilder().setDropped(dropped).build();
    }
  }

  static String schema(String schema) {
    return schema.isEmpty() ? Catalog.DEFAULT_SCHEMA : schema;
  }

  /** Tells every connection of {@code db} its catalog's new version (under the DDL lock). */
  static void catalogChanged(ServedDatabase db) {
    Event event = Event.newBuilder().setCatalogChanged(db.version()).build();
    for (ServerConnection c : db.connections()) {
      c.pushEvent(event);
    }
  }

  // --- tables ----------------------------------------------------------------------------------

  private static KvTable table(ServedDatabase db, String name) {
    return db.store()
        .table(name)
        .orElseThrow(
            () ->
                new CairnException(
                    ErrorCode.TABLE_NOT_FOUND,
                    "KV table [" + name + "] does not exist in database " + db.displayName()));
  }

  /** GetStatistics: the table's, or one of its local indexes' (none: a message without chunks). */
  private static io.cairn.protocol.TableStatistics statistics(ServedDatabase db, Request request) {
    io.cairn.protocol.GetStatistics get = request.getGetStatistics();
    KvTable table = table(db, get.getTable());
    return get.getIndex()
        ? WireMessages.toProto(table.indexStatistics(get.getIndexId()))
        : WireMessages.toProto(table.statistics());
  }

  private static TableInfo tableInfo(ServedDatabase db, GetTable get) {
    Optional<KvTable> table = db.store().table(get.getTable());
    TableInfo.Builder b = TableInfo.newBuilder().setTable(get.getTable());
    if (table.isEmpty()) {
      return b.setExists(false).setApproximateRowCount(-1).build();
    }
    KvTable t = table.get();
    b.setExists(true).putAllOptions(t.options()).setApproximateRowCount(t.approximateRowCount());
    for (RegionInfo region : t.regions()) {
      b.addRegions(WireMessages.toProto(region));
    }
    return b.build();
  }

  private static IdRange allocateIds(ServedDatabase db, AllocateIds allocate) {
    if (allocate.getCount() < 1) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "AllocateIds: expected a count >= 1, found [" + allocate.getCount() + "]");
    }
    long first = table(db, allocate.getTable()).allocateIds(allocate.getCount());
    return IdRange.newBuilder().setFirst(first).build();
  }

  private static AdminResult admin(ServedDatabase db, Admin admin) {
    KvTable table = table(db, admin.getTable());
    switch (admin.getActionCase()) {
      case FLUSH -> table.flush();
      case COMPACT -> table.compact(admin.getCompact().getMajor());
      case SPLIT -> table.split();
      case UPDATE_STATISTICS -> {
        return AdminResult.newBuilder()
            .setStatistics(WireMessages.toProto(table.updateStatistics()))
            .build();
      }
      default ->
          throw new CairnException(
              ErrorCode.PROTOCOL_ERROR,
              "Admin of [" + admin.getTable() + "] names no action this server knows");
    }
    return AdminResult.getDefaultInstance();
  }

  // --- writes ----------------------------------------------------------------------------------

  private static MutateResult mutate(ServedDatabase db, Mutate mutate) {
    List<KvStore.TableBatch> batches = new ArrayList<>(mutate.getBatchesCount());
    for (TableBatch batch : mutate.getBatchesList()) {
      String name = batch.getTable();
      if (name.equals(Catalog.CATALOG_TABLE) || name.startsWith("SYSTEM.")) {
        throw new CairnException(
            ErrorCode.NOT_SUPPORTED,
            "KV table [" + name + "] is written only by the server (DDL), not by Mutate");
      }
      List<Mutation> mutations = WireMessages.fromProto(batch.getMutationsList());
      batches.add(new KvStore.TableBatch(table(db, name), mutations));
    }
    if (!batches.isEmpty()) {
      db.store().mutate(batches, WireMessages.fromProto(mutate.getDurability()));
    }
    return MutateResult.getDefaultInstance();
  }

  // --- reads -----------------------------------------------------------------------------------

  private ScanPage get(ServerConnection connection, Call call, Get get) {
    ServedDatabase db = database(connection);
    ScanSpec spec = get.getScan();
    // the scan's state counts in the connection's budget (and its database's and the server's)
    ScanRequest request =
        WireMessages.fromProto(spec)
            .withMemory(connection.queryMemory())
            .withHashCaches(connection.hashCaches()::table);
    int columns = ServerScanner.columnCount(request.program());
    int limit = server.config().maxFrameBytes() - ENVELOPE_BYTES;
    try (RowScanner rows = table(db, spec.getTable()).scan(request)) {
      call.reading(rows);
      ServerScanner.Page page =
          ServerScanner.readPage(rows, columns, Integer.MAX_VALUE, limit + 1L, false, 0);
      if (!page.done()) {
        throw new CairnException(
            ErrorCode.FRAME_TOO_LARGE,
            "Get of ["
                + spec.getTable()
                + "]: the result takes more than the maximum frame size ["
                + server.config().maxFrameBytes()
                + "] bytes; read it with OpenScan");
      }
      return page(0, columns, page);
    } finally {
      call.reading(null);
    }
  }

  private ScanPage openScan(ServerConnection connection, Call call, OpenScan open) {
    ServedDatabase db = database(connection);
    ScanSpec spec = open.getScan();
    // the scan's state counts in the connection's budget (and its database's and the server's)
    ScanRequest request =
        WireMessages.fromProto(spec)
            .withMemory(connection.queryMemory())
            .withHashCaches(connection.hashCaches()::table);
    int columns = ServerScanner.columnCount(request.program());
    RowScanner rows = table(db, spec.getTable()).scan(request);
    ServerScanner.Page page;
    try {
      call.reading(rows);
      page = readPage(rows, columns, call, open.getLimits());
    } catch (RuntimeException e) {
      rows.close();
      throw e;
    } finally {
      call.reading(null);
    }
    if (call.cancelled()) {
      rows.close();
      throw cancelled(call);
    }
    if (page.done()) {
      rows.close();
      return page(0, columns, page);
    }
    ServerScanner scanner = connection.registerScanner(rows, columns);
    return page(scanner.id(), columns, page);
  }

  private ScanPage scanNext(ServerConnection connection, Call call, ScanNext next) {
    long id = next.getScannerId();
    ServerScanner scanner = connection.scanner(id);
    if (scanner == null) {
      throw unknownScanner(id);
    }
    scanner.lock().lock();
    try {
      if (scanner.isClosed()) {
        throw unknownScanner(id);
      }
      scanner.touch();
      ServerScanner.Page page;
      try {
        call.reading(scanner.rows());
        page = readPage(scanner.rows(), scanner.columnCount(), call, next.getLimits());
      } catch (RuntimeException e) {
        connection.closeScanner(id);
        if (!call.cancelled()
            && e instanceof CairnException c
            && c.errorCode() == ErrorCode.OBJECT_CLOSED) {
          throw new CairnException(
              ErrorCode.QUERY_CANCELED,
              "Scanner [" + id + "] was closed while it read a page (CloseScan or a cancel)");
        }
        throw e;
      } finally {
        call.reading(null);
      }
      if (call.cancelled()) {
        connection.closeScanner(id);
        throw cancelled(call);
      }
      scanner.touch();
      if (page.done()) {
        connection.closeScanner(id);
      }
      return page(id, scanner.columnCount(), page);
    } finally {
      scanner.lock().unlock();
    }
  }

  private static CairnException unknownScanner(long id) {
    return new CairnException(
        ErrorCode.UNKNOWN_SCANNER,
        "Scanner ["
            + id
            + "] is not open on this connection (closed, done, expired after "
            + ServerConfig.SCANNER_IDLE_TIMEOUT
            + ", or never opened)");
  }

  private static CairnException cancelled(Call call) {
    return new CairnException(
        ErrorCode.QUERY_CANCELED, "Request [" + call.id() + "] was cancelled");
  }

  /** A page within the request's limits, or the server's defaults where it gives none. */
  private ServerScanner.Page readPage(RowScanner rows, int columns, Call call, PageLimits limits) {
    ServerConfig config = server.config();
    int maxRows = limits.getMaxRows() > 0 ? limits.getMaxRows() : config.pageMaxRows();
    int maxBytes =
        limits.getMaxBytes() > 0
            ? Math.min(limits.getMaxBytes(), config.maxFrameBytes() / 2)
            : config.pageMaxBytes();
    int maxMillis = limits.getMaxMillis() > 0 ? limits.getMaxMillis() : config.pageMaxMillis();
    long deadline = call.startNanos() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
    return ServerScanner.readPage(rows, columns, maxRows, maxBytes, true, deadline);
  }

  private static ScanPage page(long scannerId, int columns, ServerScanner.Page page) {
    return ScanPage.newBuilder()
        .setScannerId(scannerId)
        .setRowCount(page.rowCount())
        .setColumnCount(columns)
        .setRows(page.rows())
        .setDone(page.done())
        .build();
  }
}
