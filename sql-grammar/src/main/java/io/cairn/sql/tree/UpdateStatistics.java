package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

/**
 * {@code UPDATE STATISTICS name [ALL | COLUMNS]}: collects the table's statistics now (Phoenix's
 * statement; ALL and COLUMNS are accepted and mean the same here: a table has no indexes).
 */
public record UpdateStatistics(QualifiedName name) implements Statement {
  public UpdateStatistics {
    requireNonNull(name, "name is null");
  }
}
