package io.cairn.store.file;

/**
 * PREFIX: per cell {@code varint shared, varint suffixLength, suffix, varint sequenceId, u8 type,
 * varint valueLength, value}, where the row is the first {@code shared} bytes of the previous
 * cell's row (none for a block's first cell) followed by the suffix.
 */
final class PrefixBlockEncoder extends DataBlockEncoder {
  private byte[] previousRow = new byte[64];
  private int previousRowLength;

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
    int shared = sharedPrefix(previousRow, previousRowLength, row, rowOffset, rowLength);
    out.writeVarint(shared);
    out.writeVarint(rowLength - shared);
    out.writeBytes(row, rowOffset + shared, rowLength - shared);
    out.writeVarint(sequenceId);
    out.writeByte(delete ? 1 : 0);
    out.writeVarint(valueLength);
    out.writeBytes(value, valueOffset, valueLength);
    previousRow = keep(previousRow, row, rowOffset, rowLength);
    previousRowLength = rowLength;
    cellCount++;
  }

  @Override
  void reset() {
    super.reset();
    previousRowLength = 0;
  }
}
