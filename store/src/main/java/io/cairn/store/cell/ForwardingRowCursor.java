package io.cairn.store.cell;

import java.nio.ByteBuffer;

/**
 * A row cursor that shows another's current row; subclasses decide which rows ({@link #next()}) or
 * how their keys read. Closing closes the delegate.
 */
public abstract class ForwardingRowCursor implements RowCursor {
  protected RowCursor delegate;

  protected ForwardingRowCursor(RowCursor delegate) {
    this.delegate = delegate;
  }

  @Override
  public boolean next() {
    return delegate.next();
  }

  @Override
  public byte[] keyArray() {
    return delegate.keyArray();
  }

  @Override
  public int keyOffset() {
    return delegate.keyOffset();
  }

  @Override
  public int keyLength() {
    return delegate.keyLength();
  }

  @Override
  public ByteBuffer valueBuffer() {
    return delegate.valueBuffer();
  }

  @Override
  public int valueOffset() {
    return delegate.valueOffset();
  }

  @Override
  public int valueLength() {
    return delegate.valueLength();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
