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
 */
public final class StatisticsTable {
  public static final String NAME = SystemViews.STATS.kvTableName();

  /**
   * (TABLE VARCHAR, REGION_ID BIGINT, START VARBINARY) -> STOP VARBINARY, ROW_COUNT, BYTE_COUNT,
   * GUIDE_POSTS_WIDTH, COLLECTED_AT (epoch millis) BIGINT.
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
              new RowLayout.ColumnLayout(8, DataType.BIGINT)),
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

  /** Whether a table's statistics are persisted: not the system tables' (no recursion). */
  public static boolean persists(String kvTableName) {
    return !kvTableName.startsWith(SystemViews.SCHEMA + ".");
  }

  /** Every region's statistics, by KV table name, as last written. */
  public Map<String, List<RegionStatistics>> readAll() {
    List<Expr> projection = new ArrayList<>();
    for (int i = 0; i < LAYOUT.columnCount(); i++) {
      projection.add(new Expr.ColumnRef(i, LAYOUT.columnType(i)));
    }
    ScanRequest request =
        new ScanRequest(
            List.of(KeyRange.ALL),
            new ScanProgram(LAYOUT, Optional.empty(), projection, ScanProgram.NO_LIMIT),
            EvalContext.EMPTY,
            false);
    Map<String, List<RegionStatistics>> out = new LinkedHashMap<>();
    String table = null;
    long regionId = -1;
    List<RegionStatistics.Bucket> buckets = new ArrayList<>();
    Bytes stop = null;
    long width = 0;
    long collectedAt = 0;
    try (RowScanner scanner = this.table.scan(request)) {
      for (Object[] row = scanner.next(); ; row = scanner.next()) {
        String t = row == null ? null : (String) row[0];
        long r = row == null ? -1 : (Long) row[1];
        if (table != null && (row == null || !t.equals(table) || r != regionId)) {
          KeyRange range = new KeyRange(buckets.get(0).start(), stop);
          out.computeIfAbsent(table, k -> new ArrayList<>())
              .add(new RegionStatistics(regionId, range, width, buckets, collectedAt));
          buckets = new ArrayList<>();
        }
        if (row == null) {
          break;
        }
        table = t;
        regionId = r;
        buckets.add(
            new RegionStatistics.Bucket(Bytes.wrap((byte[]) row[2]), (Long) row[4], (Long) row[5]));
        stop = Bytes.wrap((byte[]) row[3]);
        width = (Long) row[6];
        collectedAt = (Long) row[7];
      }
    }
    return out;
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
          s.collectedAtMillis()
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

  private Bytes key(String kvTableName, long regionId, Bytes start) {
    return codec.encodeKey(
        new Object[] {kvTableName, regionId, start.toByteArray(), null, null, null, null, null});
  }

  public KvTable kvTable() {
    return table;
  }
}
