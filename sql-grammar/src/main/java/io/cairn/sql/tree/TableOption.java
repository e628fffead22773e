package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

/**
 * A Phoenix-style table option {@code NAME = value} written after a CREATE TABLE's column list or
 * after ALTER TABLE ... SET.
 *
 * @param name the option name, upper-cased
 * @param value string literals without quotes, identifiers normalised (unquoted ones upper-cased),
 *     numbers as written, booleans as {@code TRUE} or {@code FALSE}
 */
public record TableOption(String name, String value, ValueKind kind) {
  /** How the option value was written. */
  public enum ValueKind {
    STRING,
    NUMBER,
    IDENTIFIER,
    BOOLEAN
  }

  public TableOption {
    requireNonNull(name, "name is null");
    requireNonNull(value, "value is null");
    requireNonNull(kind, "kind is null");
  }
}
