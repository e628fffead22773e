package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/** A table-level {@code [CONSTRAINT name] PRIMARY KEY (col [ASC|DESC], ...)}. */
public record PrimaryKey(Optional<String> constraintName, List<KeyPart> columns) {
  public PrimaryKey {
    requireNonNull(constraintName, "constraintName is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("a primary key has at least one column");
    }
  }
}
