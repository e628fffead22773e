package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * {@code ALTER TABLE name SET option = value [, option = value]*} (Phoenix and HBase style):
 * changes table options. Option names are unique (the grammar rejects a repeated one).
 */
public record AlterTableSet(QualifiedName name, List<TableOption> options) implements Statement {
  public AlterTableSet {
    requireNonNull(name, "name is null");
    options = List.copyOf(requireNonNull(options, "options is null"));
    if (options.isEmpty()) {
      throw new IllegalArgumentException("options is empty");
    }
  }
}
