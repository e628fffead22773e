package io.cairn.server.file;

import io.cairn.server.io.BigEndian;
import java.util.Arrays;

/** Decodes NONE and ROW_INDEX blocks (see {@link PlainBlockEncoder}); rows and values in place. */
final class PlainBlockDecoder extends DataBlockDecoder {
  private final boolean rowIndex;
  private int cellCount;

  PlainBlockDecoder(boolean rowIndex) {
    this.rowIndex = rowIndex;
  }

  @Override
  int cellsEnd(Block block) {
    int end = block.arrayOffset() + block.length();
    if (!rowIndex) {
      return end;
    }
    if (block.length() < 4) {
      throw new IllegalArgumentException("ROW_INDEX block shorter than its cell count");
    }
    int n = BigEndian.getInt(block.array(), end - 4);
    if (n < 0 || n > (block.length() - 4) / 4) {
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
    byte[] data = in.array();
    rowLength = in.readVarintInt();
    rowOffset = in.skip(rowLength);
    rowArray = data;
    sequenceId = readSequenceId(in.readVarint());
    delete = readType(in.readUnsignedByte()) == 1;
    valueLength = in.readVarintInt();
    valueOffset = in.skip(valueLength);
    valueArray = data;
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
    byte[] data = in.array();
    int offsetsStart = cellsEnd;
    int low = 0;
    int high = cellCount;
    // First cell whose row >= target.
    while (low < high) {
      int mid = (low + high) >>> 1;
      in.position(cellOffset(data, offsetsStart, mid));
      int length = in.readVarintInt();
      int start = in.skip(length);
      if (Arrays.compareUnsigned(data, start, start + length, target, 0, target.length) < 0) {
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
    in.position(cellOffset(data, offsetsStart, low));
    return next();
  }

  private int cellOffset(byte[] data, int offsetsStart, int index) {
    int offset = BigEndian.getInt(data, offsetsStart + 4 * index);
    if (offset < 0 || offset >= cellsEnd - blockStart) {
      throw new IllegalArgumentException("ROW_INDEX cell offset out of range: [" + offset + "]");
    }
    return blockStart + offset;
  }
}
