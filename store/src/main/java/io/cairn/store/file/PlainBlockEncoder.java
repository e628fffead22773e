package io.cairn.store.file;

import io.cairn.store.io.ByteArrayOutput;

/**
 * NONE: per cell {@code varint rowLength, row, varint sequenceId, u8 type (0 put, 1 delete), varint
 * valueLength, value}. ROW_INDEX: the same cells, then {@code u32 cellOffset[n], u32 n} (offsets
 * from the payload's start) so that a seek binary-searches the block.
 */
final class PlainBlockEncoder extends DataBlockEncoder {
  private final boolean rowIndex;
  private final ByteArrayOutput offsets = new ByteArrayOutput(256);

  PlainBlockEncoder(boolean rowIndex) {
    this.rowIndex = rowIndex;
  }

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
    if (rowIndex) {
      offsets.writeInt(out.size());
    }
    out.writeVarint(rowLength);
    out.writeBytes(row, rowOffset, rowLength);
    out.writeVarint(sequenceId);
    out.writeByte(delete ? 1 : 0);
    out.writeVarint(valueLength);
    out.writeBytes(value, valueOffset, valueLength);
    cellCount++;
  }

  @Override
  int size() {
    return rowIndex ? out.size() + offsets.size() + 4 : out.size();
  }

  @Override
  void finishBlock() {
    if (rowIndex) {
      out.writeBytes(offsets.peekArray(), 0, offsets.size());
      out.writeInt(cellCount);
    }
  }

  @Override
  void reset() {
    super.reset();
    offsets.reset();
  }
}
