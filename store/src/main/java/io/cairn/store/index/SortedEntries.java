package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.ByteBuilder;
import io.cairn.store.cell.CellCursor;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Index entries computed from rows, held in one growing array (no object per entry, so a build's
 * millions of entries cost the garbage collector nothing), then sorted by key: a cell cursor of
 * puts at one sequence id that the table's file writer reads like a memstore's. Keys are distinct
 * (an entry key ends with its row key). Many entries (a build's pieces of a region) are sorted in
 * buckets of key ranges ({@link EntryBuckets}) so that the sort and the writer's reads in key order
 * stay within the CPU caches. Not thread-safe.
 */
final class SortedEntries {
  /** Entries a bucket of {@link EntryBuckets} holds about: its arrays stay in the CPU caches. */
  static final int BUCKET_ENTRIES = 16_384;

  /** Each entry's key then value, back to back. */
  ByteBuilder bytes;

  int[] starts;
  int[] keyLengths;
  int[] ends;
  int count;

  SortedEntries() {
    this(1024, 1 << 16);
  }

  SortedEntries(int entries, int bytes) {
    this.bytes = new ByteBuilder(bytes);
    this.starts = new int[entries];
    this.keyLengths = new int[entries];
    this.ends = new int[entries];
  }

  private int[] order;
  byte[] array;
  private long sequenceId;

  /** Where the next entry's key goes: append its key, then call {@link #endKey}. */
  ByteBuilder out() {
    return bytes;
  }

  /** Starts an entry at the builder's current end. */
  void beginEntry() {
    if (count == starts.length) {
      starts = Arrays.copyOf(starts, count * 2);
      keyLengths = Arrays.copyOf(keyLengths, count * 2);
      ends = Arrays.copyOf(ends, count * 2);
    }
    starts[count] = bytes.length();
  }

  /** The key written since {@link #beginEntry} ends here; the value follows. */
  void endKey() {
    keyLengths[count] = bytes.length() - starts[count];
  }

  /** The value written since {@link #endKey} ends here: the entry is complete. */
  void endEntry() {
    ends[count] = bytes.length();
    count++;
  }

  int count() {
    return count;
  }

  /** Bytes held. */
  long bytes() {
    return bytes.length();
  }

  /** Appends (copies) every entry of {@code other}, not sorted. */
  void addAll(SortedEntries other) {
    for (int e = 0; e < other.count; e++) {
      copy(other, e);
    }
  }

  /** Appends (copies) entry {@code e} of {@code other}, not sorted. */
  void copy(SortedEntries other, int e) {
    int start = other.starts[e];
    beginEntry();
    bytes.write(other.bytes.array(), start, other.ends[e] - start);
    keyLengths[count] = other.keyLengths[e];
    endEntry();
  }

  /** Forgets every entry, keeping the memory for the next ones. */
  void reset() {
    count = 0;
    bytes.truncate(0);
  }

  /** Forgets every entry and its memory. */
  void clear() {
    count = 0;
    starts = keyLengths = ends = new int[0];
    bytes = new ByteBuilder(0);
    array = null;
    order = null;
  }

  /**
   * Sorts the entries, whose keys all start with the same {@code skip} bytes (an index's prefix),
   * and makes them cells at {@code sequenceId}: a radix sort on the next 8 bytes of each key, then
   * a comparison sort of each run that ties on them.
   */
  SortedEntries sort(int skip, long sequenceId) {
    this.sequenceId = sequenceId;
    this.array = bytes.array();
    // the radix sort looks at the 8 bytes after what every key shares (prefix, leading bytes of
    // the first part's encoding), where the keys differ
    int common = commonPrefix(skip);
    long[] digits = new long[count];
    int[] o = new int[count];
    for (int i = 0; i < count; i++) {
      digits[i] = eightBytes(starts[i] + common, starts[i] + keyLengths[i]);
      o[i] = i;
    }
    long[] digitsTmp = new long[count];
    int[] orderTmp = new int[count];
    int[] counts = new int[257];
    for (int shift = 0; shift < 64 && count > 0; shift += 8) {
      Arrays.fill(counts, 0);
      for (int i = 0; i < count; i++) {
        counts[(int) ((digits[i] >>> shift) & 0xFF) + 1]++;
      }
      if (counts[(int) ((digits[0] >>> shift) & 0xFF) + 1] == count) {
        continue; // every key has the same byte here
      }
      for (int b = 0; b < 256; b++) {
        counts[b + 1] += counts[b];
      }
      for (int i = 0; i < count; i++) {
        int to = counts[(int) ((digits[i] >>> shift) & 0xFF)]++;
        digitsTmp[to] = digits[i];
        orderTmp[to] = o[i];
      }
      long[] d = digits;
      digits = digitsTmp;
      digitsTmp = d;
      int[] t = o;
      o = orderTmp;
      orderTmp = t;
    }
    for (int from = 0; from < count; ) {
      int to = from + 1;
      while (to < count && digits[to] == digits[from]) {
        to++;
      }
      if (to - from > 16) {
        Integer[] run = new Integer[to - from];
        for (int i = from; i < to; i++) {
          run[i - from] = o[i];
        }
        Arrays.sort(run, this::compareKeys);
        for (int i = from; i < to; i++) {
          o[i] = run[i - from];
        }
      } else {
        for (int i = from + 1; i < to; i++) { // a short run: insertion sort, nothing boxed
          int e = o[i];
          int j = i - 1;
          while (j >= from && compareKeys(o[j], e) > 0) {
            o[j + 1] = o[j];
            j--;
          }
          o[j + 1] = e;
        }
      }
      from = to;
    }
    this.order = o;
    return this;
  }

  /** How many leading bytes every key has in common (at least {@code skip}, which they share). */
  int commonPrefix(int skip) {
    if (count == 0) {
      return skip;
    }
    int common = keyLengths[0];
    int first = starts[0];
    for (int i = 1; i < count && common > skip; i++) {
      int m =
          Arrays.mismatch(
              array,
              first + skip,
              first + common,
              array,
              starts[i] + skip,
              starts[i] + keyLengths[i]);
      if (m >= 0) {
        common = skip + m;
      } else {
        common = Math.min(common, keyLengths[i]);
      }
    }
    return Math.max(skip, common);
  }

  private int compareKeys(int a, int b) {
    return Arrays.compareUnsigned(
        array, starts[a], starts[a] + keyLengths[a], array, starts[b], starts[b] + keyLengths[b]);
  }

  /** The 8 bytes of {@code [from, end)} big-endian, zero-padded. */
  long eightBytes(int from, int end) {
    byte[] a = bytes.array();
    if (end - from >= 8) {
      return (long) BIG_ENDIAN_LONG.get(a, from);
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      int p = from + i;
      v = (v << 8) | (p < end ? a[p] & 0xFF : 0);
    }
    return v;
  }

  static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  /** The position of the first entry (in key order) whose key is at or after {@code key}. */
  private int positionOf(byte[] key, int from, int to) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int e = order[mid];
      if (Arrays.compareUnsigned(array, starts[e], starts[e] + keyLengths[e], key, 0, key.length)
          < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** A slice's cursor: the entries at positions [lo, hi) of the key order. */
  private final class Slice implements CellCursor {
    private final int lo;
    private final int hi;
    private final ByteBuffer values = ByteBuffer.wrap(array);
    private int at;

    Slice(int lo, int hi) {
      this.lo = lo;
      this.hi = hi;
      this.at = lo;
    }

    @Override
    public boolean seek(Bytes row) {
      at = positionOf(row.peekArray(), lo, hi);
      return at < hi;
    }

    @Override
    public boolean advance() {
      return ++at < hi;
    }

    @Override
    public byte[] rowArray() {
      return array;
    }

    @Override
    public int rowOffset() {
      return starts[order[at]];
    }

    @Override
    public int rowLength() {
      return keyLengths[order[at]];
    }

    @Override
    public long sequenceId() {
      return sequenceId;
    }

    @Override
    public boolean isDelete() {
      return false;
    }

    @Override
    public ByteBuffer valueBuffer() {
      return values;
    }

    @Override
    public int valueOffset() {
      int e = order[at];
      return starts[e] + keyLengths[e];
    }

    @Override
    public int valueLength() {
      int e = order[at];
      return ends[e] - starts[e] - keyLengths[e];
    }

    @Override
    public void close() {}
  }

  /** A cursor of its own over every sorted entry (after {@link #sort}). */
  CellCursor cursor() {
    return new Slice(0, count);
  }
}
