/**
 * The embedded engine: {@code jdbc:cairn:mem:NAME} and {@code jdbc:cairn:file:DIR} run the store in
 * this JVM ({@code io.cairn.store.Stores}). {@link
 * io.cairn.jdbc.internal.embedded.EmbeddedDatabase} is one store with its catalog and plan cache,
 * shared by every connection of the JVM that names it (a file database is opened by its first
 * connection and closed by its last); {@link
 * io.cairn.jdbc.internal.embedded.EmbeddedSessionFactory} opens sessions over it. Uses {@code
 * session} and the store module; thread-safe.
 */
package io.cairn.jdbc.internal.embedded;
