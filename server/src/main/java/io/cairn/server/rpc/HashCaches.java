package io.cairn.server.rpc;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.JoinHashTable;
import io.cairn.protocol.PutHashCache;
import io.cairn.protocol.wire.WireHashTables;
import io.cairn.relocated.protobuf.ByteString;
import java.util.HashMap;
import java.util.Map;

/**
 * One connection's broadcast hash caches (the build sides of hash joins), decoded once from the
 * rows the client sent into a {@link JoinHashTable} that the connection's scans probe ({@link
 * #table}), and counted against the server's {@link HashCacheMemory} (the larger of the bytes sent
 * and the table's estimated size). Removed by the client when its statement ends, and all of them
 * when the connection closes. Thread-safe.
 */
final class HashCaches {
  /** A cache: its hash table, decoded from {@code wireBytes} bytes of rows. */
  record Entry(JoinHashTable table, long wireBytes) {
    long sizeBytes() {
      return Math.max(wireBytes, table.estimatedBytes());
    }
  }

  private final HashCacheMemory memory;
  private final Map<ByteString, Entry> caches = new HashMap<>();
  private boolean closed;

  HashCaches(HashCacheMemory memory) {
    this.memory = memory;
  }

  /**
   * Keeps (or replaces) the cache {@code put.cache_id}.
   *
   * @throws CairnException HASH_CACHE_TOO_LARGE beyond the server's limit, PROTOCOL_ERROR for a
   *     malformed message, CONNECTION_CLOSED after {@link #close()}
   */
  void put(PutHashCache put) {
    if (put.getCacheId().isEmpty() || put.getRowCount() < 0 || put.getColumnCount() < 0) {
      throw new CairnException(
          ErrorCode.PROTOCOL_ERROR,
          "PutHashCache: expected a cache id and row and column counts >= 0, found id of ["
              + put.getCacheId().size()
              + "] bytes, ["
              + put.getRowCount()
              + "] rows, ["
              + put.getColumnCount()
              + "] columns");
    }
    Entry entry = new Entry(WireHashTables.fromProto(put), WireHashTables.rowsBytes(put));
    memory.reserve(entry.sizeBytes());
    Entry old;
    synchronized (this) {
      if (closed) {
        memory.release(entry.sizeBytes());
        throw new CairnException(ErrorCode.CONNECTION_CLOSED, "The connection is closed");
      }
      old = caches.put(put.getCacheId(), entry);
    }
    if (old != null) {
      memory.release(old.sizeBytes());
    }
  }

  /** Drops the cache; true when it was there. */
  boolean remove(ByteString cacheId) {
    Entry old;
    synchronized (this) {
      old = caches.remove(cacheId);
    }
    if (old == null) {
      return false;
    }
    memory.release(old.sizeBytes());
    return true;
  }

  synchronized Entry peek(ByteString cacheId) {
    return caches.get(cacheId);
  }

  /** The table of cache {@code cacheId} (UTF-8 bytes on the wire), or null. */
  synchronized JoinHashTable table(String cacheId) {
    Entry e = caches.get(ByteString.copyFromUtf8(cacheId));
    return e == null ? null : e.table();
  }

  synchronized int size() {
    return caches.size();
  }

  /** Drops every cache; later puts fail. */
  void close() {
    long bytes = 0;
    synchronized (this) {
      closed = true;
      for (Entry e : caches.values()) {
        bytes += e.sizeBytes();
      }
      caches.clear();
    }
    memory.release(bytes);
  }
}
