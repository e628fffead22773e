package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

/** {@code DROP TABLE [IF EXISTS] name}. */
public record DropTable(QualifiedName name, boolean ifExists) implements Statement {
  public DropTable {
    requireNonNull(name, "name is null");
  }
}
