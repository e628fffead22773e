package io.cairn.sql.tree;

import static java.util.Objects.requireNonNull;

/**
 * One key part of {@code CREATE INDEX}: a column or an expression over the table's columns, as its
 * exact source text (the planner parses it), and its order; ASC when none is written.
 */
public record IndexPart(String expression, Ordering ordering) {
  public IndexPart {
    requireNonNull(expression, "expression is null");
    requireNonNull(ordering, "ordering is null");
  }
}
