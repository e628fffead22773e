package io.cairn.store.file;

import static io.cairn.store.file.FastDiffBlockEncoder.DELETE;
import static io.cairn.store.file.FastDiffBlockEncoder.RESERVED;
import static io.cairn.store.file.FastDiffBlockEncoder.RESTART;
import static io.cairn.store.file.FastDiffBlockEncoder.SAME_ROW;
import static io.cairn.store.file.FastDiffBlockEncoder.SAME_ROW_LENGTH;
import static io.cairn.store.file.FastDiffBlockEncoder.SAME_SEQUENCE_ID;
import static io.cairn.store.file.FastDiffBlockEncoder.SAME_VALUE_LENGTH;

import io.cairn.store.io.ByteArrayInput;
import java.nio.ByteBuffer;

/**
 * Decodes FAST_DIFF blocks (see {@link FastDiffBlockEncoder}); row and value are rebuilt in place
 * in the decoder's arrays. A block whose first cell is a RESTART cell (format version 2) ends with
 * its restart offsets, and a seek binary-searches them; a block of format version 1 has none and a
 * seek decodes it from its start.
 *
 * <p>Values are rebuilt lazily, since most scans never read most values (a count, a filter on the
 * key): the array {@link #value} holds a prefix of the last put's value, {@code [0, valueValid)},
 * and the rest stays in the block, at {@link #suffixStart} for the bytes from {@link #suffixShared}
 * on. Decoding the next put copies only the bytes of its shared prefix the array lacks; {@link
 * #valueBuffer()} copies the rest of the current value, once. Only bytes of the current block are
 * ever copied: a block's first cell shares nothing (a restart, or after {@link #resetState()}).
 */
final class FastDiffBlockDecoder extends DataBlockDecoder {
  private byte[] value = new byte[64];
  private ByteBuffer valueView = ByteBuffer.wrap(value);

  /** The last put's value length (the next put may share a prefix of it). */
  private int previousValueLength;

  /** How many leading bytes of {@link #value} are the last put's. */
  private int valueValid;

  /** The last put's shared value prefix; its value's bytes from there on are in the block... */
  private int suffixShared;

  /** ... from here on. */
  private int suffixStart;

  /** The length of the row of the cell decoded last, in any block ({@link #rowLength} is reset). */
  private int lastRowLength;

  /** The block's restart points (0 in a block of format version 1). */
  private int restartCount;

  @Override
  int cellsEnd(int start, int length) {
    int end = start + length;
    restartCount = 0;
    if (length == 0 || (in.array()[start] & RESTART) == 0) {
      return end;
    }
    if (length < 5) {
      throw new IllegalArgumentException("FAST_DIFF block shorter than its restart count");
    }
    int n = in.intAt(end - 4);
    if (n < 1 || n > (length - 4) / 5) {
      throw new IllegalArgumentException("FAST_DIFF restart count out of range: [" + n + "]");
    }
    restartCount = n;
    return end - 4 - 4 * n;
  }

  @Override
  void resetState() {
    rowOffset = 0;
    rowLength = 0;
    sequenceId = 0;
    previousValueLength = 0;
    valueValid = 0;
    suffixShared = 0;
  }

  @Override
  boolean knowsSameRow() {
    return true;
  }

  @Override
  ByteBuffer valueBuffer() {
    if (valueValid < valueLength) {
      // the current cell is a put (a delete has length 0) whose suffix is in the current block
      System.arraycopy(
          in.array(),
          suffixStart + valueValid - suffixShared,
          value,
          valueValid,
          valueLength - valueValid);
      valueValid = valueLength;
    }
    return valueView;
  }

  @Override
  boolean next() {
    // the block is read through locals (array, position, limit) and written back once per cell;
    // a varint of one byte, nearly all of them, is read inline
    byte[] b = in.array();
    int p = in.position();
    int limit = in.limit();
    if (p >= limit) {
      return false;
    }
    int flags = b[p++] & 0xFF;
    if ((flags & (RESERVED | RESTART | SAME_ROW)) != 0) {
      checkFlags(flags);
      if ((flags & RESTART) != 0) {
        resetState();
      }
    }
    boolean isDelete = (flags & DELETE) != 0;
    delete = isDelete;
    int row = rowLength;
    if ((flags & SAME_ROW) != 0) {
      // the row of the previous cell, or the empty row after a restart
      sameRowAsPrevious = row == lastRowLength;
    } else {
      int shared = uint(b, p, limit);
      p = varintEnd;
      int length = row;
      if ((flags & SAME_ROW_LENGTH) == 0) {
        length = uint(b, p, limit);
        p = varintEnd;
      }
      if (shared > row || shared > length) {
        throw sharedOutOfRange("row", shared, row, length);
      }
      int suffixLength = length - shared;
      if (suffixLength > limit - p) {
        throw pastEnd(suffixLength, p, limit);
      }
      // the array still holds the previous cell's row (a restart only forgets its length), and a
      // row that shares a prefix differs right after it unless a writer encoded it oddly (its first
      // byte is compared here, the rest only when that is equal too)
      sameRowAsPrevious =
          length == lastRowLength
              && (suffixLength == 0 || b[p] == rowArray[shared])
              && equalsRow(b, p, shared, length);
      copyRow(p, shared, suffixLength);
      p += suffixLength;
      rowLength = length;
      row = length;
    }
    lastRowLength = row;
    if ((flags & SAME_SEQUENCE_ID) == 0) {
      long zigzag = ulong(b, p, limit);
      p = varintEnd;
      long delta = (zigzag >>> 1) ^ -(zigzag & 1);
      sequenceId = readSequenceId(sequenceId + delta);
    }
    if (isDelete) {
      if ((flags & SAME_VALUE_LENGTH) != 0) {
        throw new IllegalArgumentException("Delete with a value length flag");
      }
      valueLength = 0;
    } else {
      int shared = uint(b, p, limit);
      p = varintEnd;
      int previous = previousValueLength;
      int length = previous;
      if ((flags & SAME_VALUE_LENGTH) == 0) {
        length = uint(b, p, limit);
        p = varintEnd;
      }
      if (shared > previous || shared > length) {
        throw sharedOutOfRange("value", shared, previous, length);
      }
      int suffix = length - shared;
      if (suffix > limit - p) {
        throw pastEnd(suffix, p, limit);
      }
      if (length > value.length || shared > valueValid) {
        keepSharedValue(b, shared, length);
      }
      valueValid = shared;
      suffixShared = shared;
      suffixStart = p;
      previousValueLength = length;
      valueLength = length;
      p += suffix;
    }
    in.position(p);
    return true;
  }

  /**
   * Makes {@link #value} hold {@code length} bytes and the {@code shared} bytes the new put shares
   * with the last one: those it lacks are the last put's, still in this block.
   */
  private void keepSharedValue(byte[] b, int shared, int length) {
    if (length > value.length) {
      value = grow(value, length, valueValid);
      valueView = ByteBuffer.wrap(value);
    }
    int valid = valueValid;
    if (shared > valid) {
      System.arraycopy(b, suffixStart + valid - suffixShared, value, valid, shared - valid);
    }
  }

  private static IllegalArgumentException sharedOutOfRange(
      String what, int shared, int previous, int length) {
    return new IllegalArgumentException(
        "Shared "
            + what
            + " prefix ["
            + shared
            + "] out of range: "
            + what
            + "s of ["
            + previous
            + "] and ["
            + length
            + "] bytes");
  }

  /** Checks flags that have a reserved, RESTART or SAME_ROW bit. */
  private void checkFlags(int flags) {
    if ((flags & RESERVED) != 0
        || (flags & (SAME_ROW | SAME_ROW_LENGTH)) == (SAME_ROW | SAME_ROW_LENGTH)
        || ((flags & RESTART) != 0 && restartCount == 0)) {
      throw new IllegalArgumentException("Invalid FAST_DIFF flags [" + flags + "]");
    }
  }

  /** Where the last varint read ended. */
  private int varintEnd;

  /**
   * The varint at {@code b[p]}, of at most {@code limit - p} bytes, in [0, Integer.MAX_VALUE]; sets
   * {@link #varintEnd}. One and two bytes (lengths up to 16,383), nearly all of them, are read
   * here; longer ones by {@link ByteArrayInput}, which checks them.
   */
  private int uint(byte[] b, int p, int limit) {
    if (p + 1 < limit) {
      int first = b[p];
      if (first >= 0) {
        varintEnd = p + 1;
        return first;
      }
      int second = b[p + 1];
      if (second >= 0) {
        varintEnd = p + 2;
        return (first & 0x7F) | (second << 7);
      }
    }
    return varintInt(p);
  }

  /** {@link #uint} of a varint of up to 64 bits. */
  private long ulong(byte[] b, int p, int limit) {
    if (p + 1 < limit && (b[p] >= 0 || b[p + 1] >= 0)) {
      return uint(b, p, limit); // one or two bytes
    }
    return varint(p);
  }

  /**
   * The varint at {@code p} read (and checked) by {@link ByteArrayInput}, in [0,
   * Integer.MAX_VALUE].
   */
  private int varintInt(int p) {
    in.position(p);
    int value = in.readVarintInt();
    varintEnd = in.position();
    return value;
  }

  /** {@link #varintInt} of a varint of up to 64 bits. */
  private long varint(int p) {
    in.position(p);
    long value = in.readVarint();
    varintEnd = in.position();
    return value;
  }

  private static IllegalArgumentException pastEnd(int length, int p, int limit) {
    return new IllegalArgumentException(
        "[" + length + "] bytes wanted at [" + p + "], slice ends at [" + limit + "]");
  }

  /** Whether {@code data[from, ...)} equals {@code rowArray[shared, length)}. */
  private boolean equalsRow(byte[] data, int from, int shared, int length) {
    for (int i = shared; i < length; i++) {
      if (data[from + i - shared] != rowArray[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * With restart points: the last restart whose row is below {@code target} (or the first), then
   * cells from there; without: from the block's start.
   */
  @Override
  boolean seek(byte[] target) {
    if (restartCount == 0) {
      return super.seek(target);
    }
    int low = 1;
    int high = restartCount - 1;
    int from = 0;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (compareRestartRow(mid, target) < 0) {
        from = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    in.position(restartOffset(from));
    resetState();
    while (next()) {
      if (compareRow(target) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** The row of restart cell {@code index} compared with {@code target}, read in place. */
  private int compareRestartRow(int index, byte[] target) {
    in.position(restartOffset(index));
    int flags = in.readUnsignedByte();
    if ((flags & RESTART) == 0) {
      throw new IllegalArgumentException(
          "FAST_DIFF restart [" + index + "] is not a restart cell: flags [" + flags + "]");
    }
    if ((flags & SAME_ROW) != 0) {
      return -target.length;
    }
    if (in.readVarintInt() != 0) {
      throw new IllegalArgumentException("FAST_DIFF restart [" + index + "] shares a row prefix");
    }
    int length = (flags & SAME_ROW_LENGTH) != 0 ? 0 : in.readVarintInt();
    int start = in.skip(length);
    return in.compareUnsigned(start, length, target);
  }

  private int restartOffset(int index) {
    int offset = in.intAt(cellsEnd + 4 * index);
    if (offset < 0 || offset >= cellsEnd - blockStart) {
      throw new IllegalArgumentException("FAST_DIFF restart offset out of range: [" + offset + "]");
    }
    return blockStart + offset;
  }
}
