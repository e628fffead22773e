package io.cairn.core.agg;

/**
 * An accumulator that also takes a DECIMAL argument as its unscaled value and scale, so that a scan
 * can sum DECIMAL columns read from row bytes without making a {@code BigDecimal} per row. {@code
 * addUnscaled(u, s)} is exactly {@code add} of a row whose argument is {@code BigDecimal.valueOf(u,
 * s)}: the same value, and the same scale in the result.
 */
public interface DecimalAccumulator extends Accumulator {
  void addUnscaled(long unscaled, int scale);

  /**
   * Adds {@code count} (at least 1) rows whose arguments, as unscaled values at {@code scale}, sum
   * exactly to {@code sum}: the same as {@link #addUnscaled} of each of them (an exact sum does not
   * depend on the order of its terms; AVG counts {@code count} rows).
   */
  void addUnscaledSum(long sum, int scale, long count);
}
