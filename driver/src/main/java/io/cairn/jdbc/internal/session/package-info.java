/**
 * One SQL session over a {@link io.cairn.jdbc.internal.session.Database} (a store reached through
 * the KV SPI, its catalog and planner), the same code for the embedded and the remote engine:
 * {@link io.cairn.jdbc.internal.session.DatabaseSession} plans statements, runs queries on the
 * executor ({@code exec}), applies writes ({@link io.cairn.jdbc.internal.session.Mutations}) and
 * keeps transactions (snapshot isolation); {@link io.cairn.jdbc.internal.session.DatabaseCommand}
 * is a prepared statement of it. Uses {@code engine} and {@code exec}; a session is used by one
 * thread at a time.
 */
package io.cairn.jdbc.internal.session;
