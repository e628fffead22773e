/**
 * Spilling of the driver's operators to local disk: a query's {@link
 * io.cairn.jdbc.internal.exec.spill.SpillSpace} (a directory of its own under the spill root,
 * deleted when the query ends, fails, is cancelled or dropped, and at JVM exit), the row files in
 * it ({@link io.cairn.jdbc.internal.exec.spill.SpillWriter}, {@link
 * io.cairn.jdbc.internal.exec.spill.SpillReader}: rows in Cairn's tagged value encoding) and the
 * hash partitioning of rows into several files ({@link
 * io.cairn.jdbc.internal.exec.spill.SpillPartitions}). Uses core and the protocol's value encoding
 * only, nothing of the executor above it.
 */
package io.cairn.jdbc.internal.exec.spill;
