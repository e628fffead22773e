package io.cairn.store.stats;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.Values;
import io.cairn.kv.ColumnStatistics;
import java.util.ArrayList;
import java.util.List;

/**
 * The column statistics of one region's rows, collected with its guide posts: per column of the
 * table's layout a {@link DistinctSketch}, the rows and nulls counted, the smallest and largest
 * value. Immutable; a collection replaces it, a split gives each daughter the parent's with half
 * its counts (the sketch is kept whole: merged again it counts each value once).
 *
 * @param layoutVersion the schema version of the layout the columns were decoded with
 */
public record RegionColumnStatistics(
    long regionId, int layoutVersion, List<Column> columns, long collectedAtMillis) {

  /** One column's counts in the region. */
  public record Column(DistinctSketch sketch, long rows, long nulls, Object min, Object max) {
    public Column {
      requireNonNull(sketch, "sketch is null");
    }
  }

  public RegionColumnStatistics {
    columns = List.copyOf(columns);
  }

  /** A split daughter's share: half the counts, the same sketches and bounds. */
  public RegionColumnStatistics half(long daughterId) {
    List<Column> out = new ArrayList<>(columns.size());
    for (Column c : columns) {
      out.add(new Column(c.sketch(), (c.rows() + 1) / 2, (c.nulls() + 1) / 2, c.min(), c.max()));
    }
    return new RegionColumnStatistics(daughterId, layoutVersion, out, collectedAtMillis);
  }

  /**
   * The table's column statistics from its regions' ({@code regions}, one per region; empty when a
   * region has none or they were decoded with different layouts).
   */
  public static List<ColumnStatistics> merge(List<RegionColumnStatistics> regions) {
    if (regions.isEmpty()) {
      return List.of();
    }
    int count = regions.get(0).columns().size();
    int version = regions.get(0).layoutVersion();
    for (RegionColumnStatistics r : regions) {
      if (r == null || r.columns().size() != count || r.layoutVersion() != version) {
        return List.of();
      }
    }
    List<ColumnStatistics> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      DistinctSketch sketch = new DistinctSketch();
      long rows = 0;
      long nulls = 0;
      Object min = null;
      Object max = null;
      for (RegionColumnStatistics r : regions) {
        Column c = r.columns().get(i);
        sketch.merge(c.sketch());
        rows += c.rows();
        nulls += c.nulls();
        min = Collector.smaller(min, c.min());
        max = Collector.larger(max, c.max());
      }
      long distinct = Math.min(sketch.estimate(), rows - nulls);
      out.add(new ColumnStatistics(i, rows, Math.max(0, distinct), nulls, min, max));
    }
    return out;
  }

  /** Counts a region's rows, fed one by one, per column. Not thread-safe; one per collection. */
  public static final class Collector {
    private final RowCodec codec;
    private final int layoutVersion;
    private final DistinctSketch[] sketches;
    private final long[] nulls;
    private final Object[] min;
    private final Object[] max;
    private long rows;
    private boolean failed;

    public Collector(RowLayout layout) {
      this.codec = new RowCodec(layout);
      this.layoutVersion = layout.schemaVersion();
      int n = layout.columnCount();
      sketches = new DistinctSketch[n];
      for (int i = 0; i < n; i++) {
        sketches[i] = new DistinctSketch();
      }
      nulls = new long[n];
      min = new Object[n];
      max = new Object[n];
    }

    /** Adds a visible row: its key and value cell. */
    public void addRow(Bytes key, Bytes value) {
      if (failed) {
        return;
      }
      Object[] row;
      try {
        row = codec.decode(key, value);
      } catch (RuntimeException e) {
        failed = true; // not rows of this layout (never expected): unknown rather than wrong
        return;
      }
      rows++;
      for (int i = 0; i < row.length; i++) {
        Object v = row[i];
        if (v == null) {
          nulls[i]++;
          continue;
        }
        sketches[i].add(v);
        min[i] = smaller(min[i], v);
        max[i] = larger(max[i], v);
      }
    }

    /** The statistics counted; null when a row did not decode. */
    public RegionColumnStatistics finish(long regionId, long atMillis) {
      if (failed) {
        return null;
      }
      List<Column> columns = new ArrayList<>(sketches.length);
      for (int i = 0; i < sketches.length; i++) {
        columns.add(new Column(sketches[i].copy(), rows, nulls[i], min[i], max[i]));
      }
      return new RegionColumnStatistics(regionId, layoutVersion, columns, atMillis);
    }

    static Object smaller(Object a, Object b) {
      if (a == null) {
        return b;
      }
      if (b == null) {
        return a;
      }
      return compare(a, b) <= 0 ? a : b;
    }

    static Object larger(Object a, Object b) {
      if (a == null) {
        return b;
      }
      if (b == null) {
        return a;
      }
      return compare(a, b) >= 0 ? a : b;
    }

    private static int compare(Object a, Object b) {
      return Values.compare(a, b);
    }
  }
}
