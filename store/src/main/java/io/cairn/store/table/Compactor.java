package io.cairn.store.table;

import io.cairn.store.cell.CellCursor;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.region.Region;
import io.cairn.store.region.StoreFile;
import io.cairn.store.scan.MergingCursor;
import io.cairn.store.stats.StatisticsCollector;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges a region's files into one (HBase's {@code compactions/Compactor}): the files {@link
 * CompactionPolicy} picks, or all of them for a major compaction, recorded in the store's {@link
 * CompactionLog}.
 */
public final class Compactor {
  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

  private final RegionMap map;
  private final StoreFileWriter files;
  private final CompactionLog log;
  private final MaintenanceSettings settings;
  private final MaintenanceListener listener;

  public Compactor(
      RegionMap map,
      StoreFileWriter files,
      CompactionLog log,
      MaintenanceSettings settings,
      MaintenanceListener listener) {
    this.map = map;
    this.files = files;
    this.log = log;
    this.settings = settings;
    this.listener = listener;
  }

  /**
   * Compacts the region's files: all of them when {@code major} or when one holds another region's
   * cells (a daughter of a split), else those the size-ratio policy picks (nothing when it picks
   * none). Takes the region's maintenance lock.
   */
  public void compact(Region region, boolean major) {
    if (!map.files().exist() || map.isDropped()) {
      return;
    }
    region.maintenanceLock().lock();
    try {
      if (region.isRetired()) {
        return;
      }
      List<StoreFile> all = region.peekState().files();
      // a daughter of a split rewrites the files it inherited into files of its own cells first
      List<StoreFile> selected =
          major || RegionSplitter.holdsForeignCells(region)
              ? all
              : CompactionPolicy.select(
                  all,
                  settings.compactionMinFiles(),
                  settings.compactionMaxFiles(),
                  settings.compactionRatio());
      if (selected.isEmpty()) {
        return;
      }
      // a major compaction of all files drops tombstones and zeroes old sequence ids; a minor one
      // keeps tombstones (older files may hold the rows they delete)
      boolean dropDeletes = major || selected.size() == all.size();
      long bytesIn = 0;
      for (StoreFile f : selected) {
        bytesIn += f.sizeBytes();
      }
      try (CompactionLog.Running logged =
          log.begin(map.name(), region.regionId(), dropDeletes, selected.size(), bytesIn)) {
        long smallestReadPoint = listener.mvcc().smallestReadPoint();
        List<CellCursor> sources = new ArrayList<>();
        selected.forEach(f -> sources.add(f.reader().cursor(CachePolicy.NO_CACHE)));
        StoreFile output;
        long width = map.guidePostWidth();
        StatisticsCollector collector =
            new StatisticsCollector(region.regionId(), region.range(), width);
        try (CellCursor cursor = MergingCursor.of(sources)) {
          output =
              files.write(
                  region,
                  cursor,
                  smallestReadPoint,
                  Math.min(listener.expiredAtOrBelow(), smallestReadPoint),
                  dropDeletes,
                  true,
                  collector);
        }
        long bytesOut = output == null ? 0 : output.sizeBytes();
        synchronized (map.lock()) {
          List<StoreFile> after = Region.replaced(region.peekState().files(), selected, output);
          try {
            map.writeManifest(map.regions(), region, after, 0);
          } catch (RuntimeException e) {
            StoreFileWriter.discard(output);
            throw e;
          }
          region.replaceFiles(selected, output);
        }
        if (dropDeletes) {
          // every file rewritten into one: its rows are the region's, bar the memstores'
          listener.installStatistics(
              region, collector.finish(width, System.currentTimeMillis()), 0, 0);
        }
        selected.forEach(StoreFile::release); // after the manifest without them is durable
        logged.finish(bytesOut);
        LOG.debug("Compacted {}: {} files into {}", region, selected.size(), output);
      }
    } finally {
      region.maintenanceLock().unlock();
    }
  }
}
