package io.cairn.hbase;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.hbase.server.Pages;
import io.cairn.hbase.server.RemoteErrors;
import io.cairn.hbase.server.WireNames;
import io.cairn.kv.KeyRange;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import io.cairn.kv.SortKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;

/**
 * A scan whose program runs in the region servers ({@code
 * io.cairn.hbase.server.CairnRegionObserver}): each region of each range answers pages of result
 * rows, in key order. A program runs per region, so only programs whose results per region make the
 * whole one are pushed ({@link #pushable}), in the form of {@link #regionProgram}: the regions'
 * rows concatenated in key order, the client skips the OFFSET and cuts the LIMIT; for a top-N
 * (ORDER BY with a LIMIT) each region answers its own top offset + limit rows and the client sorts
 * those and cuts; the partial states of an ungrouped aggregate (one per region) are merged into the
 * one row the SPI promises.
 */
final class PushedScan implements RowScanner {
  /** The most rows a region's top-N may hold for the client to merge (offset + limit). */
  static final long TOP_N_MAX = 100_000;

  private final String table;
  private final List<KeyRange> ranges;
  private final byte[] spec;

  /** The probe's hash table as each region's scan carries it ({@link #probeTable}), or null. */
  private final byte[] hashTable;

  private final Function<Scan, ResultScanner> open;
  private final ScanProgram program;
  private int nextRange;
  private volatile ResultScanner scanner;

  /** Set by {@link #close}, which another thread may call (a cancel) while a call runs. */
  private volatile boolean closed;

  private Object[][] page = new Object[0][];
  private int nextRow;
  private long skipped;
  private long emitted;
  private boolean combined;
  private Iterator<Object[]> sorted;

  PushedScan(
      String table,
      ScanRequest request,
      byte[] spec,
      byte[] hashTable,
      Function<Scan, ResultScanner> open) {
    this.table = table;
    this.ranges = request.ranges();
    this.program = request.program();
    this.spec = spec;
    this.hashTable = hashTable;
    this.open = open;
  }

  /**
   * The most bytes of a join's hash table that go with each region's scan ({@link #probeTable}); a
   * larger one is probed in the client (every region's rows come to it). Each region's scan builds
   * its own copy in the region server's heap (about 10x the bytes for 1,000-key tables).
   */
  static final int PROBE_TABLE_MAX_BYTES = 4 << 20;

  /**
   * The hash table the program's join probe reads, as a region's scan carries it (a wire {@code
   * PutHashCache}, rows uncompressed: a region server may lack LZ4); null when the program has no
   * probe, the table is not at hand or is larger than {@value #PROBE_TABLE_MAX_BYTES} bytes.
   */
  static byte[] probeTable(ScanRequest request) {
    ScanProgram p = request.program();
    if (p.probe().isEmpty() || request.hashCaches() == null) {
      return null;
    }
    String cacheId = p.probe().get().cacheId();
    io.cairn.kv.JoinHashTable table = request.hashCaches().find(cacheId);
    // the estimate counts Java objects, several times the wire bytes: a cheap first cut
    if (table == null || table.estimatedBytes() > 16L * PROBE_TABLE_MAX_BYTES) {
      return null;
    }
    // once per table however many chunks of the statement scan (the table is immutable)
    byte[] bytes =
        table.derived(
            new ProbeTableKey(cacheId),
            t -> {
              byte[] wire =
                  io.cairn.protocol.wire.WireHashTables.toProto(cacheId, t, false).toByteArray();
              return wire.length <= PROBE_TABLE_MAX_BYTES ? wire : new byte[0];
            });
    return bytes.length > 0 ? bytes : null;
  }

  /**
   * The key of a table's wire form for HBase scans (kept by the table, {@code
   * JoinHashTable.derived}).
   */
  private record ProbeTableKey(String cacheId) {}

  /**
   * Whether the program's results per region make its results over all the rows: no HAVING (a
   * region cannot tell a group complete), no local index, and a sort only with a LIMIT of at most
   * {@link #TOP_N_MAX} rows with its OFFSET (a top-N; a whole sort stays in the client). A join
   * probe needs its hash table to go along too ({@link #probeTable}).
   */
  static boolean pushable(ScanRequest request) {
    ScanProgram p = request.program();
    return request.index() == null
        && p.having().isEmpty()
        && (p.orderBy().isEmpty()
            || (p.limit() != ScanProgram.NO_LIMIT && p.limit() <= TOP_N_MAX - p.offset()));
  }

  /**
   * The program each region runs: without the OFFSET (the client skips it over all the regions'
   * rows), with a LIMIT of offset + limit.
   */
  static ScanProgram regionProgram(ScanProgram p) {
    if (p.offset() == 0) {
      return p;
    }
    long limit =
        p.limit() == ScanProgram.NO_LIMIT
            ? ScanProgram.NO_LIMIT
            : p.limit() > Long.MAX_VALUE - p.offset() ? Long.MAX_VALUE : p.limit() + p.offset();
    return new ScanProgram(
        p.layout(),
        p.filter(),
        p.projection(),
        limit,
        0,
        p.groupBy(),
        p.aggregates(),
        p.orderBy(),
        p.probe(),
        p.having());
  }

  @Override
  public Object[] next() {
    if (program.hasAggregates() && program.groupBy().isEmpty()) {
      return combined ? null : combine();
    }
    if (program.limit() != ScanProgram.NO_LIMIT && emitted >= program.limit()) {
      return null;
    }
    Object[] row;
    while (true) {
      row = program.orderBy().isEmpty() ? nextPageRow() : nextSortedRow();
      if (row == null || skipped >= program.offset()) {
        break;
      }
      skipped++;
    }
    if (row != null) {
      emitted++;
    }
    return row;
  }

  /** The regions' top rows, all read, in the program's order (ties in key order). */
  private Object[] nextSortedRow() {
    if (sorted == null) {
      List<Object[]> rows = new ArrayList<>();
      for (Object[] row = nextPageRow(); row != null; row = nextPageRow()) {
        rows.add(row);
      }
      rows.sort(SortKey.comparator(program.orderBy())); // stable: ties stay in key order
      sorted = rows.iterator();
    }
    return sorted.hasNext() ? sorted.next() : null;
  }

  /** The partial states of every region merged into one row. */
  private Object[] combine() {
    combined = true;
    List<AggregateCall> calls = program.aggregates();
    Accumulator[] accumulators = new Accumulator[calls.size()];
    int[] at = new int[calls.size()]; // where each call's partial state starts in a row
    int width = 0;
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = Aggregates.create(calls.get(i));
      at[i] = width;
      width += Aggregates.partialTypes(calls.get(i)).size();
    }
    for (Object[] row = nextPageRow(); row != null; row = nextPageRow()) {
      for (int i = 0; i < accumulators.length; i++) {
        accumulators[i].mergePartial(row, at[i]);
      }
    }
    Object[] out = new Object[width]; // no region answering (no range holds a key): no row's states
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i].writePartial(out, at[i]);
    }
    return out;
  }

  private Object[] nextPageRow() {
    try {
      while (nextRow >= page.length) {
        checkNotClosed();
        ResultScanner current = scanner;
        if (current == null) {
          if (nextRange >= ranges.size()) {
            return null;
          }
          Scan scan =
              HBaseRowCursor.scanOf(ranges.get(nextRange++))
                  .setCaching(1) // a result is a page
                  .setAttribute(WireNames.SCAN_ATTRIBUTE, spec);
          if (hashTable != null) {
            scan.setAttribute(WireNames.HASH_ATTRIBUTE, hashTable);
          }
          current = open.apply(scan);
          scanner = current;
          if (closed) {
            current.close(); // closed while it opened: close() may have missed it
            checkNotClosed();
          }
        }
        Result result = current.next();
        if (result == null) {
          // the range's end, or a close from another thread: that must not pass for the end
          current.close();
          scanner = null;
          continue;
        }
        byte[] value = result.getValue(Pages.FAMILY, Pages.QUALIFIER);
        page = value == null ? new Object[0][] : Pages.rows(value);
        nextRow = 0;
      }
      return page[nextRow++];
    } catch (IOException e) {
      checkNotClosed(); // a scanner closed under a running call fails it: the close is the cause
      CairnException raised = RemoteErrors.find(e);
      if (raised != null) {
        throw raised; // the scan program's own error (a division by zero), as embedded
      }
      throw new CairnException(
          ErrorCode.IO_ERROR, "A scan of table [" + table + "] on HBase failed: " + e, e);
    }
  }

  private void checkNotClosed() {
    if (closed) {
      throw new CairnException(
          ErrorCode.OBJECT_CLOSED, "The scan of table [" + table + "] is closed");
    }
  }

  @Override
  public void close() {
    closed = true;
    ResultScanner current = scanner;
    if (current != null) {
      current.close(); // HBase's close may come from any thread; a running next() then ends
    }
  }
}
