/**
 * Statistics of regions: {@link io.cairn.server.stats.StatisticsCollector} counts rows and bytes in
 * key-ordered chunks as a flush, compaction or collection reads a region; {@link
 * io.cairn.server.stats.RegionStatistics} holds one region's (merged after a flush, clipped after a
 * split); {@link io.cairn.server.stats.StatisticsTable} reads and writes their rows in SYSTEM.STATS
 * through the KV SPI.
 *
 * <p>Locks: none of its own; values are immutable and a collector belongs to one thread (the caller
 * holds the region's maintenance lock while it collects). Uses no other package of the server.
 */
package io.cairn.server.stats;
