/**
 * The driver's executor: runs a physical plan ({@code io.cairn.planner.plan}) as a tree of
 * row-at-a-time {@link io.cairn.jdbc.internal.exec.Operator}s ({@link
 * io.cairn.jdbc.internal.exec.Operators}, {@link io.cairn.jdbc.internal.exec.WindowOperator}) under
 * a {@link io.cairn.jdbc.internal.exec.QueryExecution}. Table scans go to the store through the KV
 * SPI, split into chunks at statistics guide posts and run in parallel ({@link
 * io.cairn.jdbc.internal.exec.TableScan}, {@link io.cairn.jdbc.internal.exec.ChunkedScan}, {@link
 * io.cairn.jdbc.internal.exec.ScanPool}); a transaction's own writes are laid over its snapshot's
 * rows ({@link io.cairn.jdbc.internal.exec.OverlayScan}, {@link
 * io.cairn.jdbc.internal.exec.TransactionWrites}). Operators reserve what they hold in the query's
 * pool of {@link io.cairn.jdbc.internal.exec.DriverMemory}; past it, joins, sorts and groupings
 * spill to the query's files ({@code io.cairn.jdbc.internal.exec.spill}). Uses the engine contract
 * and core, never the session or the JDBC classes above it. One execution runs on its caller's
 * thread, with scan chunks on the scan pool.
 */
package io.cairn.jdbc.internal.exec;
