package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

/**
 * {@code SPLIT TABLE name}: splits every region that holds data at its middle row (HBase shell's
 * split of a table).
 */
public record SplitTable(QualifiedName name) implements Statement {
  public SplitTable {
    requireNonNull(name, "name is null");
  }
}
