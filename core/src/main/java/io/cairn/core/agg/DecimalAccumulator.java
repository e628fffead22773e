package io.cairn.core.agg;

/**
 * An accumulator that also takes a DECIMAL argument as its unscaled value and scale, so that a scan
 * can sum DECIMAL columns read from row bytes without making a {@code BigDecimal} per row. {@code
 * addUnscaled(u, s)} is exactly {@code add} of a row whose argument is {@code BigDecimal.valueOf(u,
 * s)}: the same value, and the same scale in the result.
 */
public interface DecimalAccumulator extends Accumulator {
  void addUnscaled(long unscaled, int scale);
}
