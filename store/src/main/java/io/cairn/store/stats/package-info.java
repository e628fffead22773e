/**
 * Statistics of regions: {@link io.cairn.store.stats.StatisticsCollector} counts rows and bytes in
 * key-ordered chunks as a flush, compaction or collection reads a region; {@link
 * io.cairn.store.stats.RegionStatistics} holds one region's (merged after a flush, clipped after a
 * split); {@link io.cairn.store.stats.StatisticsKeeper} holds a table's, one per region, collects a
 * region's by reading its visible rows, and answers the table's statistics, SYSTEM.STATS rows and
 * row count estimate (a split gives the daughters theirs before they are published and drops the
 * parent's after, so no reader counts a shared file whole); {@link
 * io.cairn.store.stats.StatisticsTable} reads and writes their rows in SYSTEM.STATS through the KV
 * SPI; {@link io.cairn.store.stats.StatisticsPersistence} keeps those rows in step with the
 * regions' statistics of a durable store (restored at open, rewritten in the background; its
 * callers may hold a region's maintenance lock: it only queues the writes, which commit through the
 * store, taking SYSTEM.STATS's region locks, on the store's statistics thread). Local indexes have
 * theirs: {@link io.cairn.store.stats.IndexStatisticsKeeper} holds a table's {@link
 * io.cairn.store.stats.IndexRegionStatistics}, one per (region, index), collected with the region's
 * own from the entries the region owns (guide posts, and the distinct values of the first key
 * part), halved between a split's daughters, dropped with their index, and persisted in the same KV
 * table under the table's name with a suffix. Column statistics too: {@link
 * io.cairn.store.stats.RegionColumnStatistics} (per column a {@link
 * io.cairn.store.stats.DistinctSketch}, nulls, min/max), counted by the keeper's collections once
 * the table's layout is defined, merged over the regions, persisted as one row per region.
 *
 * <p>Locks: none of its own. Values are immutable; the keeper's map is concurrent, and whoever
 * installs a region's statistics holds that region's maintenance lock (a flush, compaction, split
 * or collection), so one region's installs never race. A collector belongs to one thread. Uses
 * {@code cell}, {@code memstore}, {@code file} and {@code region} of the store, nothing above.
 */
package io.cairn.store.stats;
