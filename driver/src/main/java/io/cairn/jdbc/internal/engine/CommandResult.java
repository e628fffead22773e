package io.cairn.jdbc.internal.engine;

import static java.util.Objects.requireNonNull;

/** What executing a command gave. */
public sealed interface CommandResult permits CommandResult.Rows, CommandResult.UpdateCount {
  /** Rows of a query; the caller must close the cursor. */
  record Rows(ResultCursor cursor) implements CommandResult {
    public Rows {
      requireNonNull(cursor, "cursor is null");
    }
  }

  /** Rows changed by DML, 0 for DDL. */
  record UpdateCount(long count) implements CommandResult {}
}
