package io.cairn.jmh;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A store's block cache counters, summed over its levels, from the JMX beans the store registers
 * while open ({@code io.cairn:type=BlockCache,store="DIR",level=L1|L2}; none without a cache).
 *
 * @param levels how many levels the cache has (0: no cache)
 */
record BlockCacheCounters(int levels, long hits, long misses) {
  /** The counters of the store in {@code dir} now. */
  static BlockCacheCounters read(Path dir) {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    Path store = dir.toAbsolutePath().normalize();
    int levels = 0;
    long hits = 0;
    long misses = 0;
    try {
      for (ObjectName name :
          server.queryNames(new ObjectName("io.cairn:type=BlockCache,*"), null)) {
        String quoted = name.getKeyProperty("store");
        if (quoted == null || !Path.of(ObjectName.unquote(quoted)).equals(store)) {
          continue;
        }
        levels++;
        hits += (Long) server.getAttribute(name, "Hits");
        misses += (Long) server.getAttribute(name, "Misses");
      }
    } catch (JMException e) {
      throw new IllegalStateException("Cannot read the block cache beans of [" + dir + "]", e);
    }
    return new BlockCacheCounters(levels, hits, misses);
  }

  /**
   * Fails when a store with a cache missed blocks since {@code before}: called around a full scan
   * of a table that was just scanned, it finds a cache too small to hold the table.
   */
  void checkNoMissesSince(BlockCacheCounters before, String cacheSize) {
    long missed = misses - before.misses;
    if (levels > 0 && missed > 0) {
      throw new IllegalStateException(
          "The block cache does not hold the table: a second full scan missed ["
              + missed
              + "] blocks; raise cacheSize (found ["
              + cacheSize
              + "])");
    }
  }
}
