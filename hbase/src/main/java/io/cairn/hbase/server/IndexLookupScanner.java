package io.cairn.hbase.server;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.error.CairnException;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexSpec;
import io.cairn.store.index.IndexMaintainer;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.OnlineRegions;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/**
 * An index read in the region server of the index table's region ({@link
 * WireNames#LOOKUP_ATTRIBUTE}): reads the region's entries in the scan's range, checks them in
 * batches against their rows (read in process from the regions of the same region server, the
 * others in one multi-get through the region server's connection) and answers each valid entry by
 * one cell of qualifier {@link WireNames#LOOKUP_QUALIFIER} in the entry's own row: the row's value
 * for a lookup ({@link WireNames#LOOKUP_ROWS_ATTRIBUTE}), the entry's value (made from the row,
 * with the index's included columns) for a covered read. An entry is valid when its row exists,
 * holds the entry's token and makes that entry key: the check the client made itself before, one
 * round trip less. Invalid entries (of writes that failed or lost a race) are left out. The
 * answers' rows are the index table's, in order, so HBase's client resumes a scan past the last
 * answer as any other.
 */
final class IndexLookupScanner extends AnsweringRegionScanner {
  /** The entries of the first batch (a point lookup or a LIMIT reads few), growing 4x a batch. */
  static final int FIRST_BATCH = 64;

  /** The most entries checked in one batch. */
  static final int MAX_BATCH = 2_000;

  private static final AtomicLong LOOKUPS = new AtomicLong();

  private static final AtomicLong REMOTE_ROWS = new AtomicLong();

  private final Connection connection;
  private final OnlineRegions regions;
  private final TableName rows;
  private final IndexMaintainer maintainer;
  private final int indexId;
  private final boolean lookup;
  private final ArrayDeque<Cell> ready = new ArrayDeque<>();
  private final List<Cell> cells = new ArrayList<>();
  private final List<Bytes> entryKeys = new ArrayList<>();
  private final List<byte[]> tokens = new ArrayList<>();
  private int batch;
  private boolean regionEnded;

  private IndexLookupScanner(
      RegionScanner region,
      Connection connection,
      OnlineRegions regions,
      TableName rows,
      RowLayout layout,
      IndexSpec index,
      boolean lookup,
      int limit) {
    super(region);
    this.connection = connection;
    this.regions = regions;
    this.rows = rows;
    this.maintainer = new IndexMaintainer(layout, List.of(index));
    this.indexId = index.indexId();
    this.lookup = lookup;
    this.batch = limit > 0 ? Math.min(FIRST_BATCH, limit) : FIRST_BATCH;
  }

  /**
   * The lookup of the index whose wire {@code IndexDefinition} is {@code definition}, over {@code
   * region} of its index table.
   *
   * @param limit the scan's limit (0: none), which caps the first batch
   */
  static IndexLookupScanner open(
      RegionScanner region,
      Connection connection,
      OnlineRegions regions,
      byte[] definition,
      boolean lookup,
      int limit)
      throws IOException {
    WireIndex wire = WireIndex.parse(definition, region);
    RowLayout layout = wire.layout();
    IndexSpec index = wire.index();
    TableName indexTable = region.getRegionInfo().getTable();
    String name = indexTable.getQualifierAsString();
    String suffix = WireNames.INDEX_TABLE_SUFFIX + index.indexId();
    if (!name.endsWith(suffix)) {
      region.close();
      throw new DoNotRetryIOException(
          "An index lookup of index ["
              + index.indexId()
              + "]: expected a scan of its table (a name ending "
              + suffix
              + "), found "
              + indexTable.getNameAsString());
    }
    TableName rows =
        TableName.valueOf(
            indexTable.getNamespaceAsString(), name.substring(0, name.length() - suffix.length()));
    LOOKUPS.incrementAndGet();
    return new IndexLookupScanner(region, connection, regions, rows, layout, index, lookup, limit);
  }

  /** How many index lookups this JVM's region servers started (for tests and metrics). */
  static long lookupsStarted() {
    return LOOKUPS.get();
  }

  /**
   * How many rows of other region servers this JVM's index lookups read (for tests and metrics).
   */
  static long remoteRowsRead() {
    return REMOTE_ROWS.get();
  }

  @Override
  public boolean nextRaw(List<Cell> out) throws IOException {
    while (ready.isEmpty()) {
      if (regionEnded) {
        return false;
      }
      fill();
    }
    out.add(ready.poll());
    return !(ready.isEmpty() && regionEnded);
  }

  /**
   * The rows of {@code gets}, in order: from the regions this region server holds, in process (an
   * index table's region sits beside its table's on a one-server cluster, and wherever HBase's
   * balancer put them together), the others through the server's connection (one multi-get).
   */
  private Result[] get(List<Get> gets) throws IOException {
    Result[] found = new Result[gets.size()];
    List<? extends Region> local = regions.getRegions(rows);
    List<Get> remote = null;
    List<Integer> remoteAt = null;
    for (int i = 0; i < gets.size(); i++) {
      Get get = gets.get(i);
      Region holder = null;
      for (Region r : local) {
        if (r.getRegionInfo().containsRow(get.getRow())) {
          holder = r;
          break;
        }
      }
      if (holder != null) {
        try {
          found[i] = holder.get(get);
          continue;
        } catch (NotServingRegionException e) {
          // closed or moved meanwhile: through the connection, below
        }
      }
      if (remote == null) {
        remote = new ArrayList<>();
        remoteAt = new ArrayList<>();
      }
      remote.add(get);
      remoteAt.add(i);
    }
    if (remote != null) {
      REMOTE_ROWS.addAndGet(remote.size());
      try (Table table = connection.getTable(rows)) {
        Result[] fetched = table.get(remote);
        for (int i = 0; i < fetched.length; i++) {
          found[remoteAt.get(i)] = fetched[i];
        }
      }
    }
    return found;
  }

  @Override
  public void close() throws IOException {
    ready.clear();
    region.close();
  }

  /** Reads the next batch of entries and checks them; sets {@link #regionEnded} after the last. */
  private void fill() throws IOException {
    entryKeys.clear();
    tokens.clear();
    while (entryKeys.size() < batch && !regionEnded) {
      cells.clear();
      regionEnded = !region.nextRaw(cells);
      Bytes entryKey = null;
      for (Cell cell : cells) {
        if (CellUtil.matchingFamily(cell, WireNames.FAMILY)) {
          if (entryKey == null) {
            entryKey = Bytes.wrap(CellUtil.cloneRow(cell));
          }
          entryKeys.add(entryKey);
          tokens.add(CellUtil.cloneQualifier(cell));
        }
      }
    }
    batch = Math.min(MAX_BATCH, batch * 4);
    if (!entryKeys.isEmpty()) {
      check();
    }
  }

  /** Answers the entries of {@link #entryKeys} whose rows hold them. */
  private void check() throws IOException {
    List<Bytes> keys = new ArrayList<>(entryKeys.size());
    Map<Bytes, Integer> distinct = new HashMap<>();
    List<Get> gets = new ArrayList<>();
    for (Bytes entryKey : entryKeys) {
      Bytes key = IndexKeys.rowKey(entryKey);
      keys.add(key);
      if (distinct.putIfAbsent(key, gets.size()) == null) {
        gets.add(
            new Get(key.peekArray())
                .addColumn(WireNames.FAMILY, WireNames.ROW_QUALIFIER)
                .addColumn(WireNames.TOKEN_FAMILY, WireNames.TOKEN_QUALIFIER));
      }
    }
    Result[] found = get(gets);
    for (int i = 0; i < keys.size(); i++) {
      Result row = found[distinct.get(keys.get(i))];
      byte[] value = row.getValue(WireNames.FAMILY, WireNames.ROW_QUALIFIER);
      if (value == null || value.length == 0) { // no row, or a deleted row's tombstone
        continue;
      }
      byte[] token = row.getValue(WireNames.TOKEN_FAMILY, WireNames.TOKEN_QUALIFIER);
      if (!Arrays.equals(token == null ? HConstants.EMPTY_BYTE_ARRAY : token, tokens.get(i))) {
        continue;
      }
      IndexMaintainer.Entry entry;
      try {
        entry = maintainer.entryOf(indexId, keys.get(i), Bytes.wrap(value));
      } catch (CairnException e) { // fails every retry alike, as the client's own check did
        throw new DoNotRetryIOException(RemoteErrors.message(e), e);
      }
      Bytes entryKey = entryKeys.get(i);
      if (entry.key().equals(entryKey)) {
        ready.add(
            new KeyValue(
                entryKey.peekArray(),
                WireNames.FAMILY,
                WireNames.LOOKUP_QUALIFIER,
                HConstants.LATEST_TIMESTAMP,
                lookup ? value : entry.value().toByteArray()));
      }
    }
  }
}
