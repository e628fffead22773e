package io.cairn.server.rpc;

import io.cairn.core.catalog.DescriptorSerializer;
import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.IndexCheck;
import io.cairn.protocol.CreateIndex;
import io.cairn.protocol.DropIndex;
import io.cairn.protocol.IndexCheckResult;
import io.cairn.protocol.IndexResult;
import io.cairn.protocol.RebuildIndex;
import io.cairn.protocol.Request;
import io.cairn.protocol.VerifyIndex;
import java.util.Optional;

/**
 * The local-index requests (CreateIndex, DropIndex, RebuildIndex, VerifyIndex) through the
 * database's catalog, which builds indexes on this server. They run without the database's DDL
 * lock: a build takes a while, and other DDL and queries go on meanwhile (the catalog serialises
 * its own changes). Afterwards, under the DDL lock, the connections hear of the new catalog version
 * if it moved (also when the build failed: the index is then recorded FAILED).
 */
final class IndexRequests {
  private IndexRequests() {}

  /** CreateIndex, DropIndex or RebuildIndex: the index's table after the change. */
  static IndexResult change(ServedDatabase db, Request request) {
    long before = db.catalog().version();
    try {
      return switch (request.getBodyCase()) {
        case CREATE_INDEX -> create(db, request.getCreateIndex());
        case DROP_INDEX -> drop(db, request.getDropIndex());
        case REBUILD_INDEX -> rebuild(db, request.getRebuildIndex());
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

  private static IndexResult create(ServedDatabase db, CreateIndex create) {
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
            .createIndex(schema, create.getTable(), draft, create.getIfNotExists(), rows -> {});
    return created.isEmpty()
        ? IndexResult.getDefaultInstance()
        : result(db, schema, create.getTable(), created.get().name());
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
    return result(db, schema, tableName, drop.getName());
  }

  private static IndexResult rebuild(ServedDatabase db, RebuildIndex rebuild) {
    String schema = RequestHandler.schema(rebuild.getSchema());
    IndexDescriptor rebuilt =
        db.catalog().rebuildIndex(schema, rebuild.getTable(), rebuild.getName(), rows -> {});
    return result(db, schema, rebuild.getTable(), rebuilt.name());
  }

  private static IndexResult result(ServedDatabase db, String schema, String table, String index) {
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
    return IndexResult.newBuilder()
        .setTable(RequestHandler.descriptorBytes(t))
        .setIndex(index)
        .build();
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
