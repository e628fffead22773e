package io.cairn.sql.tree;

/**
 * A statement parsed by Cairn's grammar. Each statement is an immutable record; equality is plain
 * record equality (no source positions), so tests can compare whole trees.
 *
 * <p>A new statement is a new record added to the {@code permits} list.
 */
public sealed interface Statement
    permits CreateTable,
        DropTable,
        AlterTableSet,
        FlushTable,
        CompactTable,
        SplitTable,
        UpdateStatistics,
        CreateIndex,
        DropIndex,
        AlterIndex,
        CheckIndex {}
