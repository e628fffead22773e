package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

import io.cairn.sql.Identifiers;
import java.util.Optional;

/** A table name with an optional schema; both parts are normalised names. */
public record QualifiedName(Optional<String> schema, String name) {
  public QualifiedName {
    requireNonNull(schema, "schema is null");
    requireNonNull(name, "name is null");
  }

  public static QualifiedName of(String name) {
    return new QualifiedName(Optional.empty(), name);
  }

  public static QualifiedName of(String schema, String name) {
    return new QualifiedName(Optional.of(schema), name);
  }

  /** SQL text that reads back as this name, quoting parts only where needed. */
  public String toSql() {
    String quotedName = Identifiers.quoteIfNeeded(name);
    return schema.map(s -> Identifiers.quoteIfNeeded(s) + "." + quotedName).orElse(quotedName);
  }
}
