package io.cairn.store.coprocessor;

import io.cairn.core.encoding.RowReader;
import io.cairn.core.expr.NumberBatch;
import io.cairn.store.cell.RowCursor;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Copies of some rows' key and value bytes, one after the other in a heap array, so that rows read
 * from a cursor (whose views change with every row) can be read again later, together: a batch of a
 * scan program. Up to {@link NumberBatch#CAPACITY} rows; {@link #full()} tells when the bytes pass
 * {@value #TARGET_BYTES} (a single row may be bigger: the array grows). One per scan; not
 * thread-safe.
 */
final class RowBatch {
  /** The bytes after which a batch counts as full. */
  static final int TARGET_BYTES = 256 * 1024;

  private byte[] data = new byte[16 * 1024];
  private ByteBuffer view = ByteBuffer.wrap(data);
  private int used;
  private int size;
  private final int[] keyOffsets = new int[NumberBatch.CAPACITY];
  private final int[] keyLengths = new int[keyOffsets.length];
  private final int[] valueOffsets = new int[keyOffsets.length];
  private final int[] valueLengths = new int[keyOffsets.length];

  int size() {
    return size;
  }

  /** Whether the batch holds its capacity of rows or of bytes. */
  boolean full() {
    return size == keyOffsets.length || used >= TARGET_BYTES;
  }

  /** Appends a copy of the cursor's current row. */
  void add(RowCursor row) {
    if (size == keyOffsets.length) {
      throw new IllegalStateException("RowBatch is full");
    }
    int keyLength = row.keyLength();
    int valueLength = row.valueLength();
    ensure((long) keyLength + valueLength);
    System.arraycopy(row.keyArray(), row.keyOffset(), data, used, keyLength);
    keyOffsets[size] = used;
    keyLengths[size] = keyLength;
    used += keyLength;
    ByteBuffer value = row.valueBuffer();
    if (value.hasArray()) {
      System.arraycopy(
          value.array(), value.arrayOffset() + row.valueOffset(), data, used, valueLength);
    } else {
      value.get(row.valueOffset(), data, used, valueLength);
    }
    valueOffsets[size] = used;
    valueLengths[size] = valueLength;
    used += valueLength;
    size++;
  }

  private void ensure(long more) {
    if (used + more <= data.length) {
      return;
    }
    long needed = used + more;
    if (needed > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("A batch of rows over 2 GB");
    }
    data =
        Arrays.copyOf(
            data, (int) Math.max(needed, Math.min(2L * data.length, Integer.MAX_VALUE - 16)));
    view = ByteBuffer.wrap(data);
  }

  /** Points {@code reader} at row {@code row} of the batch. */
  void point(RowReader reader, int row) {
    reader.reset(
        data, keyOffsets[row], keyLengths[row], view, valueOffsets[row], valueLengths[row]);
  }

  /** Forgets the rows (keeps the memory for the next batch). */
  void clear() {
    size = 0;
    used = 0;
  }
}
