package io.cairn.server.file;

import static java.util.Objects.requireNonNull;

/**
 * A block's payload as its encoder wrote it: decompressed, still encoded. The bytes are {@code
 * array()[arrayOffset(), arrayOffset() + length())} and must not be changed. Whoever got a block
 * from {@link BlockSource#readBlock} calls {@link #release()} once when done with it; a block of
 * the file-backed source is plain heap memory and releasing it does nothing, a cached block will be
 * reference-counted.
 */
final class Block {
  private final BlockType type;
  private final long offset;
  private final int onDiskSize;
  private final byte[] array;
  private final int arrayOffset;
  private final int length;

  Block(BlockType type, long offset, int onDiskSize, byte[] array, int arrayOffset, int length) {
    this.type = requireNonNull(type, "type is null");
    this.offset = offset;
    this.onDiskSize = onDiskSize;
    this.array = requireNonNull(array, "array is null");
    this.arrayOffset = arrayOffset;
    this.length = length;
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

  byte[] array() {
    return array;
  }

  int arrayOffset() {
    return arrayOffset;
  }

  int length() {
    return length;
  }

  /** Gives the block back to its source. */
  void release() {}
}
