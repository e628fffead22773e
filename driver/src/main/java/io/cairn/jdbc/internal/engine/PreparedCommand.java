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

  /** The {@code ?} parameters, in order. */
  List<ParameterInfo> parameters();

  /**
   * Runs the statement. {@code parameters} has one value per parameter (Java types as on
   * io.cairn.core.type.TypeName, already converted by the caller or as set by the user: the engine
   * coerces compatible values and rejects others with TYPE_MISMATCH / INVALID_CAST).
   */
  CommandResult execute(List<Object> parameters, ExecutionControl control);
}
