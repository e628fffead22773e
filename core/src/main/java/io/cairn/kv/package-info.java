/**
 * The KV SPI that every storage backend implements: the embedded store, the remote client and,
 * later, an HBase adapter. Keys are {@link io.cairn.core.bytes.Bytes} compared as unsigned bytes; a
 * scan carries a {@link io.cairn.kv.ScanProgram} that the store runs next to the data. A table
 * reports its chunks ({@link io.cairn.kv.TableStatistics}), at which parallel scans cut their key
 * ranges; a backend that answers asynchronously also offers {@link io.cairn.kv.AsyncPageScans}, so
 * that the chunks of a scan hold no thread each.
 */
package io.cairn.kv;
