package io.cairn.core.agg;

/**
 * An accumulator that also takes a DOUBLE argument as a primitive double: SUM and SUM0 with a
 * floating result, AVG. {@code addDouble(d)} is exactly {@code add} of a row holding {@code d}
 * boxed, so that a scan summing a DOUBLE column read from row bytes allocates nothing per row.
 */
public interface DoubleAccumulator extends Accumulator {
  void addDouble(double value);
}
