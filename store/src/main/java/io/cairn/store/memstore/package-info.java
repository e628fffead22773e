/**
 * The in-memory layer of a region: {@link io.cairn.store.memstore.Memstore}, a concurrent skip list
 * of cells keyed by (row ascending, sequence id descending), each a value or a tombstone, with its
 * estimated heap size and sequence id bounds; and {@link io.cairn.store.memstore.KeyValue}, a
 * visible row. A region has one active memstore that takes writes and frozen ones being flushed;
 * the flush that turns them into a block file lives in {@code io.cairn.store.table}. Uses only
 * {@code io.cairn.store.cell} of the store (the cursor a memstore serves).
 *
 * <h2>Threads and locks</h2>
 *
 * <p>One writer at a time: {@code put} and {@code delete} are called with the owning region's write
 * lock held (the commit), or at open by the single thread that replays the log; they update the
 * sequence id bounds without a lock of their own on that ground. Reads ({@code latest}, {@code
 * exists}, cursors, sizes) take no lock and may run at any time; a cursor is used by one thread.
 * {@code remove} (a failed write's rollback) is safe with or without the region's write lock: the
 * commit calls it either way. This package takes no lock.
 */
package io.cairn.store.memstore;
