package io.cairn.server.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class TestSlowRequestLog {
  private static final Instant T = Instant.parse("2025-06-01T00:00:00Z");

  @Test
  void keepsOnlyRequestsAtOrAboveTheThreshold() {
    SlowRequestLog log = new SlowRequestLog(Duration.ofMillis(100));
    assertThat(log.record(T, "c", "Get", "T", Duration.ofMillis(99), 1)).isFalse();
    assertThat(log.record(T, "c", "Get", "T", Duration.ofMillis(100), 1)).isTrue();
    assertThat(log.record(new SlowRequest(T, "c", "Mutate", "", Duration.ofSeconds(2), 10)))
        .isTrue();
    assertThat(log.recent())
        .extracting(SlowRequest::requestType)
        .containsExactly("Mutate", "Get"); // newest first
    assertThat(log.recordedCount()).isEqualTo(2);
    assertThat(log.isSlow(Duration.ofMillis(100))).isTrue();
    assertThat(log.threshold()).isEqualTo(Duration.ofMillis(100));
  }

  @Test
  void fastRequestsAreNotChecked() {
    SlowRequestLog log = new SlowRequestLog(Duration.ofSeconds(1));
    // the server may offer every request: a fast one costs a comparison, no record
    assertThat(log.record(null, null, null, null, Duration.ZERO, 0)).isFalse();
    assertThatThrownBy(() -> log.record(null, "c", "Get", "", Duration.ofSeconds(1), 0))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("startTime is null");
  }

  @Test
  void keepsTheLastHundredByDefault() {
    SlowRequestLog log = new SlowRequestLog(Duration.ZERO);
    for (int i = 0; i < 250; i++) {
      log.record(T.plusSeconds(i), "c", "Get", "T", Duration.ofMillis(1), i);
    }
    List<SlowRequest> recent = log.recent();
    assertThat(recent).hasSize(SlowRequestLog.DEFAULT_CAPACITY);
    assertThat(recent.get(0).rows()).isEqualTo(249);
    assertThat(recent.get(99).rows()).isEqualTo(150);
    assertThat(log.recordedCount()).isEqualTo(250);
  }

  @Test
  void refusesBadSettings() {
    assertThatThrownBy(() -> new SlowRequestLog(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Threshold: expected >= 0, found [PT-0.001S]");
    assertThatThrownBy(() -> new SlowRequestLog(Duration.ZERO, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Capacity: expected >= 1, found [0]");
  }

  @Test
  void concurrentRecordsAreAllCountedAndTheLastKept() throws InterruptedException {
    SlowRequestLog log = new SlowRequestLog(Duration.ZERO, 64);
    int threads = 4;
    int each = 5_000;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread w =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < each; i++) {
                  log.record(T, "client-" + id, "Get", "T", Duration.ofMillis(1), i);
                  if (i % 100 == 0) {
                    assertThat(log.recent().size()).isLessThanOrEqualTo(64);
                  }
                }
              });
      w.start();
      workers.add(w);
    }
    start.countDown();
    for (Thread w : workers) {
      w.join();
    }
    assertThat(log.recordedCount()).isEqualTo((long) threads * each);
    List<SlowRequest> recent = log.recent();
    assertThat(recent).hasSize(64);
    Set<String> distinct = new HashSet<>();
    recent.forEach(r -> distinct.add(r.client() + "/" + r.rows()));
    assertThat(distinct).hasSize(64);
  }
}
