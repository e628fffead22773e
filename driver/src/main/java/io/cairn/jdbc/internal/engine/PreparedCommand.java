package io.cairn.jdbc.internal.engine;

import java.util.List;

/** A planned statement; immutable, executable many times with different parameters. */
public interface PreparedCommand {
  /** What kind of statement this is. */
  enum Kind {
    /** Returns rows: SELECT, VALUES, EXPLAIN. */
    QUERY,
    /** Changes rows and returns a count: UPSERT, INSERT, DELETE. */
    DML,
    /** Changes the catalog; returns count 0: CREATE TABLE, DROP TABLE, ... */
    DDL
  }

  Kind kind();

  /** Result columns (empty unless {@link Kind#QUERY}). */
  List<ColumnInfo> columns();

  /** Warnings from preparing the statement (e.g. a hint without effect); empty when none. */
  default List<String> warnings() {
    return List.of();
  }

  /**
   * Whether the plan still fits the database: false once a table it uses was dropped, created again
   * or altered, or the data it was optimised for changed materially; a prepared statement then
   * prepares its text again before it runs.
   */
  default boolean isCurrent() {
    return true;
  }

  /**
   * Lets its executions keep their joins' build sides for its next execution (a prepared statement
   * run again), until {@link #close()}.
   */
  default void keepJoinBuilds() {}

  /** Frees what its executions kept ({@link #keepJoinBuilds}); its statement closed. */
  default void close() {}

  /** The {@code ?} parameters, in order. */
  List<ParameterInfo> parameters();

  /**
   * Runs the statement. {@code parameters} has one value per parameter (Java types as on
   * io.cairn.core.type.TypeName, already converted by the caller or as set by the user: the engine
   * coerces compatible values and rejects others with TYPE_MISMATCH / INVALID_CAST).
   */
  CommandResult execute(List<Object> parameters, ExecutionControl control);

  /**
   * Whether {@link #executeBatch} runs a batch of parameter sets as one write (a blind UPSERT of
   * VALUES); otherwise a batch runs {@link #execute} once per set.
   */
  default boolean runsBatches() {
    return false;
  }

  /**
   * Runs the statement once per parameter set, in order, and writes all their rows at once (in a
   * transaction, into it). When a set fails (a value that does not fit its column, a NULL key), the
   * rows of the sets before it are written and the result says which set failed and why. Only when
   * {@link #runsBatches()}.
   */
  default BatchResult executeBatch(List<List<Object>> parameterSets, ExecutionControl control) {
    throw new UnsupportedOperationException("This statement runs batches entry by entry");
  }

  /**
   * What {@link #executeBatch} did: the update count of each set that ran ({@code counts.length}
   * sets), and the failure of the next one, or null when all ran.
   */
  record BatchResult(long[] counts, RuntimeException failure) {}
}
