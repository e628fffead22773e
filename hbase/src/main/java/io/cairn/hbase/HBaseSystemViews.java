package io.cairn.hbase;

import io.cairn.core.catalog.Catalog;
import io.cairn.core.catalog.StoreCatalog;
import io.cairn.core.catalog.SystemViews;
import io.cairn.core.catalog.TableDescriptor;
import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.hbase.server.WireNames;
import io.cairn.kv.KvTable;
import io.cairn.kv.TableStatistics;
import io.cairn.store.SystemViewTable;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The system views an HBase store serves: {@code SYSTEM.STATS} (every table's chunks as its
 * statistics cell in {@value HBaseStatistics#TABLE} has them, or its regions when UPDATE STATISTICS
 * never ran), {@code SYSTEM.INDEXES} (the catalog's local indexes) and {@code SYSTEM.INDEX_STATS}
 * (each index's chunks as its statistics row in {@value HBaseStatistics#TABLE} has them: {@link
 * HBaseIndexStatistics}). {@code SYSTEM.BLOCK_CACHE} and {@code SYSTEM.BUFFER_POOL} describe
 * Cairn's own store's insides; on HBase they are refused, pointing at HBase's own metrics.
 */
final class HBaseSystemViews {
  private HBaseSystemViews() {}

  /**
   * The view of KV table {@code name}, if it is a system view.
   *
   * @param tables the store's tables by KV name (the catalog among them)
   */
  static Optional<KvTable> view(String name, Function<String, Optional<KvTable>> tables) {
    if (name.equals(SystemViews.STATS.kvTableName())) {
      return Optional.of(new SystemViewTable(SystemViews.STATS, () -> statisticsRows(tables)));
    }
    if (name.equals(SystemViews.INDEXES.kvTableName())) {
      return Optional.of(new SystemViewTable(SystemViews.INDEXES, () -> indexRows(tables)));
    }
    if (name.equals(SystemViews.INDEX_STATS.kvTableName())) {
      return Optional.of(
          new SystemViewTable(SystemViews.INDEX_STATS, () -> indexStatisticsRows(tables)));
    }
    if (SystemViews.all().stream().anyMatch(v -> v.kvTableName().equals(name))) {
      throw new CairnException(
          ErrorCode.NOT_SUPPORTED,
          "System view ["
              + name
              + "] is Cairn's own store's (its block cache and read buffers): on HBase, read the"
              + " region servers' metrics (their block cache) instead");
    }
    return Optional.empty();
  }

  /**
   * The rows of SYSTEM.STATS: each table of the catalog (read now) with its chunks; ROW_COUNT,
   * BYTE_COUNT and COLLECTED_AT null for a region never counted.
   */
  private static List<Object[]> statisticsRows(Function<String, Optional<KvTable>> tables) {
    List<Object[]> rows = new ArrayList<>();
    Optional<KvTable> catalog = tables.apply(Catalog.CATALOG_TABLE);
    if (catalog.isEmpty()) {
      return rows;
    }
    for (TableDescriptor d : StoreCatalog.readDescriptors(catalog.get())) {
      Optional<KvTable> table = tables.apply(d.kvTableName());
      if (table.isEmpty()) {
        continue; // dropped meanwhile
      }
      TableStatistics statistics = table.get().statistics();
      long width =
          statistics.guidePostWidth() > 0 ? statistics.guidePostWidth() : width(table.get());
      LocalDateTime collectedAt =
          statistics.collectedAtMillis() <= 0
              ? null
              : LocalDateTime.ofInstant(
                  Instant.ofEpochMilli(statistics.collectedAtMillis()), ZoneId.systemDefault());
      for (TableStatistics.Chunk c : statistics.chunks()) {
        boolean counted = c.rows() >= 0;
        rows.add(
            new Object[] {
              d.schemaName(),
              d.tableName(),
              c.regionId(),
              c.start().toString(),
              c.stop().toString(),
              counted ? c.rows() : null,
              counted ? c.bytes() : null,
              width,
              counted ? collectedAt : null
            });
      }
    }
    return rows;
  }

  /** The rows of SYSTEM.INDEXES: every local index of the catalog (read now). */
  private static List<Object[]> indexRows(Function<String, Optional<KvTable>> tables) {
    List<Object[]> rows = new ArrayList<>();
    Optional<KvTable> catalog = tables.apply(Catalog.CATALOG_TABLE);
    if (catalog.isPresent()) {
      for (TableDescriptor d : StoreCatalog.readDescriptors(catalog.get())) {
        for (io.cairn.core.catalog.IndexDescriptor index : d.indexes()) {
          rows.add(SystemViews.indexRow(d, index));
        }
      }
    }
    return rows;
  }

  /**
   * The rows of SYSTEM.INDEX_STATS: every local index of the catalog (read now) with the chunks of
   * its table's regions as the last UPDATE STATISTICS collected them (none before).
   */
  private static List<Object[]> indexStatisticsRows(Function<String, Optional<KvTable>> tables) {
    List<Object[]> rows = new ArrayList<>();
    Optional<KvTable> catalog = tables.apply(Catalog.CATALOG_TABLE);
    if (catalog.isEmpty()) {
      return rows;
    }
    for (TableDescriptor d : StoreCatalog.readDescriptors(catalog.get())) {
      if (d.indexes().isEmpty()) {
        continue;
      }
      Optional<KvTable> table = tables.apply(d.kvTableName());
      if (table.isEmpty() || !(table.get() instanceof HBaseKvTable hbase)) {
        continue; // dropped meanwhile
      }
      for (io.cairn.core.catalog.IndexDescriptor index : d.indexes()) {
        hbase.addIndexStatisticsRows(
            d.schemaName(), d.tableName(), index.name(), index.indexId(), rows);
      }
    }
    return rows;
  }

  /** The table's GUIDE_POSTS_WIDTH option, or the default: what UPDATE STATISTICS would cut at. */
  private static long width(KvTable table) {
    String option = table.options().get("GUIDE_POSTS_WIDTH");
    try {
      return option == null ? WireNames.DEFAULT_GUIDE_POSTS_WIDTH : Long.parseLong(option);
    } catch (NumberFormatException e) {
      return WireNames.DEFAULT_GUIDE_POSTS_WIDTH; // validated when set: not reached
    }
  }
}
