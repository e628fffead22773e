package io.cairn.store.cache;

/**
 * Options of a {@link BufferPool}.
 *
 * @param bufferSize bytes of each pooled buffer; the default, {@link #DEFAULT_BUFFER_SIZE}, holds a
 *     whole 64 KiB block and its header in one buffer (64 KiB buffers would split every block)
 * @param minPooledSize requests below this size get a heap buffer rather than wasting a pooled one;
 *     the default is a sixth of the buffer size
 * @param maxBuffers the most pooled buffers the pool creates; {@code bufferSize * maxBuffers} must
 *     fit in the JVM's direct memory
 */
public record BufferPoolConfig(int bufferSize, int minPooledSize, int maxBuffers) {
  /** 64 KiB for a block plus 1 KiB for its header. */
  public static final int DEFAULT_BUFFER_SIZE = 65 * 1024;

  public BufferPoolConfig {
    if (bufferSize <= 0) {
      throw new IllegalArgumentException("bufferSize must be positive, found [" + bufferSize + "]");
    }
    if (minPooledSize < 0 || minPooledSize > bufferSize) {
      throw new IllegalArgumentException(
          "minPooledSize must be in [0, bufferSize = "
              + bufferSize
              + "], found ["
              + minPooledSize
              + "]");
    }
    if (maxBuffers < 0) {
      throw new IllegalArgumentException(
          "maxBuffers must not be negative, found [" + maxBuffers + "]");
    }
  }

  /** The default buffer and minimum sizes, with at most {@code maxBuffers} pooled buffers. */
  public static BufferPoolConfig withMaxBuffers(int maxBuffers) {
    return new BufferPoolConfig(DEFAULT_BUFFER_SIZE, DEFAULT_BUFFER_SIZE / 6, maxBuffers);
  }

  /** The same options with another buffer size and a sixth of it as the minimum pooled size. */
  public BufferPoolConfig withBufferSize(int size) {
    return new BufferPoolConfig(size, size / 6, maxBuffers);
  }

  /** Bytes of direct memory the pool uses when all its buffers exist. */
  public long poolBytes() {
    return (long) bufferSize * maxBuffers;
  }
}
