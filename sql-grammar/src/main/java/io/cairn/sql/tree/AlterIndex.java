package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * {@code ALTER INDEX [IF EXISTS] name [ON table] action}. The action is kept as its words,
 * upper-cased (quoted names as written) and joined by single blanks: {@code REBUILD}, {@code
 * REBUILD ALL}, {@code REBUILD ASYNC}, or another action the planner refuses ({@code DISABLE},
 * {@code RENAME TO x}, ...).
 */
public record AlterIndex(
    QualifiedName name, Optional<QualifiedName> table, boolean ifExists, String action)
    implements Statement {
  public AlterIndex {
    requireNonNull(name, "name is null");
    requireNonNull(table, "table is null");
    requireNonNull(action, "action is null");
  }
}
