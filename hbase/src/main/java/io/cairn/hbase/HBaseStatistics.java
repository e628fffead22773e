package io.cairn.hbase;

import static io.cairn.hbase.HBaseKvStore.FAMILY;
import static io.cairn.hbase.HBaseKvStore.await;

import io.cairn.core.bytes.Bytes;
import io.cairn.hbase.server.RegionCount;
import io.cairn.hbase.server.WireNames;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.TableStatistics;
import java.nio.ByteBuffer;
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
  static final String TABLE = "_stats";

  /** The default guide post width: as Cairn's own store's (32 MiB of rows). */
  static final long DEFAULT_GUIDE_POST_WIDTH = 32L << 20;

  /**
   * The qualifier of the one cell: format version (byte), collection time (long), guide post width
   * (long), regions (int), then per region its start and stop key (int length, bytes each) and
   * chunks (int), each chunk its start key, rows and bytes. (Earlier versions kept row counts only,
   * under qualifier {@code c}: ignored, and removed by the next UPDATE STATISTICS.)
   */
  private static final byte[] CHUNKS = {'s'};

  private static final byte[] OLD_COUNTS = {'c'};
  private static final byte VERSION = 1;

  /** A region's chunks as collected: the region's stop key and its chunks, in key order. */
  private record RegionChunks(Bytes stop, List<TableStatistics.Chunk> chunks) {}

  /** What the last UPDATE STATISTICS kept: when, at which width, each region by start key. */
  private record Kept(
      long collectedAtMillis, long guidePostWidth, Map<Bytes, RegionChunks> regions) {
    static final Kept NONE = new Kept(0, 0, Map.of());
  }

  private final HBaseKvStore store;
  private final String name;
  private final TableName table;

  /** Null until read from {@value #TABLE}. */
  private volatile Kept kept;

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
      for (Result r : await(store.connection().getTable(table).scanAll(sample), name)) {
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
              .withStartRow(region.range().start().peekArray())
              .withStopRow(region.range().stop().peekArray())
              .setAttribute(WireNames.COUNT_ATTRIBUTE, width);
      counting.add(t.scanAll(scan));
    }
    Map<Bytes, RegionChunks> collected = new HashMap<>();
    for (int i = 0; i < regions.size(); i++) {
      RegionInfo region = regions.get(i);
      List<RegionCount.Chunk> found = new ArrayList<>();
      for (Result answer : await(counting.get(i), name)) {
        byte[] value = answer.getValue(FAMILY, WireNames.COUNT_QUALIFIER);
        if (value != null) {
          found.addAll(RegionCount.decode(value)); // several answers: a region split meanwhile
        }
      }
      collected.put(
          region.range().start(), new RegionChunks(region.range().stop(), chunks(region, found)));
    }
    Kept k = new Kept(System.currentTimeMillis(), guidePostWidth, Map.copyOf(collected));
    // one cell, replaced whole: no region gone since is left behind
    await(stats().put(new Put(row()).addColumn(FAMILY, CHUNKS, encode(k))), name);
    kept = k;
    return of(regions);
  }

  /**
   * A region's chunks from the counts its answers gave: each answer's first chunk starts where the
   * answer's scan did (the region's start, or a daughter's after a split), so it joins the chunk
   * before it; the others start at their guide posts.
   */
  private static List<TableStatistics.Chunk> chunks(
      RegionInfo region, List<RegionCount.Chunk> found) {
    List<Bytes> starts = new ArrayList<>();
    List<long[]> counts = new ArrayList<>();
    for (RegionCount.Chunk c : found) {
      if (c.start().length == 0 && !counts.isEmpty()) {
        long[] last = counts.get(counts.size() - 1);
        last[0] += c.rows();
        last[1] += c.bytes();
      } else {
        starts.add(c.start().length == 0 ? region.range().start() : Bytes.wrap(c.start()));
        counts.add(new long[] {c.rows(), c.bytes()});
      }
    }
    if (starts.isEmpty()) { // no answer: an empty region
      starts.add(region.range().start());
      counts.add(new long[2]);
    }
    return linked(region.regionId(), starts, counts, region.range().stop());
  }

  /**
   * Chunks of a region from their start keys and {rows, bytes}: each stops where the next starts,
   * the last at {@code stop}.
   */
  private static List<TableStatistics.Chunk> linked(
      long regionId, List<Bytes> starts, List<long[]> counts, Bytes stop) {
    List<TableStatistics.Chunk> chunks = new ArrayList<>(starts.size());
    for (int i = 0; i < starts.size(); i++) {
      chunks.add(
          new TableStatistics.Chunk(
              regionId,
              starts.get(i),
              i + 1 < starts.size() ? starts.get(i + 1) : stop,
              counts.get(i)[0],
              counts.get(i)[1]));
    }
    return List.copyOf(chunks);
  }

  /** Forgets what it read (the table was dropped), and what was kept. */
  void drop() {
    kept = Kept.NONE;
    await(
        stats().delete(new Delete(row()).addColumns(FAMILY, CHUNKS).addColumns(FAMILY, OLD_COUNTS)),
        name);
  }

  private Kept kept() {
    Kept k = kept;
    if (k == null) {
      Result result = await(stats().get(new Get(row()).addColumn(FAMILY, CHUNKS)), name);
      byte[] value = result.getValue(FAMILY, CHUNKS);
      kept =
          k = value == null || value.length == 0 || value[0] != VERSION ? Kept.NONE : decode(value);
    }
    return k;
  }

  private static byte[] encode(Kept k) {
    int size = 1 + 2 * Long.BYTES + Integer.BYTES;
    for (Map.Entry<Bytes, RegionChunks> e : k.regions().entrySet()) {
      size += 3 * Integer.BYTES + e.getKey().length() + e.getValue().stop().length();
      for (TableStatistics.Chunk c : e.getValue().chunks()) {
        size += Integer.BYTES + c.start().length() + 2 * Long.BYTES;
      }
    }
    ByteBuffer out = ByteBuffer.allocate(size);
    out.put(VERSION).putLong(k.collectedAtMillis()).putLong(k.guidePostWidth());
    out.putInt(k.regions().size());
    for (Map.Entry<Bytes, RegionChunks> e : k.regions().entrySet()) {
      putKey(out, e.getKey());
      putKey(out, e.getValue().stop());
      out.putInt(e.getValue().chunks().size());
      for (TableStatistics.Chunk c : e.getValue().chunks()) {
        putKey(out, c.start());
        out.putLong(c.rows()).putLong(c.bytes());
      }
    }
    return out.array();
  }

  private static Kept decode(byte[] value) {
    ByteBuffer in = ByteBuffer.wrap(value);
    in.get(); // VERSION
    long collectedAt = in.getLong();
    long width = in.getLong();
    int regions = in.getInt();
    Map<Bytes, RegionChunks> read = new HashMap<>();
    for (int r = 0; r < regions; r++) {
      Bytes start = getKey(in);
      Bytes stop = getKey(in);
      int n = in.getInt();
      List<Bytes> starts = new ArrayList<>(n);
      List<long[]> counts = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        starts.add(getKey(in));
        counts.add(new long[] {in.getLong(), in.getLong()});
      }
      // no region id: of() gives each chunk the id of the region it is found in
      read.put(start, new RegionChunks(stop, linked(0, starts, counts, stop)));
    }
    return new Kept(collectedAt, width, Map.copyOf(read));
  }

  private static void putKey(ByteBuffer out, Bytes key) {
    out.putInt(key.length()).put(key.peekArray());
  }

  private static Bytes getKey(ByteBuffer in) {
    byte[] key = new byte[in.getInt()];
    in.get(key);
    return Bytes.wrap(key);
  }

  private byte[] row() {
    return org.apache.hadoop.hbase.util.Bytes.toBytes(name);
  }

  private AsyncTable<?> stats() {
    return store.connection().getTable(store.statsTable());
  }
}
