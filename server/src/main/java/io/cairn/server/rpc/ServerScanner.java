package io.cairn.server.rpc;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.Aggregates;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.protocol.wire.RowPageWriter;
import io.cairn.relocated.protobuf.ByteString;
import io.cairn.store.coprocessor.ProgramScanner;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An open scanner owned by a connection: the store's {@link RowScanner} and the page it reads next.
 * Requests on one scanner run one at a time ({@link #lock()}); {@link #close()} may come from any
 * thread (CloseScan, a cancel, the connection closing, the idle timeout) and releases what the scan
 * holds, at once or when the page being read returns.
 */
final class ServerScanner {
  /** Rows read between two looks at the clock, when rows come fast. */
  private static final int CLOCK_INTERVAL = 16;

  /** A page of rows: {@code rowCount} rows of the scan's width, concatenated. */
  record Page(ByteString rows, int rowCount, boolean done) {}

  private final long id;
  private final RowScanner rows;
  private final int columnCount;
  private final ReentrantLock lock = new ReentrantLock();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile long lastUsedNanos;

  ServerScanner(long id, RowScanner rows, int columnCount) {
    this.id = id;
    this.rows = requireNonNull(rows, "rows is null");
    this.columnCount = columnCount;
    this.lastUsedNanos = System.nanoTime();
  }

  /**
   * The width of a program's result rows: its projection, or the group keys and the partial states
   * of its aggregates (see {@link ScanProgram}).
   */
  static int columnCount(ScanProgram program) {
    if (program.aggregates().isEmpty()) {
      return program.projection().size();
    }
    return program.groupBy().size()
        + program.aggregates().stream().mapToInt(c -> Aggregates.partialTypes(c).size()).sum();
  }

  /**
   * Reads a page from {@code rows}: until {@code maxRows} rows, {@code maxBytes} bytes of encoded
   * rows (the row that crosses it included), the end ({@code done}), or, when {@code bounded},
   * {@code deadlineNanos} (a {@link System#nanoTime()} value), which may give a page with no rows
   * at all: a selective scan then reports progress rather than nothing.
   */
  static Page readPage(
      RowScanner rows,
      int columnCount,
      int maxRows,
      long maxBytes,
      boolean bounded,
      long deadlineNanos) {
    RowPageWriter page = new RowPageWriter(columnCount);
    ProgramScanner timed = bounded && rows instanceof ProgramScanner p ? p : null;
    boolean done = false;
    int sinceClock = 0;
    while (page.rowCount() < maxRows && page.sizeBytes() < maxBytes) {
      Object[] row = timed != null ? timed.next(deadlineNanos) : rows.next();
      if (row == null) {
        done = true;
        break;
      }
      if (row == ProgramScanner.NOT_YET) {
        break;
      }
      page.add(row);
      if (bounded && ++sinceClock >= CLOCK_INTERVAL) {
        sinceClock = 0;
        if (System.nanoTime() - deadlineNanos >= 0) {
          break;
        }
      }
    }
    int count = page.rowCount();
    return new Page(page.finish(), count, done);
  }

  long id() {
    return id;
  }

  RowScanner rows() {
    return rows;
  }

  int columnCount() {
    return columnCount;
  }

  /** Held while a request reads from (or closes) the scanner. */
  ReentrantLock lock() {
    return lock;
  }

  boolean isClosed() {
    return closed.get();
  }

  void touch() {
    lastUsedNanos = System.nanoTime();
  }

  /** How long the scanner has been untouched, as of {@code nowNanos}. */
  long idleNanos(long nowNanos) {
    return nowNanos - lastUsedNanos;
  }

  /** Closes the store's scanner; once. */
  void close() {
    if (closed.compareAndSet(false, true)) {
      rows.close();
    }
  }
}
