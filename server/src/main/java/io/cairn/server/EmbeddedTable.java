package io.cairn.server;

import static java.util.Objects.requireNonNull;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.kv.Durability;
import io.cairn.kv.KeyRange;
import io.cairn.kv.KvTable;
import io.cairn.kv.Mutation;
import io.cairn.kv.RegionInfo;
import io.cairn.kv.RowScanner;
import io.cairn.kv.ScanRequest;
import io.cairn.server.coprocessor.ProgramScanner;
import io.cairn.server.memstore.KeyValue;
import io.cairn.server.region.Region;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A table of the embedded store: its regions (one, covering all keys, for now) and its id source.
 */
final class EmbeddedTable implements KvTable {
  private final String name;
  private final List<Region> regions;
  private final AtomicLong nextId = new AtomicLong(1);

  EmbeddedTable(String name) {
    this.name = requireNonNull(name, "name is null");
    this.regions = List.of(new Region(name, KeyRange.ALL));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void mutate(List<Mutation> batch, Durability durability) {
    if (batch.isEmpty()) {
      return;
    }
    // one region for now; when regions split, a batch spanning regions needs a cross-region commit
    regions.get(0).mutate(batch);
  }

  @Override
  public RowScanner scan(ScanRequest request) {
    // take every region's read point now: the snapshot is fixed at open
    long[] readPoints = new long[regions.size()];
    for (int i = 0; i < readPoints.length; i++) {
      regions.get(i).checkOpen();
      readPoints[i] = regions.get(i).readPoint();
    }
    List<KeyRange> ranges = request.ranges();
    Iterator<KeyValue> rows =
        new Iterator<>() {
          private int rangeIndex;
          private int regionIndex;
          private Iterator<KeyValue> current = Collections.emptyIterator();

          @Override
          public boolean hasNext() {
            while (!current.hasNext()) {
              if (rangeIndex >= ranges.size()) {
                return false;
              }
              current =
                  regions.get(regionIndex).scan(ranges.get(rangeIndex), readPoints[regionIndex]);
              if (++regionIndex == regions.size()) {
                regionIndex = 0;
                rangeIndex++;
              }
            }
            return true;
          }

          @Override
          public KeyValue next() {
            if (!hasNext()) {
              throw new NoSuchElementException();
            }
            return current.next();
          }
        };
    return new ProgramScanner(rows, request.program(), request.context());
  }

  @Override
  public long allocateIds(long count) {
    if (count <= 0) {
      throw new CairnException(
          ErrorCode.INVALID_ARGUMENT, "Id count: expected > 0, found [" + count + "]");
    }
    return nextId.getAndAdd(count);
  }

  void drop() {
    new ArrayList<>(regions).forEach(Region::close);
  }

  @Override
  public long approximateRowCount() {
    long cells = 0;
    for (Region region : regions) {
      cells += region.peekMemstore().cellCount();
    }
    return cells;
  }

  @Override
  public List<RegionInfo> regions() {
    return List.of(new RegionInfo(0, KeyRange.ALL, 0, regions.get(0).peekMemstore().heapSize(), 0));
  }
}
