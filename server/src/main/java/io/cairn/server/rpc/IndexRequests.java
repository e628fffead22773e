package io.cairn.server.rpc;

import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.IndexCheck;
import io.cairn.protocol.CreateIndex;
import io.cairn.protocol.DropIndex;
import io.cairn.protocol.Event;
import io.cairn.protocol.IndexCheckResult;
import io.cairn.protocol.IndexProgress;
import io.cairn.protocol.IndexResult;
import io.cairn.protocol.RebuildIndex;
import io.cairn.protocol.Request;
import io.cairn.protocol.VerifyIndex;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * The local-index requests (CreateIndex, DropIndex, RebuildIndex, VerifyIndex) through the
 * database's catalog, which builds indexes on this server. They run without the database's DDL
 * lock: a build takes a while, and other DDL and queries go on meanwhile (the catalog serialises
 * its own changes). Afterwards, under the DDL lock, the connections hear of the new catalog version
 * if it moved (also when the build failed: the index is then recorded FAILED).
 *
 * <p>A CreateIndex or RebuildIndex that asks for progress ({@code report_progress}) gets {@link
 * IndexProgress} events on its connection while the build runs, at most one per its interval; the
 * answer carries the rows indexed either way.
 */
final class IndexRequests {
  private IndexRequests() {}

  /**
   * CreateIndex, DropIndex or RebuildIndex of {@code call} on {@code connection}: the index's table
   * after the change.
   */
  static IndexResult change(ServedDatabase db, ServerConnection connection, Call call) {
    Request request = call.request();
    long before = db.catalog().version();
    try {
      return switch (request.getBodyCase()) {
        case CREATE_INDEX -> {
          CreateIndex create = request.getCreateIndex();
          yield create(
              db,
              create,
              progress(
                  connection,
                  call.id(),
                  create.getReportProgress(),
                  create.getProgressIntervalMillis()));
        }
        case DROP_INDEX -> drop(db, request.getDropIndex());
        case REBUILD_INDEX -> {
          RebuildIndex rebuild = request.getRebuildIndex();
          yield rebuild(
              db,
              rebuild,
              progress(
                  connection,
                  call.id(),
                  rebuild.getReportProgress(),
                  rebuild.getProgressIntervalMillis()));
        }
        default ->
            throw CairnException.internal("Not an index change: [" + request.getBodyCase() + "]");
      };
    } finally {
      synchronized (db.ddlLock()) {
        if (db.catalog().version() != before) {
          RequestHandler.catalogChanged(db);
        }
      }
    }
  }

  /**
   * What a build reports its rows indexed so far to (from any of its threads): the most reported,
   * and when the client asked, an event to the client at most every {@code intervalMillis}.
   */
  static BuildProgress progress(
      ServerConnection connection, long request, boolean report, long intervalMillis) {
    return new BuildProgress(
        report ? rows -> connection.pushEvent(progressEvent(request, rows)) : null,
        TimeUnit.MILLISECONDS.toNanos(intervalMillis));
  }

  static Event progressEvent(long request, long rows) {
    return Event.newBuilder()
        .setIndexProgress(IndexProgress.newBuilder().setRequest(request).setRowsIndexed(rows))
        .build();
  }

  /**
   * The rows a build indexed so far (the most any of its threads reported), passed on to {@code
   * sink} (when not null) at most once per {@code intervalNanos}.
   */
  static final class BuildProgress implements LongConsumer {
    private final LongConsumer sink;
    private final long intervalNanos;
    private final AtomicLong rows = new AtomicLong();
    private final AtomicLong lastSent;

    BuildProgress(LongConsumer sink, long intervalNanos) {
      this.sink = sink;
      this.intervalNanos = Math.max(0, intervalNanos);
      this.lastSent = new AtomicLong(System.nanoTime());
    }

    @Override
    public void accept(long indexed) {
      long most = rows.accumulateAndGet(indexed, Math::max);
      if (sink == null) {
        return;
      }
      long now = System.nanoTime();
      long last = lastSent.get();
      // one thread of the build wins each interval; the others skip
      if (now - last >= intervalNanos && lastSent.compareAndSet(last, now)) {
        sink.accept(most);
      }
    }

    long rows() {
      return rows.get();
    }
  }

  private static IndexResult create(ServedDatabase db, CreateIndex create, BuildProgress progress) {
    IndexDescriptor draft;
    try {
      draft = DescriptorSerializer.deserializeIndex(create.getDraft().toByteArray());
    } catch (RuntimeException e) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR, "CreateIndex: the draft is not an index: " + e, e);
    }
    String schema = RequestHandler.schema(create.getSchema());
    Optional<IndexDescriptor> created =
        db.catalog()
            .createIndex(schema, create.getTable(), draft, create.getIfNotExists(), progress);
    return created.isEmpty()
        ? IndexResult.getDefaultInstance()
        : result(db, schema, create.getTable(), created.get().name())
            .setRowsIndexed(progress.rows())
            .build();
  }

  private static IndexResult drop(ServedDatabase db, DropIndex drop) {
    String schema = RequestHandler.schema(drop.getSchema());
    String table = drop.getTable().isEmpty() ? null : drop.getTable();
    // the table the index is on, found before it goes (DROP INDEX may not name it)
    Optional<TableDescriptor> owner =
        db.catalog().tables().stream()
            .filter(t -> t.schemaName().equals(schema) && t.index(drop.getName()).isPresent())
            .findFirst();
    if (!db.catalog().dropIndex(schema, drop.getName(), table, drop.getIfExists())) {
      return IndexResult.getDefaultInstance();
    }
    String tableName = table != null ? table : owner.map(TableDescriptor::tableName).orElseThrow();
    return result(db, schema, tableName, drop.getName()).build();
  }

  private static IndexResult rebuild(
      ServedDatabase db, RebuildIndex rebuild, BuildProgress progress) {
    String schema = RequestHandler.schema(rebuild.getSchema());
    IndexDescriptor rebuilt =
        db.catalog().rebuildIndex(schema, rebuild.getTable(), rebuild.getName(), progress);
    return result(db, schema, rebuild.getTable(), rebuilt.name())
        .setRowsIndexed(progress.rows())
        .build();
  }

  private static IndexResult.Builder result(
      ServedDatabase db, String schema, String table, String index) {
    TableDescriptor t =
        db.catalog()
            .table(schema, table)
            .orElseThrow(
                () ->
                    new CairnException(
                        ErrorCode.TABLE_NOT_FOUND,
                        "Table ["
                            + schema
                            + "."
                            + table
                            + "] was dropped while index ["
                            + index
                            + "] changed"));
    return IndexResult.newBuilder().setTable(RequestHandler.descriptorBytes(t)).setIndex(index);
  }

  /** VerifyIndex: what comparing the index with its table found. */
  static IndexCheckResult verify(ServedDatabase db, VerifyIndex verify) {
    IndexCheck check =
        db.catalog()
            .verifyIndex(
                RequestHandler.schema(verify.getSchema()), verify.getTable(), verify.getName());
    return IndexCheckResult.newBuilder()
        .setRows(check.rows())
        .setEntries(check.entries())
        .setMissing(check.missing())
        .setExtra(check.extra())
        .addAllSamples(check.samples())
        .build();
  }
}
