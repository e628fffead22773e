package io.cairn.store.stats;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.KeyRange;
import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a region's rows, fed in key order, into chunks at guide posts: a new chunk starts at the
 * first row after its chunk holds {@code width} raw bytes (key + value). Counts rows and bytes per
 * chunk. At most {@code maxChunks} chunks: past that, neighbours are merged pairwise and the width
 * doubles, so a tiny width (1 byte: a guide post after every row) costs at most {@code maxChunks}
 * chunks per region. Not thread-safe; one per collection.
 */
public final class StatisticsCollector {
  /** The most chunks one region's statistics keep (a 32 MiB width reaches it at 128 GiB). */
  public static final int MAX_CHUNKS_PER_REGION = 4096;

  private final long regionId;
  private final KeyRange range;
  private final int maxChunks;
  private long width;
  private final List<RegionStatistics.Bucket> done = new ArrayList<>();
  private Bytes start;
  private long rows;
  private long bytes;
  private long totalRows;
  private long totalBytes;

  public StatisticsCollector(long regionId, KeyRange range, long width, int maxChunks) {
    this.regionId = regionId;
    this.range = range;
    this.width = Math.max(1, width);
    this.maxChunks = Math.max(1, maxChunks);
    this.start = range.start();
  }

  public StatisticsCollector(long regionId, KeyRange range, long width) {
    this(regionId, range, width, MAX_CHUNKS_PER_REGION);
  }

  /**
   * Adds a cell of row {@code row}: {@code newRow} when it is the row's first cell fed, {@code
   * countsAsRow} when the row counts (its newest cell is not a delete); {@code raw} its key and
   * value bytes. A guide post is only ever placed at a row's first cell.
   */
  public void add(Bytes row, boolean newRow, boolean countsAsRow, long raw) {
    if (newRow && bytes >= width && !row.equals(start)) {
      startChunk(row);
    }
    if (newRow && countsAsRow) {
      rows++;
      totalRows++;
    }
    bytes += raw;
    totalBytes += raw;
  }

  /**
   * Adds a visible row (rows come distinct and in key order), copying its key only when it becomes
   * a guide post.
   */
  public void addRow(byte[] key, int offset, int length, long raw) {
    if (bytes >= width) {
      startChunk(Bytes.copyOf(key, offset, length));
    }
    rows++;
    totalRows++;
    bytes += raw;
    totalBytes += raw;
  }

  private void startChunk(Bytes row) {
    done.add(new RegionStatistics.Bucket(start, rows, bytes));
    start = row;
    rows = 0;
    bytes = 0;
    if (done.size() >= maxChunks) {
      List<RegionStatistics.Bucket> halved = RegionStatistics.halve(done);
      done.clear();
      done.addAll(halved);
      width *= 2;
    }
  }

  public long rows() {
    return totalRows;
  }

  public long bytes() {
    return totalBytes;
  }

  /** The statistics collected, as of {@code atMillis}; the width reported is the one asked for. */
  public RegionStatistics finish(long requestedWidth, long atMillis) {
    List<RegionStatistics.Bucket> all = new ArrayList<>(done);
    all.add(new RegionStatistics.Bucket(start, rows, bytes));
    return new RegionStatistics(regionId, range, requestedWidth, all, atMillis);
  }
}
