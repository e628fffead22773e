package io.cairn.hbase.server;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.TableStatistics;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A table's statistics as kept in HBase: one cell of the namespace's {@value #TABLE} table, row the
 * Cairn table's name, written whole by UPDATE STATISTICS (the client, {@code HBaseStatistics}) and
 * a region's part replaced when a compaction rewrote all of the region's files (the region
 * observer). Here so that both sides read and write the same format.
 *
 * <p>The cell's value: format version (byte), collection time (long), guide post width (long),
 * regions (int), then per region its start and stop key (int length, bytes each) and chunks (int),
 * each chunk its start key, rows and bytes.
 */
public final class StatisticsCell {
  private StatisticsCell() {}

  /** The namespace's table of statistics. */
  public static final String TABLE = "_stats";

  /** The qualifier of the one cell (family {@code c}). */
  public static final byte[] QUALIFIER = {'s'};

  private static final byte VERSION = 1;

  /** A region's chunks as collected: the region's stop key and its chunks, in key order. */
  public record RegionChunks(Bytes stop, List<TableStatistics.Chunk> chunks) {}

  /** What was kept: when UPDATE STATISTICS ran, at which width, each region by start key. */
  public record Kept(
      long collectedAtMillis, long guidePostWidth, Map<Bytes, RegionChunks> regions) {
    public static final Kept NONE = new Kept(0, 0, Map.of());

    /**
     * These statistics with {@code chunks} for the region [{@code start}, its stop), in place of
     * every region kept that overlaps it (the region itself, or its parent before a split, or the
     * regions a merge joined).
     */
    public Kept withRegion(Bytes start, RegionChunks chunks) {
      Map<Bytes, RegionChunks> out = new HashMap<>();
      for (Map.Entry<Bytes, RegionChunks> e : regions.entrySet()) {
        if (!overlaps(e.getKey(), e.getValue().stop(), start, chunks.stop())) {
          out.put(e.getKey(), e.getValue());
        }
      }
      out.put(start, chunks);
      return new Kept(collectedAtMillis, guidePostWidth, Map.copyOf(out));
    }

    /** Whether [a, aStop) and [b, bStop) share a key (an empty stop: the end of the key space). */
    private static boolean overlaps(Bytes a, Bytes aStop, Bytes b, Bytes bStop) {
      boolean aBeforeBStops = bStop.isEmpty() || a.compareTo(bStop) < 0;
      boolean bBeforeAStops = aStop.isEmpty() || b.compareTo(aStop) < 0;
      return aBeforeBStops && bBeforeAStops;
    }
  }

  /**
   * A region's chunks from the counts its region server gave: each count's first chunk starts where
   * its scan did (the region's start, or a daughter's after a split), so it joins the chunk before
   * it; the others start at their guide posts.
   */
  public static RegionChunks chunks(
      long regionId, Bytes start, Bytes stop, List<RegionCount.Chunk> found) {
    List<Bytes> starts = new ArrayList<>();
    List<long[]> counts = new ArrayList<>();
    for (RegionCount.Chunk c : found) {
      if (c.start().length == 0 && !counts.isEmpty()) {
        long[] last = counts.get(counts.size() - 1);
        last[0] += c.rows();
        last[1] += c.bytes();
      } else {
        starts.add(c.start().length == 0 ? start : Bytes.wrap(c.start()));
        counts.add(new long[] {c.rows(), c.bytes()});
      }
    }
    if (starts.isEmpty()) { // no answer: an empty region
      starts.add(start);
      counts.add(new long[2]);
    }
    return new RegionChunks(stop, linked(regionId, starts, counts, stop));
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

  /** The cell's value of {@code k}. */
  public static byte[] encode(Kept k) {
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

  /**
   * The statistics of a cell's value; {@link Kept#NONE} for none (null), an empty value or another
   * format version. Chunks carry region id 0: the reader gives each the id of the region it is
   * found in.
   */
  public static Kept decode(byte[] value) {
    if (value == null || value.length == 0 || value[0] != VERSION) {
      return Kept.NONE;
    }
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
}
