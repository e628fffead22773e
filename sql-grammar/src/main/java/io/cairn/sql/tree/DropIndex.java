package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * {@code DROP INDEX [IF EXISTS] name [ON table]} (Phoenix) or {@code DROP INDEX [IF EXISTS]
 * schema.name} (PostgreSQL).
 */
public record DropIndex(QualifiedName name, Optional<QualifiedName> table, boolean ifExists)
    implements Statement {
  public DropIndex {
    requireNonNull(name, "name is null");
    requireNonNull(table, "table is null");
  }
}
