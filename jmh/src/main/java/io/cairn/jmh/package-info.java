/**
 * JMH microbenchmarks of the read path (docs/benchmarks.md, "Block cache"): SQL scans and point
 * reads through the driver ({@link io.cairn.jmh.BenchmarkCachedScan}, {@link
 * io.cairn.jmh.BenchmarkPointGet}) and the KV scanner and get alone ({@link
 * io.cairn.jmh.BenchmarkKvScan}, {@link io.cairn.jmh.BenchmarkKvGet}), over tables built once per
 * trial ({@link io.cairn.jmh.KvReadPathTable}, {@link io.cairn.jmh.SqlReadPathTable}) with the
 * block cache counted ({@link io.cairn.jmh.BlockCacheCounters}). Each benchmark has a one-iteration
 * smoke test in the module's tests.
 */
package io.cairn.jmh;
