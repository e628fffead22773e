package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.kv.KvSnapshot;

/**
 * A snapshot a connection opened (OpenSnapshot): it holds the store's {@link KvSnapshot} until
 * CloseSnapshot, the connection's close, or the store's maximum snapshot age (the store releases
 * its read point then; the connection forgets it at its next sweep).
 *
 * @param id what CloseSnapshot names, unique within the connection
 * @param openedNanos {@link System#nanoTime()} when it was opened
 */
record ServerSnapshot(long id, KvSnapshot snapshot, long openedNanos) {
  ServerSnapshot {
    requireNonNull(snapshot, "snapshot is null");
  }

  long readPoint() {
    return snapshot.readPoint();
  }

  /** Whether it is at least {@code maxAgeNanos} old at {@code nowNanos}. */
  boolean expired(long nowNanos, long maxAgeNanos) {
    return nowNanos - openedNanos >= maxAgeNanos;
  }

  /** Releases the store's read point (idempotent). */
  void close() {
    snapshot.close();
  }
}
