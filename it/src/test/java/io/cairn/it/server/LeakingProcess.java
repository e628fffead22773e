package io.cairn.it.server;

import io.cairn.store.cache.BufferPool;
import io.cairn.store.cache.BufferPoolConfig;
import io.cairn.store.cache.PooledBuffer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * A process that leaks on purpose, so that {@link TestServerLeakCheck} can show that the leak check
 * of the server tests ({@link ServerProcess#leakReports}) finds both kinds of leak in a log written
 * the way the server writes its own: one Netty buffer dropped unreleased, and one pooled buffer of
 * a Cairn {@link BufferPool} still out when the pool closes.
 */
public final class LeakingProcess {
  private LeakingProcess() {}

  public static void main(String[] args) throws InterruptedException {
    leakNettyBuffer();
    // Netty reports a leak when it tracks a new buffer after the leaked one was collected
    for (int i = 0; i < 100; i++) {
      System.gc();
      Thread.sleep(10);
      PooledByteBufAllocator.DEFAULT.buffer(64).release();
    }

    BufferPool pool = new BufferPool("leak-check", BufferPoolConfig.withMaxBuffers(4));
    @SuppressWarnings("unused")
    PooledBuffer kept = pool.allocate(1024);
    pool.close();
  }

  private static void leakNettyBuffer() {
    ByteBuf leaked = PooledByteBufAllocator.DEFAULT.buffer(64);
    leaked.writeInt(42);
  }
}
