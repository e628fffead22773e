package io.cairn.store.table;

import io.cairn.core.bytes.Bytes;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.KeyRange;
import io.cairn.store.cell.CellCursor;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.file.FileInfo;
import io.cairn.store.memstore.Memstore;
import io.cairn.store.region.Region;
import io.cairn.store.region.RegionState;
import io.cairn.store.region.StoreFile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits a region in two at its middle row: both daughters share the parent's files and memstores
 * until their own flushes and compactions rewrite them; the new regions are written to the
 * manifest, then published in the {@link RegionMap}.
 */
public final class RegionSplitter {
  private static final Logger LOG = LoggerFactory.getLogger(RegionSplitter.class);

  private final RegionMap map;
  private final MaintenanceSettings settings;
  private final MaintenanceListener listener;

  public RegionSplitter(RegionMap map, MaintenanceSettings settings, MaintenanceListener listener) {
    this.map = map;
    this.settings = settings;
    this.listener = listener;
  }

  /**
   * Splits the region in two at its middle row when the bytes of its own cells in its files passed
   * the split size (a daughter's inherited files count only for her half: counting them whole, a
   * table whose daughters have not compacted yet would split again and again).
   */
  public void maybeSplit(Region region) {
    if (!map.files().exist()
        || map.isDropped()
        || ownedFileBytes(region) <= settings.regionSplitBytes()) {
      return;
    }
    splitAtMiddle(region);
  }

  /** Splits the region in two at its middle row, whatever its size (none when it has no files). */
  public void splitAtMiddle(Region region) {
    region.maintenanceLock().lock();
    try {
      if (region.isRetired() || map.isDropped()) {
        return;
      }
      Bytes mid = middleRow(region);
      if (mid == null) {
        return;
      }
      split(region, mid);
    } finally {
      region.maintenanceLock().unlock();
    }
  }

  /** A row strictly inside the region's range near its middle, from its largest file. */
  private static Bytes middleRow(Region region) {
    StoreFile largest = null;
    for (StoreFile f : region.peekState().files()) {
      if (largest == null || f.sizeBytes() > largest.sizeBytes()) {
        largest = f;
      }
    }
    if (largest == null) {
      return null;
    }
    KeyRange range = region.range();
    List<Bytes> inside =
        largest.info().guidePosts().stream()
            .filter(g -> g.compareTo(range.start()) > 0 && range.contains(g) && !isEntry(region, g))
            .toList();
    if (!inside.isEmpty()) {
      return inside.get(inside.size() / 2);
    }
    // no guide posts: walk to the middle row (splits are rare and run in the background); a
    // table's index entries are not rows
    long rows = 0;
    try (CellCursor c = largest.reader().cursor(CachePolicy.NO_CACHE)) {
      for (boolean valid = c.seek(range.start()); valid; valid = c.nextRow()) {
        Bytes row = c.row();
        if (!range.contains(row)) {
          break;
        }
        if (!isEntry(region, row)) {
          rows++;
        }
      }
    }
    long target = rows / 2;
    try (CellCursor c = largest.reader().cursor(CachePolicy.NO_CACHE)) {
      long n = 0;
      for (boolean valid = c.seek(range.start()); valid; valid = c.nextRow()) {
        Bytes row = c.row();
        if (!range.contains(row)) {
          break;
        }
        if (isEntry(region, row)) {
          continue;
        }
        if (n++ >= target && row.compareTo(range.start()) > 0) {
          return row;
        }
      }
    }
    return null;
  }

  private static boolean isEntry(Region region, Bytes row) {
    return region.indexSpace() && IndexKeys.isEntry(row);
  }

  /**
   * Replaces {@code parent} by two daughters split at {@code mid}; caller holds its maintenance
   * lock.
   */
  public void split(Region parent, Bytes mid) {
    String name = map.name();
    synchronized (map.lock()) {
      parent.writeLock().lock();
      try {
        RegionState s = parent.peekState();
        List<Memstore> inherited = new ArrayList<>();
        if (!s.active().isEmpty()) {
          inherited.add(s.active());
        }
        inherited.addAll(s.frozen());
        for (int i = 0; i < 2; i++) {
          s.files().forEach(StoreFile::retain);
        }
        // both daughters flush their half of the inherited memstores and each accounts it as
        // shrinking by the whole memstore: count it twice so the store's total stays right
        long inheritedBytes = 0;
        for (Memstore m : inherited) {
          inheritedBytes += m.heapSize();
        }
        listener.memstoreShared(inheritedBytes);
        Region low =
            new Region(
                map.takeRegionId(),
                name,
                new KeyRange(parent.range().start(), mid),
                s.files(),
                inherited,
                parent.flushedSequenceId());
        Region high =
            new Region(
                map.takeRegionId(),
                name,
                new KeyRange(mid, parent.range().stop()),
                s.files(),
                inherited,
                parent.flushedSequenceId());
        List<Region> list = new ArrayList<>(Arrays.asList(map.regions()));
        int at = list.indexOf(parent);
        list.set(at, high);
        list.add(at, low);
        Region[] next = list.toArray(new Region[0]);
        try {
          map.writeManifest(next, null, null, 0);
        } catch (RuntimeException e) {
          map.returnRegionIds(2);
          for (int i = 0; i < 2; i++) {
            s.files().forEach(StoreFile::release);
          }
          throw e;
        }
        // the daughters' statistics before they are published, the parent's gone after it is
        // retired: readers of the regions never see a daughter without (it would count all the
        // files it shares with its sister)
        listener.regionSplit(parent, low, high);
        map.publish(next);
        parent.retire();
        listener.regionRetired(parent);
        LOG.info("Split {} at {} into {} and {}", parent, mid, low, high);
      } finally {
        parent.writeLock().unlock();
      }
    }
    parent.releaseFiles();
    for (Region r : map.regions()) {
      if (r.range().start().equals(mid) || r.range().stop().equals(mid)) {
        listener.requestFlush(r);
      }
    }
  }

  /**
   * The bytes of its files that hold the region's cells, estimated per file from the share of its
   * guide posts the region owns: a daughter of a split lists its parent's files, half of whose rows
   * are its sister's, until it compacts them into files of its own.
   */
  static long ownedFileBytes(Region region) {
    long n = 0;
    for (StoreFile f : region.peekState().files()) {
      FileInfo info = f.info();
      List<Bytes> posts = info.guidePosts();
      if (posts.isEmpty()) {
        n +=
            owns(region, info.firstRow()) && owns(region, info.lastRow())
                ? f.sizeBytes()
                : f.sizeBytes() / 2;
        continue;
      }
      long owned = 0;
      for (Bytes post : posts) {
        if (owns(region, post)) {
          owned++;
        }
      }
      n += (long) (f.sizeBytes() * ((double) owned / posts.size()));
    }
    return n;
  }

  /**
   * Whether one of its files holds cells of another region (it was split and has not compacted that
   * file since): its first or last cell, or a guide post, is not the region's.
   */
  static boolean holdsForeignCells(Region region) {
    for (StoreFile f : region.peekState().files()) {
      FileInfo info = f.info();
      if (!owns(region, info.firstRow()) || !owns(region, info.lastRow())) {
        return true;
      }
      for (Bytes post : info.guidePosts()) {
        if (!owns(region, post)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean owns(Region region, Bytes key) {
    return region.owns(key.peekArray(), 0, key.length());
  }
}
