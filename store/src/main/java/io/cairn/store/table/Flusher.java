package io.cairn.store.table;

import io.cairn.core.error.CairnException;
import io.cairn.core.error.ErrorCode;
import io.cairn.store.cell.CellCursor;
import io.cairn.store.memstore.Memstore;
import io.cairn.store.region.Region;
import io.cairn.store.region.StoreFile;
import io.cairn.store.scan.MergingCursor;
import io.cairn.store.stats.RegionStatistics;
import io.cairn.store.stats.StatisticsCollector;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a region's memstores to a new block file without blocking writers (HBase's {@code
 * StoreFlusher}): freeze, write the file, publish it in the manifest and the region, then tell the
 * {@link MaintenanceListener} (statistics, memstore accounting, follow-up compaction).
 */
public final class Flusher {
  private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);

  private final RegionMap map;
  private final StoreFileWriter files;
  private final MaintenanceSettings settings;
  private final MaintenanceListener listener;

  public Flusher(
      RegionMap map,
      StoreFileWriter files,
      MaintenanceSettings settings,
      MaintenanceListener listener) {
    this.map = map;
    this.files = files;
    this.settings = settings;
    this.listener = listener;
  }

  /** Writes the region's memstores to a new file; takes the region's maintenance lock. */
  public void flush(Region region) {
    if (!map.files().exist() || map.isDropped()) {
      return;
    }
    region.maintenanceLock().lock();
    try {
      if (region.isRetired()) {
        return;
      }
      region.freeze();
      List<Memstore> frozen = region.peekState().frozen();
      if (frozen.isEmpty()) {
        return;
      }
      long maxSequenceId = -1;
      long bytes = 0;
      for (Memstore m : frozen) {
        maxSequenceId = Math.max(maxSequenceId, m.maxSequenceId());
        bytes += m.heapSize();
      }
      // every write in the frozen memstores is complete (durable or rolled back) before it is
      // written to a file: a failed log append never reaches a file
      try {
        listener.mvcc().awaitReadPoint(maxSequenceId);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CairnException(ErrorCode.QUERY_CANCELED, "Flush of " + region + " interrupted");
      }
      List<CellCursor> sources = new ArrayList<>();
      frozen.forEach(m -> sources.add(m.cursor()));
      StoreFile file;
      long width = map.guidePostWidth();
      StatisticsCollector collector =
          new StatisticsCollector(region.regionId(), region.range(), width);
      boolean hadFiles = !region.peekState().files().isEmpty();
      long flushedCells = 0;
      for (Memstore m : frozen) {
        flushedCells += m.cellCount();
      }
      try (CellCursor cursor = MergingCursor.of(sources)) {
        long smallestReadPoint = listener.mvcc().smallestReadPoint();
        file =
            files.write(
                region,
                cursor,
                smallestReadPoint,
                Math.min(listener.expiredAtOrBelow(), smallestReadPoint),
                false,
                false,
                collector);
      }
      synchronized (map.lock()) {
        List<StoreFile> after = new ArrayList<>(region.peekState().files().size() + 1);
        if (file != null) {
          after.add(file);
        }
        after.addAll(region.peekState().files());
        try {
          map.writeManifest(map.regions(), region, after, maxSequenceId);
        } catch (RuntimeException e) {
          // the memstores stay frozen, their edits in the log; a later flush retries
          StoreFileWriter.discard(file);
          throw e;
        }
        region.completeFlush(frozen, file, maxSequenceId);
      }
      long now = System.currentTimeMillis();
      RegionStatistics delta = collector.finish(width, now);
      RegionStatistics before = listener.statistics(region.regionId());
      if (!hadFiles) {
        listener.installStatistics(region, delta, flushedCells, collector.bytes());
      } else if (before != null) {
        listener.installStatistics(
            region,
            before.plus(delta, width, StatisticsCollector.MAX_CHUNKS_PER_REGION, now),
            flushedCells,
            collector.bytes());
      }
      listener.flushed(region, bytes);
      LOG.debug("Flushed {} ({} bytes of memstore) to {}", region, bytes, file);
      // the compaction task also splits the region when its files grew past the split size
      if (region.peekState().files().size() >= settings.compactionMinFiles()
          || region.fileBytes() > settings.regionSplitBytes()) {
        listener.requestCompaction(region);
      }
    } finally {
      region.maintenanceLock().unlock();
    }
  }
}
