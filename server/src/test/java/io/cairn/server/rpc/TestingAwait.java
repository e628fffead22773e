package io.cairn.server.rpc;

import static org.assertj.core.api.Assertions.fail;

import java.util.function.BooleanSupplier;

/** Waiting in tests for what another thread does. */
final class TestingAwait {
  private TestingAwait() {}

  /** Waits up to 10 s for {@code condition}; fails the test naming {@code what} otherwise. */
  static void until(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("Waited 10 s for: " + what);
      }
      sleep(5);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
