package io.cairn.store.stats;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.kv.TableStatistics;
import java.util.ArrayList;
import java.util.List;

/**
 * The statistics of one region: its range cut at guide posts into chunks, with the rows and raw
 * bytes (key + value) each held when collected. Immutable; a collection, a flush, a compaction or a
 * split replaces it.
 *
 * @param width the guide post width the chunks were cut at (the table's GUIDE_POSTS_WIDTH then)
 * @param chunks in key order; the first starts at the region's start, each one stops where the next
 *     starts, the last at the region's stop
 * @param collectedAtMillis when the counts were taken (wall clock)
 */
public record RegionStatistics(
    long regionId, KeyRange range, long width, List<Bucket> chunks, long collectedAtMillis) {

  /** The chunk starting at {@code start} (a guide post, or the region's start). */
  public record Bucket(Bytes start, long rows, long bytes) {
    public Bucket {
      requireNonNull(start, "start is null");
    }
  }

  public RegionStatistics {
    requireNonNull(range, "range is null");
    chunks = List.copyOf(chunks);
    if (chunks.isEmpty() || !chunks.get(0).start().equals(range.start())) {
      throw new IllegalArgumentException(
          "chunks must start at the region's start ["
              + range.start()
              + "]: found "
              + (chunks.isEmpty() ? "none" : "[" + chunks.get(0).start() + "]"));
    }
  }

  /** An empty region's statistics: one chunk, no rows. */
  public static RegionStatistics empty(long regionId, KeyRange range, long width, long atMillis) {
    return new RegionStatistics(
        regionId, range, width, List.of(new Bucket(range.start(), 0, 0)), atMillis);
  }

  public long rows() {
    long n = 0;
    for (Bucket b : chunks) {
      n += b.rows();
    }
    return n;
  }

  public long bytes() {
    long n = 0;
    for (Bucket b : chunks) {
      n += b.bytes();
    }
    return n;
  }

  /** Where chunk {@code i} stops: the next chunk's start, or the region's stop. */
  public Bytes stop(int i) {
    return i + 1 < chunks.size() ? chunks.get(i + 1).start() : range.stop();
  }

  /** The chunks as the KV SPI reports them. */
  public void addTo(List<TableStatistics.Chunk> out) {
    for (int i = 0; i < chunks.size(); i++) {
      Bucket b = chunks.get(i);
      out.add(new TableStatistics.Chunk(regionId, b.start(), stop(i), b.rows(), b.bytes()));
    }
  }

  /**
   * These statistics with {@code delta}'s (a flushed file's) added: the chunks are cut at the guide
   * posts of both, each source chunk's counts going to the chunk that starts where it starts, then
   * neighbours are merged while together they stay within the width. Rows updated in both count
   * twice until the next compaction of all files or collection re-counts them.
   */
  public RegionStatistics plus(RegionStatistics delta, long width, int maxChunks, long atMillis) {
    List<Bucket> merged = new ArrayList<>(chunks.size() + delta.chunks.size());
    int i = 0;
    int j = 0;
    while (i < chunks.size() || j < delta.chunks.size()) {
      Bucket a = i < chunks.size() ? chunks.get(i) : null;
      Bucket b = j < delta.chunks.size() ? delta.chunks.get(j) : null;
      int c = a == null ? 1 : b == null ? -1 : a.start().compareTo(b.start());
      if (c == 0) {
        merged.add(new Bucket(a.start(), a.rows() + b.rows(), a.bytes() + b.bytes()));
        i++;
        j++;
      } else if (c < 0) {
        merged.add(a);
        i++;
      } else {
        merged.add(b);
        j++;
      }
    }
    return new RegionStatistics(regionId, range, width, thin(merged, width, maxChunks), atMillis);
  }

  /**
   * Merges each chunk into its predecessor while their bytes together stay within {@code width},
   * then halves the list (doubling the width) while it holds more than {@code maxChunks}.
   */
  public static List<Bucket> thin(List<Bucket> chunks, long width, int maxChunks) {
    List<Bucket> out = new ArrayList<>(chunks.size());
    for (Bucket b : chunks) {
      if (!out.isEmpty()) {
        Bucket last = out.get(out.size() - 1);
        if (last.bytes() + b.bytes() <= width || b.rows() == 0 && b.bytes() == 0) {
          out.set(out.size() - 1, merge(last, b));
          continue;
        }
      }
      out.add(b);
    }
    while (out.size() > maxChunks) {
      out = halve(out);
    }
    return out;
  }

  /** Merges chunks pairwise: (0, 1), (2, 3), ... */
  public static List<Bucket> halve(List<Bucket> chunks) {
    List<Bucket> out = new ArrayList<>((chunks.size() + 1) / 2);
    for (int k = 0; k < chunks.size(); k += 2) {
      out.add(k + 1 < chunks.size() ? merge(chunks.get(k), chunks.get(k + 1)) : chunks.get(k));
    }
    return out;
  }

  private static Bucket merge(Bucket a, Bucket b) {
    return new Bucket(a.start(), a.rows() + b.rows(), a.bytes() + b.bytes());
  }

  /**
   * The statistics of the part {@code [start, stop)} of this region (a daughter of a split, region
   * {@code id}): chunks outside are dropped, the chunk cut by the split point gives each side half
   * of its counts.
   */
  public RegionStatistics clip(long id, KeyRange part) {
    List<Bucket> out = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      Bucket b = chunks.get(i);
      Bytes stop = stop(i);
      boolean startsInside = part.contains(b.start()) || b.start().equals(part.start());
      boolean endsAfterStart = stop.isEmpty() || stop.compareTo(part.start()) > 0;
      boolean startsBeforeStop = part.stop().isEmpty() || b.start().compareTo(part.stop()) < 0;
      if (!endsAfterStart || !startsBeforeStop) {
        continue;
      }
      boolean whole =
          startsInside
              && (part.stop().isEmpty() || !stop.isEmpty() && stop.compareTo(part.stop()) <= 0);
      Bytes start = startsInside ? b.start() : part.start();
      out.add(
          whole
              ? new Bucket(start, b.rows(), b.bytes())
              : new Bucket(start, (b.rows() + 1) / 2, (b.bytes() + 1) / 2));
    }
    if (out.isEmpty() || !out.get(0).start().equals(part.start())) {
      out.add(0, new Bucket(part.start(), 0, 0));
    }
    return new RegionStatistics(id, part, width, out, collectedAtMillis);
  }
}
