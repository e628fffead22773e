package io.cairn.jdbc.internal;

import io.cairn.jdbc.internal.engine.ResultCursor;
import java.util.Iterator;
import java.util.List;

/** A ResultCursor over rows held in memory: metadata result sets and generated keys. */
public final class ListResultCursor implements ResultCursor {
  private final Iterator<Object[]> rows;
  private boolean closed;

  public ListResultCursor(List<Object[]> rows) {
    this.rows = List.copyOf(rows).iterator();
  }

  @Override
  public Object[] next() {
    if (closed || !rows.hasNext()) {
      return null;
    }
    return rows.next().clone();
  }

  @Override
  public void close() {
    closed = true;
  }
}
