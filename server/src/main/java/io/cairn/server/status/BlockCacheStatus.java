package io.cairn.server.status;

import static java.util.Objects.requireNonNull;

import io.cairn.store.cache.BlockCacheStats;
import io.cairn.store.cache.BufferPoolStats;
import java.util.List;

/**
 * The block cache's levels (as SYSTEM.BLOCK_CACHE shows them) and the buffers that reads from disk
 * use (SYSTEM.BUFFER_POOL). An in-memory store reads no files: no levels, and a pool of zeros.
 *
 * @param bufferSize the size of one pooled read buffer; 0 in memory
 */
public record BlockCacheStatus(
    List<BlockCacheStats> levels, BufferPoolStats bufferPool, int bufferSize) {
  static final BufferPoolStats NO_POOL = new BufferPoolStats(0, 0, 0, 0, 0, 0);

  public BlockCacheStatus {
    levels = List.copyOf(levels);
    requireNonNull(bufferPool, "bufferPool is null");
  }
}
