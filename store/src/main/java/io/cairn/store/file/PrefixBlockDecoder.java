package io.cairn.store.file;

/** Decodes PREFIX blocks (see {@link PrefixBlockEncoder}); the row is rebuilt in place. */
final class PrefixBlockDecoder extends DataBlockDecoder {
  @Override
  void resetState() {
    rowLength = 0;
    rowOffset = 0;
    sameRowAsPrevious = false;
  }

  @Override
  boolean next() {
    if (!in.hasRemaining()) {
      return false;
    }
    int shared = in.readVarintInt();
    int suffixLength = in.readVarintInt();
    if (shared > rowLength) {
      throw new IllegalArgumentException(
          "Shared prefix [" + shared + "] longer than the previous row [" + rowLength + "]");
    }
    int suffixStart = in.skip(suffixLength);
    int length = shared + suffixLength;
    if (length < 0) {
      throw new IllegalArgumentException("Row length overflows");
    }
    sameRowAsPrevious = suffixLength == 0 && shared == rowLength;
    copyRow(suffixStart, shared, suffixLength);
    rowLength = length;
    sequenceId = readSequenceId(in.readVarint());
    delete = readType(in.readUnsignedByte()) == 1;
    valueLength = in.readVarintInt();
    valueOffset = in.skip(valueLength);
    valueBuffer = view;
    if (delete && valueLength != 0) {
      throw new IllegalArgumentException("Delete with a value");
    }
    return true;
  }
}
