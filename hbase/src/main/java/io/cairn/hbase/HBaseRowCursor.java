package io.cairn.hbase;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.hbase.server.CellRows;
import io.cairn.hbase.server.RemoteErrors;
import io.cairn.kv.KeyRange;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;

/**
 * The rows of a scan's key ranges, in key order, read from HBase one range after the other: a row's
 * key is its HBase row, its value the one cell of Cairn's family. The values are the cells' own
 * arrays (no copy); a row is valid until the next {@link #next()}.
 */
final class HBaseRowCursor extends CellRows {
  /** Rows fetched per round trip to a region server. */
  static final int CACHING = 1_000;

  private final List<KeyRange> ranges;
  private final Function<Scan, ResultScanner> open;
  private final String table;
  private int nextRange;
  private ResultScanner scanner;

  /**
   * @param open opens an HBase scanner of the table (the store's connection)
   */
  HBaseRowCursor(String table, List<KeyRange> ranges, Function<Scan, ResultScanner> open) {
    this.table = table;
    this.ranges = ranges;
    this.open = open;
  }

  @Override
  public boolean next() {
    try {
      while (true) {
        if (scanner == null) {
          if (nextRange >= ranges.size()) {
            return false;
          }
          scanner = open.apply(scanOf(ranges.get(nextRange++)).setCaching(CACHING));
        }
        Result result = scanner.next();
        if (result == null) {
          scanner.close();
          scanner = null;
          continue;
        }
        Cell cell = result.getColumnLatestCell(HBaseKvStore.FAMILY, HBaseKvStore.QUALIFIER);
        if (cell == null || cell.getValueLength() == 0) {
          continue; // a row of another family's making, or a deleted row's tombstone
        }
        point(cell);
        return true;
      }
    } catch (IOException e) {
      CairnException raised = RemoteErrors.find(e);
      if (raised != null) {
        throw raised; // the scan program's own error (a division by zero), as embedded
      }
      throw new CairnException(
          ErrorCode.IO_ERROR, "A scan of table [" + table + "] on HBase failed: " + e, e);
    }
  }

  /** An HBase scan of Cairn's family over {@code range}. */
  static Scan scanOf(KeyRange range) {
    Scan scan =
        new Scan().withStartRow(range.start().toByteArray(), true).addFamily(HBaseKvStore.FAMILY);
    if (!range.stop().isEmpty()) {
      scan.withStopRow(range.stop().toByteArray(), false);
    }
    return scan;
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
