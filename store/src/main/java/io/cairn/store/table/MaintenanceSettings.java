package io.cairn.store.table;

/**
 * The store settings a table's flushes, compactions and splits follow (from the store's
 * configuration).
 *
 * @param regionSplitBytes a region splits when its files pass this size
 * @param compactionMinFiles a minor compaction starts when a region has this many files
 * @param compactionMaxFiles a minor compaction merges at most this many files
 * @param compactionRatio a file joins a minor compaction when it is at most this many times the
 *     size of the newer files selected
 * @param compactionBytesPerSecond compactions write at most this many bytes a second (0: no limit)
 */
public record MaintenanceSettings(
    long regionSplitBytes,
    int compactionMinFiles,
    int compactionMaxFiles,
    double compactionRatio,
    long compactionBytesPerSecond) {}
