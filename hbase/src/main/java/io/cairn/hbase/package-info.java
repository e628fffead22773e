/**
 * Cairn's KV SPI over Apache HBase 2.6 (issue 19, being built; docs/hbase.md): {@link
 * io.cairn.hbase.HBaseKvStore} keeps each Cairn table as an HBase table of one family and one cell
 * per row, and runs scan programs next to the data in the region servers ({@link
 * io.cairn.hbase.server.CairnRegionObserver}) when the regions' results join by concatenation, else
 * in the client over the rows HBase returns. What HBase cannot give Cairn's SPI (atomic multi-row
 * batches, read points) is refused with NOT_SUPPORTED, never faked.
 */
package io.cairn.hbase;
