package io.cairn.jdbc.internal.exec;

/**
 * A pull-based physical operator. {@link #next()} returns a fresh row (callers may keep it) or null
 * at the end; {@link #close()} releases what the operator and its inputs hold.
 */
interface Operator extends AutoCloseable {
  Object[] next();

  @Override
  void close();
}
