package io.cairn.store;

import static java.util.Objects.requireNonNull;

import io.cairn.core.memory.MemoryPool;
import io.cairn.store.file.ReadContext;
import io.cairn.store.region.Mvcc;
import io.cairn.store.stats.StatisticsPersistence;
import io.cairn.store.table.CompactionLog;

/**
 * What a table of the store uses of the store: the store's parts themselves, and three narrow
 * callbacks for what only the store can do (it knows all its tables or its life). {@link
 * EmbeddedStore} builds one, once its sequence ids are known (after the log's replay), and hands it
 * to every {@link EmbeddedTable}; a table holds no reference to the store.
 *
 * <p>Locks: none of its own; each part says what its callers may hold. The callbacks take no lock
 * of the store's: {@code trimLog} reads every table's regions without their locks, as {@link
 * EmbeddedStore} always did.
 *
 * @param config the settings the store was opened with (a table reads its maintenance settings)
 * @param readContext the buffer pool and block cache the store's files read through
 * @param queryMemory the pool of scans whose request names none
 * @param mvcc the store's sequence ids and read points
 * @param timeIndex commit times of sequence ids (TTL)
 * @param compactionLog the compactions running and the last ones that ended
 * @param memstoreBudget the bytes of all memstores against the store's limit
 * @param background the flushes, compactions and statistics collections in the background
 * @param statistics keeps SYSTEM.STATS in step with the regions' statistics
 * @param commits the store's atomic batches across regions
 * @param checkOpen throws {@code OBJECT_CLOSED} once the store is closed
 * @param trimLog deletes the log segments whose edits are all in files (all tables' regions)
 * @param persistTimeIndex writes the time index when it changed (nothing in memory)
 */
record TableServices(
    StoreConfig config,
    ReadContext readContext,
    MemoryPool queryMemory,
    Mvcc mvcc,
    TimeIndex timeIndex,
    CompactionLog compactionLog,
    MemstoreBudget memstoreBudget,
    BackgroundWork background,
    StatisticsPersistence statistics,
    Commits commits,
    Runnable checkOpen,
    Runnable trimLog,
    Runnable persistTimeIndex) {
  TableServices {
    requireNonNull(config, "config is null");
    requireNonNull(readContext, "readContext is null");
    requireNonNull(queryMemory, "queryMemory is null");
    requireNonNull(mvcc, "mvcc is null");
    requireNonNull(timeIndex, "timeIndex is null");
    requireNonNull(compactionLog, "compactionLog is null");
    requireNonNull(memstoreBudget, "memstoreBudget is null");
    requireNonNull(background, "background is null");
    requireNonNull(statistics, "statistics is null");
    requireNonNull(commits, "commits is null");
    requireNonNull(checkOpen, "checkOpen is null");
    requireNonNull(trimLog, "trimLog is null");
    requireNonNull(persistTimeIndex, "persistTimeIndex is null");
  }
}
