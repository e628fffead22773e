package io.cairn.store.file;

/** Decodes NONE and ROW_INDEX blocks (see {@link PlainBlockEncoder}); rows and values in place. */
final class PlainBlockDecoder extends DataBlockDecoder {
  private final boolean rowIndex;
  private int cellCount;

  PlainBlockDecoder(boolean rowIndex) {
    this.rowIndex = rowIndex;
  }

  @Override
  int cellsEnd(int start, int length) {
    int end = start + length;
    if (!rowIndex) {
      return end;
    }
    if (length < 4) {
      throw new IllegalArgumentException("ROW_INDEX block shorter than its cell count");
    }
    int n = in.intAt(end - 4);
    if (n < 0 || n > (length - 4) / 4) {
      throw new IllegalArgumentException("ROW_INDEX cell count out of range: [" + n + "]");
    }
    cellCount = n;
    return end - 4 - 4 * n;
  }

  @Override
  void resetState() {
    sameRowAsPrevious = false;
  }

  @Override
  boolean next() {
    if (!in.hasRemaining()) {
      return false;
    }
    int length = in.readVarintInt();
    copyRow(in.skip(length), 0, length);
    rowOffset = 0;
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

  @Override
  boolean seek(byte[] target) {
    if (!rowIndex) {
      return super.seek(target);
    }
    int offsetsStart = cellsEnd;
    int low = 0;
    int high = cellCount;
    // First cell whose row >= target.
    while (low < high) {
      int mid = (low + high) >>> 1;
      in.position(cellOffset(offsetsStart, mid));
      int length = in.readVarintInt();
      int start = in.skip(length);
      if (in.compareUnsigned(start, length, target) < 0) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    sameRowAsPrevious = false;
    if (low == cellCount) {
      in.position(cellsEnd);
      return false;
    }
    in.position(cellOffset(offsetsStart, low));
    return next();
  }

  private int cellOffset(int offsetsStart, int index) {
    int offset = in.intAt(offsetsStart + 4 * index);
    if (offset < 0 || offset >= cellsEnd - blockStart) {
      throw new IllegalArgumentException("ROW_INDEX cell offset out of range: [" + offset + "]");
    }
    return blockStart + offset;
  }
}
