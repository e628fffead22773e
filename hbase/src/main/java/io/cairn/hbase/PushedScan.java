package io.cairn.hbase;

import io.cairn.core.agg.Accumulator;
import io.cairn.core.agg.AggregateCall;
import io.cairn.core.agg.Aggregates;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.hbase.server.CairnRegionObserver;
import io.cairn.hbase.server.Pages;
import io.cairn.kv.KeyRange;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;

/**
 * A scan whose program runs in the region servers ({@link CairnRegionObserver}): each region of
 * each range answers pages of result rows, handed out in key order. A program runs per region, so
 * only programs whose results per region join by concatenation are pushed ({@link #pushable}); the
 * client cuts a LIMIT to its count and merges the partial states of an ungrouped aggregate (one per
 * region) into the one row the SPI promises.
 */
final class PushedScan implements RowScanner {
  private final String table;
  private final List<KeyRange> ranges;
  private final byte[] spec;
  private final Function<Scan, ResultScanner> open;
  private final ScanProgram program;
  private int nextRange;
  private ResultScanner scanner;
  private Object[][] page = new Object[0][];
  private int nextRow;
  private long emitted;
  private boolean combined;

  PushedScan(String table, ScanRequest request, byte[] spec, Function<Scan, ResultScanner> open) {
    this.table = table;
    this.ranges = request.ranges();
    this.program = request.program();
    this.spec = spec;
    this.open = open;
  }

  /**
   * Whether the program's results per region, concatenated in key order (a LIMIT cut and an
   * ungrouped aggregate's states merged), are its results over all the rows: no sort, no OFFSET, no
   * HAVING (a region cannot tell a group complete), no join probe (the region servers hold no hash
   * caches yet), no LIMIT over groups.
   */
  static boolean pushable(ScanRequest request) {
    ScanProgram p = request.program();
    return request.index() == null
        && p.probe().isEmpty()
        && p.orderBy().isEmpty()
        && p.offset() == 0
        && p.having().isEmpty()
        && !(p.hasAggregates() && p.limit() != ScanProgram.NO_LIMIT);
  }

  @Override
  public Object[] next() {
    if (program.hasAggregates() && program.groupBy().isEmpty()) {
      return combined ? null : combine();
    }
    if (program.limit() != ScanProgram.NO_LIMIT && emitted >= program.limit()) {
      return null;
    }
    Object[] row = nextPageRow();
    if (row != null) {
      emitted++;
    }
    return row;
  }

  /** The partial states of every region merged into one row. */
  private Object[] combine() {
    combined = true;
    List<AggregateCall> calls = program.aggregates();
    Accumulator[] accumulators = new Accumulator[calls.size()];
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = Aggregates.create(calls.get(i));
    }
    Object[] out = null;
    for (Object[] row = nextPageRow(); row != null; row = nextPageRow()) {
      int at = 0;
      for (int i = 0; i < accumulators.length; i++) {
        accumulators[i].mergePartial(row, at);
        at += Aggregates.partialTypes(calls.get(i)).size();
      }
      out = new Object[row.length];
    }
    if (out == null) {
      // no region answered (no range holds a key): the states of no row
      int width = 0;
      for (AggregateCall call : calls) {
        width += Aggregates.partialTypes(call).size();
      }
      out = new Object[width];
    }
    int at = 0;
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i].writePartial(out, at);
      at += Aggregates.partialTypes(calls.get(i)).size();
    }
    return out;
  }

  private Object[] nextPageRow() {
    try {
      while (nextRow >= page.length) {
        if (scanner == null) {
          if (nextRange >= ranges.size()) {
            return null;
          }
          Scan scan =
              HBaseRowCursor.scanOf(ranges.get(nextRange++))
                  .setCaching(1) // a result is a page
                  .setAttribute(CairnRegionObserver.SCAN_ATTRIBUTE, spec);
          scanner = open.apply(scan);
        }
        Result result = scanner.next();
        if (result == null) {
          scanner.close();
          scanner = null;
          continue;
        }
        byte[] value = result.getValue(Pages.FAMILY, Pages.QUALIFIER);
        page = value == null ? new Object[0][] : Pages.rows(value);
        nextRow = 0;
      }
      return page[nextRow++];
    } catch (IOException e) {
      throw new CairnException(
          ErrorCode.IO_ERROR, "A scan of table [" + table + "] on HBase failed: " + e, e);
    }
  }

  @Override
  public void close() {
    if (scanner != null) {
      scanner.close();
      scanner = null;
    }
    nextRange = ranges.size();
  }
}
