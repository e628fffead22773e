package io.cairn.store.file;

import io.cairn.store.io.ByteArrayOutput;

/**
 * Builds one data block's payload in one {@link DataBlockEncoding}; reused across blocks. Cells
 * arrive in file order; the writer checks the order.
 */
abstract class DataBlockEncoder {
  final ByteArrayOutput out = new ByteArrayOutput(1024);
  int cellCount;

  /** Adds a cell; {@code value} is empty for a delete. */
  final void add(byte[] row, long sequenceId, boolean delete, byte[] value) {
    add(row, 0, row.length, sequenceId, delete, value, 0, value.length);
  }

  /**
   * Adds a cell given as slices of arrays the caller may reuse once this returns (an encoder keeps
   * copies of what it needs of the previous cell); the value is empty for a delete.
   */
  abstract void add(
      byte[] row,
      int rowOffset,
      int rowLength,
      long sequenceId,
      boolean delete,
      byte[] value,
      int valueOffset,
      int valueLength);

  /** The payload's size if the block were finished now. */
  int size() {
    return out.size();
  }

  /** Completes the payload: {@code out} then holds the whole block payload. */
  void finishBlock() {}

  /** Starts a new block. */
  void reset() {
    out.reset();
    cellCount = 0;
  }

  static int sharedPrefix(byte[] a, int aLength, byte[] b, int bOffset, int bLength) {
    int mismatch = java.util.Arrays.mismatch(a, 0, aLength, b, bOffset, bOffset + bLength);
    return mismatch < 0 ? aLength : mismatch;
  }

  /** {@code into} (or a bigger array when it is too small) holding a copy of the slice. */
  static byte[] keep(byte[] into, byte[] from, int offset, int length) {
    byte[] target = into.length >= length ? into : new byte[Math.max(length, 2 * into.length)];
    System.arraycopy(from, offset, target, 0, length);
    return target;
  }
}
