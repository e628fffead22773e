package io.cairn.jdbc.internal.exec;

import static java.util.Objects.requireNonNull;

import io.cairn.core.agg.AggregationMemory;
import io.cairn.core.expr.EvalContext;
import io.cairn.jdbc.internal.engine.ExecutionControl;
import io.cairn.kv.KvStore;

/**
 * What operators of one statement execution share; {@code aggregateMaxBytes} bounds the memory of
 * each of its grouped aggregations (the connection property {@code aggregateMaxBytes}).
 */
public record ExecContext(
    KvStore store, EvalContext eval, ExecutionControl control, long aggregateMaxBytes) {
  public ExecContext {
    requireNonNull(store, "store is null");
    requireNonNull(eval, "eval is null");
    requireNonNull(control, "control is null");
    if (aggregateMaxBytes <= 0) {
      throw new IllegalArgumentException(
          "aggregateMaxBytes must be positive: [" + aggregateMaxBytes + "]");
    }
  }

  /** A context whose grouped aggregations may use {@link AggregationMemory#DEFAULT_MAX_BYTES}. */
  public ExecContext(KvStore store, EvalContext eval, ExecutionControl control) {
    this(store, eval, control, AggregationMemory.DEFAULT_MAX_BYTES);
  }
}
