package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.kv.RowScanner;
import io.cairn.protocol.Request;

/**
 * A request from its start to its answer: what a Cancel finds by the request's id. A cancel marks
 * it and closes the scanner it is reading, if any, which stops the scan within a check interval
 * (see {@link io.cairn.store.coprocessor.ProgramScanner}); a request that has not started yet never
 * starts. Thread-safe.
 */
final class Call {
  private final Request request;
  private final long startNanos;
  private volatile boolean cancelled;
  private volatile RowScanner reading;

  Call(Request request, long startNanos) {
    this.request = requireNonNull(request, "request is null");
    this.startNanos = startNanos;
  }

  long id() {
    return request.getId();
  }

  Request request() {
    return request;
  }

  long startNanos() {
    return startNanos;
  }

  boolean cancelled() {
    return cancelled;
  }

  /** Marks the call cancelled and stops the scan it is reading. */
  void cancel() {
    cancelled = true;
    RowScanner r = reading;
    if (r != null) {
      r.close();
    }
  }

  /**
   * Records the scanner the call reads from now on (null: none), so that a cancel can stop it; a
   * cancel that came first closes it at once.
   */
  void reading(RowScanner scanner) {
    reading = scanner;
    if (scanner != null && cancelled) {
      scanner.close();
    }
  }
}
