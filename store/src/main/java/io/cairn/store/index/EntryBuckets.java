package io.cairn.store.index;

import io.cairn.core.bytes.Bytes;
import io.cairn.store.cell.CellCursor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Many entries ({@link SortedEntries}, not sorted: a build's pieces of a region) cut into buckets
 * of key ranges, in key order, each sorted when a cursor reaches it; contiguous ranges of buckets
 * ({@link #range}) can be read by different threads. Sorting millions of entries at once and
 * reading them in key order would read them from all over memory, a cache and TLB miss per entry; a
 * bucket sorts and is read within the CPU caches.
 */
final class EntryBuckets {
  /** Each bucket as the pieces the partitioning tasks made of it. */
  private final List<List<SortedEntries>> buckets;

  private final long sequenceId;

  private EntryBuckets(List<List<SortedEntries>> buckets, long sequenceId) {
    this.buckets = buckets;
    this.sequenceId = sequenceId;
  }

  int size() {
    return buckets.size();
  }

  /** The sequence id of the entries as cells. */
  long sequenceId() {
    return sequenceId;
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
   * A cursor over the entries of buckets {@code [from, to)} in key order, sorting each bucket as it
   * reaches it and dropping it after; only {@code seek(Bytes.EMPTY)} (to the first) and {@code
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
        if (pieces.size() > 1) {
          // the partitioning tasks' pieces of the bucket, copied once into arrays of their size
          int entries = 0;
          long bytes = 0;
          for (SortedEntries piece : pieces) {
            entries += piece.count;
            bytes += piece.bytes.length();
          }
          bucket = new SortedEntries(Math.max(1, entries), (int) Math.max(1, bytes));
          for (SortedEntries piece : pieces) {
            bucket.addAll(piece);
          }
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

  /**
   * The buckets of pieces of a region cut at the same {@link EntryCuts}: bucket {@code i} is every
   * piece's bucket {@code i}; empty ones are left out.
   */
  static EntryBuckets of(List<BucketedEntries> pieces, long sequenceId) {
    List<List<SortedEntries>> buckets = new ArrayList<>();
    int n = pieces.isEmpty() ? 0 : pieces.get(0).buckets();
    for (int b = 0; b < n; b++) {
      List<SortedEntries> of = new ArrayList<>(pieces.size());
      for (BucketedEntries piece : pieces) {
        SortedEntries bucket = piece.bucket(b);
        if (bucket != null && bucket.count > 0) {
          of.add(bucket);
        }
      }
      if (!of.isEmpty()) {
        buckets.add(of);
      }
    }
    return new EntryBuckets(buckets, sequenceId);
  }

  /**
   * Sorts the entries of {@code parts} (not sorted; keys distinct and all starting with the same
   * {@code skip} bytes) into buckets, in key order: every key of a bucket is below every key of the
   * next. The entries are first copied, part after part in one sequential pass each, into about
   * {@code total / }{@value SortedEntries#BUCKET_ENTRIES} buckets cut at a sample of the 8 bytes
   * after the prefix all keys share; each bucket is then sorted on its own when {@link #range}
   * reaches it, within the CPU caches. Sorting the whole at once instead would read the entries in
   * key order from all over memory: a cache and TLB miss per entry. The parts are left empty.
   */
  static EntryBuckets sortInBuckets(
      List<SortedEntries> parts, int skip, long sequenceId, ExecutorService pool, int threads) {
    long total = 0;
    int common = Integer.MAX_VALUE;
    byte[] first = null;
    int firstStart = 0;
    int firstLength = 0;
    List<Future<Integer>> commons = new ArrayList<>();
    for (SortedEntries part : parts) {
      part.array = part.bytes.array();
      if (pool != null && part.count > 0) {
        commons.add(pool.submit(() -> part.commonPrefix(skip))); // a pass over every key
      }
    }
    for (Future<Integer> f : commons) {
      common = Math.min(common, IndexBuilder.get(f, commons));
    }
    for (SortedEntries part : parts) {
      if (part.count == 0) {
        continue;
      }
      total += part.count;
      if (pool == null) {
        common = Math.min(common, part.commonPrefix(skip));
      }
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
      return new EntryBuckets(List.of(), sequenceId);
    }
    common = Math.max(skip, common);
    int wanted = (int) Math.min(1 << 16, Math.max(1, total / SortedEntries.BUCKET_ENTRIES));
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
    int entriesGuess =
        (int) Math.max(16, Math.min(SortedEntries.BUCKET_ENTRIES * 2L, total / bucketCount + 1));
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
    return new EntryBuckets(buckets, sequenceId);
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
        buckets.get(lo).copy(part, e);
      }
      part.clear();
    }
    return buckets;
  }
}
