/**
 * A table's state, the jobs that change it, and the paths of its writes and scans across regions.
 * {@link io.cairn.store.table.RegionMap} holds the regions, options, id/file/region counters and
 * the manifest, published together (LevelDB's {@code VersionSet}), and opens them from the
 * manifest; {@link io.cairn.store.table.TableManifest} is its durable text form (format in
 * docs/format-store.md), and {@link io.cairn.store.table.TableFiles} where the manifest and block
 * files go (the table's directory, or nowhere in the in-memory mode, chosen once). {@link
 * io.cairn.store.table.Flusher} writes a region's memstores to a file, {@link
 * io.cairn.store.table.Compactor} merges its files (picked by {@link
 * io.cairn.store.table.CompactionPolicy}, recorded in {@link io.cairn.store.table.CompactionLog}),
 * {@link io.cairn.store.table.RegionSplitter} splits it in two; all three write files through
 * {@link io.cairn.store.table.StoreFileWriter} and tell the table and store what happened through
 * {@link io.cairn.store.table.MaintenanceListener}, never calling them directly. {@link
 * io.cairn.store.table.WriteRouter} groups a batch by region, checks its conditions, makes its log
 * edits and replays them at open (the store's commit locks, applies and logs); {@link
 * io.cairn.store.table.RegionsSnapshot} is a scan's view across the regions at one read point.
 *
 * <p>Locks: {@code RegionMap.lock()} guards the manifest, the counters and the options; whoever
 * publishes a change (new files of a region, new regions, options) holds it while writing the
 * manifest and publishing. A flush, compaction or split holds the region's maintenance lock
 * throughout (taken before the map's lock, never after it); a split also takes the parent's write
 * lock inside the map's lock. Callers of the jobs hold no lock. Condition checks run with the write
 * locks of the batch's regions held by the store's commit; a scan's snapshot takes no lock (it
 * acquires region states, retrying when a split retired one). Uses {@code io}, {@code cell}, {@code
 * wal}, {@code memstore}, {@code file}, {@code scan}, {@code region} and {@code stats} of the
 * store, nothing above.
 */
package io.cairn.store.table;
