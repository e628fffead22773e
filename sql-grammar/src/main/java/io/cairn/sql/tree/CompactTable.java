package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

/**
 * {@code COMPACT TABLE name} (minor: merges the files the compaction policy picks) or {@code
 * MAJOR_COMPACT TABLE name} (major: rewrites all files of every region into one, dropping deleted
 * and overwritten cells), named like the HBase shell's compact and major_compact.
 */
public record CompactTable(QualifiedName name, boolean major) implements Statement {
  public CompactTable {
    requireNonNull(name, "name is null");
  }
}
