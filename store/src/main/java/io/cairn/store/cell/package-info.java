/**
 * The cell model shared by memstores, block files and merging scanners: {@link
 * io.cairn.store.cell.CellCursor} (cells in (row ascending, sequence id descending) order, puts and
 * tombstones) and {@link io.cairn.store.cell.RowCursor} (the visible rows of a scan, read in place
 * without allocation), with {@link io.cairn.store.cell.RowCursors} and the heap-backed {@link
 * io.cairn.store.cell.HeapRowCursor}. Uses no other package of the store.
 *
 * <h2>Threads and locks</h2>
 *
 * <p>A cursor is used by one thread at a time and holds no lock; {@code close()} is idempotent and
 * releases the blocks the cursor holds. Callers hold no lock for a scan; a region's conditional
 * write reads cursors with the region's write lock held.
 */
package io.cairn.store.cell;
