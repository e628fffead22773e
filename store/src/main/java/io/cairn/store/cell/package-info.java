/** The cell model shared by memstores, block files and merging scanners. */
package io.cairn.store.cell;
