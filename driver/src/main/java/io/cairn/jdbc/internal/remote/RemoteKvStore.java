package io.cairn.jdbc.internal.remote;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.wire.WireMessages;
import io.cairn.kv.Durability;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.TableSpec;
import io.cairn.protocol.Mutate;
import io.cairn.protocol.Request;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The KV SPI over the network: the store of a Cairn server, reached through an {@link
 * RpcConnection}. Tables are handles that cost nothing to make: {@link #table} does not ask the
 * server, and a table that does not exist fails on first use with the server's TABLE_NOT_FOUND (the
 * SQL layer only names tables its catalog lists). Tables are created and dropped through the
 * catalog (CREATE/DROP TABLE); raw KV tables cannot be, over the network.
 */
final class RemoteKvStore implements KvStore {
  private final RpcConnection connection;
  private final Map<String, RemoteKvTable> tables = new ConcurrentHashMap<>();

  RemoteKvStore(RpcConnection connection) {
    this.connection = requireNonNull(connection, "connection is null");
  }

  RpcConnection connection() {
    return connection;
  }

  @Override
  public KvTable createTable(String name, TableSpec spec) {
    throw new CairnException(
        ErrorCode.NOT_SUPPORTED,
        "KV table ["
            + name
            + "] cannot be created over the network: the server creates KV tables for CREATE"
            + " TABLE");
  }

  @Override
  public io.cairn.kv.KvSnapshot openSnapshot() {
    // TODO(issue 14): OpenSnapshot over the wire; until then reads at the latest read point
    throw new io.cairn.core.error.CairnException(
        io.cairn.core.error.ErrorCode.NOT_SUPPORTED, "Snapshots over the network: not yet");
  }

  @Override
  public Optional<KvTable> table(String name) {
    return Optional.of(handle(name));
  }

  RemoteKvTable handle(String name) {
    return tables.computeIfAbsent(name, n -> new RemoteKvTable(this, n));
  }

  /** Applies every table's batch atomically on the server: one Mutate, one sequence id. */
  @Override
  public void mutate(List<TableBatch> batches, Durability durability) {
    if (batches.isEmpty()) {
      return;
    }
    Mutate.Builder mutate = Mutate.newBuilder().setDurability(WireMessages.toProto(durability));
    int rows = 0;
    for (TableBatch b : batches) {
      mutate.addBatches(WireMessages.toProto(b.table().name(), b.mutations()));
      rows += b.mutations().size();
    }
    connection.callAndWait(
        Request.newBuilder().setMutate(mutate),
        "Mutate of " + rows + " rows in " + batches.size() + " tables");
  }

  @Override
  public void dropTable(String name) {
    throw new CairnException(
        ErrorCode.NOT_SUPPORTED,
        "KV table ["
            + name
            + "] cannot be dropped over the network: the server drops KV tables for DROP TABLE");
  }

  /** Nothing to close: the network connection belongs to the {@link RemoteDatabase}. */
  @Override
  public void close() {}
}
