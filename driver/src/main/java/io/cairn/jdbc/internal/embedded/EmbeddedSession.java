package io.cairn.jdbc.internal.embedded;

import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.jdbc.internal.engine.PreparedCommand;
import io.cairn.jdbc.internal.engine.Session;
import io.cairn.kv.Durability;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.planner.PlannedStatement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A session on an embedded database. In autocommit mode every DML statement is applied atomically
 * when it finishes; otherwise its writes are buffered until {@link #commit()}, which applies the
 * writes to all tables atomically. Queries read committed data only. DDL is applied at once, as in
 * Phoenix. Writes are as durable as the connection's {@code durability} property asks (null: each
 * table's DURABILITY option). Closing the session gives its connection back to the database (the
 * last one closes a file database).
 */
final class EmbeddedSession implements Session {
  private final EmbeddedDatabase database;
  private final Durability durability;
  private final Map<String, PendingWrites> pending = new LinkedHashMap<>();
  private boolean autoCommit = true;
  private boolean closed;

  /** Buffered writes of one table. */
  record PendingWrites(TableDescriptor table, List<Mutation> mutations) {}

  /**
   * A session holding one connection of {@code database} (acquired by the caller), released by
   * {@link #close()}.
   */
  EmbeddedSession(EmbeddedDatabase database, Durability durability) {
    this.database = database;
    this.durability = durability;
  }

  /** The durability of this session's writes; null: each table's default. */
  Durability durability() {
    return durability;
  }

  EmbeddedDatabase database() {
    return database;
  }

  private void checkOpen() {
    if (closed) {
      throw new CairnException(ErrorCode.CONNECTION_CLOSED, "Session is closed");
    }
  }

  @Override
  public PreparedCommand prepare(String sql) {
    checkOpen();
    PlannedStatement planned = database.planner().plan(sql);
    return new EmbeddedCommand(this, planned.plan(), planned.warnings());
  }

  @Override
  public boolean autoCommit() {
    return autoCommit;
  }

  @Override
  public void setAutoCommit(boolean autoCommit) {
    checkOpen();
    if (autoCommit && !this.autoCommit) {
      commit();
    }
    this.autoCommit = autoCommit;
  }

  /** Applies {@code batch} now (autocommit) or buffers it (transaction). */
  void write(TableDescriptor table, KvTable kv, List<Mutation> batch) {
    if (batch.isEmpty()) {
      return;
    }
    if (autoCommit) {
      Mutations.apply(table, kv, batch, durability);
    } else {
      pending
          .computeIfAbsent(table.kvTableName(), k -> new PendingWrites(table, new ArrayList<>()))
          .mutations()
          .addAll(batch);
    }
  }

  @Override
  public void commit() {
    checkOpen();
    List<PendingWrites> writes = new ArrayList<>(pending.values());
    pending.clear();
    List<TableDescriptor> tables = new ArrayList<>(writes.size());
    List<KvStore.TableBatch> batches = new ArrayList<>(writes.size());
    for (PendingWrites w : writes) {
      KvTable kv =
          database
              .store()
              .table(w.table().kvTableName())
              .orElseThrow(
                  () ->
                      new CairnException(
                          ErrorCode.TABLE_NOT_FOUND,
                          "Cannot commit: table [" + w.table().qualifiedName() + "] was dropped"));
      tables.add(w.table());
      batches.add(new KvStore.TableBatch(kv, w.mutations()));
    }
    Mutations.apply(database.store(), tables, batches, durability);
  }

  @Override
  public void rollback() {
    checkOpen();
    pending.clear();
  }

  @Override
  public List<TableDescriptor> tables() {
    checkOpen();
    return database.catalog().tables();
  }

  @Override
  public String storeName() {
    return database.name();
  }

  @Override
  public void close() {
    if (!closed) {
      pending.clear();
      closed = true;
      database.release();
    }
  }
}
