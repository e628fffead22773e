package io.cairn.store;

/**
 * JMX view of a store's read buffer pool ({@code io.cairn:type=BufferPool,store=DIR}); the same
 * figures as the SQL view SYSTEM.BUFFER_POOL.
 */
public interface BufferPoolMXBean {
  int getBufferSize();

  int getUsedBuffers();

  int getTotalBuffers();

  int getMaxBuffers();

  long getPoolAllocationBytes();

  long getHeapAllocationBytes();

  double getHeapAllocationRatio();
}
