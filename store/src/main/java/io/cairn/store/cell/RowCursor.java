package io.cairn.store.cell;

import java.nio.ByteBuffer;

/**
 * The visible rows of a scan, one at a time and without allocation: after {@link #next()} returns
 * true, the accessors describe the current row's key and value until the next call. The memory they
 * point into belongs to the cursor (a decoder's scratch array, a cached block, a memstore cell) and
 * is only valid until then: copy what must outlive the row. Use absolute reads on {@link
 * #valueBuffer()} and never change its position or limit; it may be shared with other readers, and
 * call it again for each row whose value is read: the value may be rebuilt only when it is asked
 * for (a reader that only counts rows, or reads only keys, need not call it). Not thread-safe;
 * {@link #close()} is idempotent and releases every block the cursor holds.
 */
public interface RowCursor extends AutoCloseable {
  /** Moves to the next row; false at the end (the cursor may then release what it holds). */
  boolean next();

  /** The current row's key: {@code keyArray()[keyOffset(), keyOffset() + keyLength())}. */
  byte[] keyArray();

  int keyOffset();

  int keyLength();

  /**
   * The buffer holding the current row's value at {@code [valueOffset(), valueOffset() +
   * valueLength())}: heap or direct memory.
   */
  ByteBuffer valueBuffer();

  int valueOffset();

  int valueLength();

  @Override
  void close();
}
