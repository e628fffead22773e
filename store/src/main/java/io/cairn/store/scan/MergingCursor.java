package io.cairn.store.scan;

import io.cairn.core.bytes.Bytes;
import io.cairn.store.cell.BlockRun;
import io.cairn.store.cell.CellCursor;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges sorted cursors into one sorted cursor (row ascending, sequence id descending) with a heap
 * keyed by each cursor's current cell. The current cursor stays out of the heap while it keeps
 * producing the smallest cell, so a run of cells from one source costs one comparison each. Closing
 * closes every source.
 */
public final class MergingCursor implements CellCursor {
  private final List<CellCursor> sources;
  private final PriorityQueue<CellCursor> heap;
  private CellCursor current;
  private byte[] rowScratch = new byte[64];

  private MergingCursor(List<CellCursor> sources) {
    this.sources = List.copyOf(sources);
    this.heap = new PriorityQueue<>(Math.max(1, sources.size()), MergingCursor::compare);
  }

  /** One cursor over {@code sources}: the source itself when there is only one. */
  public static CellCursor of(List<CellCursor> sources) {
    return sources.size() == 1 ? sources.get(0) : new MergingCursor(sources);
  }

  static int compare(CellCursor a, CellCursor b) {
    int c = CellCursor.compareRows(a, b);
    return c != 0 ? c : Long.compare(b.sequenceId(), a.sequenceId());
  }

  @Override
  public boolean seek(Bytes row) {
    heap.clear();
    for (CellCursor source : sources) {
      if (source.seek(row)) {
        heap.add(source);
      }
    }
    current = heap.poll();
    return current != null;
  }

  @Override
  public boolean advance() {
    if (current == null) {
      return false;
    }
    if (current.advance()) {
      CellCursor top = heap.peek();
      if (top == null || compare(current, top) <= 0) {
        return true;
      }
      heap.add(current);
    }
    current = heap.poll();
    return current != null;
  }

  /**
   * Each source on the current row skips it with its own {@link CellCursor#nextRow()} (a block
   * file's skips versions without comparing rows); the heap is touched only when the source that
   * was current no longer holds the smallest row.
   */
  @Override
  public boolean nextRow() {
    if (current == null) {
      return false;
    }
    if (heap.isEmpty()) {
      if (current.nextRow()) {
        return true;
      }
      current = null;
      return false;
    }
    int length = current.rowLength();
    if (rowScratch.length < length) {
      rowScratch = new byte[Math.max(length, rowScratch.length * 2)];
    }
    System.arraycopy(current.rowArray(), current.rowOffset(), rowScratch, 0, length);
    CellCursor source = current;
    while (true) {
      boolean more = source.nextRow();
      CellCursor top = heap.peek();
      if (more && (top == null || compare(source, top) <= 0)) {
        current = source; // past the row, so not on it
        return true;
      }
      if (more) {
        heap.add(source);
      }
      source = heap.poll();
      if (source == null) {
        current = null;
        return false;
      }
      if (!CellCursor.sameRow(source, rowScratch, 0, length)) {
        current = source;
        return true;
      }
    }
  }

  /**
   * The current source's next block, when every other source's current row comes after that block's
   * last row: then the block's cells are the merge's next cells (files written one after the other
   * over separate key ranges, as a load in key order writes them).
   */
  @Override
  public boolean peekBlock(BlockRun run) {
    if (current == null || !current.peekBlock(run)) {
      return false;
    }
    byte[] last = run.lastRow();
    for (CellCursor other : heap) {
      int offset = other.rowOffset();
      if (Arrays.compareUnsigned(
              other.rowArray(), offset, offset + other.rowLength(), last, 0, last.length)
          <= 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void skipBlock() {
    current.skipBlock(); // it stays on its cell, still the smallest
  }

  @Override
  public Bytes row() {
    return current.row();
  }

  @Override
  public byte[] rowArray() {
    return current.rowArray();
  }

  @Override
  public int rowOffset() {
    return current.rowOffset();
  }

  @Override
  public int rowLength() {
    return current.rowLength();
  }

  @Override
  public ByteBuffer valueBuffer() {
    return current.valueBuffer();
  }

  @Override
  public int valueOffset() {
    return current.valueOffset();
  }

  @Override
  public int valueLength() {
    return current.valueLength();
  }

  @Override
  public long sequenceId() {
    return current.sequenceId();
  }

  @Override
  public boolean isDelete() {
    return current.isDelete();
  }

  @Override
  public Bytes value() {
    return current.value();
  }

  @Override
  public void close() {
    RuntimeException failure = null;
    for (CellCursor source : sources) {
      try {
        source.close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    heap.clear();
    current = null;
    if (failure != null) {
      throw failure;
    }
  }
}
