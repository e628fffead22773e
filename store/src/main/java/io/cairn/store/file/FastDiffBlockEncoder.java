package io.cairn.store.file;

/**
 * FAST_DIFF: per cell a flags byte, then only what differs from the previous cell of the block (for
 * the first cell: an empty row, sequence id 0, an empty value):
 *
 * <pre>
 * u8 flags: 0x01 DELETE, 0x02 SAME_ROW, 0x04 SAME_ROW_LENGTH, 0x08 SAME_SEQUENCE_ID,
 *           0x10 SAME_VALUE_LENGTH; 0xE0 reserved (zero)
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
 */
final class FastDiffBlockEncoder extends DataBlockEncoder {
  static final int DELETE = 0x01;
  static final int SAME_ROW = 0x02;
  static final int SAME_ROW_LENGTH = 0x04;
  static final int SAME_SEQUENCE_ID = 0x08;
  static final int SAME_VALUE_LENGTH = 0x10;
  static final int RESERVED = 0xE0;

  private static final byte[] EMPTY = new byte[0];

  private byte[] previousRow = EMPTY;
  private long previousSequenceId;
  private byte[] previousValue = EMPTY;

  @Override
  void add(byte[] row, long sequenceId, boolean delete, byte[] value) {
    int flags = delete ? DELETE : 0;
    int rowShared = sharedPrefix(previousRow, previousRow.length, row, row.length);
    boolean sameRow = rowShared == row.length && row.length == previousRow.length;
    if (sameRow) {
      flags |= SAME_ROW;
    } else if (row.length == previousRow.length) {
      flags |= SAME_ROW_LENGTH;
    }
    if (sequenceId == previousSequenceId) {
      flags |= SAME_SEQUENCE_ID;
    }
    int valueShared = 0;
    if (!delete) {
      valueShared = sharedPrefix(previousValue, previousValue.length, value, value.length);
      if (value.length == previousValue.length) {
        flags |= SAME_VALUE_LENGTH;
      }
    }
    out.writeByte(flags);
    if (!sameRow) {
      out.writeVarint(rowShared);
      if ((flags & SAME_ROW_LENGTH) == 0) {
        out.writeVarint(row.length);
      }
      out.writeBytes(row, rowShared, row.length - rowShared);
    }
    if ((flags & SAME_SEQUENCE_ID) == 0) {
      long delta = sequenceId - previousSequenceId;
      out.writeVarint((delta << 1) ^ (delta >> 63));
    }
    if (!delete) {
      out.writeVarint(valueShared);
      if ((flags & SAME_VALUE_LENGTH) == 0) {
        out.writeVarint(value.length);
      }
      out.writeBytes(value, valueShared, value.length - valueShared);
      previousValue = value;
    }
    previousRow = row;
    previousSequenceId = sequenceId;
    cellCount++;
  }

  @Override
  void reset() {
    super.reset();
    previousRow = EMPTY;
    previousSequenceId = 0;
    previousValue = EMPTY;
  }
}
