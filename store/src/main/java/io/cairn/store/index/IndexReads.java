package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
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

/**
 * How a scan reads a local index in each region ({@link IndexRead}): covered, the entries the
 * region owns with their keys cut to the key parts and row key (what the index's entry layout
 * decodes); with lookup, the rows of those entries, each read from the same region state at the
 * same read point, in index order.
 */
public final class IndexReads {
  private IndexReads() {}

  /** The reader of {@code read}. */
  public static RegionReader of(IndexRead read) {
    return read.lookup() ? new Lookup() : new Covered();
  }

  private static final class Covered implements RegionReader {
    @Override
    public RowCursor open(
        Region region,
        RegionState state,
        KeyRange range,
        long readPoint,
        long expiredAtOrBelow,
        CachePolicy policy) {
      return new EntryRows(region.scanEntries(state, range, readPoint, expiredAtOrBelow, policy));
    }

    @Override
    public boolean everyRegion() {
      return true;
    }
  }

  private static final class Lookup implements RegionReader {
    @Override
    public RowCursor open(
        Region region,
        RegionState state,
        KeyRange range,
        long readPoint,
        long expiredAtOrBelow,
        CachePolicy policy) {
      RowCursor entries = region.scanEntries(state, range, readPoint, expiredAtOrBelow, policy);
      return new LookedUpRows(region, state, entries, readPoint, expiredAtOrBelow, policy);
    }

    @Override
    public boolean everyRegion() {
      return true;
    }
  }

  /** Entries with their keys cut to the encoded key parts and row key. */
  static final class EntryRows extends ForwardingRowCursor {
    EntryRows(RowCursor entries) {
      super(entries);
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
  static final class LookedUpRows implements RowCursor {
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
