package io.cairn.store.index;

/**
 * A build's entries of one piece of a region, each put in its bucket of key ranges ({@link
 * EntryCuts}) as it is computed: the entry is made in a small staging area, which stays in the CPU
 * caches, and copied from there to the end of its bucket. The buckets of all pieces then make the
 * region's {@link EntryBuckets} without another pass over the entries. Not thread-safe.
 */
final class BucketedEntries {
  private final EntryCuts cuts;
  private final SortedEntries[] buckets;
  private final SortedEntries staging = new SortedEntries(1, 256);
  private final int bucketEntries;
  private final int bucketBytes;
  private int count;
  private long bytes;

  /**
   * Empty buckets for {@code cuts}, each made for about {@code bucketEntries} entries of {@code
   * bucketBytes} bytes in all (they grow past that).
   */
  BucketedEntries(EntryCuts cuts, int bucketEntries, int bucketBytes) {
    this.cuts = cuts;
    this.buckets = new SortedEntries[cuts.buckets()];
    this.bucketEntries = Math.max(16, bucketEntries);
    this.bucketBytes = Math.max(256, bucketBytes);
  }

  /** Where the next entry is made ({@link IndexMaintainer#appendEntry}); then {@link #route}. */
  SortedEntries staging() {
    return staging;
  }

  /** Moves the entry just made in {@link #staging} to its bucket. */
  void route() {
    SortedEntries s = staging;
    byte[] a = s.bytes.array();
    int b = cuts.bucketOf(a, s.starts[0], s.keyLengths[0]);
    SortedEntries bucket = buckets[b];
    if (bucket == null) {
      bucket = new SortedEntries(bucketEntries, bucketBytes);
      buckets[b] = bucket;
    }
    bucket.copy(s, 0);
    count++;
    bytes += s.bytes.length();
    s.reset();
  }

  /** Entries held. */
  int count() {
    return count;
  }

  /** Bytes of entries held. */
  long bytes() {
    return bytes;
  }

  /** Bucket {@code i}, or null when it got no entry. */
  SortedEntries bucket(int i) {
    return buckets[i];
  }

  /** Buckets, empty or not. */
  int buckets() {
    return buckets.length;
  }

  /** The bytes every key starts with (an index's prefix). */
  int skip() {
    return cuts.skip;
  }
}
