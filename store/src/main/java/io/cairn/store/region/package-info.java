/**
 * A table's key ranges and the store's version control: {@link io.cairn.store.region.Region} (one
 * key range: an active memstore, frozen memstores and block files, published together as an
 * immutable {@link io.cairn.store.region.RegionState}; writes, existence checks, scans and the
 * state changes of flush, compaction and split), {@link io.cairn.store.region.StoreFile} (an open,
 * reference-counted block file shared by regions and scans) and {@link io.cairn.store.region.Mvcc}
 * (one sequence id per batch for the whole store, the read point, the read points of open scans and
 * snapshots). The jobs that change regions (flusher, compactor, splitter, the manifest) live in
 * {@code io.cairn.store.table}. Uses {@code io.cairn.store.io}, {@code cell}, {@code memstore},
 * {@code cache}, {@code file} and {@code scan} (the merging cursor and the visibility filter).
 *
 * <h2>Threads and locks</h2>
 *
 * <p>A region has two locks, which it hands out ({@code writeLock()}, {@code maintenanceLock()}):
 *
 * <ul>
 *   <li>The <b>write lock</b>: {@code apply}, {@code rowExists} and {@code latestSequenceId} are
 *       called with it held (the store's commit locks every region of a batch, in (table id, start
 *       key) order, checks conditions, takes a sequence id from {@link
 *       io.cairn.store.region.Mvcc#begin()} and applies; a split holds the parent's). {@code
 *       freeze}, {@code completeFlush}, {@code replaceFiles} and {@code statisticsCollected} take
 *       it themselves, briefly, to publish a new state or reset the change counters.
 *   <li>The <b>maintenance lock</b> serialises the flushes, compactions, split and statistics
 *       collections of one region (one state change at a time): {@code freeze}, {@code
 *       completeFlush} and {@code replaceFiles} are called with it held, and a dropped table's
 *       regions wait on it for the work under way. It is taken before the write lock, never while
 *       holding it.
 * </ul>
 *
 * <p>Reads take no lock: a scan takes a state with {@code acquireState()} (a reference on each
 * file), reads it and releases it, and never blocks writers. {@code rollback} runs with or without
 * the write lock. {@link io.cairn.store.region.StoreFile} and {@link io.cairn.store.region.Mvcc}
 * are thread-safe: a file's reference count is atomic; Mvcc guards its sequence ids and in-flight
 * batches with its own monitor and the open read points with their map's, and is called with region
 * write locks held ({@code begin}) or without ({@code completeAndWait}, reads).
 */
package io.cairn.store.region;
