/**
 * Immutable AST records produced by {@link io.cairn.sql.grammar.CairnSqlParser}, in the manner of
 * Trino's {@code io.trino.sql.tree}. Names are normalised by {@link io.cairn.sql.Identifiers};
 * expressions are kept as source text for Calcite's expression parser.
 */
package io.cairn.sql.tree;
