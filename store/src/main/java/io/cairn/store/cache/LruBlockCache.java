package io.cairn.store.cache;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The on-heap level (L1) of the block cache, for the small, hot index and bloom blocks (and for
 * data blocks when there is no L2): each block is a copied {@code byte[]}, and its bytes count
 * against the capacity until the block is freed. Eviction is least recently used within the
 * priority groups (see the package documentation). A block evicted while a reader holds it stays
 * valid for that reader; its reference count is still enforced, so a retain after it was freed
 * throws.
 */
public final class LruBlockCache extends BlockCacheBase {
  private final AtomicLong used = new AtomicLong();

  /** A level of {@link BlockCacheConfig#l1Bytes()}. */
  public LruBlockCache(BlockCacheConfig config) {
    super("L1", config.l1Bytes(), config.maxBlockBytes(), config);
  }

  @Override
  long allocate(int length) {
    while (true) {
      long current = used.get();
      if (current + length > capacity()) {
        return -1;
      }
      if (used.compareAndSet(current, current + length)) {
        return 0;
      }
    }
  }

  @Override
  ByteBuffer copyIn(long address, int length, ByteBuffer payload) {
    byte[] bytes = new byte[length];
    payload.get(payload.position(), bytes, 0, length);
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
  }

  @Override
  int charge(int length) {
    return length;
  }

  @Override
  void freeMemory(long address, int charge) {
    used.addAndGet(-charge);
  }

  @Override
  long usedBytes() {
    return used.get();
  }

  @Override
  long allocatedBytes() {
    return used.get();
  }
}
