package io.cairn.jdbc.internal.engine;

import io.cairn.core.catalog.TableDescriptor;
import java.util.List;

/**
 * One client session of the SQL engine: what a JDBC connection drives. Not thread-safe, except that
 * {@link ExecutionControl#cancel()} may be called from any thread.
 *
 * <p>Errors are {@link io.cairn.core.error.CairnException}s; the JDBC layer maps them to
 * SQLExceptions with the error code's SQLState.
 */
public interface Session extends AutoCloseable {
  /**
   * Parses, validates and plans one statement (no trailing semicolon needed; one is tolerated).
   * Plans are cached, so preparing the same text again is cheap.
   */
  PreparedCommand prepare(String sql);

  /**
   * Prepares {@code sql} as {@link #prepare(String)} does, stopping with QUERY_CANCELED when {@code
   * control} is cancelled or times out while it plans.
   */
  default PreparedCommand prepare(String sql, ExecutionControl control) {
    return prepare(sql);
  }

  /** True by default. Switching from false to true commits pending writes (JDBC semantics). */
  boolean autoCommit();

  void setAutoCommit(boolean autoCommit);

  /** Applies the writes buffered since the last commit (no-op in autocommit mode). */
  void commit();

  /** Discards the writes buffered since the last commit. */
  void rollback();

  /**
   * Whether the session refuses writes: with {@code true}, DML and DDL fail with
   * READ_ONLY_TRANSACTION (25006) and queries run ({@code Connection.setReadOnly}).
   */
  void setReadOnly(boolean readOnly);

  /** Tables visible to this session, for DatabaseMetaData. Sorted by schema, then name. */
  List<TableDescriptor> tables();

  /**
   * Whether the session can still work: true unless it is closed or its database does not answer
   * within {@code timeoutSeconds} (0: no limit). For {@code Connection.isValid}.
   */
  default boolean isValid(int timeoutSeconds) {
    return true;
  }

  /** Name of the store this session works on, e.g. {@code mem:demo}. */
  String storeName();

  /** Discards pending writes and releases the session. Idempotent. */
  @Override
  void close();
}
