package io.cairn.store.cell;

import io.cairn.core.bytes.Bytes;
import java.nio.ByteBuffer;

/**
 * A {@link RowCursor} over rows held on the heap as {@link Bytes} (a system view's computed rows, a
 * transaction's writes over the store's rows): a subclass's {@link #next()} finds the next row and
 * makes it current with {@link #setCurrent}; the accessors describe it.
 */
public abstract class HeapRowCursor implements RowCursor {
  private Bytes key = Bytes.EMPTY;
  private ByteBuffer value = ByteBuffer.allocate(0);

  /** Makes ({@code key}, {@code value}) the current row. */
  protected final void setCurrent(Bytes key, Bytes value) {
    this.key = key;
    this.value = ByteBuffer.wrap(value.peekArray());
  }

  @Override
  public final byte[] keyArray() {
    return key.peekArray();
  }

  @Override
  public final int keyOffset() {
    return 0;
  }

  @Override
  public final int keyLength() {
    return key.length();
  }

  @Override
  public final ByteBuffer valueBuffer() {
    return value;
  }

  @Override
  public final int valueOffset() {
    return 0;
  }

  @Override
  public final int valueLength() {
    return value.limit();
  }
}
