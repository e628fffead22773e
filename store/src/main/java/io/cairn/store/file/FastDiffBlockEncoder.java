package io.cairn.store.file;

import io.cairn.store.io.ByteArrayOutput;
import java.util.Arrays;

/**
 * FAST_DIFF: per cell a flags byte, then only what differs from the previous cell of the block (for
 * the first cell: an empty row, sequence id 0, an empty value):
 *
 * <pre>
 * u8 flags: 0x01 DELETE, 0x02 SAME_ROW, 0x04 SAME_ROW_LENGTH, 0x08 SAME_SEQUENCE_ID,
 *           0x10 SAME_VALUE_LENGTH, 0x20 RESTART; 0xC0 reserved (zero)
 * unless SAME_ROW:          varint rowShared (prefix shared with the previous row)
 *                           varint rowLength unless SAME_ROW_LENGTH
 *                           row[rowShared, rowLength)
 * unless SAME_SEQUENCE_ID:  varint zig-zag(sequenceId - previous sequenceId)
 * unless DELETE:            varint valueShared (prefix shared with the previous put's value)
 *                           varint valueLength unless SAME_VALUE_LENGTH
 *                           value[valueShared, valueLength)
 * </pre>
 *
 * A delete has no value and leaves the previous value as it was. Rows of sorted keys, a sequence id
 * of 0 everywhere (after a major compaction) and the header of packed row values repeat from cell
 * to cell, so a cell costs about its row's last bytes, its value's changing bytes and 3 bytes.
 *
 * <p>Restart points (format version 2): the block's first cell, and then the first cell of a new
 * row once {@value #RESTART_INTERVAL} cells followed the last restart, is a RESTART cell, encoded
 * as if it were the block's first (an empty previous row and value, sequence id 0). The payload
 * ends with {@code u32 restartOffset[r], u32 r} (offsets from the payload's start), so that a seek
 * binary-searches the restarts' rows and decodes at most one run of cells instead of the block from
 * its start. Restart rows are distinct and ascending: a row's versions never straddle a restart.
 */
final class FastDiffBlockEncoder extends DataBlockEncoder {
  static final int DELETE = 0x01;
  static final int SAME_ROW = 0x02;
  static final int SAME_ROW_LENGTH = 0x04;
  static final int SAME_SEQUENCE_ID = 0x08;
  static final int SAME_VALUE_LENGTH = 0x10;
  static final int RESTART = 0x20;
  static final int RESERVED = 0xC0;

  /** Cells at least between two restart points (LevelDB's block restart interval). */
  static final int RESTART_INTERVAL = 16;

  private byte[] previousRow = new byte[64];
  private int previousRowLength;
  private long previousSequenceId;
  private byte[] previousValue = new byte[64];
  private int previousValueLength;
  private final ByteArrayOutput restarts = new ByteArrayOutput(64);
  private int sinceRestart;

  @Override
  void add(
      byte[] row,
      int rowOffset,
      int rowLength,
      long sequenceId,
      boolean delete,
      byte[] value,
      int valueOffset,
      int valueLength) {
    int flags = delete ? DELETE : 0;
    if (cellCount == 0
        || (sinceRestart >= RESTART_INTERVAL
            && !Arrays.equals(
                row, rowOffset, rowOffset + rowLength, previousRow, 0, previousRowLength))) {
      flags |= RESTART;
      restarts.writeInt(out.size());
      previousRowLength = 0;
      previousSequenceId = 0;
      previousValueLength = 0;
      sinceRestart = 0;
    }
    sinceRestart++;
    int rowShared = sharedPrefix(previousRow, previousRowLength, row, rowOffset, rowLength);
    boolean sameRow = rowShared == rowLength && rowLength == previousRowLength;
    if (sameRow) {
      flags |= SAME_ROW;
    } else if (rowLength == previousRowLength) {
      flags |= SAME_ROW_LENGTH;
    }
    if (sequenceId == previousSequenceId) {
      flags |= SAME_SEQUENCE_ID;
    }
    int valueShared = 0;
    if (!delete) {
      valueShared =
          sharedPrefix(previousValue, previousValueLength, value, valueOffset, valueLength);
      if (valueLength == previousValueLength) {
        flags |= SAME_VALUE_LENGTH;
      }
    }
    out.writeByte(flags);
    if (!sameRow) {
      out.writeVarint(rowShared);
      if ((flags & SAME_ROW_LENGTH) == 0) {
        out.writeVarint(rowLength);
      }
      out.writeBytes(row, rowOffset + rowShared, rowLength - rowShared);
      // only the bytes after the shared prefix changed
      previousRow = keepSuffix(previousRow, rowShared, row, rowOffset, rowLength);
      previousRowLength = rowLength;
    }
    if ((flags & SAME_SEQUENCE_ID) == 0) {
      long delta = sequenceId - previousSequenceId;
      out.writeVarint((delta << 1) ^ (delta >> 63));
    }
    if (!delete) {
      out.writeVarint(valueShared);
      if ((flags & SAME_VALUE_LENGTH) == 0) {
        out.writeVarint(valueLength);
      }
      out.writeBytes(value, valueOffset + valueShared, valueLength - valueShared);
      previousValue = keepSuffix(previousValue, valueShared, value, valueOffset, valueLength);
      previousValueLength = valueLength;
    }
    previousSequenceId = sequenceId;
    cellCount++;
  }

  /**
   * {@code into} (or a bigger copy of its first {@code shared} bytes) holding the slice, whose
   * first {@code shared} bytes it already holds.
   */
  private static byte[] keepSuffix(byte[] into, int shared, byte[] from, int offset, int length) {
    byte[] target = into;
    if (into.length < length) {
      target = Arrays.copyOf(into, Math.max(length, 2 * into.length));
    }
    System.arraycopy(from, offset + shared, target, shared, length - shared);
    return target;
  }

  @Override
  int size() {
    return out.size() + restarts.size() + 4;
  }

  @Override
  void finishBlock() {
    out.writeBytes(restarts.peekArray(), 0, restarts.size());
    out.writeInt(restarts.size() / 4);
  }

  @Override
  void reset() {
    super.reset();
    previousRowLength = 0;
    previousSequenceId = 0;
    previousValueLength = 0;
    restarts.reset();
    sinceRestart = 0;
  }
}
