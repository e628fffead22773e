package io.cairn.store.file;

/**
 * PREFIX: per cell {@code varint shared, varint suffixLength, suffix, varint sequenceId, u8 type,
 * varint valueLength, value}, where the row is the first {@code shared} bytes of the previous
 * cell's row (none for a block's first cell) followed by the suffix.
 */
final class PrefixBlockEncoder extends DataBlockEncoder {
  private byte[] previousRow = new byte[0];

  @Override
  void add(byte[] row, long sequenceId, boolean delete, byte[] value) {
    int shared = sharedPrefix(previousRow, previousRow.length, row, row.length);
    out.writeVarint(shared);
    out.writeVarint(row.length - shared);
    out.writeBytes(row, shared, row.length - shared);
    out.writeVarint(sequenceId);
    out.writeByte(delete ? 1 : 0);
    out.writeVarint(value.length);
    out.writeBytes(value, 0, value.length);
    previousRow = row;
    cellCount++;
  }

  @Override
  void reset() {
    super.reset();
    previousRow = new byte[0];
  }
}
