package io.cairn.store.coprocessor;

import static io.cairn.store.coprocessor.ProgramRows.KEPT;
import static io.cairn.store.coprocessor.ProgramRows.PAUSED;

import io.cairn.core.memory.MemoryPool;
import io.cairn.core.memory.MemoryReservation;
import io.cairn.core.memory.RowSizes;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.SortKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The ORDER BY of a program: reads and projects every kept row (only the top offset + limit in a
 * bounded heap when there is a limit), sorts them with {@link SortKey#comparator} (the driver's
 * ORDER BY comparison), then emits them after the offset, up to the limit. What the sort buffer or
 * the top-N heap holds is counted in a reservation of the scan's pool. Used by the scanning thread
 * of its {@link ProgramScanner} only.
 */
final class ProgramSort {
  /** A sorted row's slot in the buffer and in the array it is sorted in. */
  private static final long SORT_SLOT_BYTES = 16;

  /** The sorted rows once all were emitted. */
  private static final Object[][] NO_ROWS = new Object[0][];

  private final ProgramRows rows;
  private final Comparator<Object[]> order;
  private final long limit;
  private final long offset;

  /** The scan's own pool. */
  private final MemoryPool memory;

  /** What the sort buffer or the top-N heap holds; null before the first row. */
  private MemoryReservation sortMemory;

  /** A sort in progress: the projected rows read so far (or the top ones); null before. */
  private List<Object[]> sortRows;

  private PriorityQueue<Object[]> topRows;
  private int topCapacity;

  /** The sorted rows to emit once all rows are read (offset applied at {@link #sortedAt}). */
  private Object[][] sortedOutput;

  private int sortedAt;
  private long emitted;

  /** The reused array of {@link #sortProbe()}. */
  private Object[] probe;

  ProgramSort(ProgramRows rows, MemoryPool memory) {
    this.rows = rows;
    this.order = rows.compiled.order;
    ScanProgram program = rows.compiled.program;
    this.limit = program.limit();
    this.offset = program.offset();
    this.memory = memory;
  }

  /**
   * Reads and projects every kept row (keeping only the top {@code offset + limit} of them under a
   * limit), then emits them sorted, after the offset, up to the limit; NOT_YET while reading when
   * the deadline passes (the rows read so far are kept for the next call).
   */
  Object[] next() {
    if (sortedOutput == null) {
      if (limit == 0) {
        return null;
      }
      if (sortRows == null && topRows == null) {
        sortMemory = memory.reservation("a sort in the store");
        long capacity = limit == ScanProgram.NO_LIMIT ? Long.MAX_VALUE : offset + limit;
        if (capacity < Integer.MAX_VALUE / 2 && capacity >= 0) {
          topCapacity = (int) capacity;
          topRows = new PriorityQueue<>(Math.min(topCapacity, 1 << 16), order.reversed());
        } else {
          sortRows = new ArrayList<>();
        }
      }
      int found;
      while ((found = rows.nextKept()) == KEPT) {
        if (topRows == null) {
          sortRows.add(holdSorted(rows.project()));
        } else if (topRows.size() < topCapacity) {
          topRows.add(holdSorted(rows.project()));
        } else if (order.compare(sortProbe(), topRows.peek()) < 0) {
          // only a row that enters the top is projected whole
          sortMemory.free(SORT_SLOT_BYTES + RowSizes.row(topRows.poll()));
          topRows.add(holdSorted(rows.project()));
        }
      }
      if (found == PAUSED) {
        return ProgramScanner.NOT_YET;
      }
      rows.closeRowsEarly();
      Object[][] all = (topRows != null ? topRows : sortRows).toArray(new Object[0][]);
      topRows = null;
      sortRows = null;
      Arrays.sort(all, order);
      sortedOutput = all;
      sortedAt = (int) Math.min(offset, all.length);
    }
    if ((limit != ScanProgram.NO_LIMIT && emitted >= limit) || sortedAt >= sortedOutput.length) {
      sortedOutput = NO_ROWS; // every row emitted: what the sort held goes now, not at close
      sortedAt = 0;
      sortMemory.close();
      return null;
    }
    emitted++;
    Object[] row = sortedOutput[sortedAt];
    sortedOutput[sortedAt++] = null;
    return row;
  }

  /** Counts a row that the sort keeps, before it is kept. */
  private Object[] holdSorted(Object[] row) {
    sortMemory.add(SORT_SLOT_BYTES + RowSizes.row(row));
    return row;
  }

  /**
   * The sort keys of the reader's current row, at their projection positions in a reused array (the
   * other positions are stale): a top-N compares this with its worst row and projects the row whole
   * only when it enters. Decodes only the columns the sort keys read.
   */
  private Object[] sortProbe() {
    if (rows.readsKey) {
      return rows.project();
    }
    if (probe == null) {
      probe = new Object[rows.projection.length];
    }
    Object[] row = rows.reader.peekDecodedRow(rows.compiled.sortColumns);
    for (int i : rows.compiled.sortPositions) {
      int column = rows.projectedColumns[i];
      probe[i] = column >= 0 ? row[column] : rows.projection[i].evaluate(row, rows.context);
    }
    return probe;
  }

  /** Whether the sort has started, and so holds memory until {@link #release()}. */
  boolean holdsMemory() {
    return sortMemory != null;
  }

  /** Drops the sorted rows and gives their reservation back (idempotent). */
  void release() {
    sortRows = null;
    topRows = null;
    sortedOutput = null;
    if (sortMemory != null) {
      sortMemory.close();
    }
  }
}
