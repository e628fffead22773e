package io.cairn.jdbc.internal.remote;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.ConditionFailedException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Waiting for remote calls in the caller's thread, with the caller's stack in the exception. */
final class Rpc {
  private Rpc() {}

  /**
   * The value of {@code future}, waiting as long as it takes (every remote call has its own
   * timeout). An interrupt stops the wait with QUERY_CANCELED and keeps the thread interrupted.
   */
  static <T> T await(CompletableFuture<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CairnException(
          ErrorCode.QUERY_CANCELED, "Interrupted while waiting for the Cairn server", e);
    } catch (ExecutionException e) {
      throw rethrown(e.getCause());
    }
  }

  /**
   * A failure that completed a future on an event-loop thread, thrown again in the waiting thread:
   * the same error code and message (and for a failed condition, the same batch, mutation, key and
   * kind), with the original as the cause.
   */
  static RuntimeException rethrown(Throwable failure) {
    Throwable t = failure;
    while (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof ConditionFailedException c) {
      ConditionFailedException copy =
          new ConditionFailedException(c.batchIndex(), c.mutationIndex(), c.key(), c.kind());
      copy.initCause(c);
      return copy;
    }
    if (t instanceof CairnException c) {
      return new CairnException(c.errorCode(), c.getMessage(), c);
    }
    return new CairnException(
        ErrorCode.INTERNAL_ERROR, "Unexpected failure of a call to the Cairn server: " + t, t);
  }
}
