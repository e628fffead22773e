/**
 * The identifier rules shared by Cairn's own grammar and the Calcite front end ({@link
 * io.cairn.sql.Identifiers}: unquoted names fold to upper case, quoted ones keep their case, one
 * way everywhere). Below {@code io.cairn.sql.grammar} (the ANTLR grammar, the statement classifier)
 * and {@code io.cairn.sql.tree} (the DDL syntax tree); uses no other package.
 */
package io.cairn.sql;
