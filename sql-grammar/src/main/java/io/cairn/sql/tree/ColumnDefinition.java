package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One column of a CREATE TABLE.
 *
 * @param inlinePrimaryKey present when the column says {@code PRIMARY KEY [ASC|DESC]} (ASC when no
 *     order is written)
 * @param defaultExpression the exact source text of the DEFAULT expression, for Calcite's
 *     expression parser
 */
public record ColumnDefinition(
    String name,
    TypeSpec type,
    Nullability nullability,
    Optional<Ordering> inlinePrimaryKey,
    Optional<String> defaultExpression) {
  public ColumnDefinition {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    requireNonNull(nullability, "nullability is null");
    requireNonNull(inlinePrimaryKey, "inlinePrimaryKey is null");
    requireNonNull(defaultExpression, "defaultExpression is null");
  }
}
