package io.cairn.core.agg;

/**
 * An accumulator that also takes its argument as a primitive long: COUNT of at most one argument,
 * SUM and SUM0 with an integer or interval result, AVG (of integer values). A scan that reads such
 * a column without boxing accumulates without allocating; {@link Aggregates#create} returns one for
 * these calls unless DISTINCT (check with {@code instanceof}).
 */
public interface LongAccumulator extends Accumulator {
  /**
   * Adds one row whose argument is the non-null {@code value}: the same as {@link #add} of a row
   * holding it boxed (COUNT(*) counts the row).
   */
  void addLong(long value);
}
