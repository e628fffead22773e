package io.cairn.hbase;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexRead;
import io.cairn.kv.KeyRange;
import io.cairn.store.cell.HeapRowCursor;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;

/**
 * The rows of an index read on HBase ({@link HBaseIndexes}), in the order of the index's entries:
 * reads the index table's ranges one after the other, keeps the entries whose row key lies in the
 * read's rows, and checks them in batches against their rows (one multi-get per batch, {@link
 * HBaseIndexes#check}); a valid entry gives its row (a lookup) or itself cut to the key parts and
 * row key with the included columns as value (covered: what the index's entry layout decodes), as
 * Cairn's own store does. Batches start small (a LIMIT or a point lookup reads few) and grow.
 */
final class IndexLookups extends HeapRowCursor {
  /** The entries checked in the first batch, and the most in one. */
  static final int FIRST_BATCH = 64;

  static final int MAX_BATCH = HBaseIndexes.BATCH;

  private final HBaseIndexes indexes;
  private final IndexRead read;
  private final List<KeyRange> ranges;
  private final Function<Scan, ResultScanner> open;

  /** Reads a scan's rows in one call (a scan with a limit). */
  private final Function<Scan, List<Result>> first;

  private final String table;
  private final ArrayDeque<HBaseIndexes.Checked> ready = new ArrayDeque<>();
  private final List<HBaseIndexes.Candidate> candidates = new ArrayList<>();
  private int batch = FIRST_BATCH;
  private int nextRange;
  private ResultScanner scanner;
  private boolean ended;

  IndexLookups(
      HBaseIndexes indexes,
      IndexRead read,
      List<KeyRange> ranges,
      Function<Scan, ResultScanner> open,
      Function<Scan, List<Result>> first,
      String table) {
    this.indexes = indexes;
    this.read = read;
    this.ranges = ranges;
    this.open = open;
    this.first = first;
    this.table = table;
  }

  @Override
  public boolean next() {
    while (ready.isEmpty()) {
      if (ended) {
        return false;
      }
      fill();
    }
    HBaseIndexes.Checked row = ready.poll();
    if (read.lookup()) {
      setCurrent(row.rowKey(), row.rowValue());
    } else {
      Bytes key = row.entry().key();
      setCurrent(
          Bytes.copyOf(
              key.peekArray(),
              IndexKeys.PREFIX_LENGTH,
              key.length() - IndexKeys.PREFIX_LENGTH - IndexKeys.SUFFIX_LENGTH),
          row.entry().value());
    }
    return true;
  }

  /** Reads the next batch of entries and checks them; sets {@link #ended} after the last. */
  private void fill() {
    candidates.clear();
    try {
      while (candidates.size() < batch) {
        if (scanner == null) {
          if (nextRange >= ranges.size()) {
            ended = true;
            break;
          }
          // a range's first entries in one call (all of a point lookup's), a scanner for more
          KeyRange range = ranges.get(nextRange++);
          List<Result> head = first.apply(HBaseRowCursor.scanOf(range).setLimit(batch));
          for (Result r : head) {
            if (inRows(r.getRow())) {
              HBaseIndexes.candidates(r, candidates);
            }
          }
          if (head.size() == batch) {
            scanner =
                open.apply(
                    HBaseRowCursor.scanOf(range)
                        .withStartRow(head.get(head.size() - 1).getRow(), false)
                        .setCaching(batch));
          }
          continue;
        }
        Result r = scanner.next();
        if (r == null) {
          scanner.close();
          scanner = null;
          continue;
        }
        if (inRows(r.getRow())) {
          HBaseIndexes.candidates(r, candidates);
        }
      }
    } catch (IOException | CairnException e) {
      if (HBaseIndexes.tableMissing(e)) { // the driver then reads the table (TableScan)
        throw new CairnException(
            ErrorCode.INDEX_NOT_FOUND,
            "Table ["
                + table
                + "]: its local index of id ["
                + read.indexId()
                + "] was dropped since this client read the catalog",
            e);
      }
      if (e instanceof CairnException raised) {
        throw raised;
      }
      throw new CairnException(
          ErrorCode.IO_ERROR, "An index read of table [" + table + "] on HBase failed: " + e, e);
    }
    if (!candidates.isEmpty()) {
      ready.addAll(indexes.check(read.indexId(), candidates));
    }
    batch = Math.min(MAX_BATCH, batch * 4);
  }

  private boolean inRows(byte[] entryKey) {
    KeyRange rows = read.rows();
    if (rows.isAll()) {
      return true;
    }
    int to = entryKey.length - IndexKeys.SUFFIX_LENGTH;
    return rows.contains(entryKey, to - IndexKeys.rowKeyLength(entryKey, 0, entryKey.length), to);
  }

  @Override
  public void close() {
    if (scanner != null) {
      scanner.close();
      scanner = null;
    }
    ended = true;
    ready.clear();
  }
}
