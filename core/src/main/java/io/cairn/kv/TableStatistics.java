package io.cairn.kv;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import java.util.List;

/**
 * Statistics of a KV table: its whole key space cut into chunks, first at region boundaries, then
 * inside each region at guide posts (a key about every {@code guidePostWidth} bytes of row data),
 * with the rows and bytes each chunk held when the statistics were collected.
 *
 * <p>The chunks are in key order, do not overlap and together cover every key (the first chunk
 * starts at the empty key, the last one stops at the empty key). Parallel scans cut their key
 * ranges at the chunks' boundaries; the planner estimates row counts from them. Counts are
 * estimates (-1 when unknown): rows written since {@code collectedAtMillis} are not in them.
 *
 * <p>{@code columns} are the statistics of each column of the table's rows ({@link
 * ColumnStatistics}, in its layout's order), collected with the chunks; empty when unknown.
 */
public record TableStatistics(
    long guidePostWidth,
    List<Chunk> chunks,
    long collectedAtMillis,
    List<ColumnStatistics> columns) {
  /** Keys in {@code [start, stop)} of region {@code regionId}, with their estimated counts. */
  public record Chunk(long regionId, Bytes start, Bytes stop, long rows, long bytes) {
    public Chunk {
      requireNonNull(start, "start is null");
      requireNonNull(stop, "stop is null");
    }

    public KeyRange range() {
      return new KeyRange(start, stop);
    }
  }

  /** Statistics without column statistics. */
  public TableStatistics(long guidePostWidth, List<Chunk> chunks, long collectedAtMillis) {
    this(guidePostWidth, chunks, collectedAtMillis, List.of());
  }

  public TableStatistics {
    chunks = List.copyOf(chunks);
    columns = List.copyOf(columns);
    if (chunks.isEmpty()) {
      throw new IllegalArgumentException("chunks must cover the key space: found none");
    }
  }

  /**
   * Statistics with one chunk per region and unknown row counts: what a store without guide posts
   * reports.
   */
  public static TableStatistics ofRegions(List<RegionInfo> regions) {
    List<Chunk> chunks =
        regions.stream()
            .map(
                r ->
                    new Chunk(
                        r.regionId(),
                        r.range().start(),
                        r.range().stop(),
                        -1,
                        r.fileBytes() + r.memstoreBytes()))
            .toList();
    return new TableStatistics(-1, chunks, 0);
  }

  /** The estimated rows of the whole table, -1 when any chunk's count is unknown. */
  public long rows() {
    long total = 0;
    for (Chunk c : chunks) {
      if (c.rows() < 0) {
        return -1;
      }
      total += c.rows();
    }
    return total;
  }

  /** The estimated bytes of the whole table, -1 when any chunk's size is unknown. */
  public long bytes() {
    long total = 0;
    for (Chunk c : chunks) {
      if (c.bytes() < 0) {
        return -1;
      }
      total += c.bytes();
    }
    return total;
  }
}
