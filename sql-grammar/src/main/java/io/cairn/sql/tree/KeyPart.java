package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

/** One column of a table-level PRIMARY KEY; ASC when no order is written. */
public record KeyPart(String column, Ordering ordering) {
  public KeyPart {
    requireNonNull(column, "column is null");
    requireNonNull(ordering, "ordering is null");
  }
}
