package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * {@code CHECK INDEX name [ON table]}: compares an index with its table's rows (after TiDB's {@code
 * ADMIN CHECK INDEX}).
 */
public record CheckIndex(QualifiedName name, Optional<QualifiedName> table) implements Statement {
  public CheckIndex {
    requireNonNull(name, "name is null");
    requireNonNull(table, "table is null");
  }
}
