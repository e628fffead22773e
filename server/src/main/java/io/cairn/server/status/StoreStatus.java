package io.cairn.server.status;

import static java.util.Objects.requireNonNull;

import io.cairn.kv.KvTable;
import io.cairn.store.EmbeddedStore;
import io.cairn.store.StoreConfig;
import io.cairn.store.cache.BufferPoolStats;
import io.cairn.store.table.CompactionLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The store's part of a status snapshot: its tables and regions, memstores, block cache and
 * compactions.
 *
 * @param name the store's directory, or the name of an in-memory store
 * @param runningCompactions oldest first
 * @param recentCompactions those that ended, newest first
 */
public record StoreStatus(
    String name,
    boolean durable,
    List<TableStatus> tables,
    MemstoreStatus memstores,
    BlockCacheStatus blockCache,
    List<CompactionLog.Compaction> runningCompactions,
    List<CompactionLog.Compaction> recentCompactions) {
  public StoreStatus {
    requireNonNull(name, "name is null");
    tables = List.copyOf(tables);
    requireNonNull(memstores, "memstores is null");
    requireNonNull(blockCache, "blockCache is null");
    runningCompactions = List.copyOf(runningCompactions);
    recentCompactions = List.copyOf(recentCompactions);
  }

  /**
   * A snapshot of {@code store} now. The parts are read one after another without stopping the
   * store, so a flush or split under way may show in one part and not yet in another.
   */
  public static StoreStatus collect(EmbeddedStore store) {
    requireNonNull(store, "store is null");
    List<TableStatus> tables = new ArrayList<>();
    for (KvTable t : store.tables()) {
      tables.add(new TableStatus(t.name(), t.regions()));
    }
    StoreConfig config = store.config();
    Optional<BufferPoolStats> pool = store.bufferPoolStats();
    return new StoreStatus(
        store.name(),
        store.isDurable(),
        tables,
        new MemstoreStatus(
            store.memstoreBytes(), config.globalMemstoreBytes(), config.memstoreFlushBytes()),
        new BlockCacheStatus(
            store.blockCacheLevels(),
            pool.orElse(BlockCacheStatus.NO_POOL),
            pool.isPresent() ? config.bufferPool().bufferSize() : 0),
        store.compactionLog().running(),
        store.compactionLog().recent());
  }
}
