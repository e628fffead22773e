/**
 * {@code bin/cairn bench lineitem}: the TPC-H LINEITEM suite (count, Q1, Q6, lookups, ...) run
 * against Cairn and, side by side, another JDBC database ({@code --compare-url}), with answers
 * checked and medians reported ({@link io.cairn.tpch.bench.LineitemCommand}, {@link
 * io.cairn.tpch.bench.LineitemSuite}); the SQL dialect of each engine ({@link
 * io.cairn.tpch.bench.Dialect}) and the machine's figures that come with every report (CPU time,
 * memory bandwidth).
 */
package io.cairn.tpch.bench;
