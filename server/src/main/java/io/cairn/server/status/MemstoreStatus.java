package io.cairn.server.status;

/**
 * The store's memstores together.
 *
 * @param bytes bytes in all memstores, as the store accounts them against the global limit
 * @param globalLimitBytes {@code cairn.memstore.global-size}: past it the largest is flushed
 * @param flushSizeBytes {@code cairn.memstore.flush-size}: a region's memstore is flushed past it
 */
public record MemstoreStatus(long bytes, long globalLimitBytes, long flushSizeBytes) {}
