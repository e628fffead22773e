package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.RowReader;
import io.cairn.core.error.CairnException;
import io.cairn.kv.IndexCheck;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.KeyRange;
import io.cairn.store.cell.CellCursor;
import io.cairn.store.cell.RowCursor;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.region.RegionState;
import io.cairn.store.table.RegionMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

/**
 * Compares a local index with its table at one snapshot, region by region in parallel: the entries
 * each region's rows should have (computed as a build computes them) against the entries it holds.
 */
public final class IndexChecker {
  /** Entry samples a check reports at most. */
  public static final int MAX_SAMPLES = 10;

  private final RegionMap map;
  private final Mvcc mvcc;
  private final LongSupplier expiredAtOrBelow;
  private final IndexBuilder pools;

  public IndexChecker(RegionMap map, Mvcc mvcc, LongSupplier expiredAtOrBelow, IndexBuilder pools) {
    this.map = map;
    this.mvcc = mvcc;
    this.expiredAtOrBelow = expiredAtOrBelow;
    this.pools = pools;
  }

  /** Compares index {@code indexId} with the table's rows at a snapshot taken now. */
  public IndexCheck check(IndexMaintainer maintainer, int indexId) {
    IndexMaintainer.Compiled index = IndexBuilder.compiled(maintainer, indexId);
    long readPoint = mvcc.beginRead();
    try {
      IndexCheck[] total = {new IndexCheck(0, 0, 0, 0, List.of())};
      forEachRegion(
          region -> {
            IndexCheck c = checkRegion(region, maintainer, index, readPoint);
            if (c == null) {
              return false;
            }
            synchronized (total) {
              total[0] = total[0].plus(c, MAX_SAMPLES);
            }
            return true;
          });
      return total[0];
    } finally {
      mvcc.endRead(readPoint);
    }
  }

  /** A job on one region: false when the region was split before its turn (not done). */
  private interface RegionJob {
    boolean run(Region region);
  }

  /**
   * Runs {@code job} on every region, in parallel, and on the daughters of regions split meanwhile.
   */
  private void forEachRegion(RegionJob job) {
    Set<Region> done = Collections.newSetFromMap(new IdentityHashMap<>());
    List<KeyRange> covered = new ArrayList<>();
    ExecutorService pool = pools.newPool();
    try {
      while (true) {
        List<Region> todo = IndexBuilder.todo(map.regions(), done, covered);
        if (todo.isEmpty()) {
          return;
        }
        List<Future<Boolean>> futures = new ArrayList<>();
        for (Region r : todo) {
          futures.add(pool.submit(() -> job.run(r)));
        }
        for (int i = 0; i < todo.size(); i++) {
          if (IndexBuilder.get(futures.get(i), futures)) {
            done.add(todo.get(i));
            covered.add(todo.get(i).range()); // not its daughters if it splits now
          } else if (!todo.get(i).isRetired()) {
            throw CairnException.internal("Region " + todo.get(i) + " skipped but not split");
          } else {
            done.add(todo.get(i)); // its daughters are in the next pass
          }
        }
        map.regions()[0].checkOpen();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Compares the region's entries of the index with its rows; null when split before its turn. */
  private IndexCheck checkRegion(
      Region region, IndexMaintainer maintainer, IndexMaintainer.Compiled index, long readPoint) {
    RegionState state = region.acquireState();
    if (state == null) {
      return null;
    }
    try {
      long expired = expiredAtOrBelow.getAsLong();
      RowReader reader = maintainer.reader();
      SortedEntries computed = new SortedEntries();
      long rows = 0;
      try (RowCursor cursor =
          region.scan(state, region.range(), readPoint, expired, CachePolicy.NO_CACHE)) {
        while (cursor.next()) {
          IndexBuilder.reset(reader, cursor);
          maintainer.appendEntry(
              index, reader, cursor.keyArray(), cursor.keyOffset(), cursor.keyLength(), computed);
          rows++;
        }
      }
      EntryBuckets sorted =
          EntryBuckets.sortInBuckets(
              List.of(computed), IndexKeys.PREFIX_LENGTH, readPoint, null, 1);
      CellCursor expected = sorted.range(0, sorted.size());
      boolean more = expected.seek(Bytes.EMPTY);
      long entries = 0;
      long missing = 0;
      long extra = 0;
      List<String> samples = new ArrayList<>();
      try (RowCursor actual =
          region.scanEntries(
              state,
              IndexKeys.range(index.spec().indexId()),
              readPoint,
              expired,
              CachePolicy.NO_CACHE)) {
        while (actual.next()) {
          entries++;
          byte[] k = actual.keyArray();
          int ko = actual.keyOffset();
          int kl = actual.keyLength();
          int c = -1;
          while (more && (c = compareKey(expected, k, ko, kl)) < 0) {
            missing++;
            sample(samples, "missing", expected.row());
            more = expected.advance();
          }
          if (more && c == 0) {
            if (!sameValue(expected, actual)) {
              missing++;
              extra++;
              sample(samples, "wrong included values", expected.row());
            }
            more = expected.advance();
          } else {
            extra++;
            sample(samples, "extra", Bytes.copyOf(k, ko, kl));
          }
        }
      }
      while (more) {
        missing++;
        sample(samples, "missing", expected.row());
        more = expected.advance();
      }
      return new IndexCheck(rows, entries, missing, extra, samples);
    } finally {
      state.release();
    }
  }

  private static int compareKey(CellCursor e, byte[] k, int offset, int length) {
    return Arrays.compareUnsigned(
        e.rowArray(), e.rowOffset(), e.rowOffset() + e.rowLength(), k, offset, offset + length);
  }

  private static boolean sameValue(CellCursor e, RowCursor actual) {
    return e.valueBuffer()
        .slice(e.valueOffset(), e.valueLength())
        .equals(actual.valueBuffer().slice(actual.valueOffset(), actual.valueLength()));
  }

  private static void sample(List<String> samples, String kind, Bytes entryKey) {
    if (samples.size() < MAX_SAMPLES) {
      samples.add(kind + " entry " + entryKey);
    }
  }
}
