package io.cairn.store;

import io.cairn.store.cache.BlockCacheStats;
import io.cairn.store.cache.BufferPool;
import io.cairn.store.cache.BufferPoolStats;
import io.cairn.store.cache.CombinedBlockCache;
import io.cairn.store.file.ReadContext;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers a durable store's metrics with the platform MBean server under {@code
 * io.cairn:type=...,store="DIR"} while the store is open: the buffer pool and each block cache
 * level (L1, L2: the levels the cache has). Registration problems are logged, never fatal: metrics
 * must not stop a store from opening.
 */
final class StoreMetrics implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StoreMetrics.class);

  private final List<ObjectName> registered = new ArrayList<>();

  StoreMetrics(Path dir, ReadContext reads) {
    String store = ObjectName.quote(dir.toString());
    register(
        "io.cairn:type=BufferPool,store=" + store, BufferPoolMXBean.class, poolBean(reads.pool()));
    if (reads.cache() instanceof CombinedBlockCache cache) {
      for (BlockCacheStats level : cache.levels()) {
        String name = level.level();
        register(
            "io.cairn:type=BlockCache,store=" + store + ",level=" + name,
            BlockCacheMXBean.class,
            cacheBean(() -> levelStats(cache, name)));
      }
    }
  }

  private static BlockCacheStats levelStats(CombinedBlockCache cache, String level) {
    for (BlockCacheStats s : cache.levels()) {
      if (s.level().equals(level)) {
        return s;
      }
    }
    return BlockCacheStats.empty(level);
  }

  private static BlockCacheMXBean cacheBean(Supplier<BlockCacheStats> stats) {
    return new BlockCacheMXBean() {
      @Override
      public long getBlocks() {
        return stats.get().cachedBlocks();
      }

      @Override
      public long getBytes() {
        return stats.get().cachedBytes();
      }

      @Override
      public long getUsedBytes() {
        return stats.get().usedBytes();
      }

      @Override
      public long getCapacityBytes() {
        return stats.get().capacityBytes();
      }

      @Override
      public long getAllocatedBytes() {
        return stats.get().allocatedBytes();
      }

      @Override
      public long getHits() {
        return stats.get().hits();
      }

      @Override
      public long getMisses() {
        return stats.get().misses();
      }

      @Override
      public double getHitRatio() {
        return stats.get().hitRatio();
      }

      @Override
      public long getEvictions() {
        return stats.get().evictions();
      }

      @Override
      public long getEvictedBytes() {
        return stats.get().evictedBytes();
      }

      @Override
      public long getNotCachedTooLarge() {
        return stats.get().notCachedTooLarge();
      }

      @Override
      public long getNotCachedNoSpace() {
        return stats.get().notCachedNoSpace();
      }
    };
  }

  private static BufferPoolMXBean poolBean(BufferPool pool) {
    return new BufferPoolMXBean() {
      @Override
      public int getBufferSize() {
        return pool.config().bufferSize();
      }

      @Override
      public int getUsedBuffers() {
        return stats().usedBuffers();
      }

      @Override
      public int getTotalBuffers() {
        return stats().totalBuffers();
      }

      @Override
      public int getMaxBuffers() {
        return stats().maxBuffers();
      }

      @Override
      public long getPoolAllocationBytes() {
        return stats().poolAllocationBytes();
      }

      @Override
      public long getHeapAllocationBytes() {
        return stats().heapAllocationBytes();
      }

      @Override
      public double getHeapAllocationRatio() {
        return stats().heapAllocationRatio();
      }

      private BufferPoolStats stats() {
        return pool.stats();
      }
    };
  }

  private <T> void register(String name, Class<T> type, T bean) {
    try {
      ObjectName objectName = new ObjectName(name);
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      server.registerMBean(new StandardMBean(bean, type, true), objectName);
      registered.add(objectName);
    } catch (JMException | RuntimeException e) {
      LOG.warn("Cannot register the JMX bean {}", name, e);
    }
  }

  @Override
  public void close() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    for (ObjectName name : registered) {
      try {
        server.unregisterMBean(name);
      } catch (JMException | RuntimeException e) {
        LOG.warn("Cannot unregister the JMX bean {}", name, e);
      }
    }
    registered.clear();
  }
}
