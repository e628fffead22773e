package io.cairn.server.scan;

import static java.util.Objects.requireNonNull;

import io.cairn.kv.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.server.cell.CellCursor;
import io.cairn.server.memstore.KeyValue;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The rows of a key range visible at a read point, from a sorted cell cursor: per row the newest
 * cell at or below the read point; a row whose such cell is a tombstone is left out. Closes the
 * cursor when exhausted or closed.
 */
public final class VisibleRows implements Iterator<KeyValue>, AutoCloseable {
  private final CellCursor cursor;
  private final KeyRange range;
  private final long readPoint;
  private boolean started;
  private boolean valid;
  private KeyValue next;

  public VisibleRows(CellCursor cursor, KeyRange range, long readPoint) {
    this.cursor = requireNonNull(cursor, "cursor is null");
    this.range = requireNonNull(range, "range is null");
    this.readPoint = readPoint;
  }

  @Override
  public boolean hasNext() {
    if (!started) {
      started = true;
      valid = cursor.seek(range.start());
    }
    Bytes stop = range.stop();
    while (next == null && valid) {
      Bytes row = cursor.row();
      if (!stop.isEmpty() && row.compareTo(stop) >= 0) {
        valid = false;
        break;
      }
      while (cursor.sequenceId() > readPoint) {
        if (!cursor.advance()) {
          valid = false;
          break;
        }
        if (!cursor.row().equals(row)) {
          break;
        }
      }
      if (!valid) {
        break;
      }
      if (!cursor.row().equals(row)) {
        continue; // every version of that row is newer than the read point
      }
      if (!cursor.isDelete()) {
        next = new KeyValue(row, cursor.value());
      }
      valid = cursor.nextRow();
    }
    if (next == null) {
      close();
    }
    return next != null;
  }

  @Override
  public KeyValue next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    KeyValue result = next;
    next = null;
    return result;
  }

  @Override
  public void close() {
    valid = false;
    cursor.close();
  }
}
