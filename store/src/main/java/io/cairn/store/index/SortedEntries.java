package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
import io.cairn.core.encoding.ByteBuilder;
import io.cairn.store.cell.CellCursor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Index entries computed from rows, held in one growing array (no object per entry, so a build's
 * millions of entries cost the garbage collector nothing), then sorted by key: a cell cursor of
 * puts at one sequence id that the table's file writer reads like a memstore's. Keys are distinct
 * (an entry key ends with its row key). Many entries (a build's pieces of a region) are sorted in
 * buckets of key ranges ({@link #sortInBuckets}) so that the sort and the writer's reads in key
 * order stay within the CPU caches. Not thread-safe.
 */
final class SortedEntries {
  /** Entries a bucket of {@link #sortInBuckets} holds about: its arrays stay in the CPU caches. */
  static final int BUCKET_ENTRIES = 16_384;

  /** Each entry's key then value, back to back. */
  private ByteBuilder bytes;

  private int[] starts;
  private int[] keyLengths;
  private int[] ends;
  private int count;

  SortedEntries() {
    this(1024, 1 << 16);
  }

  private SortedEntries(int entries, int bytes) {
    this.bytes = new ByteBuilder(bytes);
    this.starts = new int[entries];
    this.keyLengths = new int[entries];
    this.ends = new int[entries];
  }

  private int[] order;
  private byte[] array;
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

  /**
   * Sorts the entries of {@code parts} (not sorted; keys distinct and all starting with the same
   * {@code skip} bytes) into buckets, in key order: every key of a bucket is below every key of the
   * next. The entries are first copied, part after part in one sequential pass each, into about
   * {@code total / }{@value #BUCKET_ENTRIES} buckets cut at a sample of the 8 bytes after the
   * prefix all keys share; each bucket is then sorted on its own when {@link Buckets#cursor}
   * reaches it, within the CPU caches. Sorting the whole at once instead would read the entries in
   * key order from all over memory: a cache and TLB miss per entry. The parts are left empty.
   */
  static Buckets sortInBuckets(
      List<SortedEntries> parts, int skip, long sequenceId, ExecutorService pool, int threads) {
    long total = 0;
    int common = Integer.MAX_VALUE;
    byte[] first = null;
    int firstStart = 0;
    int firstLength = 0;
    for (SortedEntries part : parts) {
      if (part.count == 0) {
        continue;
      }
      total += part.count;
      part.array = part.bytes.array();
      common = Math.min(common, part.commonPrefix(skip));
      if (first == null) {
        first = part.array;
        firstStart = part.starts[0];
        firstLength = part.keyLengths[0];
      } else {
        int m =
            Arrays.mismatch(
                first,
                firstStart + skip,
                firstStart + firstLength,
                part.array,
                part.starts[0] + skip,
                part.starts[0] + part.keyLengths[0]);
        common = Math.min(common, m < 0 ? Math.min(firstLength, part.keyLengths[0]) : skip + m);
      }
    }
    if (total == 0) {
      return new Buckets(List.of(), sequenceId);
    }
    common = Math.max(skip, common);
    int wanted = (int) Math.min(1 << 16, Math.max(1, total / BUCKET_ENTRIES));
    long[] sample = new long[(int) Math.min(total, Math.max(1L, 16L * wanted))];
    int n = 0;
    for (SortedEntries part : parts) {
      long stride = Math.max(1, total / sample.length);
      for (long i = stride / 2; i < part.count && n < sample.length; i += stride) {
        int e = (int) i;
        sample[n++] = part.eightBytes(part.starts[e] + common, part.starts[e] + part.keyLengths[e]);
      }
    }
    long[] sorted = Arrays.copyOf(sample, n);
    for (int i = 0; i < n; i++) {
      sorted[i] ^= Long.MIN_VALUE; // unsigned order as signed
    }
    Arrays.sort(sorted);
    long[] cuts = new long[wanted - 1];
    int cutCount = 0;
    for (int i = 1; i < wanted && n > 0; i++) {
      long cut = sorted[(int) ((long) i * n / wanted)];
      if (cutCount == 0 || cut > cuts[cutCount - 1]) {
        cuts[cutCount++] = cut;
      }
    }
    cuts = Arrays.copyOf(cuts, cutCount);
    int bucketCount = cutCount + 1;
    int entriesGuess = (int) Math.max(16, Math.min(BUCKET_ENTRIES * 2L, total / bucketCount + 1));
    long bytesGuess = 0;
    for (SortedEntries part : parts) {
      bytesGuess += part.bytes.length();
    }
    int bytesPerBucket = (int) Math.max(64, Math.min(1 << 20, bytesGuess / bucketCount + 1));
    int tasks = pool == null ? 1 : (int) Math.max(1, Math.min(threads, parts.size()));
    int perTask = (int) Math.max(16, entriesGuess / tasks);
    int bytesPerTask = Math.max(64, bytesPerBucket / tasks);
    long[] bounds = cuts;
    int c = common;
    List<List<SortedEntries>> byTask = new ArrayList<>();
    if (tasks == 1) {
      byTask.add(partition(parts, c, bounds, perTask, bytesPerTask));
    } else {
      List<Future<List<SortedEntries>>> futures = new ArrayList<>();
      for (int t = 0; t < tasks; t++) {
        List<SortedEntries> mine = new ArrayList<>();
        for (int i = t; i < parts.size(); i += tasks) {
          mine.add(parts.get(i));
        }
        futures.add(pool.submit(() -> partition(mine, c, bounds, perTask, bytesPerTask)));
      }
      for (Future<List<SortedEntries>> f : futures) {
        byTask.add(IndexBuilder.get(f, futures));
      }
    }
    List<List<SortedEntries>> buckets = new ArrayList<>(bucketCount);
    for (int b = 0; b < bucketCount; b++) {
      List<SortedEntries> pieces = new ArrayList<>(tasks);
      for (List<SortedEntries> t : byTask) {
        if (t.get(b).count > 0) {
          pieces.add(t.get(b));
        }
      }
      if (!pieces.isEmpty()) {
        buckets.add(pieces);
      }
    }
    return new Buckets(buckets, sequenceId);
  }

  /**
   * Copies the entries of {@code parts} into {@code cuts.length + 1} buckets by the 8 bytes after
   * {@code common}, part after part, and empties the parts.
   */
  private static List<SortedEntries> partition(
      List<SortedEntries> parts, int common, long[] cuts, int entries, int bytes) {
    List<SortedEntries> buckets = new ArrayList<>(cuts.length + 1);
    for (int b = 0; b <= cuts.length; b++) {
      buckets.add(new SortedEntries(entries, bytes));
    }
    for (SortedEntries part : parts) {
      byte[] a = part.array;
      for (int e = 0; e < part.count; e++) {
        int start = part.starts[e];
        long digit = part.eightBytes(start + common, start + part.keyLengths[e]) ^ Long.MIN_VALUE;
        // the bucket: how many cuts are <= the digit (equal digits share a bucket)
        int lo = 0;
        int hi = cuts.length;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (cuts[mid] <= digit) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        SortedEntries bucket = buckets.get(lo);
        bucket.beginEntry();
        bucket.bytes.write(a, start, part.ends[e] - start);
        bucket.keyLengths[bucket.count] = part.keyLengths[e];
        bucket.endEntry();
      }
      part.clear();
    }
    return buckets;
  }

  /** Appends (copies) every entry of {@code other}, not sorted. */
  private void addAll(SortedEntries other) {
    byte[] a = other.bytes.array();
    for (int e = 0; e < other.count; e++) {
      beginEntry();
      bytes.write(a, other.starts[e], other.ends[e] - other.starts[e]);
      keyLengths[count] = other.keyLengths[e];
      endEntry();
    }
  }

  /** Forgets every entry and its memory. */
  private void clear() {
    count = 0;
    starts = keyLengths = ends = new int[0];
    bytes = new ByteBuilder(0);
    array = null;
    order = null;
  }

  /**
   * The buckets of {@link #sortInBuckets}, in key order, each sorted when a cursor reaches it;
   * contiguous ranges of them ({@link #range}) can be read by different threads.
   */
  static final class Buckets {
    /** Each bucket as the pieces the partitioning tasks made of it. */
    private final List<List<SortedEntries>> buckets;

    private final long sequenceId;

    private Buckets(List<List<SortedEntries>> buckets, long sequenceId) {
      this.buckets = buckets;
      this.sequenceId = sequenceId;
    }

    int size() {
      return buckets.size();
    }

    /** Entries of bucket {@code i}. */
    int count(int i) {
      int n = 0;
      for (SortedEntries piece : buckets.get(i)) {
        n += piece.count;
      }
      return n;
    }

    /**
     * A cursor over the entries of buckets {@code [from, to)} in key order, sorting each bucket as
     * it reaches it and dropping it after; only {@code seek(Bytes.EMPTY)} (to the first) and {@code
     * advance}.
     */
    CellCursor range(int from, int to) {
      return new RangeCursor(from, to);
    }

    private final class RangeCursor implements CellCursor {
      private final int to;
      private int next;
      private CellCursor current;

      RangeCursor(int from, int to) {
        this.next = from;
        this.to = to;
      }

      @Override
      public boolean seek(Bytes row) {
        if (!row.isEmpty() || current != null) {
          throw new IllegalStateException("Only a seek to the first entry, once");
        }
        return nextBucket();
      }

      private boolean nextBucket() {
        while (next < to) {
          List<SortedEntries> pieces = buckets.get(next);
          buckets.set(next, null);
          next++;
          SortedEntries bucket = pieces.get(0);
          for (int i = 1; i < pieces.size(); i++) {
            bucket.addAll(pieces.get(i));
          }
          if (bucket.count > 0) {
            current = bucket.sort(0, sequenceId).cursor();
            return current.seek(Bytes.EMPTY);
          }
        }
        current = null;
        return false;
      }

      @Override
      public boolean advance() {
        return current != null && (current.advance() || nextBucket());
      }

      @Override
      public byte[] rowArray() {
        return current.rowArray();
      }

      @Override
      public int rowOffset() {
        return current.rowOffset();
      }

      @Override
      public int rowLength() {
        return current.rowLength();
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
      public void close() {}
    }
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
  private int commonPrefix(int skip) {
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
  private long eightBytes(int from, int end) {
    byte[] a = bytes.array();
    long v = 0;
    for (int i = 0; i < 8; i++) {
      int p = from + i;
      v = (v << 8) | (p < end ? a[p] & 0xFF : 0);
    }
    return v;
  }

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

  /**
   * A cursor of its own over the sorted entries with keys in {@code [from, to)} (null: from the
   * first, to the last), sharing this one's arrays: several threads may each read a slice.
   */
  CellCursor slice(Bytes from, Bytes to) {
    int lo = from == null ? 0 : positionOf(from.peekArray(), 0, count);
    int hi = to == null ? count : positionOf(to.peekArray(), lo, count);
    return new Slice(lo, hi);
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

  /** A cursor over every sorted entry (see {@link #slice}). */
  CellCursor cursor() {
    return slice(null, null);
  }
}
