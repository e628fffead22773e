package io.cairn.jdbc.internal.remote;

import io.cairn.protocol.Response;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * One request in flight on an {@link RpcChannel}: its id (what a Cancel names), what it is (for
 * messages) and the future of its answer. The future fails with the server's error as a {@link
 * io.cairn.core.error.CairnException}, with REQUEST_TIMEOUT, or with CONNECTION_LOST; it completes
 * on an event-loop thread, so what is chained to it must not block.
 */
final class RpcCall {
  private final long id;
  private final String description;
  private final CompletableFuture<Response> future = new CompletableFuture<>();
  private volatile ScheduledFuture<?> timeout;

  RpcCall(long id, String description) {
    this.id = id;
    this.description = description;
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
