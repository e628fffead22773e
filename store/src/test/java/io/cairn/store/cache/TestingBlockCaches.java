package io.cairn.store.cache;

import java.nio.ByteBuffer;
import java.util.List;

/** Small cache configurations and block contents for the cache tests. */
final class TestingBlockCaches {
  /** Size classes of 1, 2 and 4 KiB. */
  static final List<Integer> SIZES = List.of(1024, 2048, 4096);

  /** Buckets of 16 KiB: 16, 8 or 4 slots; a slab of 8 buckets is 128 KiB. */
  static final int BUCKET = 16 * 1024;

  private TestingBlockCaches() {}

  /** A config with small buckets and the default factors. */
  static BlockCacheConfig config(long l1Bytes, long l2Bytes) {
    return new BlockCacheConfig(l1Bytes, l2Bytes, SIZES, BUCKET, 0.95, 0.85, 0.25, 0.50, 0.25);
  }

  /** The byte at {@code index} of the block with the given key: every block differs. */
  static byte expectedByte(long fileId, long offset, int index) {
    return (byte) (fileId * 31 + offset * 17 + index * 131L + (index >>> 8));
  }

  /** A heap buffer of {@code length} bytes of the key's content, at position {@code skip}. */
  static ByteBuffer heapPayload(long fileId, long offset, int length, int skip) {
    ByteBuffer buffer = ByteBuffer.allocate(skip + length + 5);
    fill(buffer, fileId, offset, length, skip);
    return buffer;
  }

  /** A direct buffer of {@code length} bytes of the key's content, at position {@code skip}. */
  static ByteBuffer directPayload(long fileId, long offset, int length, int skip) {
    ByteBuffer buffer = ByteBuffer.allocateDirect(skip + length + 5);
    fill(buffer, fileId, offset, length, skip);
    return buffer;
  }

  private static void fill(ByteBuffer buffer, long fileId, long offset, int length, int skip) {
    for (int i = 0; i < buffer.capacity(); i++) {
      buffer.put(i, (byte) 0x5A);
    }
    for (int i = 0; i < length; i++) {
      buffer.put(skip + i, expectedByte(fileId, offset, i));
    }
    buffer.position(skip).limit(skip + length);
  }

  /**
   * The index of the first byte of {@code block} that is not the key's content, or -1; reads with
   * absolute gets only, as readers must.
   */
  static int firstMismatch(BlockBuffer block, long fileId, long offset, int length) {
    ByteBuffer view = block.buffer();
    if (view.position() != 0 || view.limit() != length || block.length() != length) {
      return Integer.MAX_VALUE;
    }
    for (int i = 0; i < length; i++) {
      if (view.get(i) != expectedByte(fileId, offset, i)) {
        return i;
      }
    }
    return -1;
  }
}
