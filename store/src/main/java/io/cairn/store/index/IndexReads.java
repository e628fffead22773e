package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.io.Closeables;
import io.cairn.kv.IndexKeys;
import io.cairn.kv.IndexRead;
import io.cairn.kv.KeyRange;
import io.cairn.store.cell.ForwardingRowCursor;
import io.cairn.store.cell.RowCursor;
import io.cairn.store.cell.RowCursors;
import io.cairn.store.file.CachePolicy;
import io.cairn.store.region.Region;
import io.cairn.store.region.RegionState;
import io.cairn.store.table.RegionsSnapshot.RegionReader;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * How a scan reads a local index in each region ({@link IndexRead}): covered, the entries the
 * region owns with their keys cut to the key parts and row key (what the index's entry layout
 * decodes); with lookup, the rows of those entries, each read from the same region state at the
 * same read point. Only the regions overlapping the read's row range are visited, and of each only
 * the entries of rows in that range; the regions' parts of a range are merged by entry key, so a
 * request's rows come in index order however many regions it spans.
 */
public final class IndexReads {
  private IndexReads() {}

  /** The reader of {@code read}. */
  public static RegionReader of(IndexRead read) {
    return new Reader(read);
  }

  private static final class Reader implements RegionReader {
    private final IndexRead read;

    Reader(IndexRead read) {
      this.read = read;
    }

    @Override
    public RowCursor open(
        Region region,
        RegionState state,
        KeyRange range,
        long readPoint,
        long expiredAtOrBelow,
        CachePolicy policy) {
      return openOrdered(region, state, range, readPoint, expiredAtOrBelow, policy);
    }

    private OrderedCursor openOrdered(
        Region region,
        RegionState state,
        KeyRange range,
        long readPoint,
        long expiredAtOrBelow,
        CachePolicy policy) {
      RowCursor entries = region.scanEntries(state, range, readPoint, expiredAtOrBelow, policy);
      KeyRange rows = read.rows();
      if (!rows.isAll() && !contains(rows, region.range())) {
        entries = RowCursors.filter(entries, (k, o, n) -> rowKeyIn(k, o, n, rows));
      }
      return read.lookup()
          ? new LookedUpRows(region, state, entries, readPoint, expiredAtOrBelow, policy)
          : new EntryRows(entries);
    }

    @Override
    public KeyRange regionsOf(KeyRange range) {
      return read.rows();
    }

    @Override
    public boolean mergesRegions() {
      return true;
    }

    @Override
    public RowCursor openRegions(
        List<Region> regions,
        List<RegionState> states,
        KeyRange range,
        long readPoint,
        long expiredAtOrBelow,
        CachePolicy policy) {
      if (regions.size() == 1) {
        return open(regions.get(0), states.get(0), range, readPoint, expiredAtOrBelow, policy);
      }
      List<OrderedCursor> parts = new ArrayList<>(regions.size());
      try {
        for (int i = 0; i < regions.size(); i++) {
          parts.add(
              openOrdered(
                  regions.get(i), states.get(i), range, readPoint, expiredAtOrBelow, policy));
        }
      } catch (RuntimeException e) {
        try {
          Closeables.closeAllUnchecked(parts);
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
        throw e;
      }
      return new MergedRegions(parts);
    }
  }

  /** Whether every key of {@code inner} is in {@code outer}. */
  private static boolean contains(KeyRange outer, KeyRange inner) {
    return inner.start().compareTo(outer.start()) >= 0
        && (outer.stop().isEmpty()
            || (!inner.stop().isEmpty() && inner.stop().compareTo(outer.stop()) <= 0));
  }

  /**
   * Whether the row key of the entry key {@code key[offset, offset + length)} is in {@code rows}.
   */
  private static boolean rowKeyIn(byte[] key, int offset, int length, KeyRange rows) {
    int n = IndexKeys.rowKeyLength(key, offset, length);
    int rowStart = offset + length - IndexKeys.SUFFIX_LENGTH - n;
    return rows.contains(key, rowStart, rowStart + n);
  }

  /**
   * A region's rows of an index read, with the key of the entry the current row comes from (the
   * order of the read).
   */
  interface OrderedCursor extends RowCursor {
    byte[] entryKeyArray();

    int entryKeyOffset();

    int entryKeyLength();
  }

  /**
   * The rows of several regions' cursors merged by entry key (a heap of the cursors; the regions
   * hold disjoint rows, so no two entries are equal).
   */
  static final class MergedRegions implements RowCursor {
    private final List<OrderedCursor> parts;
    private final PriorityQueue<OrderedCursor> heads;
    private OrderedCursor current;
    private boolean started;

    MergedRegions(List<OrderedCursor> parts) {
      this.parts = parts;
      this.heads =
          new PriorityQueue<>(
              parts.size(),
              (a, b) ->
                  Arrays.compareUnsigned(
                      a.entryKeyArray(),
                      a.entryKeyOffset(),
                      a.entryKeyOffset() + a.entryKeyLength(),
                      b.entryKeyArray(),
                      b.entryKeyOffset(),
                      b.entryKeyOffset() + b.entryKeyLength()));
    }

    @Override
    public boolean next() {
      if (!started) {
        started = true;
        for (OrderedCursor c : parts) {
          if (c.next()) {
            heads.add(c);
          }
        }
      } else if (current != null && current.next()) {
        heads.add(current);
      }
      current = heads.poll();
      return current != null;
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

    @Override
    public void close() {
      current = null;
      heads.clear();
      Closeables.closeAllUnchecked(parts);
    }
  }

  /** Entries with their keys cut to the encoded key parts and row key. */
  static final class EntryRows extends ForwardingRowCursor implements OrderedCursor {
    EntryRows(RowCursor entries) {
      super(entries);
    }

    @Override
    public byte[] entryKeyArray() {
      return keyArray();
    }

    @Override
    public int entryKeyOffset() {
      return keyOffset();
    }

    @Override
    public int entryKeyLength() {
      return keyLength();
    }

    @Override
    public int keyOffset() {
      return delegate.keyOffset() + IndexKeys.PREFIX_LENGTH;
    }

    @Override
    public int keyLength() {
      return delegate.keyLength() - IndexKeys.PREFIX_LENGTH - IndexKeys.SUFFIX_LENGTH;
    }
  }

  /** The rows of a region's entries, read from the region's state at the entries' read point. */
  static final class LookedUpRows implements OrderedCursor {
    private final Region region;
    private final RegionState state;
    private final RowCursor entries;
    private final long readPoint;
    private final long expiredAtOrBelow;
    private final CachePolicy policy;
    private RowCursor row = RowCursors.EMPTY;

    LookedUpRows(
        Region region,
        RegionState state,
        RowCursor entries,
        long readPoint,
        long expiredAtOrBelow,
        CachePolicy policy) {
      this.region = region;
      this.state = state;
      this.entries = entries;
      this.readPoint = readPoint;
      this.expiredAtOrBelow = expiredAtOrBelow;
      this.policy = policy;
    }

    @Override
    public boolean next() {
      row.close();
      row = RowCursors.EMPTY;
      while (entries.next()) {
        byte[] k = entries.keyArray();
        int offset = entries.keyOffset();
        int length = entries.keyLength();
        int n = IndexKeys.rowKeyLength(k, offset, length);
        Bytes rowKey = Bytes.copyOf(k, offset + length - IndexKeys.SUFFIX_LENGTH - n, n);
        RowCursor found =
            region.scan(state, KeyRange.point(rowKey), readPoint, expiredAtOrBelow, policy);
        if (found.next()) {
          row = found;
          return true;
        }
        found.close(); // an entry whose row expired (TTL): its row is gone, so is it
      }
      return false;
    }

    @Override
    public byte[] entryKeyArray() {
      return entries.keyArray();
    }

    @Override
    public int entryKeyOffset() {
      return entries.keyOffset();
    }

    @Override
    public int entryKeyLength() {
      return entries.keyLength();
    }

    @Override
    public byte[] keyArray() {
      return row.keyArray();
    }

    @Override
    public int keyOffset() {
      return row.keyOffset();
    }

    @Override
    public int keyLength() {
      return row.keyLength();
    }

    @Override
    public ByteBuffer valueBuffer() {
      return row.valueBuffer();
    }

    @Override
    public int valueOffset() {
      return row.valueOffset();
    }

    @Override
    public int valueLength() {
      return row.valueLength();
    }

    @Override
    public void close() {
      row.close();
      entries.close();
    }
  }
}
