package io.cairn.store.memstore;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.Mutation;
import io.cairn.store.cell.CellCursor;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sorted, concurrent in-memory store of cells: (row key ascending, sequence id descending) to a
 * value or a tombstone. Any number of readers run while one writer at a time (serialised by the
 * owning region) adds cells; a reader passes a read point and sees, per key, the newest cell at or
 * below it. A region freezes its memstore to flush it: a frozen memstore gets no more cells (except
 * a rollback's removals) and is read until its file replaces it.
 */
public final class Memstore {
  /** Map key of a cell. */
  record CellKey(Bytes row, long sequenceId) implements Comparable<CellKey> {
    @Override
    public int compareTo(CellKey other) {
      int c = row.compareTo(other.row);
      return c != 0 ? c : Long.compare(other.sequenceId, sequenceId);
    }
  }

  /** The value of a tombstone in the map (a put's value is its {@link Bytes}). */
  private static final Object TOMBSTONE = new Object();

  /** Estimated heap bytes per cell beyond its key and value (skip-list node, index, key). */
  private static final long CELL_OVERHEAD = 160;

  private final ConcurrentSkipListMap<CellKey, Object> cells = new ConcurrentSkipListMap<>();
  private final AtomicLong heapSize = new AtomicLong();
  private volatile long minSequenceId = Long.MAX_VALUE;
  private volatile long maxSequenceId = -1;

  /** Adds a put of {@code value} at {@code sequenceId}; replaces a cell of the same key and id. */
  public void put(Bytes key, long sequenceId, Bytes value) {
    requireNonNull(value, "value is null");
    add(key, sequenceId, value);
  }

  /** Adds a tombstone at {@code sequenceId}. */
  public void delete(Bytes key, long sequenceId) {
    add(key, sequenceId, TOMBSTONE);
  }

  private void add(Bytes key, long sequenceId, Object cell) {
    requireNonNull(key, "key is null");
    Object previous = cells.put(new CellKey(key, sequenceId), cell);
    heapSize.addAndGet(size(key, cell) - (previous == null ? 0 : size(key, previous)));
    // one writer at a time (the region's lock): plain read-modify-write of the volatiles is safe
    if (sequenceId < minSequenceId) {
      minSequenceId = sequenceId;
    }
    if (sequenceId > maxSequenceId) {
      maxSequenceId = sequenceId;
    }
  }

  /**
   * Adds a batch's mutations at {@code sequenceId} as {@link #put} and {@link #delete} would one by
   * one (a key twice: the later mutation replaces the earlier), accounting the batch's size and
   * sequence id once rather than per cell.
   */
  public void apply(List<Mutation> mutations, long sequenceId) {
    long grown = 0;
    try {
      for (Mutation m : mutations) {
        Bytes key = requireNonNull(m.key(), "key is null");
        Object cell = m instanceof Mutation.Put put ? put.value() : TOMBSTONE;
        Object previous = cells.put(new CellKey(key, sequenceId), cell);
        grown += size(key, cell) - (previous == null ? 0 : size(key, previous));
      }
    } finally {
      heapSize.addAndGet(grown); // what was added, also when a failure stops the batch (rollback)
    }
    if (!mutations.isEmpty()) {
      // one writer at a time (the region's lock): plain read-modify-write of the volatiles is safe
      if (sequenceId < minSequenceId) {
        minSequenceId = sequenceId;
      }
      if (sequenceId > maxSequenceId) {
        maxSequenceId = sequenceId;
      }
    }
  }

  /** Removes the cell of {@code key} at {@code sequenceId} (a failed write's rollback). */
  public void remove(Bytes key, long sequenceId) {
    Object previous = cells.remove(new CellKey(key, sequenceId));
    if (previous != null) {
      heapSize.addAndGet(-size(key, previous));
    }
  }

  private static long size(Bytes key, Object cell) {
    return CELL_OVERHEAD + key.length() + (cell instanceof Bytes b ? b.length() : 0);
  }

  /**
   * The state of {@code key} in this memstore at {@code readPoint}: TRUE when its newest cell at or
   * below the read point is a put, FALSE when a tombstone, null when it has no such cell (older
   * layers decide).
   */
  public Boolean latest(Bytes key, long readPoint) {
    Map.Entry<CellKey, Object> e = cells.ceilingEntry(new CellKey(key, readPoint));
    if (e == null || !e.getKey().row().equals(key)) {
      return null;
    }
    return e.getValue() != TOMBSTONE;
  }

  /** What {@link #newest} answers for a key whose newest cell is a tombstone. */
  public static final Bytes DELETED = Bytes.wrap(new byte[0]);

  /**
   * The value of the newest cell of {@code key}, {@link #DELETED} (compare by identity) when it is
   * a tombstone, null when the key has no cell here.
   */
  public Bytes newest(Bytes key) {
    Map.Entry<CellKey, Object> e = cells.ceilingEntry(new CellKey(key, Long.MAX_VALUE));
    if (e == null || !e.getKey().row().equals(key)) {
      return null;
    }
    return e.getValue() == TOMBSTONE ? DELETED : (Bytes) e.getValue();
  }

  /** The sequence id of the newest cell (put or tombstone) of {@code key}, or -1 when none. */
  public long latestSequenceId(Bytes key) {
    Map.Entry<CellKey, Object> e = cells.ceilingEntry(new CellKey(key, Long.MAX_VALUE));
    if (e == null || !e.getKey().row().equals(key)) {
      return -1;
    }
    return e.getKey().sequenceId();
  }

  /** Whether the newest cell of {@code key} at or below {@code readPoint} is a put. */
  public boolean exists(Bytes key, long readPoint) {
    return Boolean.TRUE.equals(latest(key, readPoint));
  }

  public boolean isEmpty() {
    return cells.isEmpty();
  }

  /** Number of cells, all versions and tombstones included. */
  public int cellCount() {
    return cells.size();
  }

  /** Approximate bytes held. */
  public long heapSize() {
    return heapSize.get();
  }

  /** Smallest sequence id ever added (Long.MAX_VALUE when none). */
  public long minSequenceId() {
    return minSequenceId;
  }

  /** Largest sequence id ever added (-1 when none). */
  public long maxSequenceId() {
    return maxSequenceId;
  }

  /** A cursor over every cell (all versions and tombstones), see {@link CellCursor}. */
  public CellCursor cursor() {
    return new Cursor();
  }

  /** A cursor walking the skip list; re-seeks through the map on {@link #seek}. */
  private final class Cursor implements CellCursor {
    private Iterator<Map.Entry<CellKey, Object>> iterator;
    private CellKey key;
    private Object value;
    private ByteBuffer valueView;

    @Override
    public boolean seek(Bytes row) {
      iterator = cells.tailMap(new CellKey(row, Long.MAX_VALUE), true).entrySet().iterator();
      return advance();
    }

    @Override
    public boolean advance() {
      if (iterator == null || !iterator.hasNext()) {
        key = null;
        return false;
      }
      Map.Entry<CellKey, Object> e = iterator.next();
      key = e.getKey();
      value = e.getValue();
      valueView = null;
      return true;
    }

    @Override
    public Bytes row() {
      return key.row();
    }

    @Override
    public long sequenceId() {
      return key.sequenceId();
    }

    @Override
    public boolean isDelete() {
      return value == TOMBSTONE;
    }

    @Override
    public Bytes value() {
      return value instanceof Bytes b ? b : Bytes.EMPTY;
    }

    @Override
    public byte[] rowArray() {
      return key.row().peekArray();
    }

    @Override
    public int rowOffset() {
      return 0;
    }

    @Override
    public int rowLength() {
      return key.row().length();
    }

    @Override
    public ByteBuffer valueBuffer() {
      ByteBuffer v = valueView;
      if (v == null) {
        v = ByteBuffer.wrap(value().peekArray());
        valueView = v;
      }
      return v;
    }

    @Override
    public int valueOffset() {
      return 0;
    }

    @Override
    public int valueLength() {
      return value().length();
    }

    @Override
    public void close() {
      iterator = null;
    }
  }
}
