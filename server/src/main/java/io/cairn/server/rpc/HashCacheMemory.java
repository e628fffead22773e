package io.cairn.server.rpc;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server-wide budget of broadcast hash caches: every connection's {@link HashCaches} reserve
 * their bytes here and give them back when a cache is replaced, removed or its connection closes.
 * Thread-safe.
 */
final class HashCacheMemory {
  private final long limit;
  private final AtomicLong used = new AtomicLong();

  HashCacheMemory(long limit) {
    this.limit = limit;
  }

  /**
   * Takes {@code bytes} from the budget.
   *
   * @throws CairnException HASH_CACHE_TOO_LARGE naming the limit when they do not fit
   */
  void reserve(long bytes) {
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
  }

  long used() {
    return used.get();
  }

  long limit() {
    return limit;
  }
}
