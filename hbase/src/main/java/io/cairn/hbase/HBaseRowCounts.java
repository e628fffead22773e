package io.cairn.hbase;

import static io.cairn.hbase.HBaseKvStore.FAMILY;
import static io.cairn.hbase.HBaseKvStore.await;

import io.cairn.core.bytes.Bytes;
import io.cairn.hbase.server.WireNames;
import io.cairn.kv.RegionInfo;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;

/**
 * The rows of a table's regions, as UPDATE STATISTICS last counted them: each region counts its own
 * rows in its region server ({@link WireNames#COUNT_ATTRIBUTE}, all regions at once), and the
 * counts are kept in the namespace's {@value #TABLE} table (a row per Cairn table, one cell of
 * every region's start key and rows, replaced whole by each UPDATE STATISTICS), where every client
 * finds them. The planner's row estimates come from them; a region split or merged since has no
 * count (its chunk's rows are unknown until the next UPDATE STATISTICS). Thread-safe.
 */
final class HBaseRowCounts {
  /** The namespace's table of row counts. */
  static final String TABLE = "_stats";

  /** The qualifier of the one cell: every region's start key (length, bytes) and rows. */
  private static final byte[] COUNTS = {'c'};

  private final HBaseKvStore store;
  private final String name;
  private final TableName table;

  /** Region start key to rows; null until read from {@value #TABLE}. */
  private volatile Map<Bytes, Long> counts;

  HBaseRowCounts(HBaseKvStore store, String name, TableName table) {
    this.store = store;
    this.name = name;
    this.table = table;
  }

  /** The counts of the last UPDATE STATISTICS (of any client), by region start key. */
  Map<Bytes, Long> counts() {
    Map<Bytes, Long> known = counts;
    if (known == null) {
      Result result = await(stats().get(new Get(row()).addColumn(FAMILY, COUNTS)), name);
      Map<Bytes, Long> read = new HashMap<>();
      byte[] value = result.getValue(FAMILY, COUNTS);
      if (value != null) {
        ByteBuffer in = ByteBuffer.wrap(value);
        while (in.hasRemaining()) {
          byte[] start = new byte[in.getInt()];
          in.get(start);
          read.put(Bytes.wrap(start), in.getLong());
        }
      }
      counts = known = Map.copyOf(read);
    }
    return known;
  }

  /** Counts the rows of {@code regions} in their region servers and keeps the counts. */
  Map<Bytes, Long> collect(List<RegionInfo> regions) {
    AsyncTable<?> t = store.connection().getTable(table);
    List<CompletableFuture<List<Result>>> counting = new ArrayList<>();
    for (RegionInfo region : regions) {
      Scan scan =
          new Scan()
              .withStartRow(region.range().start().peekArray())
              .withStopRow(region.range().stop().peekArray())
              .setAttribute(WireNames.COUNT_ATTRIBUTE, new byte[0]);
      counting.add(t.scanAll(scan));
    }
    Map<Bytes, Long> collected = new HashMap<>();
    int size = 0;
    for (RegionInfo region : regions) {
      size += Integer.BYTES + region.range().start().length() + Long.BYTES;
    }
    ByteBuffer encoded = ByteBuffer.allocate(size);
    for (int i = 0; i < regions.size(); i++) {
      long rows = 0;
      for (Result answer : await(counting.get(i), name)) {
        byte[] value = answer.getValue(FAMILY, WireNames.COUNT_QUALIFIER);
        if (value != null) {
          rows += org.apache.hadoop.hbase.util.Bytes.toLong(value); // a region split meanwhile
        }
      }
      Bytes start = regions.get(i).range().start();
      collected.put(start, rows);
      byte[] key = start.peekArray();
      encoded.putInt(key.length).put(key).putLong(rows);
    }
    // one cell, replaced whole: no region gone since is left behind
    await(stats().put(new Put(row()).addColumn(FAMILY, COUNTS, encoded.array())), name);
    counts = Map.copyOf(collected);
    return counts;
  }

  /** Forgets what it read (the table was dropped), and the kept counts. */
  void drop() {
    counts = Map.of();
    await(stats().delete(new Delete(row()).addColumns(FAMILY, COUNTS)), name);
  }

  private byte[] row() {
    return org.apache.hadoop.hbase.util.Bytes.toBytes(name);
  }

  private AsyncTable<?> stats() {
    return store.connection().getTable(store.statsTable());
  }
}
