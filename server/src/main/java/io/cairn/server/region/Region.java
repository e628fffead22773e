package io.cairn.server.region;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Bytes;
import io.cairn.kv.ConditionFailedException;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.server.memstore.KeyValue;
import io.cairn.server.memstore.Memstore;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A key range of a table and the cells in it. MVCC: each applied batch gets one sequence id; the
 * read point is the highest sequence id whose batch is fully applied. Writers are serialised by the
 * region's write lock; readers take the read point without locking and never block writers.
 */
public final class Region {
  private final String tableName;
  private final KeyRange range;
  private final Memstore memstore = new Memstore();
  private final ReentrantLock writeLock = new ReentrantLock();

  /** Last sequence id handed out; guarded by {@link #writeLock}. */
  private long lastSequenceId;

  private volatile long readPoint;
  private volatile boolean closed;

  public Region(String tableName, KeyRange range) {
    this.tableName = requireNonNull(tableName, "tableName is null");
    this.range = requireNonNull(range, "range is null");
  }

  public KeyRange range() {
    return range;
  }

  /** The highest sequence id whose batch is fully applied: what a scan opened now sees. */
  public long readPoint() {
    return readPoint;
  }

  public Memstore peekMemstore() {
    return memstore;
  }

  /**
   * Applies the batch atomically under one new sequence id after checking every condition against
   * the latest committed state (updated by the batch's own earlier mutations).
   *
   * @throws ConditionFailedException when a condition fails; nothing is applied
   */
  public void mutate(List<Mutation> batch) {
    for (Mutation m : batch) {
      if (!range.contains(m.key())) {
        throw CairnException.internal(
            "Key outside region: expected a key in ["
                + range.start()
                + ", "
                + range.stop()
                + "), found ["
                + m.key()
                + "]");
      }
    }
    writeLock.lock();
    try {
      checkOpen();
      checkConditions(batch);
      long sequenceId = lastSequenceId + 1;
      for (Mutation m : batch) {
        if (m instanceof Mutation.Put put) {
          memstore.put(put.key(), sequenceId, put.value());
        } else {
          memstore.delete(m.key(), sequenceId);
        }
      }
      lastSequenceId = sequenceId;
      readPoint = sequenceId; // publishes the whole batch at once
    } finally {
      writeLock.unlock();
    }
  }

  private void checkConditions(List<Mutation> batch) {
    Map<Bytes, Boolean> pending = null;
    for (int i = 0; i < batch.size(); i++) {
      Mutation m = batch.get(i);
      if (m instanceof Mutation.Put put && put.condition() == Mutation.Condition.MUST_NOT_EXIST) {
        Boolean inBatch = pending == null ? null : pending.get(put.key());
        boolean exists = inBatch != null ? inBatch : memstore.exists(put.key(), lastSequenceId);
        if (exists) {
          throw new ConditionFailedException(i, put.key());
        }
      }
      if (batch.size() > 1) {
        if (pending == null) {
          pending = new HashMap<>();
        }
        pending.put(m.key(), m instanceof Mutation.Put);
      }
    }
  }

  /**
   * The visible rows of {@code scanRange} (clipped to this region) at {@code atReadPoint}. Works on
   * a closed region too, so that scans opened before a drop finish on their snapshot.
   */
  public Iterator<KeyValue> scan(KeyRange scanRange, long atReadPoint) {
    KeyRange clipped = intersect(scanRange, range);
    if (clipped == null) {
      return Collections.emptyIterator();
    }
    return memstore.scan(clipped, atReadPoint);
  }

  /** The overlap of two ranges, or null when they do not overlap. */
  static KeyRange intersect(KeyRange a, KeyRange b) {
    Bytes start = a.start().compareTo(b.start()) >= 0 ? a.start() : b.start();
    Bytes stop;
    if (a.stop().isEmpty()) {
      stop = b.stop();
    } else if (b.stop().isEmpty()) {
      stop = a.stop();
    } else {
      stop = a.stop().compareTo(b.stop()) <= 0 ? a.stop() : b.stop();
    }
    KeyRange result = new KeyRange(start, stop);
    return result.isEmptyRange() ? null : result;
  }

  /** Closes the region: later writes and new scans fail; open scans keep their snapshot. */
  public void close() {
    closed = true;
  }

  /** Throws TABLE_NOT_FOUND when the region is closed (its table dropped). */
  public void checkOpen() {
    if (closed) {
      throw new CairnException(ErrorCode.TABLE_NOT_FOUND, "Table [" + tableName + "] was dropped");
    }
  }
}
