package io.cairn.store.file;

import io.cairn.store.io.ByteArrayInput;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Decodes one data block's cells in one {@link DataBlockEncoding}; one per cursor, reused across
 * blocks, allocation-free per cell. After {@link #next()} or {@link #seek} returns true the fields
 * describe the current cell: the row is always in a heap array of the decoder (rows are short and
 * prefix-coded, so they are rebuilt anyway), the value ({@link #valueBuffer()}) is in the block's
 * own buffer when the encoding stores it whole and in a buffer of the decoder when it is rebuilt
 * (which may then happen only when it is asked for); both change with the next call. Malformed
 * input throws {@link IllegalArgumentException} (or another unchecked exception) from {@link
 * #next()} or {@link #seek}, which the cursor reports as corruption of the block.
 */
abstract class DataBlockDecoder {
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());

  final ByteArrayInput in = new ByteArrayInput();

  /** A buffer over {@code in}'s array, for values read in place. */
  ByteBuffer view;

  int blockStart;
  int cellsEnd;

  byte[] rowArray = new byte[64];
  int rowOffset;
  int rowLength;
  long sequenceId;
  boolean delete;

  /** The value's buffer when the value is in place; read it through {@link #valueBuffer()}. */
  ByteBuffer valueBuffer;

  int valueOffset;
  int valueLength;

  /**
   * Whether the current cell's row equals the row of the cell decoded before it: exact when {@link
   * #knowsSameRow()}, else true only when known cheaply (false: unknown).
   */
  boolean sameRowAsPrevious;

  /**
   * Whether {@link #sameRowAsPrevious} is exact, across blocks and seeks too: the current row
   * equals the row of the cell decoded before it (in any block) exactly when it is true.
   */
  boolean knowsSameRow() {
    return false;
  }

  /** Whether a cell follows the current one in this block (false at its last cell). */
  final boolean hasMoreCells() {
    return in.hasRemaining();
  }

  /**
   * The buffer holding the current cell's value at {@code [valueOffset, valueOffset +
   * valueLength)}; a decoder that rebuilds values may rebuild it here, so call it before reading.
   */
  ByteBuffer valueBuffer() {
    return valueBuffer;
  }

  /**
   * Positions before the first cell of the block whose payload is {@code data[start, start +
   * length)}; {@code view} is a buffer over all of {@code data} (values read in place are views of
   * it).
   */
  void reset(byte[] data, ByteBuffer view, int start, int length) {
    this.view = view;
    blockStart = start;
    in.reset(data, start, start + length);
    cellsEnd = cellsEnd(start, length);
    in.reset(data, blockStart, cellsEnd);
    resetState();
  }

  /**
   * Where the cells of the block {@code in.array()[start, start + length)} end (the payload's end
   * unless a trailer follows).
   */
  int cellsEnd(int start, int length) {
    return start + length;
  }

  /** Forgets the previous cell (start of a block). */
  abstract void resetState();

  /** Decodes the next cell; false at the end of the block. */
  abstract boolean next();

  /**
   * Positions at the first cell of the block whose row is at or after {@code target}; false when
   * there is none. By default scans from the block's start.
   */
  boolean seek(byte[] target) {
    in.position(blockStart);
    resetState();
    while (next()) {
      if (compareRow(target) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** The current row compared with {@code target}, unsigned. */
  final int compareRow(byte[] target) {
    return Arrays.compareUnsigned(
        rowArray, rowOffset, rowOffset + rowLength, target, 0, target.length);
  }

  static int readType(int type) {
    if (type == 0) {
      return 0;
    }
    if (type == 1) {
      return 1;
    }
    throw new IllegalArgumentException("Unknown cell type [" + type + "]");
  }

  static long readSequenceId(long value) {
    if (value < 0) {
      throw new IllegalArgumentException("Negative sequence id [" + value + "]");
    }
    return value;
  }

  /**
   * Copies {@code length} bytes of the block at {@code from} into {@link #rowArray} at {@code at},
   * growing it (keeping its first {@code at} bytes) when needed.
   */
  final void copyRow(int from, int at, int length) {
    byte[] row = rowArray;
    byte[] data = in.array();
    if (length <= 16 && at + 16 <= row.length && from + 16 <= data.length) {
      // a row's suffix is a few bytes: two 8-byte words (the bytes past the row are scratch)
      LONG.set(row, at, (long) LONG.get(data, from));
      LONG.set(row, at + 8, (long) LONG.get(data, from + 8));
      return;
    }
    rowArray = row = grow(row, at + length + 16, at);
    System.arraycopy(data, from, row, at, length);
  }

  static byte[] grow(byte[] array, int needed, int keep) {
    if (needed <= array.length) {
      return array;
    }
    return Arrays.copyOf(array, Math.max(needed, array.length * 2));
  }
}
