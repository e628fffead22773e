package io.cairn.server.scan;

import static java.util.Objects.requireNonNull;

import io.cairn.kv.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.server.cell.CellCursor;
import io.cairn.server.cell.RowCursor;
import java.nio.ByteBuffer;

/**
 * The rows of a key range visible at a read point, from a sorted cell cursor: per row the newest
 * cell at or below the read point; a row whose such cell is a tombstone is left out. Closes the
 * cursor when exhausted or closed.
 */
public final class VisibleRows implements RowCursor {
  private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

  private final CellCursor cursor;
  private final KeyRange range;
  private final long readPoint;
  private boolean started;
  private boolean valid;
  private boolean closed;
  private Bytes key;
  private ByteBuffer value;

  public VisibleRows(CellCursor cursor, KeyRange range, long readPoint) {
    this.cursor = requireNonNull(cursor, "cursor is null");
    this.range = requireNonNull(range, "range is null");
    this.readPoint = readPoint;
  }

  @Override
  public boolean next() {
    if (closed) {
      return false;
    }
    if (!started) {
      started = true;
      valid = cursor.seek(range.start());
    } else if (valid) {
      valid = cursor.nextRow();
    }
    Bytes stop = range.stop();
    while (valid) {
      Bytes row = cursor.row();
      if (!stop.isEmpty() && row.compareTo(stop) >= 0) {
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
        key = row;
        Bytes v = cursor.value();
        value = v.isEmpty() ? EMPTY : ByteBuffer.wrap(v.peekArray());
        return true;
      }
      valid = cursor.nextRow();
    }
    close();
    return false;
  }

  @Override
  public byte[] keyArray() {
    return key.peekArray();
  }

  @Override
  public int keyOffset() {
    return 0;
  }

  @Override
  public int keyLength() {
    return key.length();
  }

  @Override
  public ByteBuffer valueBuffer() {
    return value;
  }

  @Override
  public int valueOffset() {
    return 0;
  }

  @Override
  public int valueLength() {
    return value.limit();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      valid = false;
      cursor.close();
    }
  }
}
