package io.cairn.store.scan;

import static java.util.Objects.requireNonNull;

import io.cairn.kv.KeyRange;
import io.cairn.store.cell.BlockRun;
import io.cairn.store.cell.CellCursor;
import io.cairn.store.cell.RowCursor;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The rows of a key range visible at a read point, from a sorted cell cursor: per row the newest
 * cell at or below the read point; a row whose such cell is a tombstone, or expired (its sequence
 * id at or below a TTL cutoff), is left out. Allocation free per row: the key is copied into a
 * scratch array, the value is the cursor's own view (the cursor only moves on the next call).
 * Closes the cursor when exhausted or closed.
 */
public final class VisibleRows implements RowCursor {
  private final CellCursor cursor;
  private final KeyRange range;
  private final byte[] stop;
  private final long readPoint;
  private final long expiredAtOrBelow;
  private boolean started;
  private boolean valid;
  private boolean closed;
  private byte[] keyArray = new byte[0];
  private int keyOffset;
  private int keyLength;
  private byte[] rowScratch = new byte[64];

  /**
   * The last row of the blocks skipped since the cursor last moved ({@link #skipBlock}), or null:
   * the next rows start after it (an older version of it in the next block is not a row).
   */
  private byte[] skippedTo;

  /** The last row of the block {@link #peekBlock} offered last, until it is skipped. */
  private byte[] peekedTo;

  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /** {@link #stopPrefix} of a stop row shorter than 8 bytes (or none): compare whole rows. */
  private static final long NO_PREFIX = 0;

  /** The stop row's first 8 bytes, big-endian, or NO_PREFIX. */
  private final long stopPrefix;

  public VisibleRows(CellCursor cursor, KeyRange range, long readPoint) {
    this(cursor, range, readPoint, -1);
  }

  /**
   * @param expiredAtOrBelow rows whose newest visible cell has a sequence id at or below this are
   *     expired (TTL) and left out; -1 when nothing expires
   */
  public VisibleRows(CellCursor cursor, KeyRange range, long readPoint, long expiredAtOrBelow) {
    this.cursor = requireNonNull(cursor, "cursor is null");
    this.range = requireNonNull(range, "range is null");
    this.stop = range.stop().isEmpty() ? null : range.stop().peekArray();
    this.stopPrefix = stop != null && stop.length >= 8 ? (long) LONG_BE.get(stop, 0) : NO_PREFIX;
    this.readPoint = readPoint;
    this.expiredAtOrBelow = expiredAtOrBelow;
  }

  @Override
  public boolean next() {
    peekedTo = null;
    if (closed) {
      return false;
    }
    if (!started) {
      started = true;
      valid = cursor.seek(range.start());
    } else if (valid) {
      valid = cursor.nextRow();
      if (skippedTo != null) {
        while (valid
            && Arrays.compareUnsigned(
                    cursor.rowArray(),
                    cursor.rowOffset(),
                    cursor.rowOffset() + cursor.rowLength(),
                    skippedTo,
                    0,
                    skippedTo.length)
                <= 0) {
          valid = cursor.nextRow();
        }
        skippedTo = null;
      }
    }
    while (valid) {
      byte[] row = cursor.rowArray();
      int offset = cursor.rowOffset();
      int length = cursor.rowLength();
      if (stop != null && !belowStop(row, offset, length)) {
        break;
      }
      long sequenceId = cursor.sequenceId();
      if (sequenceId > readPoint) {
        if (!skipNewerVersions(row, offset, length)) {
          if (!valid) {
            break;
          }
          continue; // every version of that row is newer than the read point
        }
        row = cursor.rowArray();
        offset = cursor.rowOffset();
        sequenceId = cursor.sequenceId();
      }
      // the newest visible version decides: an older one never shows through an expired one
      if (!cursor.isDelete() && sequenceId > expiredAtOrBelow) {
        keyArray = row;
        keyOffset = offset;
        keyLength = length;
        return true;
      }
      valid = cursor.nextRow();
    }
    close();
    return false;
  }

  /**
   * Whether {@code row[offset, offset + length)} sorts before the stop row: decided by the first 8
   * bytes of each as unsigned big-endian longs when both have 8 (rows of a chunk mostly differ from
   * its stop row there), else compared whole.
   */
  private boolean belowStop(byte[] row, int offset, int length) {
    if (length >= 8 && stopPrefix != NO_PREFIX) {
      long prefix = (long) LONG_BE.get(row, offset);
      if (prefix != stopPrefix) {
        return Long.compareUnsigned(prefix, stopPrefix) < 0;
      }
    }
    return Arrays.compareUnsigned(row, offset, offset + length, stop, 0, stop.length) < 0;
  }

  /**
   * Advances past the current row's versions newer than the read point: true on a visible version
   * of the row, false on the next row or at the end ({@link #valid} false).
   */
  private boolean skipNewerVersions(byte[] row, int offset, int length) {
    if (rowScratch.length < length) {
      rowScratch = new byte[Math.max(length, rowScratch.length * 2)];
    }
    System.arraycopy(row, offset, rowScratch, 0, length);
    do {
      if (!cursor.advance()) {
        valid = false;
        return false;
      }
      if (!CellCursor.sameRow(cursor, rowScratch, 0, length)) {
        return false;
      }
    } while (cursor.sequenceId() > readPoint);
    return true;
  }

  /**
   * Offers the cursor's next data block when its rows are exactly this scan's next rows: every cell
   * a put of a row of its own, none newer than the read point or expired, the first row after the
   * current one (and after the blocks skipped since), the last before the stop.
   */
  @Override
  public boolean peekBlock(BlockRun run) {
    if (closed || !started || !valid || !cursor.peekBlock(run)) {
      return false;
    }
    if (!run.plain()
        || run.maxSequenceId() > readPoint
        || (expiredAtOrBelow >= 0 && run.minSequenceId() <= expiredAtOrBelow)) {
      return false;
    }
    byte[] first = run.firstRow();
    int afterCurrent =
        skippedTo != null
            ? Arrays.compareUnsigned(first, skippedTo)
            : Arrays.compareUnsigned(
                first, 0, first.length, keyArray, keyOffset, keyOffset + keyLength);
    if (afterCurrent <= 0) {
      return false;
    }
    if (stop != null && Arrays.compareUnsigned(run.lastRow(), stop) >= 0) {
      return false;
    }
    peekedTo = run.lastRow();
    return true;
  }

  @Override
  public void skipBlock() {
    if (peekedTo == null) {
      throw new IllegalStateException("skipBlock() without a block offered");
    }
    cursor.skipBlock();
    skippedTo = peekedTo;
    peekedTo = null;
  }

  @Override
  public byte[] keyArray() {
    return keyArray;
  }

  @Override
  public int keyOffset() {
    return keyOffset;
  }

  @Override
  public int keyLength() {
    return keyLength;
  }

  @Override
  public ByteBuffer valueBuffer() {
    return cursor.valueBuffer();
  }

  @Override
  public int valueOffset() {
    return cursor.valueOffset();
  }

  @Override
  public int valueLength() {
    return cursor.valueLength();
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
