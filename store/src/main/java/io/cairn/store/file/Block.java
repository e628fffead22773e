package io.cairn.store.file;

import static java.util.Objects.requireNonNull;

import io.cairn.store.cache.BlockBuffer;
import java.nio.ByteBuffer;

/**
 * A block's payload as its encoder wrote it: decompressed, still encoded, at {@code
 * buffer()[start(), start() + length())}: a pooled direct buffer read from disk, a block of the
 * block cache (off-heap or on-heap), or plain heap memory. The bytes must not be changed; read them
 * with absolute gets only (the buffer may be shared with other readers). Whoever got a block from
 * {@link BlockSource#readBlock} calls {@link #release()} once when done with it, after which the
 * memory may be reused: nothing may keep a view of it.
 */
public final class Block {
  private final BlockType type;
  private final long offset;
  private final int onDiskSize;
  private final ByteBuffer buffer;
  private final int start;
  private final int length;
  private final BlockBuffer memory;

  /**
   * @param memory the reference this block holds on its memory, released by {@link #release()};
   *     null for unmanaged heap memory
   */
  Block(
      BlockType type,
      long offset,
      int onDiskSize,
      ByteBuffer buffer,
      int start,
      int length,
      BlockBuffer memory) {
    this.type = requireNonNull(type, "type is null");
    this.offset = offset;
    this.onDiskSize = onDiskSize;
    this.buffer = requireNonNull(buffer, "buffer is null");
    if (start < 0 || length < 0 || start > buffer.limit() - length) {
      throw new IllegalArgumentException(
          "Block payload [" + start + ", +" + length + ") outside [" + buffer.limit() + "]");
    }
    this.start = start;
    this.length = length;
    this.memory = memory;
  }

  /** A block over a heap array that needs no release. */
  static Block onHeap(BlockType type, long offset, int onDiskSize, byte[] payload) {
    return new Block(type, offset, onDiskSize, ByteBuffer.wrap(payload), 0, payload.length, null);
  }

  BlockType type() {
    return type;
  }

  /** The block's offset in its file (for error messages and cache keys). */
  long offset() {
    return offset;
  }

  int onDiskSize() {
    return onDiskSize;
  }

  ByteBuffer buffer() {
    return buffer;
  }

  int start() {
    return start;
  }

  int length() {
    return length;
  }

  /** A copy of the payload on the heap that needs no release (for blocks a reader keeps). */
  Block copyToHeap() {
    byte[] copy = new byte[length];
    buffer.get(start, copy);
    return onHeap(type, offset, onDiskSize, copy);
  }

  /** Gives the block's memory back: once, when done with it. */
  void release() {
    if (memory != null) {
      memory.release();
    }
  }
}
