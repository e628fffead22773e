package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

/** {@code FLUSH TABLE name}: writes the table's memstores to files now (HBase shell's flush). */
public record FlushTable(QualifiedName name) implements Statement {
  public FlushTable {
    requireNonNull(name, "name is null");
  }
}
