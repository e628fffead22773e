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

  /**
   * Whether the rows come in the order of their keys (a table's rows over ascending ranges, not an
   * index's entries): rows of equal key prefixes then come together. False when it cannot tell (the
   * default).
   */
  default boolean inKeyOrder() {
    return false;
  }

  /**
   * Whether this cursor's next visible rows, up to some point, are exactly the rows of one data
   * block, all visible, each the newest version of its row, all before the scan's stop: then the
   * block is described in {@code run} (its size and vectors) and the caller either reads it there
   * and calls {@link #skipBlock()}, or goes on with {@link #next()} as if it had not asked. False
   * when the cursor cannot tell (the default).
   */
  default boolean peekBlock(BlockRun run) {
    return false;
  }

  /**
   * Whether {@link #peekBlock} may ever offer a block: false when it cannot (a cursor over point
   * ranges, whose rows are one per range), so that a scan sets up nothing to read blocks with.
   */
  default boolean mayOfferBlocks() {
    return true;
  }

  /** Moves past the rows of the block {@link #peekBlock} just offered, without reading them. */
  default void skipBlock() {
    throw new UnsupportedOperationException("This cursor offers no blocks");
  }

  @Override
  void close();
}
