/**
 * The engine contract between the JDBC layer and whatever runs SQL: a {@link
 * io.cairn.jdbc.internal.engine.SessionFactory} opens a {@link
 * io.cairn.jdbc.internal.engine.Session} per JDBC connection; a session prepares {@link
 * io.cairn.jdbc.internal.engine.PreparedCommand}s (with their {@link
 * io.cairn.jdbc.internal.engine.ParameterInfo} and {@link
 * io.cairn.jdbc.internal.engine.ColumnInfo}) whose runs give a {@link
 * io.cairn.jdbc.internal.engine.CommandResult} (an update count or a cursor of rows) under an
 * {@link io.cairn.jdbc.internal.engine.ExecutionControl} that cancels and times out. Interfaces and
 * records only; uses no other package of the driver. A session is used by one thread at a time,
 * except that cancel may come from any thread.
 */
package io.cairn.jdbc.internal.engine;
