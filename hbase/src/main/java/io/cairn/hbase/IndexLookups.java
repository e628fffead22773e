package io.cairn.hbase;

import static io.cairn.hbase.HBaseKvStore.FAMILY;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.hbase.server.WireNames;
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
 * reads the index table's ranges one after the other, each scan asking the index's region servers
 * to check the entries against their rows ({@link WireNames#LOOKUP_ATTRIBUTE}), and keeps the valid
 * entries whose row key lies in the read's rows; an index table of an older version answers its
 * plain entries, which this checks in batches itself (one multi-get per batch, {@link
 * HBaseIndexes#check}). A valid entry gives its row (a lookup) or itself cut to the key parts and
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

  /** The index's wire definition, which asks its region servers to check the entries. */
  private final byte[] definition;

  private final ArrayDeque<Answer> ready = new ArrayDeque<>();
  private final List<HBaseIndexes.Candidate> candidates = new ArrayList<>();
  private int batch = FIRST_BATCH;

  /** The region servers' answers of the batch being read. */
  private int answered;

  private int nextRange;
  private ResultScanner scanner;
  private boolean ended;

  IndexLookups(
      HBaseIndexes indexes,
      IndexRead read,
      List<KeyRange> ranges,
      Function<Scan, ResultScanner> open,
      Function<Scan, List<Result>> first,
      String table,
      byte[] definition) {
    this.indexes = indexes;
    this.definition = definition;
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
    Answer row = ready.poll();
    if (read.lookup()) {
      setCurrent(IndexKeys.rowKey(row.entryKey()), row.value());
    } else {
      Bytes key = row.entryKey();
      setCurrent(
          Bytes.copyOf(
              key.peekArray(),
              IndexKeys.PREFIX_LENGTH,
              key.length() - IndexKeys.PREFIX_LENGTH - IndexKeys.SUFFIX_LENGTH),
          row.value());
    }
    return true;
  }

  /**
   * A valid entry: its key, and its row's value (a lookup) or its own value (a covered read, made
   * from the row).
   */
  private record Answer(Bytes entryKey, Bytes value) {}

  /** A scan of the index's table for this read, checked in the region servers. */
  private Scan scan(KeyRange range) {
    Scan scan = HBaseRowCursor.scanOf(range).setAttribute(WireNames.LOOKUP_ATTRIBUTE, definition);
    return read.lookup() ? scan.setAttribute(WireNames.LOOKUP_ROWS_ATTRIBUTE, new byte[0]) : scan;
  }

  /**
   * Takes an index table row: a region server's answer (a valid entry), or, from an index table
   * made before its region servers checked entries (no {@link WireNames#INDEX_OBSERVER}), the
   * entry's cells, to check here.
   */
  private void take(Result r) {
    if (!inRows(r.getRow())) {
      return;
    }
    byte[] answer = r.getValue(FAMILY, WireNames.LOOKUP_QUALIFIER);
    if (answer != null) {
      checkCandidates(); // entries before it (a region of an older server): in order
      ready.add(new Answer(Bytes.wrap(r.getRow()), Bytes.wrap(answer)));
      answered++;
    } else {
      HBaseIndexes.candidates(r, candidates);
    }
  }

  /** Reads the next batch of entries and checks them; sets {@link #ended} after the last. */
  private void fill() {
    candidates.clear();
    answered = 0;
    try {
      while (candidates.size() + answered < batch) {
        if (scanner == null) {
          if (nextRange >= ranges.size()) {
            ended = true;
            break;
          }
          // a range's first entries in one call (all of a point lookup's), a scanner for more
          KeyRange range = ranges.get(nextRange++);
          List<Result> head = first.apply(scan(range).setLimit(batch));
          for (Result r : head) {
            take(r);
          }
          if (head.size() == batch) {
            scanner =
                open.apply(
                    scan(range)
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
        take(r);
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
    checkCandidates();
    batch = Math.min(MAX_BATCH, batch * 4);
  }

  /** Checks the entries of {@link #candidates} against their rows here, the valid ones ready. */
  private void checkCandidates() {
    if (candidates.isEmpty()) {
      return;
    }
    for (HBaseIndexes.Checked c : indexes.check(read.indexId(), candidates)) {
      ready.add(new Answer(c.entry().key(), read.lookup() ? c.rowValue() : c.entry().value()));
      answered++;
    }
    candidates.clear();
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
