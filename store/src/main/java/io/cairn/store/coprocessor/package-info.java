/**
 * The scan-program runner: {@link io.cairn.store.coprocessor.ProgramScanner} runs a {@link
 * io.cairn.kv.ScanProgram} (filter, projection, offset and limit, aggregates with or without a
 * GROUP BY, ORDER BY with a bounded top-N) over the visible rows of a scan, next to the data, for
 * the store's tables and system views, the network server and the driver. Its parts, one job each,
 * are package-private: {@code CompiledProgram} (a program compiled once and cached), {@code
 * ProgramRows} (the row-at-a-time filter and projection, read in place), {@code
 * ProgramAggregation}, {@code ProgramGrouping} (hash aggregation), {@code ProgramGroupRuns} (the
 * streaming aggregation of rows that come grouped, a local index read in its order) and {@code
 * ProgramSort} (sort and top-N). Uses only {@code io.cairn.store.cell} of the store (the {@link
 * io.cairn.store.cell.RowCursor} it reads), with core's expressions, aggregates and memory pools.
 * Where the cursor offers a whole data block as column vectors ({@link
 * io.cairn.store.cell.BlockRun}), {@code ProgramRows} selects its rows with the filter's {@link
 * io.cairn.core.expr.VectorFilter}, skips a block it rejects whole, and hands the selected rows of
 * the others to an aggregation that can read them from the vectors ({@code AggregateInputs}, {@code
 * ProgramGrouping}); otherwise it reads the block's rows one at a time.
 *
 * <h2>Threads and locks</h2>
 *
 * <p>Callers hold no lock: the rows are a snapshot (a region state the scan acquired, or rows in
 * memory), so a scan never blocks writers. A scanner's {@code next} is called by one thread at a
 * time; {@code close} may come from any thread (a cancel) and is then completed by the scanning
 * thread when its call returns. The cache of compiled programs is a concurrent map; a compiled
 * program is immutable but for one spare row reader, handed over atomically. What a grouping or
 * sorting scan holds is counted in the memory pools the caller passes, which are thread-safe.
 */
package io.cairn.store.coprocessor;
