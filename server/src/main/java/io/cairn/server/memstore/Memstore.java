package io.cairn.server.memstore;

import static java.util.Objects.requireNonNull;

import io.cairn.kv.Bytes;
import io.cairn.kv.KeyRange;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A sorted, concurrent in-memory store of cells: (row key ascending, sequence id descending) to a
 * value or a tombstone. Any number of readers run while one writer (serialised by the owning
 * region) adds cells; a reader passes a read point and sees, per key, the newest cell at or below
 * it. Old versions are kept until compaction (later).
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

  /** A cell's content: {@code value} null is a tombstone. */
  record Cell(Bytes value) {
    boolean isTombstone() {
      return value == null;
    }
  }

  private static final Cell TOMBSTONE = new Cell(null);

  private final ConcurrentSkipListMap<CellKey, Cell> cells = new ConcurrentSkipListMap<>();
  private final AtomicLong heapSize = new AtomicLong();

  /** Adds a put of {@code value} at {@code sequenceId}; replaces a cell of the same key and id. */
  public void put(Bytes key, long sequenceId, Bytes value) {
    requireNonNull(value, "value is null");
    add(key, sequenceId, new Cell(value));
  }

  /** Adds a tombstone at {@code sequenceId}. */
  public void delete(Bytes key, long sequenceId) {
    add(key, sequenceId, TOMBSTONE);
  }

  private void add(Bytes key, long sequenceId, Cell cell) {
    requireNonNull(key, "key is null");
    Cell previous = cells.put(new CellKey(key, sequenceId), cell);
    heapSize.addAndGet(size(key, cell) - (previous == null ? 0 : size(key, previous)));
  }

  private static long size(Bytes key, Cell cell) {
    return 48L + key.length() + (cell.value() == null ? 0 : cell.value().length());
  }

  /**
   * Whether the newest cell of {@code key} at or below {@code readPoint} is a put (a tombstone or
   * no cell at all = absent).
   */
  public boolean exists(Bytes key, long readPoint) {
    for (Map.Entry<CellKey, Cell> e : cells.tailMap(new CellKey(key, readPoint), true).entrySet()) {
      if (!e.getKey().row().equals(key)) {
        return false;
      }
      return !e.getValue().isTombstone();
    }
    return false;
  }

  /** Number of cells, all versions and tombstones included. */
  public int cellCount() {
    return cells.size();
  }

  /** Approximate bytes held. */
  public long heapSize() {
    return heapSize.get();
  }

  /**
   * The visible rows in {@code range} at {@code readPoint}, in key order: per key the newest cell
   * at or below the read point, keys whose newest such cell is a tombstone left out. Seeks past
   * invisible and older versions (two skip-list seeks per row), so old versions cost little.
   * Consistent under concurrent writes: cells written after the read point was taken have higher
   * sequence ids and are never returned.
   */
  public Iterator<KeyValue> scan(KeyRange range, long readPoint) {
    CellKey from = new CellKey(range.start(), Long.MAX_VALUE);
    Iterator<Map.Entry<CellKey, Cell>> cursor =
        (range.stop().isEmpty()
                ? cells.tailMap(from, true)
                : cells.subMap(from, true, new CellKey(range.stop(), Long.MAX_VALUE), false))
            .entrySet()
            .iterator();
    // One sequential walk of the sorted cells (a row's versions are newest first): skip versions
    // newer than the read point, take the first older one, skip the row's remaining versions.
    return new Iterator<>() {
      private Bytes decidedRow;
      private KeyValue next;

      @Override
      public boolean hasNext() {
        while (next == null && cursor.hasNext()) {
          Map.Entry<CellKey, Cell> e = cursor.next();
          CellKey key = e.getKey();
          if (key.sequenceId() > readPoint || key.row().equals(decidedRow)) {
            continue;
          }
          decidedRow = key.row();
          if (!e.getValue().isTombstone()) {
            next = new KeyValue(key.row(), e.getValue().value());
          }
        }
        return next != null;
      }

      @Override
      public KeyValue next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        KeyValue result = next;
        next = null;
        return result;
      }
    };
  }
}
