package io.cairn.store.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.KeyRange;
import io.cairn.kv.Mutation;
import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.stats.RegionStatistics;
import io.cairn.store.stats.StatisticsKeeper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestRegionSplitter {
  private static final int ROWS = 100;

  private static Bytes key(int i) {
    return Bytes.wrap(new byte[] {(byte) (i >> 8), (byte) i});
  }

  /**
   * The daughters of a split share their parent's memstores and files: a reader of the table's row
   * count at any moment of the split (here: each time the statistics change, as the store's
   * background persistence sees them) counts each row once, never a daughter without statistics
   * beside one with.
   */
  @Test
  void theRowCountStaysRightThroughoutASplit() {
    Region parent = new Region(1, "T", KeyRange.ALL);
    List<Mutation> puts = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      puts.add(new Mutation.Put(key(i), key(i)));
    }
    parent.apply(puts, 1);
    RegionMap map =
        RegionMap.of(1, "T", TableFiles.inMemory(), Map.of(), new Region[] {parent}, 1, 1, 2);
    List<Long> counts = new ArrayList<>();
    StatisticsKeeper[] keeper = new StatisticsKeeper[1];
    keeper[0] =
        new StatisticsKeeper(
            map::isDropped,
            new StatisticsKeeper.Listener() {
              @Override
              public void changed(RegionStatistics before, RegionStatistics after) {
                counts.add(keeper[0].approximateRowCount(map::regions));
              }

              @Override
              public void removed(List<RegionStatistics> removed) {
                counts.add(keeper[0].approximateRowCount(map::regions));
              }
            });
    Mvcc mvcc = new Mvcc(1, 60_000);
    keeper[0].collect(parent, mvcc, () -> -1, 64);
    assertThat(keeper[0].approximateRowCount(map::regions)).isEqualTo(ROWS);

    counts.clear();
    RegionSplitter splitter =
        new RegionSplitter(map, new MaintenanceSettings(0, 3, 10, 1.2, 0), new Keeping(keeper[0]));
    splitter.split(parent, key(ROWS / 2));

    assertThat(map.regions()).hasSize(2);
    assertThat(counts).as("counts while the split ran").hasSize(3).allMatch(c -> c == ROWS);
    assertThat(keeper[0].approximateRowCount(map::regions)).isEqualTo(ROWS);
    assertThat(keeper[0].get(parent.regionId())).as("the parent's statistics").isNull();
  }

  /**
   * A reader that took the regions before a split and reads the statistics after it finds the
   * parent's gone; it sees the parent retired and reads the regions again, rather than counting the
   * parent's cells (every version of every row).
   */
  @Test
  void aReaderHoldingTheRegionsOfBeforeASplitReadsThemAgain() {
    Region parent = new Region(1, "T", KeyRange.ALL);
    for (int version = 1; version <= 2; version++) {
      List<Mutation> puts = new ArrayList<>();
      for (int i = 0; i < ROWS; i++) {
        puts.add(new Mutation.Put(key(i), key(version)));
      }
      parent.apply(puts, version);
    }
    RegionMap map =
        RegionMap.of(1, "T", TableFiles.inMemory(), Map.of(), new Region[] {parent}, 1, 1, 2);
    StatisticsKeeper keeper = new StatisticsKeeper(map::isDropped, new Ignoring());
    keeper.collect(parent, new Mvcc(2, 60_000), () -> -1, 64);
    Region[] before = map.regions();
    new RegionSplitter(map, new MaintenanceSettings(0, 3, 10, 1.2, 0), new Keeping(keeper))
        .split(parent, key(ROWS / 2));

    int[] reads = new int[1];
    long count = keeper.approximateRowCount(() -> reads[0]++ == 0 ? before : map.regions());

    assertThat(count).isEqualTo(ROWS);
    assertThat(reads[0]).isEqualTo(2);
  }

  private static final class Ignoring implements StatisticsKeeper.Listener {
    @Override
    public void changed(RegionStatistics before, RegionStatistics after) {}

    @Override
    public void removed(List<RegionStatistics> removed) {}
  }

  /** Hands a split's statistics to the keeper, as the table does; asks for no other work. */
  private record Keeping(StatisticsKeeper keeper) implements MaintenanceListener {
    @Override
    public Mvcc mvcc() {
      throw new UnsupportedOperationException();
    }

    @Override
    public long expiredAtOrBelow() {
      return -1;
    }

    @Override
    public RegionStatistics statistics(long regionId) {
      return keeper.get(regionId);
    }

    @Override
    public void installStatistics(
        Region region, RegionStatistics stats, long coveredRows, long coveredBytes) {
      keeper.install(region, stats, coveredRows, coveredBytes);
    }

    @Override
    public void regionSplit(Region parent, Region low, Region high) {
      keeper.split(parent, low, high);
    }

    @Override
    public void regionRetired(Region parent) {
      keeper.retired(parent);
    }

    @Override
    public void flushed(Region region, long memstoreBytes) {}

    @Override
    public void memstoreShared(long bytes) {}

    @Override
    public void requestFlush(Region region) {}

    @Override
    public void requestCompaction(Region region) {}
  }
}
