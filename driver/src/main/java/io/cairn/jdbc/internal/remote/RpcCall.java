package io.cairn.jdbc.internal.remote;

import io.cairn.protocol.Response;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request in flight on an {@link RpcChannel}: its id (what a Cancel names), what it is (for
 * messages) and the future of its answer. The future fails with the server's error as a {@link
 * io.cairn.core.error.CairnException}, with REQUEST_TIMEOUT, or with CONNECTION_LOST; it completes
 * on an event-loop thread, so what is chained to it must not block.
 *
 * <p>A call may take progress reports before its answer (an index build's rows indexed so far,
 * {@link io.cairn.protocol.IndexProgress}): they go to its {@code progress} consumer, on the event
 * loop too.
 */
final class RpcCall {
  private static final Logger LOG = LoggerFactory.getLogger(RpcCall.class);

  private final long id;
  private final String description;
  private final LongConsumer progress;
  private final Duration timeoutAfter;
  private final CompletableFuture<Response> future = new CompletableFuture<>();
  private volatile ScheduledFuture<?> timeout;

  RpcCall(long id, String description) {
    this(id, description, null, null);
  }

  /**
   * @param progress what takes the call's progress reports; null: they are ignored
   * @param timeoutAfter how long the answer is waited for (after the request, or the last report)
   */
  RpcCall(long id, String description, LongConsumer progress, Duration timeoutAfter) {
    this.id = id;
    this.description = description;
    this.progress = progress;
    this.timeoutAfter = timeoutAfter;
  }

  long id() {
    return id;
  }

  String description() {
    return description;
  }

  CompletableFuture<Response> future() {
    return future;
  }

  void timeout(ScheduledFuture<?> timeout) {
    this.timeout = timeout;
  }

  /** Replaces the timer of the answer's deadline with {@code timeout} (the old one stops). */
  void restartTimeout(ScheduledFuture<?> timeout) {
    ScheduledFuture<?> old = this.timeout;
    this.timeout = timeout;
    if (old != null) {
      old.cancel(false);
    }
    if (future.isDone()) {
      timeout.cancel(false);
    }
  }

  /** Whether the call takes progress reports (and restarts its timeout on each). */
  boolean takesProgress() {
    return progress != null && timeoutAfter != null;
  }

  Duration timeoutAfter() {
    return timeoutAfter;
  }

  /**
   * A progress report of the server's work on this call (ignored without a consumer). A consumer
   * that fails is logged and ignored: the event loop goes on, and so does the call.
   */
  void progress(long value) {
    if (progress != null && !future.isDone()) {
      try {
        progress.accept(value);
      } catch (RuntimeException e) {
        LOG.debug("The progress consumer of {} failed", this, e);
      }
    }
  }

  void complete(Response response) {
    stopTimer();
    future.complete(response);
  }

  void fail(Throwable failure) {
    stopTimer();
    future.completeExceptionally(failure);
  }

  private void stopTimer() {
    ScheduledFuture<?> t = timeout;
    if (t != null) {
      t.cancel(false);
    }
  }

  @Override
  public String toString() {
    return "RpcCall[" + id + ", " + description + "]";
  }
}
