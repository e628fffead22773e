package io.cairn.server.cell;

import io.cairn.kv.Bytes;

/**
 * A forward cursor over sorted cells: row ascending, then sequence id descending (newest version
 * first). Memstores and block files implement it; merging scanners combine them. A cell is a put
 * (with a value) or a delete (a tombstone, empty value). Not thread-safe.
 *
 * <p>Protocol: after {@link #seek} or {@link #advance} returns true, the accessors describe the
 * current cell until the next call; after one returns false the cursor is exhausted. The {@link
 * Bytes} returned may share memory with the cursor's block: copy what outlives the current cell
 * only if the implementation documents that it reuses buffers.
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
      if (!row().equals(current)) {
        return true;
      }
    }
    return false;
  }

  Bytes row();

  long sequenceId();

  boolean isDelete();

  /** The value of a put; {@link Bytes#EMPTY} for a delete. */
  Bytes value();

  @Override
  void close();
}
