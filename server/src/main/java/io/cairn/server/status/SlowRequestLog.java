package io.cairn.server.status;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The last requests that took at least a threshold, newest first: the server's slow-request log (as
 * HBase's region server keeps its slow log ring buffer). Thread-safe; a request below the threshold
 * costs one comparison and no lock, so the server can offer every request.
 */
public final class SlowRequestLog {
  public static final int DEFAULT_CAPACITY = 100;

  private final Duration threshold;
  private final int capacity;
  private final Deque<SlowRequest> recent = new ArrayDeque<>();
  private final AtomicLong recorded = new AtomicLong();

  /** Keeps the last {@value #DEFAULT_CAPACITY} requests taking at least {@code threshold}. */
  public SlowRequestLog(Duration threshold) {
    this(threshold, DEFAULT_CAPACITY);
  }

  public SlowRequestLog(Duration threshold, int capacity) {
    this.threshold = requireNonNull(threshold, "threshold is null");
    if (threshold.isNegative()) {
      throw new IllegalArgumentException("Threshold: expected >= 0, found [" + threshold + "]");
    }
    if (capacity < 1) {
      throw new IllegalArgumentException("Capacity: expected >= 1, found [" + capacity + "]");
    }
    this.capacity = capacity;
  }

  public Duration threshold() {
    return threshold;
  }

  /** Whether a request that took {@code duration} is slow (at least the threshold). */
  public boolean isSlow(Duration duration) {
    return duration.compareTo(threshold) >= 0;
  }

  /**
   * Keeps the request when it is slow; returns whether it was kept. Arguments are only checked (and
   * the record made) for slow requests.
   */
  public boolean record(
      Instant startTime,
      String client,
      String requestType,
      String table,
      Duration duration,
      long rows) {
    if (!isSlow(duration)) {
      return false;
    }
    add(new SlowRequest(startTime, client, requestType, table, duration, rows));
    return true;
  }

  /** Keeps {@code request} when it is slow; returns whether it was kept. */
  public boolean record(SlowRequest request) {
    if (!isSlow(request.duration())) {
      return false;
    }
    add(request);
    return true;
  }

  private void add(SlowRequest request) {
    recorded.incrementAndGet();
    synchronized (recent) {
      recent.addFirst(request);
      if (recent.size() > capacity) {
        recent.removeLast();
      }
    }
  }

  /** The slow requests kept, newest first. */
  public List<SlowRequest> recent() {
    synchronized (recent) {
      return List.copyOf(recent);
    }
  }

  /** Slow requests recorded since the log was made, including those no longer kept. */
  public long recordedCount() {
    return recorded.get();
  }
}
