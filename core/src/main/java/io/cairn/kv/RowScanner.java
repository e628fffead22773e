package io.cairn.kv;

/**
 * Result rows of a scan, in key order. Holds a snapshot (and later, buffers): always close it. Not
 * thread-safe, except {@link #close()} which another thread may call to cancel.
 */
public interface RowScanner extends AutoCloseable {
  /** The next result row (the program's projection), or null at the end. */
  Object[] next();

  @Override
  void close();
}
