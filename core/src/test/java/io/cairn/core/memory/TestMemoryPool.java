package io.cairn.core.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TestMemoryPool {
  @Test
  void reservationsCountUpTheTreeAndComeBack() {
    MemoryPool server = MemoryPool.root("the server", 1000, "server.max", Duration.ZERO);
    MemoryPool connection = server.child("connection 1", 600, "connection.max");
    MemoryPool query = connection.child("the query", 500, "query.max");

    query.reserve(400, "a sort");
    assertThat(query.used()).isEqualTo(400);
    assertThat(connection.used()).isEqualTo(400);
    assertThat(server.used()).isEqualTo(400);

    query.release(400);
    assertThat(server.used()).isZero();
    assertThat(connection.used()).isZero();
  }

  @Test
  void theFullPoolIsNamedAndNothingStaysReserved() {
    MemoryPool server = MemoryPool.root("the server", 1000, "server.max", Duration.ZERO);
    MemoryPool a = server.child("query a", 800, "query.max");
    MemoryPool b = server.child("query b", 800, "query.max");
    a.reserve(700, "groups");

    // b is within its own limit, but the server's budget is shared
    assertThatThrownBy(() -> b.reserve(400, "a sort"))
        .isInstanceOfSatisfying(
            CairnException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo(ErrorCode.MEMORY_LIMIT_EXCEEDED);
              assertThat(e.getMessage())
                  .contains("a sort", "[400]", "the server", "[1000]", "[server.max]");
            });
    assertThat(b.used()).isZero();
    assertThat(server.used()).isEqualTo(700);

    assertThatThrownBy(() -> a.reserve(200, "groups"))
        .hasMessageContaining("query a")
        .hasMessageContaining("[query.max]");
    assertThat(server.used()).isEqualTo(700);
  }

  @Test
  void aSharedPoolWaitsForOthersToRelease() throws Exception {
    MemoryPool server = MemoryPool.root("the server", 1000, "server.max", Duration.ofSeconds(30));
    MemoryPool a = server.child("query a", 1000, "query.max");
    MemoryPool b = server.child("query b", 1000, "query.max");
    a.reserve(900, "groups");

    CountDownLatch started = new CountDownLatch(1);
    CompletableFuture<Void> waiting =
        CompletableFuture.runAsync(
            () -> {
              started.countDown();
              b.reserve(500, "a sort");
            });
    started.await();
    assertThat(waiting).isNotDone();
    a.release(900);
    waiting.get(30, TimeUnit.SECONDS);
    assertThat(server.used()).isEqualTo(500);
  }

  @Test
  void aSharedPoolFailsAfterItsWait() {
    MemoryPool server = MemoryPool.root("the server", 1000, "server.max", Duration.ofMillis(20));
    MemoryPool a = server.child("query a", 1000, "query.max");
    a.reserve(900, "groups");
    assertThatThrownBy(() -> server.child("query b", 1000, "q").reserve(500, "a sort"))
        .hasMessageContaining("the server");
    // more than the whole limit fails at once
    assertThatThrownBy(() -> a.reserve(5000, "groups")).hasMessageContaining("query a");
  }

  @Test
  void reservationTakesQuantaAndGivesAllBack() {
    long quantum = MemoryReservation.QUANTUM;
    MemoryPool pool = MemoryPool.root("the server", 3 * quantum + 100, "s", Duration.ZERO);
    try (MemoryReservation r = pool.reservation("a sort")) {
      r.add(10);
      assertThat(pool.used()).isEqualTo(quantum);
      r.add(quantum);
      assertThat(pool.used()).isEqualTo(2 * quantum);
      assertThat(r.used()).isEqualTo(quantum + 10);
      r.add(quantum);
      assertThat(pool.used()).isEqualTo(3 * quantum);
      // the last bytes fit where a whole quantum does not
      r.add(quantum);
      assertThat(pool.used()).isEqualTo(3 * quantum + 10);
      assertThatThrownBy(() -> r.add(100)).hasMessageContaining("a sort");
      assertThat(r.used()).isEqualTo(3 * quantum + 10);
    }
    assertThat(pool.used()).isZero();
  }

  @Test
  void nearAFullSharedPoolSmallAddsDoNotWaitForAQuantum() {
    long quantum = MemoryReservation.QUANTUM;
    MemoryPool pool = MemoryPool.root("the server", quantum + 1000, "s", Duration.ofSeconds(5));
    long started = System.nanoTime();
    try (MemoryReservation r = pool.reservation("groups")) {
      r.add(quantum);
      for (int i = 0; i < 50; i++) {
        r.add(10); // fits; a quantum would not, and waiting for one would take the pool's wait
      }
      assertThat(pool.used()).isEqualTo(quantum + 500);
      assertThat(pool.tryReserve(501)).isFalse();
      assertThat(pool.tryReserve(500)).isTrue();
      pool.release(500);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
    assertThat(pool.used()).isZero();
  }
}
