package io.cairn.jdbc.internal.remote;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import io.cairn.kv.KvSnapshot;
import io.cairn.kv.KvStore;
import io.cairn.kv.KvTable;
import io.cairn.kv.TableSpec;
import io.cairn.protocol.CloseSnapshot;
import io.cairn.protocol.Mutate;
import io.cairn.protocol.OpenSnapshot;
import io.cairn.protocol.Request;
import io.cairn.protocol.Response;
import io.cairn.protocol.SnapshotOpened;
import io.cairn.protocol.wire.WireMessages;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

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

  /**
   * One round trip (OpenSnapshot): the server pins its current read point for this network
   * connection until the snapshot is closed, the connection breaks, or the server's store reaches
   * its maximum snapshot age.
   */
  @Override
  public KvSnapshot openSnapshot() {
    RpcChannel channel = connection.awaitChannel();
    Duration timeout = connection.config().requestTimeout();
    Response response =
        Rpc.await(
            channel
                .send(
                    Request.newBuilder().setOpenSnapshot(OpenSnapshot.getDefaultInstance()),
                    "OpenSnapshot",
                    timeout)
                .future());
    if (!response.hasSnapshotOpened()) {
      throw RemoteCatalog.unexpected("OpenSnapshot", "SnapshotOpened", response);
    }
    SnapshotOpened opened = response.getSnapshotOpened();
    if (opened.getReadPoint() < 0) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "OpenSnapshot: expected a read point below 2^63 from the Cairn server at "
              + connection.server()
              + ", found ["
              + Long.toUnsignedString(opened.getReadPoint())
              + "]");
    }
    return new RemoteSnapshot(channel, opened.getSnapshotId(), opened.getReadPoint(), timeout);
  }

  /**
   * A snapshot held by the server for the network connection that opened it. Closing sends
   * CloseSnapshot on that connection without waiting for the answer (a failure is only logged: a
   * broken connection released the snapshot already); a snapshot is closed once.
   */
  private static final class RemoteSnapshot implements KvSnapshot {
    private final RpcChannel channel;
    private final long id;
    private final long readPoint;
    private final Duration timeout;
    private final AtomicBoolean closed = new AtomicBoolean();

    RemoteSnapshot(RpcChannel channel, long id, long readPoint, Duration timeout) {
      this.channel = channel;
      this.id = id;
      this.readPoint = readPoint;
      this.timeout = timeout;
    }

    @Override
    public long readPoint() {
      return readPoint;
    }

    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        channel.sendAndForget(
            Request.newBuilder().setCloseSnapshot(CloseSnapshot.newBuilder().setSnapshotId(id)),
            "CloseSnapshot of read point " + readPoint,
            timeout);
      }
    }

    @Override
    public String toString() {
      return "snapshot " + id + " at read point " + readPoint + " on " + channel.server();
    }
  }

  @Override
  public boolean copiesHashCaches() {
    return true;
  }

  /**
   * One round trip (PutHashCache) on the connection the scans use: the server decodes the rows into
   * its own hash table for this network connection.
   */
  @Override
  public void putHashCache(String cacheId, io.cairn.kv.JoinHashTable table) {
    RpcChannel channel = connection.awaitChannel();
    Response response =
        Rpc.await(
            channel
                .send(
                    Request.newBuilder()
                        .setPutHashCache(
                            io.cairn.protocol.wire.WireHashTables.toProto(cacheId, table)),
                    "PutHashCache",
                    connection.config().requestTimeout())
                .future());
    if (!response.hasDone()) {
      throw RemoteCatalog.unexpected("PutHashCache", "Done", response);
    }
  }

  /** The generation of the network connection: a reconnect's server holds none of the caches. */
  @Override
  public long hashCacheGeneration() {
    return connection.awaitChannel().generation();
  }

  /** RemoveHashCache without waiting (a broken connection dropped its caches already). */
  @Override
  public void removeHashCache(String cacheId) {
    connection
        .awaitChannel()
        .sendAndForget(
            Request.newBuilder()
                .setRemoveHashCache(
                    io.cairn.protocol.RemoveHashCache.newBuilder()
                        .setCacheId(io.cairn.relocated.protobuf.ByteString.copyFromUtf8(cacheId))),
            "RemoveHashCache",
            connection.config().requestTimeout());
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
