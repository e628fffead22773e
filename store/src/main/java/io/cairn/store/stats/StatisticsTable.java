package io.cairn.store.stats;

import static java.util.Objects.requireNonNull;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.catalog.SystemViews;
import io.cairn.core.encoding.RowCodec;
import io.cairn.core.encoding.RowLayout;
import io.cairn.core.expr.EvalContext;
import io.cairn.core.expr.Expr;
import io.cairn.core.type.DataType;
import io.cairn.core.type.SortOrder;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanProgram;
import io.cairn.kv.ScanRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The durable store's statistics, kept in its own KV table {@value #NAME} (Phoenix's name) so that
 * they survive a restart without a rescan: one row per chunk, keyed by (KV table name, region id,
 * chunk start), holding the chunk's stop, rows, bytes, the guide post width and when it was
 * collected. Rewritten after each collection of a region (never for the system tables themselves),
 * read back when the store opens. SQL sees the statistics through the system view of the same name,
 * which the store serves in its place.
 *
 * <p>A local index's statistics in a region ({@link IndexRegionStatistics}) are rows of the same
 * table under the name {@link #indexStatisticsName}: the KV table's name and a NUL suffix, so that
 * they never mix with the table's; their chunk starts (entry keys) carry the index id, and
 * DISTINCT_COUNT the region's distinct first-part values (null in the table's rows, and in rows
 * written before it existed). A region's column statistics ({@link RegionColumnStatistics}) are one
 * row under {@link #columnStatisticsName}, with an empty START and their bytes in STOP.
 */
public final class StatisticsTable {
  public static final String NAME = SystemViews.STATS.kvTableName();

  /**
   * (TABLE VARCHAR, REGION_ID BIGINT, START VARBINARY) -> STOP VARBINARY, ROW_COUNT, BYTE_COUNT,
   * GUIDE_POSTS_WIDTH, COLLECTED_AT (epoch millis), DISTINCT_COUNT BIGINT (index rows only).
   */
  private static final RowLayout LAYOUT =
      new RowLayout(
          List.of(
              new RowLayout.ColumnLayout(1, DataType.VARCHAR.withNullable(false)),
              new RowLayout.ColumnLayout(2, DataType.BIGINT.withNullable(false)),
              new RowLayout.ColumnLayout(3, DataType.VARBINARY.withNullable(false)),
              new RowLayout.ColumnLayout(4, DataType.VARBINARY),
              new RowLayout.ColumnLayout(5, DataType.BIGINT),
              new RowLayout.ColumnLayout(6, DataType.BIGINT),
              new RowLayout.ColumnLayout(7, DataType.BIGINT),
              new RowLayout.ColumnLayout(8, DataType.BIGINT),
              new RowLayout.ColumnLayout(9, DataType.BIGINT)),
          List.of(
              new RowLayout.KeyColumn(0, SortOrder.ASC),
              new RowLayout.KeyColumn(1, SortOrder.ASC),
              new RowLayout.KeyColumn(2, SortOrder.ASC)),
          false,
          1);

  private final KvTable table;
  private final RowCodec codec = new RowCodec(LAYOUT);

  public StatisticsTable(KvTable table) {
    this.table = requireNonNull(table, "table is null");
  }

  /** What follows a KV table's name in the TABLE column of its indexes' rows. */
  private static final String INDEX_SUFFIX = "\u0000INDEXES";

  /** The TABLE column of the rows of {@code kvTableName}'s index statistics. */
  public static String indexStatisticsName(String kvTableName) {
    return kvTableName + INDEX_SUFFIX;
  }

  /** What follows a KV table's name in the TABLE column of its column statistics' rows. */
  private static final String COLUMNS_SUFFIX = "\u0000COLUMNS";

  /** The TABLE column of the rows of {@code kvTableName}'s column statistics. */
  public static String columnStatisticsName(String kvTableName) {
    return kvTableName + COLUMNS_SUFFIX;
  }

  /** Whether a table's statistics are persisted: not the system tables' (no recursion). */
  public static boolean persists(String kvTableName) {
    return !kvTableName.startsWith(SystemViews.SCHEMA + ".");
  }

  /** Every region's statistics, by KV table name, as last written. */
  public Map<String, List<RegionStatistics>> readAll() {
    Map<String, List<RegionStatistics>> out = new LinkedHashMap<>();
    readAll(out, new LinkedHashMap<>());
    return out;
  }

  /** Every region's statistics of every local index, by KV table name, as last written. */
  public Map<String, List<IndexRegionStatistics>> readAllIndexes() {
    Map<String, List<IndexRegionStatistics>> out = new LinkedHashMap<>();
    readAll(new LinkedHashMap<>(), out);
    return out;
  }

  private ScanRequest scanAll() {
    List<Expr> projection = new ArrayList<>();
    for (int i = 0; i < LAYOUT.columnCount(); i++) {
      projection.add(new Expr.ColumnRef(i, LAYOUT.columnType(i)));
    }
    return new ScanRequest(
        List.of(KeyRange.ALL),
        new ScanProgram(LAYOUT, Optional.empty(), projection, ScanProgram.NO_LIMIT),
        EvalContext.EMPTY,
        false);
  }

  /** Reads every row: a table's regions into {@code tables}, its indexes' into {@code indexes}. */
  private void readAll(
      Map<String, List<RegionStatistics>> tables,
      Map<String, List<IndexRegionStatistics>> indexes) {
    ScanRequest request = scanAll();
    String table = null;
    long regionId = -1;
    List<RegionStatistics.Bucket> buckets = new ArrayList<>();
    Bytes stop = null;
    long width = 0;
    long collectedAt = 0;
    long distinct = -1;
    int indexId = -1;
    try (RowScanner scanner = this.table.scan(request)) {
      for (Object[] row = scanner.next(); ; row = scanner.next()) {
        if (row != null && ((String) row[0]).endsWith(COLUMNS_SUFFIX)) {
          continue; // column statistics: readAllColumns
        }
        String t = row == null ? null : (String) row[0];
        long r = row == null ? -1 : (Long) row[1];
        int i = row == null ? -1 : indexId(t, (byte[]) row[2]);
        if (table != null && (row == null || !t.equals(table) || r != regionId || i != indexId)) {
          KeyRange range = new KeyRange(buckets.get(0).start(), stop);
          RegionStatistics rs = new RegionStatistics(regionId, range, width, buckets, collectedAt);
          if (indexId < 0) {
            tables.computeIfAbsent(table, k -> new ArrayList<>()).add(rs);
          } else if (range.equals(IndexKeys.range(indexId))) {
            indexes
                .computeIfAbsent(
                    table.substring(0, table.length() - INDEX_SUFFIX.length()),
                    k -> new ArrayList<>())
                .add(new IndexRegionStatistics(indexId, rs, distinct));
          }
          buckets = new ArrayList<>();
        }
        if (row == null) {
          break;
        }
        table = t;
        regionId = r;
        indexId = i;
        distinct = row[8] == null ? -1 : (Long) row[8];
        buckets.add(
            new RegionStatistics.Bucket(Bytes.wrap((byte[]) row[2]), (Long) row[4], (Long) row[5]));
        stop = Bytes.wrap((byte[]) row[3]);
        width = (Long) row[6];
        collectedAt = (Long) row[7];
      }
    }
  }

  /**
   * Every region's column statistics, by KV table name, as last written (one row per region: empty
   * START, the statistics' bytes in STOP); rows not in a format this version reads are left out.
   */
  public Map<String, List<RegionColumnStatistics>> readAllColumns() {
    Map<String, List<RegionColumnStatistics>> out = new LinkedHashMap<>();
    try (RowScanner scanner = table.scan(scanAll())) {
      for (Object[] row = scanner.next(); row != null; row = scanner.next()) {
        String t = (String) row[0];
        if (!t.endsWith(COLUMNS_SUFFIX) || row[3] == null) {
          continue;
        }
        RegionColumnStatistics c = RegionColumnStatistics.fromBytes((Long) row[1], (byte[]) row[3]);
        if (c != null) {
          out.computeIfAbsent(
                  t.substring(0, t.length() - COLUMNS_SUFFIX.length()), k -> new ArrayList<>())
              .add(c);
        }
      }
    }
    return out;
  }

  /** The mutation that makes {@code after} region {@code after.regionId()}'s column statistics. */
  public Mutation putColumns(String kvTableName, RegionColumnStatistics after) {
    Object[] row = {
      columnStatisticsName(kvTableName),
      after.regionId(),
      new byte[0],
      after.toBytes(),
      null,
      null,
      null,
      after.collectedAtMillis(),
      null
    };
    return new Mutation.Put(codec.encodeKey(row), codec.encodeValue(row));
  }

  /** The mutations that delete the column statistics of {@code regionIds}. */
  public List<Mutation> deleteColumns(String kvTableName, List<Long> regionIds) {
    List<Mutation> out = new ArrayList<>(regionIds.size());
    for (long id : regionIds) {
      out.add(new Mutation.Delete(key(columnStatisticsName(kvTableName), id, Bytes.EMPTY)));
    }
    return out;
  }

  /** The index id of an index row's chunk start, -1 for a table's row. */
  private static int indexId(String table, byte[] start) {
    if (!table.endsWith(INDEX_SUFFIX)
        || start.length < IndexKeys.PREFIX_LENGTH
        || start[0] != IndexKeys.SPACE_MARKER) {
      return -1;
    }
    return IndexKeys.indexId(start, 0);
  }

  /**
   * The mutations that replace {@code before}'s rows of table {@code kvTableName} (either may be
   * null) by {@code after}'s.
   */
  public List<Mutation> replace(
      String kvTableName, List<RegionStatistics> before, List<RegionStatistics> after) {
    List<Mutation> batch = new ArrayList<>();
    Set<Bytes> written = new HashSet<>();
    for (RegionStatistics s : after) {
      for (int i = 0; i < s.chunks().size(); i++) {
        RegionStatistics.Bucket b = s.chunks().get(i);
        Object[] row = {
          kvTableName,
          s.regionId(),
          b.start().toByteArray(),
          s.stop(i).toByteArray(),
          b.rows(),
          b.bytes(),
          s.width(),
          s.collectedAtMillis(),
          null
        };
        Bytes key = codec.encodeKey(row);
        written.add(key);
        batch.add(new Mutation.Put(key, codec.encodeValue(row)));
      }
    }
    for (RegionStatistics s : before) {
      for (RegionStatistics.Bucket b : s.chunks()) {
        Bytes key = key(kvTableName, s.regionId(), b.start());
        if (!written.contains(key)) {
          batch.add(new Mutation.Delete(key)); // a key twice in one batch: the put alone
        }
      }
    }
    return batch;
  }

  /**
   * The mutations that replace {@code before}'s rows of {@code kvTableName}'s index statistics by
   * {@code after}'s.
   */
  public List<Mutation> replaceIndexes(
      String kvTableName, List<IndexRegionStatistics> before, List<IndexRegionStatistics> after) {
    String name = indexStatisticsName(kvTableName);
    List<Mutation> batch = new ArrayList<>();
    Set<Bytes> written = new HashSet<>();
    for (IndexRegionStatistics is : after) {
      RegionStatistics s = is.statistics();
      for (int i = 0; i < s.chunks().size(); i++) {
        RegionStatistics.Bucket b = s.chunks().get(i);
        Object[] row = {
          name,
          s.regionId(),
          b.start().toByteArray(),
          s.stop(i).toByteArray(),
          b.rows(),
          b.bytes(),
          s.width(),
          s.collectedAtMillis(),
          is.distinctFirstParts() < 0 ? null : is.distinctFirstParts()
        };
        Bytes key = codec.encodeKey(row);
        written.add(key);
        batch.add(new Mutation.Put(key, codec.encodeValue(row)));
      }
    }
    for (IndexRegionStatistics is : before) {
      for (RegionStatistics.Bucket b : is.statistics().chunks()) {
        Bytes key = key(name, is.regionId(), b.start());
        if (!written.contains(key)) {
          batch.add(new Mutation.Delete(key));
        }
      }
    }
    return batch;
  }

  private Bytes key(String kvTableName, long regionId, Bytes start) {
    return codec.encodeKey(
        new Object[] {
          kvTableName, regionId, start.toByteArray(), null, null, null, null, null, null
        });
  }

  public KvTable kvTable() {
    return table;
  }
}
