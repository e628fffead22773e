package io.cairn.core.agg;

import io.cairn.core.error.CairnException;

/**
 * The running state of one aggregate call over one group. Not thread-safe: one per group and
 * thread. A partial/final split merges states of the same call: {@link #merge} folds another
 * accumulator (created by {@link Aggregates#create} for an equal call) into this one; across
 * processes, {@link #writePartial} turns the state of a call that {@link Aggregates#isSplittable}
 * into plain values and {@link #mergePartial} folds such values in.
 */
public interface Accumulator {
  /** Adds one input row (the call's argument indexes select the values). */
  void add(Object[] row);

  /** The aggregate's value so far, as a Java value of the call's result type; null for NULL. */
  Object result();

  /** Folds {@code other}'s state into this one; {@code other} must not be used afterwards. */
  void merge(Accumulator other);

  /**
   * Writes this state as plain values (Long, BigDecimal, Double, the argument's values, or null),
   * one per entry of {@link Aggregates#partialTypes}, into {@code out} from {@code at}. Only calls
   * that {@link Aggregates#isSplittable} have a partial state.
   */
  default void writePartial(Object[] out, int at) {
    throw CairnException.internal(getClass().getSimpleName() + " has no partial state");
  }

  /**
   * Folds a state written by {@link #writePartial} of an equal call (perhaps in another process)
   * from {@code partial[at..]} into this one; the result is as if this accumulator had seen that
   * state's rows after its own.
   */
  default void mergePartial(Object[] partial, int at) {
    throw CairnException.internal(getClass().getSimpleName() + " has no partial state");
  }
}
