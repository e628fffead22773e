package io.cairn.core.agg;

import java.math.BigDecimal;

/**
 * The part of a sum of DECIMALs handed over as unscaled longs that fits one long at one scale (the
 * first value's): SUM and AVG add there without a BigDecimal per row, and add a value of another
 * scale, or one that would overflow the long, exactly themselves. Not thread-safe.
 */
final class UnscaledSum {
  private long sum;
  private int scale;
  private boolean any;

  /**
   * Adds {@code unscaled} at {@code scale} when it goes into the long; false when it does not (the
   * caller adds it exactly).
   */
  boolean add(long unscaled, int scale) {
    if (!any) {
      any = true;
      this.scale = scale;
      sum = unscaled;
      return true;
    }
    if (scale != this.scale) {
      return false;
    }
    long r = sum + unscaled;
    // overflow only when both operands have the sign the result lacks
    if (((sum ^ r) & (unscaled ^ r)) < 0) {
      return false;
    }
    sum = r;
    return true;
  }

  /** The sum of what went in, or null when nothing did. */
  BigDecimal value() {
    return any ? BigDecimal.valueOf(sum, scale) : null;
  }
}
