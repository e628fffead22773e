package io.cairn.server.rpc;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryPool;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server-wide budget of broadcast hash caches: every connection's {@link HashCaches} reserve
 * their bytes here and give them back when a cache is replaced, removed or its connection closes.
 * The bytes count in the server's query memory too (the pool given, if any), so that hash caches
 * and the scans' state together stay within {@value ServerConfig#QUERY_MEMORY_MAX_BYTES}.
 * Thread-safe.
 */
final class HashCacheMemory {
  private final long limit;
  private final MemoryPool server;
  private final AtomicLong used = new AtomicLong();

  /** A budget of {@code limit} bytes, on its own. */
  HashCacheMemory(long limit) {
    this(limit, null);
  }

  /** A budget of {@code limit} bytes whose bytes also count in {@code server} (null: none). */
  HashCacheMemory(long limit, MemoryPool server) {
    this.limit = limit;
    this.server = server;
  }

  /**
   * Takes {@code bytes} from the budget.
   *
   * @throws CairnException HASH_CACHE_TOO_LARGE naming the limit when they do not fit, or
   *     MEMORY_LIMIT_EXCEEDED when the server's query memory is full
   */
  void reserve(long bytes) {
    reserveHere(bytes);
    if (server != null) {
      try {
        server.reserve(bytes, "a broadcast hash cache");
      } catch (RuntimeException e) {
        used.addAndGet(-bytes);
        throw e;
      }
    }
  }

  private void reserveHere(long bytes) {
    while (true) {
      long now = used.get();
      if (bytes > limit - now) {
        throw new CairnException(
            ErrorCode.HASH_CACHE_TOO_LARGE,
            "Hash cache of ["
                + bytes
                + "] bytes does not fit: ["
                + now
                + "] of the server's limit ["
                + limit
                + "] bytes are in use ("
                + ServerConfig.HASH_CACHE_MAX_BYTES
                + ")");
      }
      if (used.compareAndSet(now, now + bytes)) {
        return;
      }
    }
  }

  void release(long bytes) {
    used.addAndGet(-bytes);
    if (server != null) {
      server.release(bytes);
    }
  }

  long used() {
    return used.get();
  }

  long limit() {
    return limit;
  }
}
