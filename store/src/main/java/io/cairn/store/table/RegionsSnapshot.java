package io.cairn.store.table;

import io.cairn.kv.KeyRange;
import io.cairn.store.cell.BlockRun;
import io.cairn.store.cell.RowCursor;
import io.cairn.store.cell.RowCursors;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.region.Mvcc;
import io.cairn.store.region.Region;
import io.cairn.store.region.RegionState;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A scan's view across a table's regions: the visible rows of its ranges, region after region, at
 * one read point, from the state (memstores and files) of every region it needs, acquired when
 * opened and held until closed, so flushes, compactions and splits meanwhile change nothing it
 * reads. Owns its read point (ended at close) and the states it acquired (released at close).
 *
 * <p>Locks: callers hold none; opening reads {@link RegionMap#regions()} without its lock and
 * acquires each region's state (retrying when a split retired one meanwhile). Closing from another
 * thread (a cancel) while a row is being read is the caller's to prevent: {@code ProgramScanner}
 * defers it to the scanning thread.
 *
 * <p>It lives here, not in {@code scan}: it reads regions, which sit above {@code scan}.
 */
public final class RegionsSnapshot implements RowCursor {
  private static final Logger LOG = LoggerFactory.getLogger(RegionsSnapshot.class);

  private final Mvcc mvcc;
  private final List<KeyRange> ranges;
  private final List<Region> regions;
  private final List<RegionState> states;
  private final List<int[]> steps; // {range index, indexes in regions...}
  private final long readPoint;
  private final long expiredAtOrBelow;
  private final CachePolicy policy;
  private final RegionReader reader;

  /** Whether every range is one key's (lookups: a row each), so that no block is offered. */
  private final boolean pointsOnly;

  private int step;
  private RowCursor current = RowCursors.EMPTY;
  private boolean closed;

  private RegionsSnapshot(
      Mvcc mvcc,
      List<KeyRange> ranges,
      List<Region> regions,
      List<RegionState> states,
      List<int[]> steps,
      long readPoint,
      long expiredAtOrBelow,
      CachePolicy policy,
      RegionReader reader) {
    this.mvcc = mvcc;
    this.ranges = ranges;
    this.regions = regions;
    this.states = states;
    this.steps = steps;
    this.readPoint = readPoint;
    this.expiredAtOrBelow = expiredAtOrBelow;
    this.policy = policy;
    this.reader = reader;
    this.pointsOnly = reader == RegionReader.ROWS && ranges.stream().allMatch(KeyRange::isPoint);
  }

  @Override
  public boolean mayOfferBlocks() {
    return !pointsOnly;
  }

  /**
   * How a scan reads one region's part of a range: its rows ({@link #ROWS}), or, for a range of
   * local index entries, whatever the index read makes of the entries the region owns (every region
   * holds the entries of its own rows, so such a scan visits every region whose rows it may read,
   * {@link #regionsOf}, and merges their parts of a range into the order of the entries' keys).
   */
  public interface RegionReader {
    /** Reads the region's rows of a range ({@link Region#scan}). */
    RegionReader ROWS = Region::scan;

    RowCursor open(
        Region region,
        RegionState state,
        KeyRange range,
        long readPoint,
        long expiredAtOrBelow,
        CachePolicy policy);

    /**
     * The row keys whose regions hold the keys of {@code range}: the range itself for rows; for
     * index entries, whatever row keys the read is restricted to.
     */
    default KeyRange regionsOf(KeyRange range) {
      return range;
    }

    /**
     * Whether the regions of one range are read together as one cursor ({@link #openRegions}) that
     * merges them, rather than one after another.
     */
    default boolean mergesRegions() {
      return false;
    }

    /**
     * The parts of {@code range} in {@code regions} (with their acquired states, in key order) as
     * one cursor; only called when {@link #mergesRegions()}.
     */
    default RowCursor openRegions(
        List<Region> regions,
        List<RegionState> states,
        KeyRange range,
        long readPoint,
        long expiredAtOrBelow,
        CachePolicy policy) {
      throw new UnsupportedOperationException("A reader that reads regions one after another");
    }
  }

  /**
   * Opens the rows of {@code ranges} of the table at the read point {@code requestedReadPoint} asks
   * for (see {@link Mvcc#beginRead(long)}), rows at or below the TTL cutoff {@code
   * expiredAtOrBelow} gives (read after the read point is taken) being invisible.
   */
  public static RegionsSnapshot open(
      RegionMap map,
      Mvcc mvcc,
      List<KeyRange> ranges,
      long requestedReadPoint,
      LongSupplier expiredAtOrBelow,
      CachePolicy policy) {
    return open(map, mvcc, ranges, requestedReadPoint, expiredAtOrBelow, policy, RegionReader.ROWS);
  }

  /**
   * As {@link #open(RegionMap, Mvcc, List, long, LongSupplier, CachePolicy)}, read by {@code
   * reader}.
   */
  public static RegionsSnapshot open(
      RegionMap map,
      Mvcc mvcc,
      List<KeyRange> ranges,
      long requestedReadPoint,
      LongSupplier expiredAtOrBelow,
      CachePolicy policy,
      RegionReader reader) {
    // the read point first, the regions second: a write the read point covers is in a region
    // this scan reads (a split after the read point leaves it in the parent's state)
    long readPoint = mvcc.beginRead(requestedReadPoint);
    long expired = expiredAtOrBelow.getAsLong();
    List<Region> used = new ArrayList<>();
    List<RegionState> states = new ArrayList<>();
    List<int[]> steps = new ArrayList<>(); // {range index, indexes in used}
    try {
      while (!collectRegions(map.regions(), ranges, reader, used, states, steps)) {
        states.forEach(RegionState::release);
        used.clear();
        states.clear();
        steps.clear();
      }
    } catch (RuntimeException e) {
      states.forEach(RegionState::release);
      mvcc.endRead(readPoint);
      throw e;
    }
    return new RegionsSnapshot(
        mvcc, ranges, used, states, steps, readPoint, expired, policy, reader);
  }

  /**
   * Acquires the state of every region of {@code rs} the ranges need; false when a region was split
   * and its files went meanwhile (the caller releases what was acquired and tries again). A step is
   * a range and the regions read for it: one (each in turn), or all of them when the reader merges
   * regions.
   */
  private static boolean collectRegions(
      Region[] rs,
      List<KeyRange> ranges,
      RegionReader reader,
      List<Region> used,
      List<RegionState> states,
      List<int[]> steps) {
    for (Region r : rs) {
      r.checkOpen();
    }
    Map<Region, Integer> index = new HashMap<>();
    for (int i = 0; i < ranges.size(); i++) {
      KeyRange range = reader.regionsOf(ranges.get(i));
      List<Integer> regionsOfRange = new ArrayList<>();
      int from = range.start().isEmpty() ? 0 : RegionMap.regionIndex(rs, range.start());
      for (int j = from; j < rs.length; j++) {
        Region r = rs[j];
        if (!range.stop().isEmpty() && r.range().start().compareTo(range.stop()) >= 0) {
          break;
        }
        Integer k = index.get(r);
        if (k == null) {
          RegionState state = r.acquireState();
          if (state == null) {
            return false;
          }
          k = used.size();
          index.put(r, k);
          used.add(r);
          states.add(state);
        }
        if (reader.mergesRegions()) {
          regionsOfRange.add(k);
        } else {
          steps.add(new int[] {i, k});
        }
      }
      if (!regionsOfRange.isEmpty()) {
        int[] step = new int[1 + regionsOfRange.size()];
        step[0] = i;
        for (int j = 0; j < regionsOfRange.size(); j++) {
          step[1 + j] = regionsOfRange.get(j);
        }
        steps.add(step);
      }
    }
    return true;
  }

  @Override
  public boolean inKeyOrder() {
    return reader == RegionReader.ROWS;
  }

  @Override
  public boolean next() {
    while (!closed && !current.next()) {
      closeCurrent();
      if (step >= steps.size()) {
        close();
        return false;
      }
      current = open(steps.get(step++));
    }
    return !closed;
  }

  private RowCursor open(int[] s) {
    KeyRange range = ranges.get(s[0]);
    if (!reader.mergesRegions()) {
      return reader.open(
          regions.get(s[1]), states.get(s[1]), range, readPoint, expiredAtOrBelow, policy);
    }
    List<Region> rs = new ArrayList<>(s.length - 1);
    List<RegionState> ss = new ArrayList<>(s.length - 1);
    for (int j = 1; j < s.length; j++) {
      rs.add(regions.get(s[j]));
      ss.add(states.get(s[j]));
    }
    return reader.openRegions(rs, ss, range, readPoint, expiredAtOrBelow, policy);
  }

  @Override
  public boolean peekBlock(BlockRun run) {
    return !closed && !pointsOnly && current.peekBlock(run);
  }

  @Override
  public void skipBlock() {
    current.skipBlock();
  }

  @Override
  public byte[] keyArray() {
    return current.keyArray();
  }

  @Override
  public int keyOffset() {
    return current.keyOffset();
  }

  @Override
  public int keyLength() {
    return current.keyLength();
  }

  @Override
  public ByteBuffer valueBuffer() {
    return current.valueBuffer();
  }

  @Override
  public int valueOffset() {
    return current.valueOffset();
  }

  @Override
  public int valueLength() {
    return current.valueLength();
  }

  private void closeCurrent() {
    RowCursor c = current;
    current = RowCursors.EMPTY;
    try {
      c.close();
    } catch (RuntimeException e) {
      LOG.warn("Closing a region scanner failed", e);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeCurrent();
    states.forEach(RegionState::release);
    mvcc.endRead(readPoint);
  }
}
