package io.cairn.hbase;

import static io.cairn.hbase.HBaseKvStore.FAMILY;

import io.cairn.core.bytes.Bytes;
import io.cairn.hbase.server.RegionCount;
import io.cairn.hbase.server.StatisticsCell;
import io.cairn.hbase.server.StatisticsCell.Kept;
import io.cairn.hbase.server.StatisticsCell.RegionChunks;
import io.cairn.hbase.server.WireNames;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexStatistics;
import io.cairn.kv.KeyRange;
import io.cairn.kv.TableStatistics;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;

/**
 * The statistics of a table's local indexes on HBase, as UPDATE STATISTICS of the table last
 * collected them: each region of an index's table counts its entries in its region server, cuts
 * them into chunks at guide posts and counts the distinct values of the index's first key part
 * ({@link WireNames#INDEX_COUNT_ATTRIBUTE}), and they are kept in the namespace's {@value
 * HBaseStatistics#TABLE} table, a row per index (the table's name, a zero byte, the index id),
 * where every client finds them. The planner's choice of an index reads them ({@link
 * io.cairn.kv.KvTable#indexStatistics}), SYSTEM.INDEX_STATS shows them. Unlike Cairn's own store,
 * where each region holds the entries of its own rows, an index's table has regions of its own: its
 * chunks do not overlap. Compactions do not refresh them (index tables have no compaction hook);
 * entries written since are not in them. Thread-safe.
 */
final class HBaseIndexStatistics {
  /** The qualifier of an index's regions: their ids and distinct first-part values. */
  private static final byte[] REGIONS = {'d'};

  /**
   * A region kept without its id and distinct values (never expected): id 0, unknown. Read only.
   */
  private static final long[] UNKNOWN_REGION = {0, -1};

  private final HBaseKvStore store;
  private final String name;

  /** What was read of each index's row, and when (System.nanoTime). */
  private final Map<Integer, Read> read = new ConcurrentHashMap<>();

  /**
   * An index's kept statistics, and each region's (by its clamped start) id and distinct values.
   */
  private record Read(Kept kept, Map<Bytes, long[]> regions, long atNanos) {}

  HBaseIndexStatistics(HBaseKvStore store, String name) {
    this.store = store;
    this.name = name;
  }

  /** A count of an index's regions under way ({@link #start}), kept by {@link #finish}. */
  record Counting(
      int indexId,
      long guidePostWidth,
      List<HRegionLocation> locations,
      List<CompletableFuture<List<Result>>> answers) {}

  /**
   * Starts counting the entries of index {@code indexId} (its wire definition {@code definition})
   * in the regions of its table {@code indexTable}, cut at guide posts about every {@code
   * guidePostWidth} bytes: the region servers count while the caller does other work (the table's
   * own count); {@link #finish} keeps them.
   */
  Counting start(int indexId, TableName indexTable, byte[] definition, long guidePostWidth) {
    List<HRegionLocation> locations =
        store.await(store.connection().getRegionLocator(indexTable).getAllRegionLocations(), name);
    AsyncTable<?> t = store.connection().getTable(indexTable);
    byte[] width = org.apache.hadoop.hbase.util.Bytes.toBytes(guidePostWidth);
    List<CompletableFuture<List<Result>>> counting = new ArrayList<>();
    for (HRegionLocation l : locations) {
      counting.add(
          t.scanAll(
              new Scan()
                  .withStartRow(l.getRegion().getStartKey())
                  .withStopRow(l.getRegion().getEndKey())
                  .setCacheBlocks(false)
                  .setAttribute(WireNames.INDEX_COUNT_ATTRIBUTE, definition)
                  .setAttribute(WireNames.COUNT_ATTRIBUTE, width)));
    }
    return new Counting(indexId, guidePostWidth, locations, counting);
  }

  /** Waits for the count {@link #start} started, and keeps it. */
  void finish(Counting c) {
    Map<Bytes, RegionChunks> collected = new HashMap<>();
    Map<Bytes, long[]> regions = new HashMap<>();
    for (int i = 0; i < c.locations().size(); i++) {
      org.apache.hadoop.hbase.client.RegionInfo region = c.locations().get(i).getRegion();
      KeyRange range = clamp(c.indexId(), region.getStartKey(), region.getEndKey());
      List<RegionCount.Chunk> found = new ArrayList<>();
      long distinct = 0;
      for (Result answer : store.await(c.answers().get(i), name)) {
        byte[] value = answer.getValue(FAMILY, WireNames.INDEX_COUNT_QUALIFIER);
        if (value != null) { // several answers: a region split meanwhile
          found.addAll(RegionCount.decodeWithDistinct(value));
          long d = RegionCount.distinct(value);
          distinct = distinct < 0 || d < 0 ? -1 : distinct + d;
        }
      }
      collected.put(
          range.start(),
          StatisticsCell.chunks(HBaseNames.regionId(region), range.start(), range.stop(), found));
      regions.put(range.start(), new long[] {HBaseNames.regionId(region), distinct});
    }
    Kept k = new Kept(System.currentTimeMillis(), c.guidePostWidth(), Map.copyOf(collected));
    store.await(
        stats()
            .put(
                new Put(row(c.indexId()))
                    .addColumn(FAMILY, StatisticsCell.QUALIFIER, StatisticsCell.encode(k))
                    .addColumn(FAMILY, REGIONS, encode(regions))),
        name);
    read.put(c.indexId(), new Read(k, regions, System.nanoTime()));
  }

  /**
   * Index {@code indexId}'s statistics as last collected (read again from HBase after {@value
   * HBaseStatistics#REREAD_MILLIS} ms), its regions in key order; empty before the first UPDATE
   * STATISTICS since the index exists.
   */
  Optional<IndexStatistics> of(int indexId) {
    Read r = read(indexId);
    if (r.kept().regions().isEmpty()) {
      return Optional.empty();
    }
    List<TableStatistics.Chunk> chunks = new ArrayList<>();
    long minDistinct = 0;
    long maxDistinct = 0;
    for (Map.Entry<Bytes, RegionChunks> e : inOrder(r.kept())) {
      long[] region = r.regions().getOrDefault(e.getKey(), UNKNOWN_REGION);
      for (TableStatistics.Chunk c : e.getValue().chunks()) {
        chunks.add(new TableStatistics.Chunk(region[0], c.start(), c.stop(), c.rows(), c.bytes()));
      }
      if (region[1] < 0 || maxDistinct < 0) {
        minDistinct = -1;
        maxDistinct = -1;
      } else {
        minDistinct = Math.max(minDistinct, region[1]);
        maxDistinct += region[1];
      }
    }
    return Optional.of(
        new IndexStatistics(
            indexId,
            r.kept().guidePostWidth(),
            chunks,
            minDistinct,
            maxDistinct,
            r.kept().collectedAtMillis()));
  }

  /**
   * Adds the rows of SYSTEM.INDEX_STATS of index {@code indexName} ({@code indexId}) of the table
   * named {@code schema}.{@code tableName}: a row per chunk of each region of its table as last
   * collected; none before the first collection.
   */
  void addRows(String schema, String tableName, String indexName, int indexId, List<Object[]> out) {
    Read r = read(indexId);
    LocalDateTime at =
        LocalDateTime.ofInstant(
            Instant.ofEpochMilli(r.kept().collectedAtMillis()), ZoneId.systemDefault());
    for (Map.Entry<Bytes, RegionChunks> e : inOrder(r.kept())) {
      long[] region = r.regions().getOrDefault(e.getKey(), UNKNOWN_REGION);
      for (TableStatistics.Chunk c : e.getValue().chunks()) {
        out.add(
            new Object[] {
              schema,
              tableName,
              indexName,
              region[0],
              c.start().toString(),
              c.stop().toString(),
              c.rows(),
              c.bytes(),
              region[1] < 0 ? null : region[1],
              r.kept().guidePostWidth(),
              at
            });
      }
    }
  }

  /** Forgets index {@code indexId}'s statistics (the index was dropped). */
  void drop(int indexId) {
    read.remove(indexId);
    store.await(stats().delete(new Delete(row(indexId))), name);
  }

  /** Removes the statistics of every index of table {@code name} (the table was dropped). */
  static void dropAll(HBaseKvStore store, String name) {
    AsyncTable<?> stats = store.connection().getTable(store.statsTable());
    List<Delete> deletes = new ArrayList<>();
    for (Result r : store.await(stats.scanAll(new Scan().setRowPrefixFilter(prefix(name))), name)) {
      deletes.add(new Delete(r.getRow()));
    }
    if (!deletes.isEmpty()) {
      store.await(stats.deleteAll(deletes), name);
    }
  }

  private Read read(int indexId) {
    Read r = read.get(indexId);
    if (r == null || System.nanoTime() - r.atNanos() > HBaseStatistics.REREAD_MILLIS * 1_000_000L) {
      Result result =
          store.await(
              stats()
                  .get(
                      new Get(row(indexId))
                          .addColumn(FAMILY, StatisticsCell.QUALIFIER)
                          .addColumn(FAMILY, REGIONS)),
              name);
      r =
          new Read(
              StatisticsCell.decode(result.getValue(FAMILY, StatisticsCell.QUALIFIER)),
              decode(result.getValue(FAMILY, REGIONS)),
              System.nanoTime());
      read.put(indexId, r);
    }
    return r;
  }

  /** The regions kept, by start key. */
  private static List<Map.Entry<Bytes, RegionChunks>> inOrder(Kept kept) {
    List<Map.Entry<Bytes, RegionChunks>> regions = new ArrayList<>(kept.regions().entrySet());
    regions.sort(Map.Entry.comparingByKey());
    return regions;
  }

  /** The part of index {@code indexId}'s key range in the region [{@code start}, {@code stop}). */
  private static KeyRange clamp(int indexId, byte[] start, byte[] stop) {
    KeyRange all = IndexKeys.range(indexId);
    Bytes from = Bytes.wrap(start);
    Bytes to = Bytes.wrap(stop);
    return new KeyRange(
        from.compareTo(all.start()) < 0 ? all.start() : from,
        to.isEmpty() || to.compareTo(all.stop()) > 0 ? all.stop() : to);
  }

  private static byte[] prefix(String name) {
    byte[] n = org.apache.hadoop.hbase.util.Bytes.toBytes(name);
    return java.util.Arrays.copyOf(n, n.length + 1); // then a zero byte: no table name has one
  }

  private byte[] row(int indexId) {
    byte[] p = prefix(name);
    byte[] row = java.util.Arrays.copyOf(p, p.length + Integer.BYTES);
    org.apache.hadoop.hbase.util.Bytes.putInt(row, p.length, indexId);
    return row;
  }

  private AsyncTable<?> stats() {
    return store.connection().getTable(store.statsTable());
  }

  /** Each region's clamped start key, id and distinct values: count, then (key, id, distinct). */
  private static byte[] encode(Map<Bytes, long[]> regions) {
    int size = Integer.BYTES;
    for (Bytes start : regions.keySet()) {
      size += Integer.BYTES + start.length() + 2 * Long.BYTES;
    }
    ByteBuffer out = ByteBuffer.allocate(size).putInt(regions.size());
    for (Map.Entry<Bytes, long[]> e : regions.entrySet()) {
      out.putInt(e.getKey().length()).put(e.getKey().peekArray());
      out.putLong(e.getValue()[0]).putLong(e.getValue()[1]);
    }
    return out.array();
  }

  private static Map<Bytes, long[]> decode(byte[] value) {
    if (value == null || value.length < Integer.BYTES) {
      return Map.of();
    }
    ByteBuffer in = ByteBuffer.wrap(value);
    int n = in.getInt();
    Map<Bytes, long[]> regions = new HashMap<>();
    for (int i = 0; i < n; i++) {
      byte[] start = new byte[in.getInt()];
      in.get(start);
      regions.put(Bytes.wrap(start), new long[] {in.getLong(), in.getLong()});
    }
    return Map.copyOf(regions);
  }
}
