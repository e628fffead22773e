package io.cairn.store;

import io.cairn.core.catalog.IndexDescriptor;
import io.cairn.core.catalog.SystemViews;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.kv.KvTable;
import io.cairn.store.cache.BlockCacheStats;
import io.cairn.store.cache.BufferPoolStats;
import io.cairn.store.cache.CombinedBlockCache;
import io.cairn.store.file.ReadContext;
import io.cairn.store.file.VectorCache;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The store's system views, read-only tables whose rows the store makes up when they are scanned:
 * {@code SYSTEM.BUFFER_POOL} (the buffers of reads from disk; empty in memory), {@code
 * SYSTEM.BLOCK_CACHE} (the cache's levels), {@code SYSTEM.STATS} (every table's statistics chunks,
 * under their SQL names) and {@code SYSTEM.INDEXES} (the SQL catalog's local indexes).
 *
 * <p>The store does not read the SQL catalog: the catalog's owner (the driver's database, the
 * network server's) hands in its tables ({@link #useSqlNames}); a KV table that none names shows
 * under its own name split at the first dot, and one without a dot is left out (tests of the KV
 * SPI). SYSTEM.INDEXES is empty until the owner hands in its tables.
 *
 * <p>Locks: none; rows are read from concurrent maps and the tables' statistics (immutable values)
 * when the view is scanned.
 */
final class StoreSystemViews {
  private final ReadContext readContext;
  private final boolean readsFiles;
  private final Supplier<Collection<EmbeddedTable>> tables;
  private final Map<String, KvTable> views;
  private volatile Supplier<? extends Collection<TableDescriptor>> sqlTables = List::of;

  /**
   * @param readsFiles whether the store reads files (a durable store): else its buffer pool is idle
   * @param tables the store's tables, read when {@code SYSTEM.STATS} is scanned
   */
  StoreSystemViews(
      ReadContext readContext, boolean readsFiles, Supplier<Collection<EmbeddedTable>> tables) {
    this.readContext = readContext;
    this.readsFiles = readsFiles;
    this.tables = tables;
    this.views =
        Map.of(
            SystemViews.BUFFER_POOL.kvTableName(),
            new SystemViewTable(SystemViews.BUFFER_POOL, this::bufferPoolRows),
            SystemViews.BLOCK_CACHE.kvTableName(),
            new SystemViewTable(SystemViews.BLOCK_CACHE, this::blockCacheRows),
            SystemViews.STATS.kvTableName(),
            new SystemViewTable(SystemViews.STATS, this::statisticsRows),
            SystemViews.INDEXES.kvTableName(),
            new SystemViewTable(SystemViews.INDEXES, this::indexRows),
            SystemViews.INDEX_STATS.kvTableName(),
            new SystemViewTable(SystemViews.INDEX_STATS, this::indexStatisticsRows));
  }

  /** The view whose KV table name is {@code kvTableName}, if one is. */
  Optional<KvTable> view(String kvTableName) {
    return Optional.ofNullable(views.get(kvTableName));
  }

  /** Names the store's KV tables in SQL from now on: the descriptors read at each scan. */
  void useSqlNames(Supplier<? extends Collection<TableDescriptor>> sqlTables) {
    this.sqlTables = sqlTables;
  }

  private List<Object[]> bufferPoolRows() {
    if (!readsFiles) {
      return List.of(); // an in-memory store reads no files
    }
    BufferPoolStats s = readContext.pool().stats();
    return List.<Object[]>of(
        new Object[] {
          "reads",
          (long) readContext.pool().config().bufferSize(),
          (long) s.usedBuffers(),
          (long) s.totalBuffers(),
          (long) s.maxBuffers(),
          s.poolAllocationBytes(),
          s.heapAllocationBytes(),
          s.heapAllocationRatio()
        });
  }

  private List<Object[]> blockCacheRows() {
    if (!(readContext.cache() instanceof CombinedBlockCache cache)) {
      return List.of();
    }
    List<Object[]> rows = new ArrayList<>();
    for (BlockCacheStats s : cache.levels()) {
      rows.add(
          new Object[] {
            s.level(),
            s.level().equals("L1") ? "heap" : "off-heap",
            s.cachedBlocks(),
            s.cachedBytes(),
            s.usedBytes(),
            s.capacityBytes(),
            s.allocatedBytes(),
            s.hits(),
            s.misses(),
            s.hitRatio(),
            s.evictions(),
            s.evictedBytes(),
            s.notCachedTooLarge(),
            s.notCachedNoSpace()
          });
    }
    VectorCache vectors = readContext.vectors();
    if (vectors.enabled()) {
      long hits = vectors.hits();
      long lookups = hits + vectors.misses();
      long bytes = vectors.bytes();
      rows.add(
          new Object[] {
            "VECTORS",
            "heap",
            (long) vectors.blockCount(),
            bytes,
            bytes,
            vectors.maxBytes(),
            bytes,
            hits,
            vectors.misses(),
            lookups == 0 ? 0.0 : (double) hits / lookups,
            vectors.evictions(),
            0L,
            0L,
            0L
          });
    }
    return rows;
  }

  /** The rows of the view SYSTEM.INDEXES: every local index the SQL catalog records. */
  private List<Object[]> indexRows() {
    List<Object[]> rows = new ArrayList<>();
    for (TableDescriptor t : sqlTables.get()) {
      for (IndexDescriptor index : t.indexes()) {
        rows.add(SystemViews.indexRow(t, index));
      }
    }
    return rows;
  }

  /**
   * The rows of the view SYSTEM.INDEX_STATS: the chunks of every local index the SQL catalog
   * records, under its name.
   */
  private List<Object[]> indexStatisticsRows() {
    Map<String, EmbeddedTable> byName = new HashMap<>();
    for (EmbeddedTable t : tables.get()) {
      byName.put(t.name(), t);
    }
    List<Object[]> rows = new ArrayList<>();
    for (TableDescriptor d : sqlTables.get()) {
      EmbeddedTable t = byName.get(d.kvTableName());
      if (t == null) {
        continue;
      }
      for (IndexDescriptor index : d.indexes()) {
        t.indexStatistics()
            .addRows(d.schemaName(), d.tableName(), index.name(), index.indexId(), rows);
      }
    }
    return rows;
  }

  /** The rows of the view SYSTEM.STATS: every table's chunks, under their SQL names. */
  private List<Object[]> statisticsRows() {
    Map<String, String[]> sqlNames = new HashMap<>();
    for (TableDescriptor d : sqlTables.get()) {
      sqlNames.put(d.kvTableName(), new String[] {d.schemaName(), d.tableName()});
    }
    List<Object[]> rows = new ArrayList<>();
    for (EmbeddedTable t : tables.get()) {
      String[] sqlName = sqlNames.get(t.name());
      if (sqlName == null) {
        int dot = t.name().indexOf('.');
        if (dot < 0) {
          continue; // a KV table without a SQL table (tests of the KV SPI)
        }
        sqlName = new String[] {t.name().substring(0, dot), t.name().substring(dot + 1)};
      }
      t.addStatisticsRows(sqlName[0], sqlName[1], rows);
    }
    return rows;
  }
}
