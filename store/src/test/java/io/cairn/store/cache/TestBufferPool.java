package io.cairn.store.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestBufferPool {
  private static final int SIZE = 1024;

  private LeakDetector.Mode previousMode;

  @BeforeEach
  void paranoid() {
    previousMode = LeakDetector.setMode(LeakDetector.Mode.PARANOID);
  }

  @AfterEach
  void noLeaks() {
    try {
      LeakDetector.assertNoLeaks();
    } finally {
      LeakDetector.setMode(previousMode);
    }
  }

  private static BufferPool newPool(int maxBuffers) {
    return new BufferPool("test", BufferPoolConfig.withMaxBuffers(maxBuffers).withBufferSize(SIZE));
  }

  @Test
  void defaults() {
    BufferPoolConfig config = BufferPoolConfig.withMaxBuffers(10);
    assertThat(config.bufferSize()).isEqualTo(65 * 1024);
    assertThat(config.minPooledSize()).isEqualTo(65 * 1024 / 6);
    assertThat(config.poolBytes()).isEqualTo(10L * 65 * 1024);
    try (BufferPool pool = new BufferPool("defaults", config)) {
      assertThat(pool.stats()).isEqualTo(new BufferPoolStats(0, 0, 0, 0, 0, 10));
      try (PooledBuffer block = pool.allocate(64 * 1024 + 33)) {
        assertThat(block.isPooled()).as("a 64 KiB block and its header fit one buffer").isTrue();
      }
    }
  }

  @Test
  void reusesReleasedMemory() {
    try (BufferPool pool = newPool(2)) {
      PooledBuffer first = pool.allocate(SIZE);
      assertThat(first.isPooled()).isTrue();
      ByteBuffer memory = first.memory();
      first.buffer().put(0, (byte) 42);
      assertThat(first.release()).isTrue();

      try (PooledBuffer second = pool.allocate(SIZE / 2)) {
        assertThat(second.memory()).isSameAs(memory);
        assertThat(second.buffer().get(0)).isEqualTo((byte) 42);
        assertThat(second.buffer().capacity()).isEqualTo(SIZE / 2);
      }
      assertThat(pool.stats()).isEqualTo(new BufferPoolStats(SIZE + SIZE / 2, 0, 0.0, 0, 1, 2));
    }
  }

  @Test
  void fallsBackToTheHeapAndCountsIt() {
    try (BufferPool pool = newPool(1)) {
      int small = SIZE / 6 - 1;
      try (PooledBuffer tiny = pool.allocate(small);
          PooledBuffer oversized = pool.allocate(SIZE + 1);
          PooledBuffer pooled = pool.allocate(SIZE);
          PooledBuffer exhausted = pool.allocate(SIZE)) {
        assertThat(tiny.isPooled()).isFalse();
        assertThat(oversized.isPooled()).isFalse();
        assertThat(pooled.isPooled()).isTrue();
        assertThat(exhausted.isPooled()).isFalse();
        assertThat(oversized.buffer().capacity()).isEqualTo(SIZE + 1);
        assertThat(exhausted.buffer().isDirect()).isFalse();

        BufferPoolStats stats = pool.stats();
        long heap = (long) small + SIZE + 1 + SIZE;
        assertThat(stats.poolAllocationBytes()).isEqualTo(SIZE);
        assertThat(stats.heapAllocationBytes()).isEqualTo(heap);
        assertThat(stats.heapAllocationRatio()).isEqualTo((double) heap / (heap + SIZE));
        assertThat(stats.usedBuffers()).isEqualTo(1);
        assertThat(stats.totalBuffers()).isEqualTo(1);
        assertThat(stats.maxBuffers()).isEqualTo(1);
      }
      assertThat(pool.stats().usedBuffers()).isZero();
    }
  }

  @Test
  void concurrentAllocateAndReleaseNeverHandOutABufferTwice() throws Exception {
    int threads = 4;
    try (BufferPool pool = newPool(3)) {
      ExecutorService executor = Executors.newFixedThreadPool(threads);
      try {
        List<Future<Integer>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          byte pattern = (byte) (t + 1);
          Callable<Integer> worker =
              () -> {
                int pooled = 0;
                for (int i = 0; i < 20_000; i++) {
                  int size = ThreadLocalRandom.current().nextInt(SIZE / 6, SIZE + 1);
                  try (PooledBuffer buffer = pool.allocate(size)) {
                    pooled += buffer.isPooled() ? 1 : 0;
                    ByteBuffer view = buffer.buffer();
                    for (int j = 0; j < size; j += 61) {
                      view.put(j, pattern);
                    }
                    Thread.onSpinWait();
                    for (int j = 0; j < size; j += 61) {
                      if (view.get(j) != pattern) {
                        throw new AssertionError(
                            "buffer " + buffer + " was handed out twice: found " + view.get(j));
                      }
                    }
                  }
                }
                return pooled;
              };
          results.add(executor.submit(worker));
        }
        int pooled = 0;
        for (Future<Integer> result : results) {
          pooled += result.get(60, TimeUnit.SECONDS);
        }
        assertThat(pooled).isPositive();
      } finally {
        executor.shutdownNow();
      }
      BufferPoolStats stats = pool.stats();
      assertThat(stats.usedBuffers()).isZero();
      assertThat(stats.totalBuffers()).isBetween(1, 3);
      assertThat(LeakDetector.openCount()).isZero();
    }
  }

  @Test
  void allocateAfterCloseFails() {
    BufferPool pool = newPool(1);
    pool.close();
    assertThatThrownBy(() -> pool.allocate(SIZE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("[test] is closed");
  }

  @Test
  void poolLargerThanDirectMemoryIsRejected() {
    long max = BufferPool.maxDirectMemory();
    assertThat(max).isPositive();
    int buffers = (int) Math.min(Integer.MAX_VALUE, max / BufferPoolConfig.DEFAULT_BUFFER_SIZE + 1);
    BufferPoolConfig config = BufferPoolConfig.withMaxBuffers(buffers);
    assertThatThrownBy(() -> new BufferPool("huge", config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[" + config.poolBytes() + "] bytes of direct memory")
        .hasMessageContaining("[" + max + "] bytes the JVM allows")
        .hasMessageContaining("MaxDirectMemorySize");
  }

  @Test
  void poolOfExactlyTheDirectMemoryIsAccepted() {
    BufferPoolConfig config = BufferPoolConfig.withMaxBuffers(4).withBufferSize(SIZE);
    try (BufferPool pool = new BufferPool("exact", config, 4 * SIZE)) {
      assertThat(pool.stats().maxBuffers()).isEqualTo(4);
    }
    assertThatThrownBy(() -> new BufferPool("over", config, 4 * SIZE - 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Buffer pool [over] of [4] buffers of [1024] bytes needs [4096] bytes of direct"
                + " memory, more than the [4095] bytes the JVM allows (-XX:MaxDirectMemorySize)");
  }

  @Test
  void badConfigIsRejected() {
    assertThatThrownBy(() -> new BufferPoolConfig(0, 0, 1))
        .hasMessage("bufferSize must be positive, found [0]");
    assertThatThrownBy(() -> new BufferPoolConfig(10, 11, 1))
        .hasMessage("minPooledSize must be in [0, bufferSize = 10], found [11]");
    assertThatThrownBy(() -> new BufferPoolConfig(10, 1, -1))
        .hasMessage("maxBuffers must not be negative, found [-1]");
  }
}
