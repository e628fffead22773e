package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * {@code CREATE TABLE}. A primary key is either inline on one column or {@link #primaryKey()},
 * never both; a table with neither gets a hidden row id.
 *
 * @param splitPoints the exact source text of each SPLIT ON value, in order
 */
public record CreateTable(
    QualifiedName name,
    boolean ifNotExists,
    List<ColumnDefinition> columns,
    Optional<PrimaryKey> primaryKey,
    List<TableOption> options,
    List<String> splitPoints)
    implements Statement {
  public CreateTable {
    requireNonNull(name, "name is null");
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    requireNonNull(primaryKey, "primaryKey is null");
    options = List.copyOf(requireNonNull(options, "options is null"));
    splitPoints = List.copyOf(requireNonNull(splitPoints, "splitPoints is null"));
  }
}
