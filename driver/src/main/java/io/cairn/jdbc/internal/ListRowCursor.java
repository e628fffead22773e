package io.cairn.jdbc.internal;

import io.cairn.jdbc.internal.engine.RowCursor;
import java.util.Iterator;
import java.util.List;

/** A RowCursor over rows held in memory: metadata result sets and generated keys. */
public final class ListRowCursor implements RowCursor {
  private final Iterator<Object[]> rows;
  private boolean closed;

  public ListRowCursor(List<Object[]> rows) {
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
