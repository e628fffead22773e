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
  abstract void add(byte[] row, long sequenceId, boolean delete, byte[] value);

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

  static int sharedPrefix(byte[] a, int aLength, byte[] b, int bLength) {
    int mismatch = java.util.Arrays.mismatch(a, 0, aLength, b, 0, bLength);
    return mismatch < 0 ? aLength : mismatch;
  }
}
