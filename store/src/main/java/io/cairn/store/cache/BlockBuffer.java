package io.cairn.store.cache;

import java.nio.ByteBuffer;

/**
 * Reference-counted read-only bytes of one block, shared between threads: a block in the {@link
 * BlockCache}, or a {@link PooledBuffer} a reader filled from disk.
 *
 * <p>Whoever gets a {@code BlockBuffer} from a method that hands over a reference ({@link
 * BlockCache#getBlock}, {@link BlockCache#cacheBlock}, {@link #retain()}) releases it exactly once,
 * on every path; {@link #close()} does the same for try-with-resources.
 */
public interface BlockBuffer extends AutoCloseable {
  /**
   * The bytes at {@code [0, length())} of a view created once and shared by every holder: use
   * absolute gets only and never change its position or limit. Valid while the caller holds a
   * reference; after the last release the memory may hold another block.
   *
   * @throws IllegalStateException if the buffer was already freed
   */
  ByteBuffer buffer();

  /** The number of bytes. */
  int length();

  /**
   * Adds a reference; the new holder must release it.
   *
   * @return this buffer
   * @throws IllegalStateException if the buffer was already freed
   */
  BlockBuffer retain();

  /**
   * Drops one reference.
   *
   * @return whether this call freed the buffer
   * @throws IllegalStateException if the caller holds no reference any more (over-release)
   */
  boolean release();

  /** Same as {@link #release()}, for try-with-resources. */
  @Override
  default void close() {
    release();
  }
}
