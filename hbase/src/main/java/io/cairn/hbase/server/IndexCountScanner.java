package io.cairn.hbase.server;

import io.cairn.kv.IndexSpec;
import io.cairn.store.stats.FirstPartCounter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/**
 * The statistics of a region of a local index's table ({@link WireNames#INDEX_COUNT_ATTRIBUTE},
 * UPDATE STATISTICS): counts its entries (HBase rows, whatever tokens they hold), cuts them into
 * chunks at guide posts by their key and value bytes ({@link RegionCount}) and counts the distinct
 * values of the index's first key part ({@link FirstPartCounter}). Answers one cell at the end;
 * until then a call answers nothing after {@link ProgramRegionScanner#PAGE_MILLIS} of reading, so
 * the scan keeps its lease.
 */
final class IndexCountScanner extends AnsweringRegionScanner {
  private final RegionCount count;
  private final FirstPartCounter distinct;
  private final long pageNanos;
  private final List<Cell> cells = new ArrayList<>();
  private boolean more = true;
  private boolean done;

  private IndexCountScanner(
      RegionScanner region, IndexSpec index, long guidePostWidth, long pageMillis) {
    super(region);
    this.count = new RegionCount(guidePostWidth);
    this.distinct = new FirstPartCounter(index.parts().get(0).type(), index.orders().get(0));
    this.pageNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, pageMillis));
  }

  /**
   * The count of the entries {@code region} reads of the index of {@code definition} (a wire {@code
   * IndexDefinition}; malformed: fails without a retry).
   */
  static IndexCountScanner open(
      RegionScanner region, byte[] definition, long guidePostWidth, long pageMillis)
      throws IOException {
    WireIndex wire = WireIndex.parse(definition, region);
    return new IndexCountScanner(region, wire.index(), guidePostWidth, pageMillis);
  }

  @Override
  public boolean nextRaw(List<Cell> out) throws IOException {
    if (done) {
      return false;
    }
    long deadline = System.nanoTime() + pageNanos;
    while (more) {
      cells.clear();
      more = region.nextRaw(cells);
      if (cells.isEmpty()) {
        continue;
      }
      Cell first = cells.get(0); // an entry's row: its cells differ by token only
      // a cell of an off-heap block copies its row for getRowArray: once per entry, not twice
      byte[] row = first.getRowArray();
      int offset = first.getRowOffset();
      count.add(row, offset, first.getRowLength(), first.getValueLength());
      distinct.add(row, offset, first.getRowLength());
      if ((count.rows() & 4095) == 0 && System.nanoTime() - deadline > 0) {
        return true; // a slice of time is up: nothing to answer yet
      }
    }
    done = true;
    out.add(
        new KeyValue(
            answerRow(),
            Pages.FAMILY,
            WireNames.INDEX_COUNT_QUALIFIER,
            count.encodeWithDistinct(distinct.count())));
    return false;
  }

  @Override
  public void close() throws IOException {
    done = true;
    region.close();
  }
}
