/**
 * Cairn's ANTLR4 grammar ({@code CairnSqlBase.g4}) for DDL and dialect statements, and {@link
 * io.cairn.sql.grammar.CairnSqlParser}, which turns a statement into an {@link
 * io.cairn.sql.tree.Statement}. Queries and DML go to Calcite instead; {@link
 * io.cairn.sql.grammar.CairnSqlParser#handles} decides by the leading keywords.
 *
 * <h2>Lexical rules</h2>
 *
 * <ul>
 *   <li>Keywords are case-insensitive. Comments are {@code -- to end of line} and {@code /* ...
 *       *&#47;}; they may appear between any two tokens.
 *   <li>Identifiers follow {@link io.cairn.sql.Identifiers} (Calcite's defaults): {@code "Mixed"}
 *       keeps case and {@code ""} inside quotes is one quote; unquoted names are upper-cased. The
 *       keywords ASC, DESC, IF, KEY and SPLIT may be used as unquoted identifiers; the others are
 *       reserved.
 *   <li>String literals use single quotes, {@code ''} inside is one quote.
 *   <li>A statement may end with one {@code ;}.
 * </ul>
 *
 * <h2>Statements</h2>
 *
 * <pre>{@code
 * CREATE TABLE [IF NOT EXISTS] [schema.]name (
 *     columnDef [, columnDef]*
 *     [, [CONSTRAINT cname] PRIMARY KEY (col [ASC|DESC] [, ...])] )
 *   [option = value [, option = value]*]
 *   [SPLIT ON (expression [, expression]*)]
 *
 * columnDef  := name type [NOT NULL | NULL] [PRIMARY KEY [ASC|DESC]] [DEFAULT expression]
 * type       := BOOLEAN | TINYINT | SMALLINT | INTEGER | INT | BIGINT | FLOAT | REAL
 *             | DOUBLE [PRECISION] | {DECIMAL | NUMERIC} [(p [, s])]
 *             | {CHAR | CHARACTER} [(n)] | {VARCHAR | CHARACTER VARYING | CHAR VARYING} [(n)]
 *             | DATE | TIME | TIMESTAMP | {VARBINARY | BINARY VARYING} [(n)]
 * value      := 'string' | [-]number | identifier | TRUE | FALSE
 *
 * DROP TABLE [IF EXISTS] [schema.]name
 * }</pre>
 *
 * <p>Type synonyms are folded: INT is INTEGER, REAL is FLOAT (4 bytes in Cairn), DOUBLE PRECISION
 * is DOUBLE, NUMERIC is DECIMAL, CHARACTER is CHAR, CHARACTER/CHAR VARYING is VARCHAR, BINARY
 * VARYING is VARBINARY. Option names are upper-cased; option values keep their kind (string, number
 * as written, normalised identifier, boolean).
 *
 * <p>An {@code expression} (DEFAULT, SPLIT ON) is not parsed here: it is a non-empty run of tokens
 * with balanced parentheses that ends before a top-level {@code ,}, {@code )} or {@code ;} (and,
 * after DEFAULT, before PRIMARY, CONSTRAINT or DEFAULT). The tree keeps its exact source text,
 * which the planner hands to Calcite's expression parser; DEFAULT therefore comes last in a column
 * definition.
 *
 * <h2>Checks beyond syntax</h2>
 *
 * Duplicate column names, a second inline PRIMARY KEY, an inline and a table-level PRIMARY KEY
 * together, unknown or repeated PRIMARY KEY columns, duplicate option names, zero-length quoted
 * identifiers, zero lengths or precisions, and a DECIMAL scale above its precision are reported as
 * {@link io.cairn.sql.grammar.ParsingException} at the offending token.
 *
 * <h2>Errors</h2>
 *
 * The first syntax error stops the parse (no recovery) and becomes a {@link
 * io.cairn.sql.grammar.ParsingException} with a 1-based line and column, the offending token and
 * the expected tokens, e.g. {@code Syntax error at line 1, column 27: found [PRIMARY], expected one
 * of [',', ')']}.
 */
package io.cairn.sql.grammar;
