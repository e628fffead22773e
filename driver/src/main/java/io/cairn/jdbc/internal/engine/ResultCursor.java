package io.cairn.jdbc.internal.engine;

/**
 * Rows of a query result, forward only. {@link #next()} returns a row whose values are Java types
 * as on io.cairn.core.type.TypeName, in column order; the array may be reused by the next call.
 */
public interface ResultCursor extends AutoCloseable {
  /** The next row, or null at the end. Throws CairnException QUERY_CANCELED / QUERY_TIMEOUT. */
  Object[] next();

  /** Releases everything the query holds. Idempotent. */
  @Override
  void close();
}
