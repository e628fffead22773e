/**
 * Reading across the layers of one region: {@link io.cairn.store.scan.MergingCursor} merges sorted
 * cell cursors (memstores and block files) and {@link io.cairn.store.scan.VisibleRows} picks, per
 * row, the version visible at a read point (and hides tombstones and expired cells). The view
 * across a table's regions, which needs the regions themselves, sits above, in {@code
 * io.cairn.store.table.RegionsSnapshot}.
 *
 * <p>Locks: none. A cursor belongs to the thread that reads it; its sources are immutable (block
 * files, frozen memstores) or concurrent (the active memstore's skip list), and the caller keeps
 * them alive (a region state it acquired) until the cursor is closed. Uses {@code cell} and {@code
 * memstore}, nothing above.
 */
package io.cairn.store.scan;
