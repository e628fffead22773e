/**
 * The network server module's root: the offline store tool {@code bin/cairn store check|salvage}
 * ({@link io.cairn.server.StoreMain}, docs/format-store.md "Salvage"), which opens a store
 * directory with the store's own salvage and reports what it finds. The server itself is in {@code
 * io.cairn.server.rpc}, above {@code status} and {@code security}; the storage engine it serves is
 * the store module ({@code io.cairn.store}).
 */
package io.cairn.server;
