package io.cairn.hbase.server;

import io.cairn.core.bytes.Bytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A region's statistics counted while a compaction rewrites all of its files, then put in place of
 * the region's part of its table's {@link StatisticsCell} (so statistics follow the data between
 * two UPDATE STATISTICS, and a split's daughters get their own once HBase compacts them). Only a
 * table that UPDATE STATISTICS ran on has its statistics refreshed so: a table without them keeps
 * its estimates. The count is of the rows the compaction wrote (not the memstore's newer ones), cut
 * at the table's guide post width (its option, as UPDATE STATISTICS cuts them).
 *
 * <p>The compaction itself makes no call: the count is written by one thread of the region server's
 * own ({@link #publish}), each call bounded by {@value #CALL_MILLIS} ms, because a region closes
 * (to move, split or stop) only once its compactions have ended, and a call to a table whose region
 * is on a server that died would hold them. Best effort: a failure is logged and leaves the
 * statistics as they were; past {@value #QUEUE} counts in waiting, a new one is dropped.
 */
final class CompactionStatistics {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionStatistics.class);

  /** Attempts at replacing the cell when other writers change it meanwhile. */
  private static final int ATTEMPTS = 5;

  /** The bound of each call of a count's writing. */
  static final int CALL_MILLIS = 10_000;

  /** Counts waiting to be written, at most. */
  static final int QUEUE = 256;

  private static final ExecutorService WRITER =
      new ThreadPoolExecutor(
          1,
          1,
          0,
          TimeUnit.MILLISECONDS,
          new ArrayBlockingQueue<>(QUEUE),
          r -> {
            Thread t = new Thread(r, "cairn-compaction-statistics");
            t.setDaemon(true);
            return t;
          },
          (r, pool) -> LOG.warn("Statistics of a compaction dropped: {} counts wait", QUEUE));

  private final RegionInfo region;
  private final RegionCount count;

  /** A count of {@code region}'s rows cut every {@code guidePostWidth} bytes. */
  CompactionStatistics(RegionInfo region, long guidePostWidth) {
    this.region = region;
    this.count = new RegionCount(guidePostWidth);
  }

  /** Counts a cell the compaction writes: a Cairn row's cell, unless a tombstone. */
  void add(Cell cell) {
    if (cell.getValueLength() > 0 && CellUtil.matchingQualifier(cell, WireNames.ROW_QUALIFIER)) {
      count.add(
          cell.getRowArray(), cell.getRowOffset(), cell.getRowLength(), cell.getValueLength());
    }
  }

  /** Has the count written, on the writer's thread, through {@code connection}. */
  void publish(Connection connection) {
    WRITER.execute(() -> write(connection));
  }

  /** Puts the region's count in place of its part of the table's statistics, if it has some. */
  private void write(Connection connection) {
    TableName table = region.getTable();
    TableName statsTable = TableName.valueOf(table.getNamespaceAsString(), StatisticsCell.TABLE);
    byte[] row = cairnName(table.getQualifierAsString()).getBytes(StandardCharsets.UTF_8);
    Bytes start = Bytes.wrap(region.getStartKey());
    StatisticsCell.RegionChunks chunks =
        StatisticsCell.chunks(
            region.getRegionId(), start, Bytes.wrap(region.getEndKey()), count.chunks());
    try (Table stats =
        connection
            .getTableBuilder(statsTable, null)
            .setOperationTimeout(CALL_MILLIS)
            .setRpcTimeout(CALL_MILLIS)
            .build()) {
      for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
        Cell current =
            stats
                .get(new Get(row).addColumn(Pages.FAMILY, StatisticsCell.QUALIFIER))
                .getColumnLatestCell(Pages.FAMILY, StatisticsCell.QUALIFIER);
        if (current == null) {
          return; // no statistics kept (or dropped meanwhile)
        }
        byte[] before = CellUtil.cloneValue(current);
        StatisticsCell.Kept kept = StatisticsCell.decode(before);
        if (kept.regions().isEmpty()) {
          return;
        }
        byte[] after = StatisticsCell.encode(kept.withRegion(start, chunks));
        boolean replaced =
            stats
                .checkAndMutate(
                    CheckAndMutate.newBuilder(row)
                        .ifEquals(Pages.FAMILY, StatisticsCell.QUALIFIER, before)
                        .build(
                            new Put(row).addColumn(Pages.FAMILY, StatisticsCell.QUALIFIER, after)))
                .isSuccess();
        if (replaced) {
          return;
        }
      }
      LOG.warn(
          "Statistics of {} not refreshed after a compaction: changed by others {} times",
          region.getRegionNameAsString(),
          ATTEMPTS);
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "Statistics of {} not refreshed after a compaction: {}",
          region.getRegionNameAsString(),
          e.toString());
    }
  }

  /**
   * The Cairn name of an HBase table's qualifier: the client's naming (HBaseNames) undone, each '_'
   * and two hex digits back to the byte it stands for.
   */
  static String cairnName(String qualifier) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(qualifier.length());
    for (int i = 0; i < qualifier.length(); i++) {
      char c = qualifier.charAt(i);
      if (c == '_' && i + 2 < qualifier.length()) {
        out.write(Integer.parseInt(qualifier.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        out.write(c);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
