package io.cairn.store.coprocessor;

/**
 * The trial of a probe's key filter: over its first {@value #ROWS} rows it counts those it kept,
 * and when it kept more than 7 in 8 it is judged not worth its cost (a build side holding most
 * keys: nearly every row passes, the test only costs). One per scan and filter.
 */
final class KeyFilterTrial {
  /** Rows a key filter tests before it is judged. */
  static final int ROWS = 1 << 14;

  private long tested;
  private long kept;

  /**
   * Counts {@code tested} rows of which the filter kept {@code kept}; true once, when the trial
   * ends with the filter judged useless (then drop it).
   */
  boolean dropAfter(long tested, long kept) {
    if (this.tested >= ROWS) {
      return false;
    }
    this.tested += tested;
    this.kept += kept;
    return this.tested >= ROWS && this.kept > this.tested / 8 * 7;
  }
}
