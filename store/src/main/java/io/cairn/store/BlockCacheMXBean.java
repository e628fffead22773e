package io.cairn.store;

/**
 * JMX view of one level of a store's block cache ({@code
 * io.cairn:type=BlockCache,store=DIR,level=L1|L2}); the same figures as the SQL view
 * SYSTEM.BLOCK_CACHE.
 */
public interface BlockCacheMXBean {
  long getBlocks();

  long getBytes();

  long getUsedBytes();

  long getCapacityBytes();

  long getAllocatedBytes();

  long getHits();

  long getMisses();

  double getHitRatio();

  long getEvictions();

  long getEvictedBytes();

  long getNotCachedTooLarge();

  long getNotCachedNoSpace();
}
