package io.cairn.store.region;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The store's multi-version concurrency control: one sequence id per applied batch, across all
 * tables and regions, and one read point: the highest sequence id below which every batch is
 * complete (applied, and as durable as asked, or rolled back). A batch spanning regions becomes
 * visible at once. Also tracks the read points of open scans, so compactions keep the versions they
 * may still read.
 */
public final class Mvcc {
  /**
   * The setting that bounds a snapshot's age, named in SNAPSHOT_TOO_OLD messages (the store's
   * configuration reads it as {@code StoreConfig.SNAPSHOT_MAX_AGE}).
   */
  public static final String SNAPSHOT_MAX_AGE_SETTING = "cairn.snapshot.max-age";

  /** A batch in flight. */
  public static final class WriteEntry {
    public final long sequenceId;
    boolean complete;

    public WriteEntry(long sequenceId) {
      this.sequenceId = sequenceId;
    }
  }

  private final ArrayDeque<WriteEntry> inFlight = new ArrayDeque<>();

  /** Open scans per read point; updated with pure functions, which the map applies atomically. */
  private final ConcurrentSkipListMap<Long, Long> openReadPoints = new ConcurrentSkipListMap<>();

  /** Open snapshots, oldest first (they are created in read-point order). */
  private final Queue<Pin> pins = new ConcurrentLinkedQueue<>();

  private final long snapshotMaxAgeMillis;

  private long lastSequenceId;
  private volatile long readPoint;

  /**
   * The largest read point a flush or compaction has merged versions at: reads and conditional
   * writes at a smaller read point could miss versions (SNAPSHOT_TOO_OLD). Written under {@code
   * openReadPoints}' lock.
   */
  private volatile long horizon;

  public Mvcc(long lastSequenceId, long snapshotMaxAgeMillis) {
    // read points start at 1: 0 is ScanRequest.LATEST, and a snapshot of an empty store is not
    long last = Math.max(1, lastSequenceId);
    this.lastSequenceId = last;
    this.readPoint = last;
    this.horizon = last;
    this.snapshotMaxAgeMillis = snapshotMaxAgeMillis;
  }

  public long readPoint() {
    return readPoint;
  }

  /** The last sequence id handed out (visible or not). */
  public synchronized long lastSequenceId() {
    return lastSequenceId;
  }

  /** Starts a batch: a new sequence id, not visible until {@link #completeAndWait}. */
  public synchronized WriteEntry begin() {
    WriteEntry e = new WriteEntry(++lastSequenceId);
    inFlight.addLast(e);
    return e;
  }

  /** Ends a batch and waits until the read point covers it (read-your-writes). */
  public void completeAndWait(WriteEntry entry) {
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
  public synchronized void awaitReadPoint(long sequenceId) throws InterruptedException {
    while (readPoint < sequenceId) {
      wait();
    }
  }

  /** Registers a scan's read point (taken now) and returns it; pair with {@link #endRead}. */
  public long beginRead() {
    synchronized (openReadPoints) {
      long rp = readPoint;
      openReadPoints.merge(rp, 1L, Long::sum);
      return rp;
    }
  }

  /**
   * Registers a scan at {@code requested} (a snapshot's read point; {@code 0}: now) and returns the
   * read point registered; pair with {@link #endRead}.
   *
   * @throws CairnException SNAPSHOT_TOO_OLD when versions it needs may be gone, INVALID_ARGUMENT
   *     for a read point that was never visible
   */
  public long beginRead(long requested) {
    if (requested == 0) {
      return beginRead();
    }
    synchronized (openReadPoints) {
      checkReadPoint(requested);
      openReadPoints.merge(requested, 1L, Long::sum);
      return requested;
    }
  }

  /**
   * Checks that the store still keeps every version visible at {@code readPoint}: no flush or
   * compaction has merged versions above it.
   *
   * @throws CairnException SNAPSHOT_TOO_OLD or INVALID_ARGUMENT as {@link #beginRead(long)}
   */
  public void checkReadPoint(long readPoint) {
    long visible = this.readPoint;
    if (readPoint > visible) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT,
          "Read point: expected at most the store's current read point ["
              + visible
              + "], found ["
              + readPoint
              + "]");
    }
    long h = horizon;
    if (readPoint < h) {
      throw new CairnException(
          ErrorCode.SNAPSHOT_TOO_OLD,
          "Snapshot too old: read point ["
              + readPoint
              + "] is below the oldest one the store keeps versions for ["
              + h
              + "]; a statement or transaction keeps its snapshot for at most "
              + SNAPSHOT_MAX_AGE_SETTING
              + " ["
              + snapshotMaxAgeMillis
              + " ms]: run it again");
    }
  }

  public void endRead(long readPoint) {
    openReadPoints.computeIfPresent(readPoint, (k, n) -> n == 1 ? null : n - 1);
  }

  /**
   * Pins the current read point until {@link Pin#close()} or until it is older than the maximum
   * snapshot age (then the next flush or compaction may merge versions it needs).
   */
  public Pin pin() {
    long rp = beginRead();
    Pin p = new Pin(rp, System.nanoTime());
    pins.add(p);
    return p;
  }

  /** How many pins are open (not closed, not expired). */
  public int openPins() {
    expirePins();
    return pins.size();
  }

  /** A pinned read point (a snapshot). */
  public final class Pin {
    public final long readPoint;
    final long createdNanos;
    private final AtomicBoolean released = new AtomicBoolean();

    private Pin(long readPoint, long createdNanos) {
      this.readPoint = readPoint;
      this.createdNanos = createdNanos;
    }

    /** Releases the read point (idempotent; an expired pin is already released). */
    public void close() {
      if (released.compareAndSet(false, true)) {
        pins.remove(this);
        endRead(readPoint);
      }
    }
  }

  private void expirePins() {
    long now = System.nanoTime();
    long maxAge = snapshotMaxAgeMillis * 1_000_000L;
    for (Pin p : pins) {
      if (now - p.createdNanos > maxAge) {
        p.close();
      }
    }
  }

  /**
   * The smallest read point any open or future scan may use: versions below it can merge. Callers
   * (flushes, compactions) merge versions with it, so reads below it fail from now on.
   */
  public long smallestReadPoint() {
    expirePins();
    synchronized (openReadPoints) {
      long rp = readPoint;
      // endRead removes entries without this lock: firstEntry() (null when empty), never firstKey()
      Map.Entry<Long, Long> first = openReadPoints.firstEntry();
      long smallest = first == null ? rp : Math.min(first.getKey(), rp);
      if (smallest > horizon) {
        horizon = smallest;
      }
      return smallest;
    }
  }
}
