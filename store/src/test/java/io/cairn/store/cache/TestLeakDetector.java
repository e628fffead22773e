package io.cairn.store.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TestLeakDetector {
  private LeakDetector.Mode previousMode;

  @BeforeEach
  void paranoid() {
    LeakDetector.takeLeaks();
    previousMode = LeakDetector.setMode(LeakDetector.Mode.PARANOID);
  }

  @AfterEach
  void restore() {
    LeakDetector.setMode(previousMode);
    LeakDetector.takeLeaks();
  }

  private static BufferPool newPool(String name) {
    return new BufferPool(name, BufferPoolConfig.withMaxBuffers(2).withBufferSize(1024));
  }

  private static boolean allocatedIn(BufferLeak leak, String method) {
    return Arrays.stream(leak.allocatedAt().getStackTrace())
        .anyMatch(
            frame ->
                frame.getClassName().equals(TestLeakDetector.class.getName())
                    && frame.getMethodName().equals(method));
  }

  @Test
  void checkLeaksReportsABufferStillOutWithItsAllocationStack() {
    try (BufferPool pool = newPool("check")) {
      PooledBuffer leaked = pool.allocate(1024);
      pool.allocate(10).release();

      List<BufferLeak> leaks = pool.checkLeaks();
      assertThat(leaks).hasSize(1);
      BufferLeak leak = leaks.get(0);
      assertThat(leak.buffer()).isEqualTo(leaked.toString());
      assertThat(leak.pool()).isEqualTo("check");
      assertThat(leak.unreachable()).isFalse();
      assertThat(allocatedIn(leak, "checkLeaksReportsABufferStillOutWithItsAllocationStack"))
          .isTrue();
      assertThat(leak.toString())
          .contains("is still out")
          .contains("checkLeaksReportsABufferStillOutWithItsAllocationStack");

      assertThatThrownBy(LeakDetector::assertNoLeaks)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("1 buffer(s) leaked")
          .hasMessageContaining(leaked.toString())
          .hasCause(leak.allocatedAt());
      LeakDetector.assertNoLeaks(); // taken: reported once
      assertThat(pool.checkLeaks()).isEmpty();
      leaked.release(); // a late release after the report is harmless
    }
  }

  @Test
  void closeReportsBuffersStillOut() {
    BufferPool pool = newPool("close");
    PooledBuffer pooled = pool.allocate(1000);
    PooledBuffer heap = pool.allocate(1);
    pool.close();
    List<BufferLeak> leaks = LeakDetector.takeLeaks();
    assertThat(leaks)
        .extracting(BufferLeak::buffer)
        .containsExactlyInAnyOrder(pooled.toString(), heap.toString());
    assertThat(leaks).allMatch(leak -> allocatedIn(leak, "closeReportsBuffersStillOut"));
    assertThat(pooled.release()).isTrue();
    assertThat(pool.stats().usedBuffers()).isZero();
  }

  @Test
  void checkLeaksReportsOnlyItsOwnPool() {
    try (BufferPool mine = newPool("same");
        BufferPool other = newPool("same")) {
      PooledBuffer theirs = other.allocate(1024);
      assertThat(mine.checkLeaks()).isEmpty();
      assertThat(other.checkLeaks())
          .extracting(BufferLeak::buffer)
          .containsExactly(theirs.toString());
      theirs.release();
    }
    LeakDetector.takeLeaks();
  }

  @Test
  void releasedBuffersAreNotLeaks() {
    try (BufferPool pool = newPool("clean")) {
      PooledBuffer buffer = pool.allocate(1024);
      buffer.retain();
      buffer.release();
      buffer.release();
      assertThat(pool.checkLeaks()).isEmpty();
    }
    LeakDetector.assertNoLeaks();
  }

  @Test
  void unreachableUnreleasedBufferIsReported() throws InterruptedException {
    try (BufferPool pool = newPool("gc")) {
      leakOne(pool);
      List<BufferLeak> leaks = new ArrayList<>();
      for (int attempt = 0; attempt < 100 && leaks.isEmpty(); attempt++) {
        System.gc();
        Thread.sleep(10);
        leaks.addAll(LeakDetector.takeLeaks());
      }
      assertThat(leaks).hasSize(1);
      assertThat(leaks.get(0).unreachable()).isTrue();
      assertThat(allocatedIn(leaks.get(0), "leakOne")).isTrue();
      assertThat(pool.checkLeaks()).as("reported once").isEmpty();
    }
    LeakDetector.takeLeaks();
  }

  private static void leakOne(BufferPool pool) {
    pool.allocate(1024).buffer().put(0, (byte) 1);
  }

  @Test
  void offModeRecordsNothing() {
    LeakDetector.setMode(LeakDetector.Mode.OFF);
    try (BufferPool pool = newPool("off")) {
      PooledBuffer buffer = pool.allocate(1024);
      assertThat(pool.checkLeaks()).isEmpty();
      assertThat(LeakDetector.openCount()).isZero();
      buffer.release();
    }
    LeakDetector.assertNoLeaks();
  }

  @Test
  void parsesTheMode() {
    assertThat(LeakDetector.Mode.parse("Paranoid")).isEqualTo(LeakDetector.Mode.PARANOID);
    assertThat(LeakDetector.Mode.parse("off")).isEqualTo(LeakDetector.Mode.OFF);
    assertThatThrownBy(() -> LeakDetector.Mode.parse("simple"))
        .hasMessage("-Dcairn.leakDetection must be [off] or [paranoid], found [simple]");
  }
}
