/**
 * The JDBC implementation over the engine contract in {@code io.cairn.jdbc.internal.engine}.
 *
 * <ul>
 *   <li>{@link io.cairn.jdbc.internal.CairnConnection} drives one engine {@code Session}.
 *   <li>{@link io.cairn.jdbc.internal.CairnStatement} and {@link
 *       io.cairn.jdbc.internal.CairnPreparedStatement} execute {@code PreparedCommand}s, one {@code
 *       ExecutionControl} per execution; {@code cancel()} reaches the running one.
 *   <li>{@link io.cairn.jdbc.internal.CairnResultSet} reads a {@code ResultCursor}; the in-memory
 *       catalog result sets of {@link io.cairn.jdbc.internal.CairnDatabaseMetaData} use the same
 *       class over a {@link io.cairn.jdbc.internal.ListResultCursor}.
 *   <li>{@link io.cairn.jdbc.internal.JdbcValues} is the one place that converts values and {@link
 *       io.cairn.jdbc.internal.JdbcErrors} the one place that maps errors; {@link
 *       io.cairn.jdbc.internal.JdbcTypes} says how Cairn's types look through JDBC.
 * </ul>
 *
 * <p>Choices worth knowing: the current schema is kept by the connection ({@code PUBLIC} by
 * default) and not passed to the engine yet; {@code commit()} and {@code rollback()} in autocommit
 * mode are passed to the session, which ignores them; TIME/TIMESTAMP without a declared precision
 * report 9 fractional digits; DatabaseMetaData's function lists are empty until the engine
 * publishes what its evaluator supports, and {@code nullsAreSortedHigh} follows Calcite's default
 * collation.
 */
package io.cairn.jdbc.internal;
