package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * {@code CREATE [UNIQUE] [LOCAL] INDEX [IF NOT EXISTS] name ON table [USING method] (part [ASC |
 * DESC], ...) [INCLUDE (column, ...)] [ASYNC] [option = value, ...] [SPLIT ON (...)] [WHERE
 * predicate]}: Phoenix's syntax with PostgreSQL's and SQLite's additions. The tree keeps every
 * clause as written; the planner refuses those Cairn does not support (UNIQUE, ASYNC, options,
 * SPLIT ON, WHERE, a method other than BTREE) rather than ignoring them.
 *
 * @param name the index's name, optionally qualified by the table's schema (SQLite's form)
 * @param include the INCLUDE columns, normalised names, in order
 * @param method the USING method, a normalised name
 * @param splitPoints the exact source text of each SPLIT ON value
 * @param where the exact source text of the WHERE predicate (a partial index)
 */
public record CreateIndex(
    QualifiedName name,
    QualifiedName table,
    boolean ifNotExists,
    boolean unique,
    boolean local,
    Optional<String> method,
    List<IndexPart> parts,
    List<String> include,
    boolean async,
    List<TableOption> options,
    List<String> splitPoints,
    Optional<String> where)
    implements Statement {
  public CreateIndex {
    requireNonNull(name, "name is null");
    requireNonNull(table, "table is null");
    requireNonNull(method, "method is null");
    parts = List.copyOf(requireNonNull(parts, "parts is null"));
    include = List.copyOf(requireNonNull(include, "include is null"));
    options = List.copyOf(requireNonNull(options, "options is null"));
    splitPoints = List.copyOf(requireNonNull(splitPoints, "splitPoints is null"));
    requireNonNull(where, "where is null");
  }

  /** A plain {@code CREATE INDEX name ON table (parts) [INCLUDE (include)]}. */
  public static CreateIndex of(
      QualifiedName name,
      QualifiedName table,
      boolean ifNotExists,
      List<IndexPart> parts,
      List<String> include) {
    return new CreateIndex(
        name,
        table,
        ifNotExists,
        false,
        false,
        Optional.empty(),
        parts,
        include,
        false,
        List.of(),
        List.of(),
        Optional.empty());
  }
}
