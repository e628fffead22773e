package io.cairn.jdbc.internal.engine;

/**
 * Rows of a query result, forward only. {@link #next()} returns a row whose values are Java types
 * as on io.cairn.core.type.TypeName, in column order; the array may be reused by the next call.
 */
public interface ResultCursor extends AutoCloseable {
  /** The next row, or null at the end. Throws CairnException QUERY_CANCELED / QUERY_TIMEOUT. */
  Object[] next();

  /**
   * Notes for the result's SQL warnings gathered so far (an operator that spilled to disk), in the
   * order they came; the list may grow as rows are read.
   */
  default java.util.List<String> warnings() {
    return java.util.List.of();
  }

  /** Releases everything the query holds. Idempotent. */
  @Override
  void close();
}
