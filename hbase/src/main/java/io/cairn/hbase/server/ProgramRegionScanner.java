package io.cairn.hbase.server;

import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.HashCacheLookup;
import io.cairn.kv.ScanRequest;
import io.cairn.protocol.wire.RowPageWriter;
import io.cairn.store.coprocessor.ProgramScanner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/**
 * A region's rows run through a Cairn scan program inside the region server: each call of {@code
 * next} answers one page of result rows ({@link #PAGE_ROWS} rows or {@link #PAGE_BYTES} bytes) as
 * one cell ({@link Pages}), until the program ends. The program reads the region scanner this
 * wraps, which it closes.
 */
public final class ProgramRegionScanner extends AnsweringRegionScanner {
  /** Rows, and bytes of encoded rows, per page. */
  public static final int PAGE_ROWS = 4096;

  /**
   * The region servers' setting of how long one call may read before it answers (default {@value
   * #DEFAULT_PAGE_MILLIS} ms), with the rows found so far or none: between calls the region server
   * checks the RPC's time limit and, past it, answers the client with a heartbeat (the scanner's
   * lease renewed), so a long scan that finds few rows does not time out.
   */
  public static final String PAGE_MILLIS = "cairn.region.page-millis";

  static final long DEFAULT_PAGE_MILLIS = 200;

  static final int PAGE_BYTES = 1 << 20;

  private final ScanRequest request;
  private final RegionRows rows;
  private ProgramScanner program;
  private RowPageWriter page;
  private boolean done;

  /** Calls of this JVM's region servers that answered no row because their time was up. */
  private static final AtomicLong EMPTY_ANSWERS = new AtomicLong();

  /** How many calls answered no row because their slice of time was up (tests, metrics). */
  public static long emptyAnswers() {
    return EMPTY_ANSWERS.get();
  }

  /** A call's slice of time ({@link #PAGE_MILLIS}). */
  private final long pageNanos;

  /** The table of the program's join probe, or null. */
  private final HashCacheLookup hashCaches;

  /** A count scan's rows and chunks so far; null for a program. */
  private final RegionCount count;

  /**
   * @param hashCaches the hash table of the program's join probe, which came with the scan; null:
   *     none
   */
  ProgramRegionScanner(
      RegionScanner region, ScanRequest request, HashCacheLookup hashCaches, long pageMillis) {
    this(region, request, hashCaches, null, pageMillis);
  }

  private ProgramRegionScanner(
      RegionScanner region,
      ScanRequest request,
      HashCacheLookup hashCaches,
      RegionCount count,
      long pageMillis) {
    super(region);
    this.request = request;
    this.hashCaches = hashCaches;
    this.count = count;
    this.rows = new RegionRows(region);
    this.pageNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, pageMillis));
  }

  /**
   * A scanner that answers the number of Cairn rows the region scanner returns, cut into chunks at
   * guide posts about every {@code guidePostWidth} bytes (0: none), as one cell ({@link
   * WireNames#COUNT_ATTRIBUTE}, {@link RegionCount}), reading them in the region server.
   */
  static ProgramRegionScanner counting(RegionScanner region, long guidePostWidth, long pageMillis) {
    return new ProgramRegionScanner(
        region, null, null, new RegionCount(guidePostWidth), pageMillis);
  }

  @Override
  public boolean nextRaw(List<Cell> out) throws IOException {
    if (done) {
      return false;
    }
    long deadline = System.nanoTime() + pageNanos;
    if (count != null) {
      while (rows.next()) {
        count.add(rows.keyArray(), rows.keyOffset(), rows.keyLength(), rows.valueLength());
        if ((count.rows() & 4095) == 0 && System.nanoTime() - deadline > 0) {
          EMPTY_ANSWERS.incrementAndGet();
          return true; // a slice of time is up: nothing to answer yet
        }
      }
      done = true;
      out.add(Pages.counted(answerRow(), count));
      return false;
    }
    try {
      if (program == null) {
        program =
            new ProgramScanner(
                rows,
                request.program(),
                request.context(),
                AggregationMemory.DEFAULT_MAX_BYTES,
                null,
                false,
                hashCaches);
      }
      while (page == null || (page.rowCount() < PAGE_ROWS && page.sizeBytes() < PAGE_BYTES)) {
        Object[] row = program.next(deadline);
        if (row == ProgramScanner.NOT_YET) {
          break; // a slice of time is up: what the page has (maybe nothing) goes now
        }
        if (row == null) {
          done = true;
          break;
        }
        if (page == null) {
          page = new RowPageWriter(row.length);
        }
        page.add(row);
      }
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause(); // the region's own failure, as HBase reports it
    } catch (CairnException e) {
      // a program's error (a division by zero, a bad cast) is the same on every retry; its code
      // goes to the client in the message (RemoteErrors)
      throw new DoNotRetryIOException(RemoteErrors.message(e), e);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new DoNotRetryIOException(
          RemoteErrors.message(
              ErrorCode.INTERNAL_ERROR, "Cairn scan program failed: " + e.getMessage()),
          e);
    }
    if (page != null && page.rowCount() > 0) {
      out.add(Pages.cell(answerRow(), page.columnCount(), page.rowCount(), page.finish()));
    } else if (!done) {
      EMPTY_ANSWERS.incrementAndGet();
    }
    return !done;
  }

  @Override
  public void close() throws IOException {
    done = true;
    if (program != null) {
      program.close(); // closes the rows, which close the region scanner
    } else {
      region.close();
    }
  }

  /** The region scanner's rows as the program reads them: Cairn's cell of each row. */
  private static final class RegionRows extends CellRows {
    private final RegionScanner region;
    private final List<Cell> cells = new ArrayList<>();
    private boolean more = true;

    RegionRows(RegionScanner region) {
      this.region = region;
    }

    @Override
    public boolean next() {
      try {
        while (more) {
          cells.clear();
          more = region.nextRaw(cells);
          for (Cell cell : cells) {
            if (org.apache.hadoop.hbase.CellUtil.matchingQualifier(cell, WireNames.ROW_QUALIFIER)
                && cell.getValueLength() > 0) { // empty: a deleted row's tombstone
              point(cell);
              return true;
            }
          }
        }
        return false;
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    @Override
    public void close() {
      more = false;
      try {
        region.close();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }
}
