/**
 * The KV SPI that every storage backend implements: the embedded store, the remote client and,
 * later, an HBase adapter. Keys are {@link io.cairn.kv.Bytes} compared as unsigned bytes; a scan
 * carries a {@link io.cairn.kv.ScanProgram} that the store runs next to the data.
 */
package io.cairn.kv;
