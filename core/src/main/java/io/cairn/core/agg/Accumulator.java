package io.cairn.core.agg;

/**
 * The running state of one aggregate call over one group. Not thread-safe: one per group and
 * thread. A partial/final split merges states of the same call: {@link #merge} folds another
 * accumulator (created by {@link Aggregates#create} for an equal call) into this one.
 */
public interface Accumulator {
  /** Adds one input row (the call's argument indexes select the values). */
  void add(Object[] row);

  /** The aggregate's value so far, as a Java value of the call's result type; null for NULL. */
  Object result();

  /** Folds {@code other}'s state into this one; {@code other} must not be used afterwards. */
  void merge(Accumulator other);
}
