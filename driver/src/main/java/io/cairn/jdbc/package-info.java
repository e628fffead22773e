/**
 * Cairn's JDBC driver. The public API is {@link io.cairn.jdbc.CairnDriver}; everything else is in
 * {@code io.cairn.jdbc.internal} and reached through the {@code java.sql} interfaces.
 *
 * <h2>URLs</h2>
 *
 * <ul>
 *   <li>{@code jdbc:cairn:mem:NAME}: an in-memory store in this JVM (NAME: letters, digits, {@code
 *       _ - .}).
 *   <li>{@code jdbc:cairn:file:DIR}: a durable store in directory DIR (absolute, or relative to the
 *       working directory; {@code ~} is not expanded), shared by every connection of this JVM to
 *       the same directory and closed (flushed, its lock released) when the last one closes.
 *   <li>{@code jdbc:cairn://host:port}: reserved; it fails with SQLState 08001 until the remote
 *       client exists.
 * </ul>
 *
 * <p>Connection properties, given to {@code connect} or at the end of the URL as {@code
 * ;name=value}: {@code durability} (SKIP, ASYNC, SYNC or FSYNC, any case) sets how far the
 * connection's writes go before they are acknowledged (unset: each table's DURABILITY option);
 * {@code parallelism} (a positive integer; default: the processors available to the JVM) bounds how
 * many chunks of one table scan run at once; properties starting with {@code cairn.} are store
 * settings, passed to a file store when it opens (the store rejects unknown ones).
 *
 * <h2>What the driver supports</h2>
 *
 * <p>Forward-only, read-only result sets that hold over commits; READ_COMMITTED only; autocommit on
 * by default; batches; query timeouts and {@code Statement.cancel()} from any thread (they also
 * stop the reading of a result set); {@code setMaxRows}. Anything else that JDBC makes optional
 * throws {@link java.sql.SQLFeatureNotSupportedException} (0A000) rather than returning a silently
 * wrong answer: scrollable or updatable result sets, savepoints, stored procedures, LOBs, arrays,
 * custom type maps, network timeouts. Auto-generated key flags are accepted and {@code
 * getGeneratedKeys()} is empty.
 *
 * <h2>Values</h2>
 *
 * <p>DATE, TIME and TIMESTAMP are zone-less. {@code setDate/setTime/setTimestamp} and the getters
 * without a Calendar go through {@code toLocalDate()/toLocalTime()/toLocalDateTime()} and {@code
 * valueOf(...)}, which keep the wall-clock value; the Calendar variants read and return the instant
 * of the value in that calendar's zone, as JDBC specifies. {@code getObject} returns JDBC's classes
 * (TINYINT and SMALLINT as Integer, FLOAT, which is 4 bytes in Cairn, as Float and Types.REAL);
 * {@code getObject(i, LocalDate.class)} and friends return java.time values.
 *
 * <p>Parameters are converted when they are set, to the Java class the parameter's type expects:
 * strings are parsed (22018 or 22007 naming the value when they do not parse), numbers are checked
 * against the target range (22003), and a fraction bound to an integer parameter is rejected
 * (22018) instead of being truncated. Getters follow the usual JDBC driver habit of truncating
 * fractions toward zero (getInt of 2.7 is 2) but fail with 22003 when the value does not fit.
 *
 * <h2>Errors</h2>
 *
 * <p>Every error is an SQLException with the SQLState and vendor code of Cairn's {@code ErrorCode};
 * the subclass follows the SQLState class (42 syntax, 23 integrity, 22 data, 0A feature, 08
 * connection, 57014 timeout as SQLTimeoutException). Unexpected exceptions from the engine become
 * XX000 with the original as the cause.
 */
package io.cairn.jdbc;
