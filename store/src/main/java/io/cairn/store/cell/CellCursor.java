package io.cairn.store.cell;

import io.cairn.core.bytes.Bytes;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A forward cursor over sorted cells: row ascending, then sequence id descending (newest version
 * first). Memstores and block files implement it; merging scanners combine them. A cell is a put
 * (with a value) or a delete (a tombstone, empty value). Not thread-safe.
 *
 * <p>Protocol: after {@link #seek} or {@link #advance} returns true, the accessors describe the
 * current cell until the next call; after one returns false the cursor is exhausted. The array and
 * buffer accessors are views without allocation, valid only until the cursor moves (they point into
 * a decoder's scratch arrays or a cached block); {@link #row()} and {@link #value()} return copies
 * the caller may keep. Read the value buffer with absolute gets and never change its position or
 * limit: it may be shared. Call {@link #valueBuffer()} again for each cell whose value is read (a
 * cursor may rebuild a value only when it is asked for, into the same buffer); a reader that reads
 * no value need not call it, and saves that work.
 */
public interface CellCursor extends AutoCloseable {
  /**
   * Positions at the first cell whose row is at or after {@code row} (empty: the first cell).
   * Seeking backwards is allowed.
   *
   * @return false when there is no such cell
   */
  boolean seek(Bytes row);

  /**
   * Moves to the next cell.
   *
   * @return false at the end
   */
  boolean advance();

  /**
   * Moves to the first cell of the next row (skipping the current row's other versions).
   *
   * @return false at the end
   */
  default boolean nextRow() {
    Bytes current = row();
    while (advance()) {
      if (!sameRow(this, current.peekArray(), 0, current.length())) {
        return true;
      }
    }
    return false;
  }

  /** The current cell's row: {@code rowArray()[rowOffset(), rowOffset() + rowLength())}. */
  byte[] rowArray();

  int rowOffset();

  int rowLength();

  long sequenceId();

  boolean isDelete();

  /**
   * The buffer holding the value of a put at {@code [valueOffset(), valueOffset() + valueLength())}
   * (length 0 for a delete).
   */
  ByteBuffer valueBuffer();

  int valueOffset();

  int valueLength();

  /** A copy of the current row. */
  default Bytes row() {
    return Bytes.copyOf(rowArray(), rowOffset(), rowLength());
  }

  /** A copy of the value of a put; {@link Bytes#EMPTY} for a delete. */
  default Bytes value() {
    int length = valueLength();
    if (length == 0) {
      return Bytes.EMPTY;
    }
    byte[] copy = new byte[length];
    valueBuffer().get(valueOffset(), copy);
    return Bytes.wrap(copy);
  }

  /**
   * When the current cell is the last of its data block: describes the next data block in {@code
   * run} (its facts and the vectors of the run's columns, built and cached when first asked for)
   * without moving, and returns true; false when this cursor has no such block to offer (not at a
   * block's last cell, the next block past the current index block, a NO_CACHE run whose block has
   * no cached vectors, a cursor of another kind).
   */
  default boolean peekBlock(BlockRun run) {
    return false;
  }

  /**
   * Moves past the block {@link #peekBlock} just described without decoding it: the cursor stays on
   * its current cell, as if that block's cells had been read; the next {@link #advance()} reads the
   * block after it.
   */
  default void skipBlock() {
    throw new UnsupportedOperationException("This cursor skips no blocks");
  }

  /** Whether {@code cursor}'s current row equals {@code row[offset, offset + length)}. */
  static boolean sameRow(CellCursor cursor, byte[] row, int offset, int length) {
    int start = cursor.rowOffset();
    return Arrays.equals(
        cursor.rowArray(), start, start + cursor.rowLength(), row, offset, offset + length);
  }

  /** The current rows of two cursors compared, unsigned. */
  static int compareRows(CellCursor a, CellCursor b) {
    int sa = a.rowOffset();
    int sb = b.rowOffset();
    return Arrays.compareUnsigned(
        a.rowArray(), sa, sa + a.rowLength(), b.rowArray(), sb, sb + b.rowLength());
  }

  @Override
  void close();
}
