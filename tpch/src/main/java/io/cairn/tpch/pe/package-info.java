/**
 * {@code bin/cairn pe}: the KV performance evaluation, after HBase's PerformanceEvaluation: one
 * command (sequential or random writes, reads, scans) run by several client threads straight on the
 * KV layer of a store, with latency percentiles and throughput per client and in all ({@link
 * io.cairn.tpch.pe.PeCommand}, {@link io.cairn.tpch.pe.PeResult}, {@link
 * io.cairn.tpch.pe.PeTable}).
 */
package io.cairn.tpch.pe;
