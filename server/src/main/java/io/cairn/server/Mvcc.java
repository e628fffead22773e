package io.cairn.server;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The store's multi-version concurrency control: one sequence id per applied batch, across all
 * tables and regions, and one read point: the highest sequence id below which every batch is
 * complete (applied, and as durable as asked, or rolled back). A batch spanning regions becomes
 * visible at once. Also tracks the read points of open scans, so compactions keep the versions they
 * may still read.
 */
final class Mvcc {
  /** A batch in flight. */
  static final class WriteEntry {
    final long sequenceId;
    boolean complete;

    WriteEntry(long sequenceId) {
      this.sequenceId = sequenceId;
    }
  }

  private final ArrayDeque<WriteEntry> inFlight = new ArrayDeque<>();

  /** Open scans per read point; updated with pure functions, which the map applies atomically. */
  private final ConcurrentSkipListMap<Long, Long> openReadPoints = new ConcurrentSkipListMap<>();

  private long lastSequenceId;
  private volatile long readPoint;

  Mvcc(long lastSequenceId) {
    this.lastSequenceId = lastSequenceId;
    this.readPoint = lastSequenceId;
  }

  long readPoint() {
    return readPoint;
  }

  /** The last sequence id handed out (visible or not). */
  synchronized long lastSequenceId() {
    return lastSequenceId;
  }

  /** Starts a batch: a new sequence id, not visible until {@link #completeAndWait}. */
  synchronized WriteEntry begin() {
    WriteEntry e = new WriteEntry(++lastSequenceId);
    inFlight.addLast(e);
    return e;
  }

  /** Ends a batch and waits until the read point covers it (read-your-writes). */
  void completeAndWait(WriteEntry entry) {
    synchronized (this) {
      entry.complete = true;
      boolean advanced = false;
      while (!inFlight.isEmpty() && inFlight.peekFirst().complete) {
        readPoint = inFlight.pollFirst().sequenceId;
        advanced = true;
      }
      if (advanced) {
        notifyAll();
      }
      boolean interrupted = false;
      while (readPoint < entry.sequenceId) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true; // an earlier batch finishes soon; it cannot be abandoned
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Waits until every batch with a sequence id at or below {@code sequenceId} is complete. */
  synchronized void awaitReadPoint(long sequenceId) throws InterruptedException {
    while (readPoint < sequenceId) {
      wait();
    }
  }

  /** Registers a scan's read point (taken now) and returns it; pair with {@link #endRead}. */
  long beginRead() {
    synchronized (openReadPoints) {
      long rp = readPoint;
      openReadPoints.merge(rp, 1L, Long::sum);
      return rp;
    }
  }

  void endRead(long readPoint) {
    openReadPoints.computeIfPresent(readPoint, (k, n) -> n == 1 ? null : n - 1);
  }

  /** The smallest read point any open or future scan may use: versions below it can merge. */
  long smallestReadPoint() {
    synchronized (openReadPoints) {
      long rp = readPoint;
      // endRead removes entries without this lock: firstEntry() (null when empty), never firstKey()
      Map.Entry<Long, Long> first = openReadPoints.firstEntry();
      return first == null ? rp : Math.min(first.getKey(), rp);
    }
  }
}
