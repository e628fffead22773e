package io.cairn.store.coprocessor;

/**
 * The N least prefixes a top-N saw in blocks' vectors (unsigned order), as a max-heap: once it
 * holds N, its greatest is a prefix that N rows are not above, the bound past which a row is not in
 * the top ({@link ProgramSort}).
 */
final class LeastPrefixes {
  private final long[] heap;
  private int count;

  LeastPrefixes(int n) {
    heap = new long[n];
  }

  /**
   * Counts {@code prefix} (not above {@code bound}) among the least prefixes seen in vectors;
   * returns the bound tightened to the greatest of them once there are N.
   */
  long add(long prefix, long bound) {
    long[] least = heap;
    int n = count;
    if (n < least.length) {
      // sift up into the max-heap
      int at = n;
      while (at > 0) {
        int parent = (at - 1) >>> 1;
        if (Long.compareUnsigned(least[parent], prefix) >= 0) {
          break;
        }
        least[at] = least[parent];
        at = parent;
      }
      least[at] = prefix;
      count = ++n;
      return n == least.length && Long.compareUnsigned(least[0], bound) < 0 ? least[0] : bound;
    }
    if (Long.compareUnsigned(prefix, least[0]) >= 0) {
      return bound;
    }
    // replace the greatest and sift down
    int at = 0;
    while (true) {
      int child = 2 * at + 1;
      if (child >= n) {
        break;
      }
      if (child + 1 < n && Long.compareUnsigned(least[child + 1], least[child]) > 0) {
        child++;
      }
      if (Long.compareUnsigned(least[child], prefix) <= 0) {
        break;
      }
      least[at] = least[child];
      at = child;
    }
    least[at] = prefix;
    return Long.compareUnsigned(least[0], bound) < 0 ? least[0] : bound;
  }
}
