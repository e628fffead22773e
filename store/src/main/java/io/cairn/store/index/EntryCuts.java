package io.cairn.store.index;

import java.util.Arrays;

/**
 * Where a build cuts a region's index entries into buckets of key ranges, fixed from a sample of
 * the entries before the region is read, so that each entry goes to its bucket as it is computed
 * ({@link BucketedEntries}) rather than in a pass over all of them afterwards. A bucket holds the
 * keys between two cuts; the cuts compare the 8 bytes after what the sampled keys share ({@code
 * common}), and a key that does not share those bytes goes to the first or the last bucket, by
 * which side of them it falls. A sample that misjudges the keys makes some buckets bigger (slower
 * to sort), never the order wrong.
 */
final class EntryCuts {
  /** Bytes every key shares (an index's prefix). */
  final int skip;

  /** Bytes the sampled keys share, at least {@code skip}. */
  final int common;

  /** The sampled keys' bytes {@code [skip, common)}. */
  private final byte[] shared;

  /** The cuts' digits, ascending, each flipped so that signed order is unsigned order. */
  private final long[] cuts;

  private EntryCuts(int skip, int common, byte[] shared, long[] cuts) {
    this.skip = skip;
    this.common = common;
    this.shared = shared;
    this.cuts = cuts;
  }

  /** Buckets the cuts make. */
  int buckets() {
    return cuts.length + 1;
  }

  /**
   * Cuts into about {@code wanted} buckets of equal shares of {@code sample} (entries whose keys
   * all start with the same {@code skip} bytes; none: one bucket).
   */
  static EntryCuts of(SortedEntries sample, int skip, int wanted) {
    if (sample.count == 0 || wanted <= 1) {
      return new EntryCuts(skip, skip, new byte[0], new long[0]);
    }
    sample.array = sample.bytes.array();
    int common = sample.commonPrefix(skip);
    byte[] shared =
        Arrays.copyOfRange(sample.array, sample.starts[0] + skip, sample.starts[0] + common);
    long[] digits = new long[sample.count];
    for (int e = 0; e < sample.count; e++) {
      int start = sample.starts[e];
      digits[e] = sample.eightBytes(start + common, start + sample.keyLengths[e]) ^ Long.MIN_VALUE;
    }
    Arrays.sort(digits);
    int n = Math.min(wanted, digits.length);
    long[] cuts = new long[n - 1];
    int count = 0;
    for (int i = 1; i < n; i++) {
      long cut = digits[(int) ((long) i * digits.length / n)];
      if (count == 0 || cut > cuts[count - 1]) {
        cuts[count++] = cut;
      }
    }
    return new EntryCuts(skip, common, shared, Arrays.copyOf(cuts, count));
  }

  /** The bucket of the key {@code a[start, start + length)}. */
  int bucketOf(byte[] a, int start, int length) {
    if (common > skip) {
      int end = start + Math.min(length, common);
      int m = Arrays.mismatch(a, start + skip, end, shared, 0, shared.length);
      if (m >= 0) {
        // differs within the shared bytes, or is shorter: below or above every sampled key
        boolean below =
            m == end - start - skip || (a[start + skip + m] & 0xFF) < (shared[m] & 0xFF);
        return below ? 0 : cuts.length;
      }
    }
    long digit = eightBytes(a, start + common, start + length) ^ Long.MIN_VALUE;
    // how many cuts are <= the digit (equal digits share a bucket)
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
    return lo;
  }

  /** The 8 bytes of {@code a[from, end)} big-endian, zero-padded. */
  static long eightBytes(byte[] a, int from, int end) {
    if (end - from >= 8) {
      return (long) SortedEntries.BIG_ENDIAN_LONG.get(a, from);
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      int p = from + i;
      v = (v << 8) | (p < end ? a[p] & 0xFF : 0);
    }
    return v;
  }
}
