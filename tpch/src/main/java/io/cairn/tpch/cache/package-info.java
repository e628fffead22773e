/**
 * {@code bin/cairn bench cache}: the read path of a durable store with and without its block cache
 * (scans with the data in the off-heap cache, in the OS page cache only and cold; heap bytes per
 * row and per get; concurrent clients; a mixed workload), over a table built for it ({@link
 * io.cairn.tpch.cache.CacheCommand}, {@link io.cairn.tpch.cache.CacheTable}, {@link
 * io.cairn.tpch.cli.JvmMeters}); docs/benchmarks.md, "Block cache".
 */
package io.cairn.tpch.cache;
