package io.cairn.hbase;

import static io.cairn.hbase.HBaseKvStore.FAMILY;

import io.cairn.core.bytes.Bytes;
import io.cairn.hbase.server.RegionCount;
import io.cairn.hbase.server.StatisticsCell;
import io.cairn.hbase.server.StatisticsCell.Kept;
import io.cairn.hbase.server.StatisticsCell.RegionChunks;
import io.cairn.hbase.server.WireNames;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.TableStatistics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;

/**
 * A table's statistics as UPDATE STATISTICS last collected them: each region counts its rows in its
 * region server and cuts them into chunks at guide posts about every guide post width bytes of
 * Cairn rows ({@link WireNames#COUNT_ATTRIBUTE}, all regions at once), and the chunks are kept in
 * the namespace's {@value #TABLE} table (a row per Cairn table, one cell replaced whole by each
 * UPDATE STATISTICS), where every client finds them. Parallel scans cut their ranges at the chunks
 * and the planner's row estimates come from them; a region split or merged since has one chunk of
 * unknown rows until the next UPDATE STATISTICS. Thread-safe.
 */
final class HBaseStatistics {
  /** The namespace's table of statistics. */
  static final String TABLE = StatisticsCell.TABLE;

  /** The default guide post width: as Cairn's own store's (32 MiB of rows). */
  static final long DEFAULT_GUIDE_POST_WIDTH = WireNames.DEFAULT_GUIDE_POSTS_WIDTH;

  /** Earlier versions' row counts only: ignored, and removed by the next UPDATE STATISTICS. */
  private static final byte[] OLD_COUNTS = {'c'};

  /** How long statistics read from {@value #TABLE} are used before they are read again. */
  static final long REREAD_MILLIS = 5_000;

  private final HBaseKvStore store;
  private final String name;
  private final TableName table;

  /** Null until read from {@value #TABLE}; read again after {@value #REREAD_MILLIS} ms. */
  private volatile Kept kept;

  /** When {@link #kept} was read or written (System.nanoTime). */
  private volatile long keptNanos;

  HBaseStatistics(HBaseKvStore store, String name, TableName table) {
    this.store = store;
    this.name = name;
    this.table = table;
  }

  /**
   * The statistics of {@code regions} as the last UPDATE STATISTICS (of any client) collected them:
   * a region unchanged since (same start and stop) has its chunks, any other region one chunk of
   * unknown rows.
   */
  TableStatistics of(List<RegionInfo> regions) {
    Kept k = kept();
    List<TableStatistics.Chunk> chunks = new ArrayList<>(regions.size());
    for (RegionInfo r : regions) {
      RegionChunks known = k.regions().get(r.range().start());
      if (known != null && known.stop().equals(r.range().stop())) {
        for (TableStatistics.Chunk c : known.chunks()) {
          chunks.add(
              new TableStatistics.Chunk(r.regionId(), c.start(), c.stop(), c.rows(), c.bytes()));
        }
      } else {
        chunks.add(
            new TableStatistics.Chunk(
                r.regionId(),
                r.range().start(),
                r.range().stop(),
                -1,
                r.fileBytes() + r.memstoreBytes()));
      }
    }
    return new TableStatistics(k.guidePostWidth(), chunks, k.collectedAtMillis());
  }

  /**
   * The rows the last UPDATE STATISTICS counted in all regions; before the first, an estimate
   * ({@link #estimate}).
   */
  long rows(Supplier<List<RegionInfo>> regions) {
    Kept k = kept();
    if (k.regions().isEmpty()) {
      return estimate(regions);
    }
    long rows = 0;
    for (RegionChunks r : k.regions().values()) {
      for (TableStatistics.Chunk c : r.chunks()) {
        rows += c.rows();
      }
    }
    return rows;
  }

  /** How long an estimate is reused ({@link #estimate}). */
  private static final long ESTIMATE_MILLIS = 5_000;

  /** Cells sampled for the bytes of a row ({@link #estimate}). */
  private static final int SAMPLE_CELLS = 256;

  /** The last estimate and when it was made (System.nanoTime); null before the first. */
  private volatile long[] estimated;

  /**
   * The rows of a table UPDATE STATISTICS never ran on, estimated without reading it all: its
   * regions' bytes (files and memstores, as the region servers report them) over the mean size of
   * its first {@value #SAMPLE_CELLS} cells; -1 when its regions report no bytes. Reused for {@value
   * #ESTIMATE_MILLIS} ms. Without it the planner sees every such table with the same default count
   * and may join them in a poor order (cross products).
   */
  private long estimate(Supplier<List<RegionInfo>> regions) {
    long[] last = estimated;
    if (last != null && System.nanoTime() - last[1] < ESTIMATE_MILLIS * 1_000_000L) {
      return last[0];
    }
    long bytes = 0;
    for (RegionInfo r : regions.get()) {
      bytes += r.fileBytes() + r.memstoreBytes();
    }
    long rows = -1;
    if (bytes > 0) {
      long cells = 0;
      long cellBytes = 0;
      Scan sample = new Scan().addColumn(FAMILY, HBaseKvStore.QUALIFIER).setLimit(SAMPLE_CELLS);
      for (Result r : store.await(store.connection().getTable(table).scanAll(sample), name)) {
        for (org.apache.hadoop.hbase.Cell c : r.rawCells()) {
          cells++;
          cellBytes += c.getSerializedSize();
        }
      }
      rows = cells == 0 ? -1 : Math.max(cells, bytes / Math.max(1, cellBytes / cells));
    }
    estimated = new long[] {rows, System.nanoTime()};
    return rows;
  }

  /**
   * Counts the rows of {@code regions} in their region servers, cut at guide posts about every
   * {@code guidePostWidth} bytes, and keeps them.
   */
  TableStatistics collect(List<RegionInfo> regions, long guidePostWidth) {
    AsyncTable<?> t = store.connection().getTable(table);
    List<CompletableFuture<List<Result>>> counting = new ArrayList<>();
    byte[] width = org.apache.hadoop.hbase.util.Bytes.toBytes(guidePostWidth);
    for (RegionInfo region : regions) {
      Scan scan =
          new Scan()
              .addFamily(FAMILY) // not the rows' tokens (HBaseIndexes)
              .withStartRow(region.range().start().peekArray())
              .withStopRow(region.range().stop().peekArray())
              .setAttribute(WireNames.COUNT_ATTRIBUTE, width);
      counting.add(t.scanAll(scan));
    }
    Map<Bytes, RegionChunks> collected = new HashMap<>();
    for (int i = 0; i < regions.size(); i++) {
      RegionInfo region = regions.get(i);
      List<RegionCount.Chunk> found = new ArrayList<>();
      for (Result answer : store.await(counting.get(i), name)) {
        byte[] value = answer.getValue(FAMILY, WireNames.COUNT_QUALIFIER);
        if (value != null) {
          found.addAll(RegionCount.decode(value)); // several answers: a region split meanwhile
        }
      }
      collected.put(
          region.range().start(),
          StatisticsCell.chunks(
              region.regionId(), region.range().start(), region.range().stop(), found));
    }
    Kept k = new Kept(System.currentTimeMillis(), guidePostWidth, Map.copyOf(collected));
    // one cell, replaced whole: no region gone since is left behind
    store.await(
        stats()
            .put(
                new Put(row())
                    .addColumn(FAMILY, StatisticsCell.QUALIFIER, StatisticsCell.encode(k))),
        name);
    keptNanos = System.nanoTime();
    kept = k;
    return of(regions);
  }

  /** Forgets what it read (the table was dropped), and what was kept. */
  void drop() {
    kept = Kept.NONE;
    store.await(
        stats()
            .delete(
                new Delete(row())
                    .addColumns(FAMILY, StatisticsCell.QUALIFIER)
                    .addColumns(FAMILY, OLD_COUNTS)),
        name);
  }

  /**
   * What {@value #TABLE} holds, read again every {@value #REREAD_MILLIS} ms: another client's
   * UPDATE STATISTICS, or a compaction's count of its region ({@code CairnRegionObserver}), shows
   * within that time.
   */
  private Kept kept() {
    Kept k = kept;
    if (k == null || System.nanoTime() - keptNanos > REREAD_MILLIS * 1_000_000L) {
      Result result =
          store.await(
              stats().get(new Get(row()).addColumn(FAMILY, StatisticsCell.QUALIFIER)), name);
      k = StatisticsCell.decode(result.getValue(FAMILY, StatisticsCell.QUALIFIER));
      keptNanos = System.nanoTime();
      kept = k;
    }
    return k;
  }

  private byte[] row() {
    return org.apache.hadoop.hbase.util.Bytes.toBytes(name);
  }

  private AsyncTable<?> stats() {
    return store.connection().getTable(store.statsTable());
  }
}
