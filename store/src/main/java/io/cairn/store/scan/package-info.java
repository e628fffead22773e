/**
 * Reading across the layers of a region: merging sorted cell cursors (memstores and block files)
 * and picking, per row, the version visible at a read point.
 */
package io.cairn.store.scan;
