/**
 * Cairn's embedded store, the top of the store module: {@link io.cairn.store.EmbeddedStore} and
 * {@link io.cairn.store.EmbeddedTable} are the KV SPI's store and tables ({@link
 * io.cairn.store.Stores} opens them), in memory or durable in a directory.
 *
 * <p>The store's jobs each have their class: {@link io.cairn.store.StoreDirectory} owns the
 * directory, its lock and every name in it ({@link io.cairn.store.StoreManifest} is the store
 * manifest); {@code Commits} applies one atomic batch across regions; {@code MemstoreBudget} keeps
 * the bytes of all memstores against the store's limit; {@code BackgroundWork} runs the flushes,
 * compactions and statistics collections; {@code TableServices} is what a table uses of the store
 * (these parts, and callbacks for the open check, log trimming and the time index), so that {@code
 * EmbeddedTable} holds no reference to {@code EmbeddedStore}; {@code StoreSystemViews} makes up the
 * rows of the system views; {@code TableIndexStatistics} keeps a table's local indexes' statistics;
 * {@link io.cairn.store.TimeIndex} maps sequence ids to commit times (TTL); {@link
 * io.cairn.store.StoreSalvage} checks files at open. In memory, the directory and the background
 * work are their in-memory kinds (no files; no flushes or compactions), not checks spread over the
 * store.
 *
 * <p>Locks: the store's monitor serialises DDL and the start of its close; a commit takes the write
 * locks of the regions it writes, in (table id, start key) order; a flush, compaction, split or
 * statistics collection holds its region's maintenance lock (see {@code io.cairn.store.table}).
 * Callers of the parts hold no lock unless a part's javadoc says otherwise; the parts take none of
 * each other's. Uses every package of the store below it.
 */
package io.cairn.store;
