package io.cairn.store.file;

import static io.cairn.store.file.FastDiffBlockEncoder.DELETE;
import static io.cairn.store.file.FastDiffBlockEncoder.RESERVED;
import static io.cairn.store.file.FastDiffBlockEncoder.SAME_ROW;
import static io.cairn.store.file.FastDiffBlockEncoder.SAME_ROW_LENGTH;
import static io.cairn.store.file.FastDiffBlockEncoder.SAME_SEQUENCE_ID;
import static io.cairn.store.file.FastDiffBlockEncoder.SAME_VALUE_LENGTH;

import java.nio.ByteBuffer;

/**
 * Decodes FAST_DIFF blocks (see {@link FastDiffBlockEncoder}); row and value are rebuilt in place
 * in the decoder's arrays.
 */
final class FastDiffBlockDecoder extends DataBlockDecoder {
  private byte[] value = new byte[64];
  private ByteBuffer valueView = ByteBuffer.wrap(value);
  private int previousValueLength;

  @Override
  void resetState() {
    rowOffset = 0;
    rowLength = 0;
    sequenceId = 0;
    previousValueLength = 0;
    sameRowAsPrevious = false;
  }

  @Override
  boolean next() {
    if (!in.hasRemaining()) {
      return false;
    }
    int flags = in.readUnsignedByte();
    if ((flags & RESERVED) != 0
        || (flags & (SAME_ROW | SAME_ROW_LENGTH)) == (SAME_ROW | SAME_ROW_LENGTH)) {
      throw new IllegalArgumentException("Invalid FAST_DIFF flags [" + flags + "]");
    }
    delete = (flags & DELETE) != 0;
    sameRowAsPrevious = (flags & SAME_ROW) != 0;
    if (!sameRowAsPrevious) {
      int shared = in.readVarintInt();
      int length = (flags & SAME_ROW_LENGTH) != 0 ? rowLength : in.readVarintInt();
      if (shared > rowLength || shared > length) {
        throw new IllegalArgumentException(
            "Shared row prefix ["
                + shared
                + "] out of range: rows of ["
                + rowLength
                + "] and ["
                + length
                + "] bytes");
      }
      int suffixStart = in.skip(length - shared);
      copyRow(suffixStart, shared, length - shared);
      rowLength = length;
    }
    if ((flags & SAME_SEQUENCE_ID) == 0) {
      long zigzag = in.readVarint();
      long delta = (zigzag >>> 1) ^ -(zigzag & 1);
      sequenceId = readSequenceId(sequenceId + delta);
    }
    if (delete) {
      if ((flags & SAME_VALUE_LENGTH) != 0) {
        throw new IllegalArgumentException("Delete with a value length flag");
      }
      valueBuffer = valueView;
      valueOffset = 0;
      valueLength = 0;
    } else {
      int shared = in.readVarintInt();
      int length = (flags & SAME_VALUE_LENGTH) != 0 ? previousValueLength : in.readVarintInt();
      if (shared > previousValueLength || shared > length) {
        throw new IllegalArgumentException(
            "Shared value prefix ["
                + shared
                + "] out of range: values of ["
                + previousValueLength
                + "] and ["
                + length
                + "] bytes");
      }
      int suffixStart = in.skip(length - shared);
      if (length > value.length) {
        value = grow(value, length, shared);
        valueView = ByteBuffer.wrap(value);
      }
      in.buffer().get(suffixStart, value, shared, length - shared);
      previousValueLength = length;
      valueBuffer = valueView;
      valueOffset = 0;
      valueLength = length;
    }
    return true;
  }
}
