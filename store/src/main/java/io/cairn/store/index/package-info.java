/**
 * Local secondary indexes inside the store. An index entry lives in the region of its row, in the
 * table's index key space ({@link io.cairn.kv.IndexKeys}: keys from {@code 0x80}, which no row key
 * of a table with a primary key starts with), and ends with its row's key, so that a region owns
 * the entries of its rows ({@link io.cairn.store.region.Region#owns}) and a split carries them with
 * the rows without any special reader: the daughters share the parent's files and each reads,
 * flushes and compacts only what it owns.
 *
 * <p>{@link io.cairn.store.index.IndexMaintainer} is a table's set of maintained indexes: a commit
 * asks it, under its regions' write locks, for the entry changes of its row changes and writes them
 * in the same batch, under the same sequence id and log record, so that no crash leaves a row
 * without its entry or an entry without its row. {@link io.cairn.store.index.IndexBuilder} builds
 * an index from a snapshot while writes go on (entries written at the snapshot's sequence id, so
 * later writes win); {@link io.cairn.store.index.IndexChecker} compares an index with its rows.
 * {@link io.cairn.store.index.IndexReads} reads an index in each region: the entries (covered) or
 * their rows (lookup, in the same region and snapshot). {@link io.cairn.store.index.SortedEntries}
 * is a build's sorted chunk of entries; a region built in pieces has its entries cut into buckets
 * of key ranges ({@link io.cairn.store.index.EntryBuckets}), each sorted within the CPU caches and
 * written in order, no merge comparing keys. An index of plain columns without INCLUDE gets its
 * entries from the row's bytes ({@code RowReader.appendKey}), no value decoded. A dropped index is
 * only left out of the maintained set: its entries are skipped by readers and dropped by the next
 * compaction ({@code RegionMap.liveIndexes}).
 *
 * <p>Locks: the maintainer is immutable and called by commits holding the regions' write locks; a
 * build holds each region's maintenance lock while it builds it (no flush, compaction or split of
 * it meanwhile; writes go on) and the table map's lock to publish its files. Uses {@code cell},
 * {@code memstore}, {@code file}, {@code scan}, {@code region}, {@code stats} and {@code table} of
 * the store, nothing above.
 */
package io.cairn.store.index;
