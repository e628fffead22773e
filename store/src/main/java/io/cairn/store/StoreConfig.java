package io.cairn.store;

import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.core.memory.MemoryPool;
import io.cairn.store.cache.BlockCacheConfig;
import io.cairn.store.cache.BufferPoolConfig;
import io.cairn.store.io.Settings;
import io.cairn.store.region.Mvcc;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Settings of a durable store, from {@code cairn.*} keys (JDBC properties or the server's
 * configuration file). Sizes accept a k, m or g suffix (powers of 1024). Documented in
 * docs/configuration.md; unknown keys are errors.
 *
 * @param memstoreFlushBytes a region's memstore is flushed to a file past this size
 * @param globalMemstoreBytes all memstores together: past it the largest is flushed, past twice it
 *     writers wait for flushes
 * @param regionSplitBytes a region splits when its files pass this size
 * @param compactionMinFiles a minor compaction starts when a region has this many files
 * @param compactionMaxFiles a minor compaction merges at most this many files
 * @param compactionRatio a file joins a minor compaction when it is at most this many times the
 *     size of the newer files selected with it
 * @param compactionBytesPerSecond compactions write at most this many bytes a second (0: no limit)
 * @param walSegmentBytes the log starts a new segment file past this size
 * @param blockCache the block cache's levels ({@code cairn.block-cache.size} for the off-heap L2,
 *     {@code cairn.block-cache.l1-size} for the on-heap L1)
 * @param readBuffers the most pooled 65 KiB direct buffers that reads from disk use at once
 * @param aggregateMaxBytes the estimated memory one scan may hold: its grouped aggregation's groups
 *     (keys and partial states; past it AGGREGATE_MEMORY_EXCEEDED), its sort buffer or top-N heap
 *     (past it MEMORY_LIMIT_EXCEEDED)
 * @param queryMemoryMaxBytes the estimated memory all scans of the store together may hold when run
 *     in this JVM (embedded; scans of the network server count in its own budgets instead): past it
 *     MEMORY_LIMIT_EXCEEDED; default 40% of the heap
 * @param queryMemoryWaitMillis how long a scan whose state does not fit in queryMemoryMaxBytes
 *     waits for other scans to give memory back before it fails
 * @param snapshotMaxAgeMillis how long the store keeps the versions a snapshot (a statement's or a
 *     transaction's read point) needs; an older snapshot's reads and conditional writes may fail
 *     with SNAPSHOT_TOO_OLD
 * @param openSalvage open a damaged store anyway ({@code cairn.open.salvage}, default false):
 *     damaged or missing files are set aside under {@code DIR/salvaged/} and reported ({@link
 *     EmbeddedStore#salvageReport()}, WARN) instead of failing the open with DATA_CORRUPTED
 * @param vectorCacheBytes the heap that data blocks kept as column vectors may take ({@code
 *     cairn.vector-cache.size}; default an eighth of the heap; 0: none, scans read rows): what
 *     filters and aggregates of full scans read instead of decoding each block's cells
 * @param spillDirectory where a sort in the store whose rows pass aggregateMaxBytes (or the query
 *     memory) writes them as sorted runs, deleted when its scan ends ({@code
 *     cairn.spill.directory}; default {@code java.io.tmpdir}/cairn-spill/store)
 */
public record StoreConfig(
    long memstoreFlushBytes,
    long globalMemstoreBytes,
    long regionSplitBytes,
    int compactionMinFiles,
    int compactionMaxFiles,
    double compactionRatio,
    long compactionBytesPerSecond,
    long walSegmentBytes,
    BlockCacheConfig blockCache,
    int readBuffers,
    long aggregateMaxBytes,
    long queryMemoryMaxBytes,
    long queryMemoryWaitMillis,
    long snapshotMaxAgeMillis,
    boolean openSalvage,
    long vectorCacheBytes,
    Path spillDirectory) {

  public static final String MEMSTORE_FLUSH_SIZE = "cairn.memstore.flush-size";
  public static final String GLOBAL_MEMSTORE_SIZE = "cairn.memstore.global-size";
  public static final String REGION_SPLIT_SIZE = "cairn.region.split-size";
  public static final String COMPACTION_MIN_FILES = "cairn.compaction.min-files";
  public static final String COMPACTION_MAX_FILES = "cairn.compaction.max-files";
  public static final String COMPACTION_RATIO = "cairn.compaction.ratio";
  public static final String COMPACTION_THROUGHPUT = "cairn.compaction.throughput";
  public static final String WAL_SEGMENT_SIZE = "cairn.wal.segment-size";
  public static final String READ_BUFFERS = "cairn.read-buffers";
  public static final String AGGREGATE_MAX_BYTES = "cairn.aggregate.max-bytes";
  public static final String QUERY_MEMORY_MAX_BYTES = "cairn.query-memory.max-bytes";
  public static final String QUERY_MEMORY_WAIT = "cairn.query-memory.wait";

  /**
   * The default of {@link #queryMemoryMaxBytes}, as a fraction of the heap: what queries hold is
   * estimated (real use runs higher), and memstores (a quarter of the heap), cached blocks and
   * everything else need the rest.
   */
  public static final double QUERY_MEMORY_HEAP_FRACTION = 0.4;

  public static final String SNAPSHOT_MAX_AGE = Mvcc.SNAPSHOT_MAX_AGE_SETTING;
  public static final String OPEN_SALVAGE = "cairn.open.salvage";
  public static final String VECTOR_CACHE_SIZE = "cairn.vector-cache.size";
  public static final String SPILL_DIRECTORY = "cairn.spill.directory";

  /** The default of {@link #vectorCacheBytes}, as a fraction of the heap. */
  public static final double VECTOR_CACHE_HEAP_FRACTION = 0.125;

  private static final Set<String> KEYS =
      Set.of(
          MEMSTORE_FLUSH_SIZE,
          GLOBAL_MEMSTORE_SIZE,
          REGION_SPLIT_SIZE,
          COMPACTION_MIN_FILES,
          COMPACTION_MAX_FILES,
          COMPACTION_RATIO,
          COMPACTION_THROUGHPUT,
          WAL_SEGMENT_SIZE,
          BlockCacheConfig.SIZE,
          BlockCacheConfig.L1_SIZE,
          READ_BUFFERS,
          AGGREGATE_MAX_BYTES,
          QUERY_MEMORY_MAX_BYTES,
          QUERY_MEMORY_WAIT,
          SNAPSHOT_MAX_AGE,
          OPEN_SALVAGE,
          VECTOR_CACHE_SIZE,
          SPILL_DIRECTORY);

  /** The defaults, sized for one node with a few GiB of heap. */
  public static StoreConfig defaults() {
    long heap = Runtime.getRuntime().maxMemory();
    return new StoreConfig(
        128L << 20,
        Math.max(64L << 20, heap / 4),
        1L << 30,
        3,
        10,
        1.2,
        256L << 20,
        128L << 20,
        BlockCacheConfig.defaults(),
        256,
        AggregationMemory.DEFAULT_MAX_BYTES,
        MemoryPool.heapFraction(QUERY_MEMORY_HEAP_FRACTION),
        1000,
        10 * 60_000L,
        false,
        (long) (heap * VECTOR_CACHE_HEAP_FRACTION),
        Paths.get(System.getProperty("java.io.tmpdir"), "cairn-spill", "store").toAbsolutePath());
  }

  /**
   * The defaults overridden by {@code settings}.
   *
   * @throws CairnException INVALID_ARGUMENT naming an unknown key or a bad value
   */
  public static StoreConfig from(Map<String, String> settings) {
    StoreConfig d = defaults();
    for (String key : settings.keySet()) {
      if (!KEYS.contains(key)) {
        throw new CairnException(
            ErrorCode.INVALID_ARGUMENT,
            "Unknown store setting [" + key + "]: expected one of " + new TreeSet<>(KEYS));
      }
    }
    StoreConfig c =
        new StoreConfig(
            size(settings, MEMSTORE_FLUSH_SIZE, d.memstoreFlushBytes, 1024),
            size(settings, GLOBAL_MEMSTORE_SIZE, d.globalMemstoreBytes, 1024),
            size(settings, REGION_SPLIT_SIZE, d.regionSplitBytes, 1024),
            (int) size(settings, COMPACTION_MIN_FILES, d.compactionMinFiles, 2),
            (int) size(settings, COMPACTION_MAX_FILES, d.compactionMaxFiles, 2),
            ratio(settings, d.compactionRatio),
            size(settings, COMPACTION_THROUGHPUT, d.compactionBytesPerSecond, 0),
            size(settings, WAL_SEGMENT_SIZE, d.walSegmentBytes, 4096),
            BlockCacheConfig.from(settings, d.blockCache),
            (int) Math.min(1 << 20, size(settings, READ_BUFFERS, d.readBuffers, 0)),
            size(settings, AGGREGATE_MAX_BYTES, d.aggregateMaxBytes, 1024),
            size(settings, QUERY_MEMORY_MAX_BYTES, d.queryMemoryMaxBytes, 1024),
            Settings.millis(settings, QUERY_MEMORY_WAIT, d.queryMemoryWaitMillis, 0),
            Settings.millis(settings, SNAPSHOT_MAX_AGE, d.snapshotMaxAgeMillis, 1),
            bool(settings, OPEN_SALVAGE, d.openSalvage),
            size(settings, VECTOR_CACHE_SIZE, d.vectorCacheBytes, 0),
            directory(settings, d.spillDirectory));
    if (c.compactionMaxFiles < c.compactionMinFiles) {
      throw invalid(
          COMPACTION_MAX_FILES,
          "a value >= " + COMPACTION_MIN_FILES + " (" + c.compactionMinFiles + ")",
          String.valueOf(c.compactionMaxFiles));
    }
    return c;
  }

  private static long size(Map<String, String> settings, String key, long fallback, long min) {
    return Settings.size(settings, key, fallback, min);
  }

  private static Path directory(Map<String, String> settings, Path fallback) {
    String text = settings.get(SPILL_DIRECTORY);
    if (text == null) {
      return fallback;
    }
    try {
      if (!text.isBlank()) {
        return Paths.get(text.trim()).toAbsolutePath();
      }
    } catch (InvalidPathException e) {
      // below
    }
    throw invalid(SPILL_DIRECTORY, "a directory path", text);
  }

  private static boolean bool(Map<String, String> settings, String key, boolean fallback) {
    String text = settings.get(key);
    if (text == null) {
      return fallback;
    }
    return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw invalid(key, "true or false", text);
    };
  }

  private static double ratio(Map<String, String> settings, double fallback) {
    String text = settings.get(COMPACTION_RATIO);
    if (text == null) {
      return fallback;
    }
    try {
      double v = Double.parseDouble(text.trim());
      if (v >= 0.1 && v <= 100) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw invalid(COMPACTION_RATIO, "a number in [0.1, 100]", text);
  }

  private static CairnException invalid(String key, String expected, String found) {
    return Settings.invalid(key, expected, found);
  }

  /**
   * A new memory pool for the scans of store {@code storeName} run in this JVM ({@link
   * #queryMemoryMaxBytes}, waiting up to {@link #queryMemoryWaitMillis}).
   */
  public MemoryPool newQueryMemory(String storeName) {
    return MemoryPool.root(
        "the store [" + storeName + "]",
        queryMemoryMaxBytes,
        QUERY_MEMORY_MAX_BYTES,
        Duration.ofMillis(queryMemoryWaitMillis));
  }

  /** The pool that reads from disk borrow buffers from. */
  public BufferPoolConfig bufferPool() {
    return BufferPoolConfig.withMaxBuffers(readBuffers);
  }
}
